package d20seg

import (
	"fmt"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

// Decide validates a d20seg command and returns its events; the engine then asks Close whether
// they end the round. The GM declares a surprise attack (D20-000); every other action comes in
// the combatant's turn (decideAction).
func (sys System) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	a := cmd.GetD20Seg()
	if a == nil {
		return nil, engine.Invalid("", "d20seg does not know this command")
	}
	if sp := a.GetSurprise(); sp != nil {
		if !engine.IsGameMaster(st, env.Actor) {
			return nil, &engine.RuleError{Code: engine.CodePermission, Rule: "D20-000",
				Msg: fmt.Sprintf("whether an attack is a surprise is the GM's decision (the GM is %s)", st.GetGameMaster())}
		}
		return sys.decideSurprise(st, sp, env.Dice)
	}
	return sys.decideAction(st, a, env)
}

// decideAction: a combatant's action when it acts next (D20-015): an attack, a spell, another
// action, or the end of its turn (D20-016).
func (sys System) decideAction(st *encounterv1.EncounterState, a *d20segv1.Action, env engine.Env) ([]*encounterv1.Event, error) {
	if err := engine.MayCommand(st, env.Actor, a.GetCombatantId()); err != nil {
		return nil, err
	}
	f, err := fighterOf(st, a.GetCombatantId())
	if err != nil {
		return nil, err
	}
	if err := sys.turn(st, f); err != nil {
		return nil, err
	}
	switch k := a.GetKind().(type) {
	case *d20segv1.Action_Attack:
		return sys.decideAttack(st, f, k.Attack, env.Dice)
	case *d20segv1.Action_Cast:
		return sys.decideCast(st, f, k.Cast)
	case *d20segv1.Action_Other:
		return sys.decideOther(st, f, k.Other, engine.IsGameMaster(st, env.Actor))
	case *d20segv1.Action_EndTurn:
		return one(&d20segv1.Event{Kind: &d20segv1.Event_TurnEnded{TurnEnded: &d20segv1.TurnEnded{CombatantId: f.id()}}}), nil
	}
	return nil, engine.Invalid("", "the action of %s is empty", f.name())
}

// FollowUp begins the next round when the GM removes the last combatant who could still act
// in this one (D20-016).
func (sys System) FollowUp(st *encounterv1.EncounterState, _ engine.Env) ([]*encounterv1.Event, error) {
	next := proto.CloneOf(st)
	return sys.nextRound(next, func(ev *encounterv1.Event) error { return sys.Evolve(next, ev) })
}

// Close begins the next round once the events of an action, folded into next, leave no one
// able to act (D20-016).
func (sys System) Close(next *encounterv1.EncounterState, _ engine.Env, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	return sys.nextRound(next, fold)
}

// nextRound begins the next round once no one can act in next (D20-016), with the spells cast
// for it (D20-019) and the segments that actions carried over take of it (D20-020), each round
// folded into next with fold. An action carries over into the next round only, so a second new
// round is needed at most when a carried action takes the whole of the next one.
func (sys System) nextRound(next *encounterv1.EncounterState, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	var out []*encounterv1.Event
	for range 3 {
		if _, ok := sys.upNext(next); ok || !anyoneStanding(next) {
			break
		}
		s := segState(next)
		rs := &d20segv1.RoundStarted{Round: s.GetRound() + 1, SpellsTakingEffect: s.GetDelayedSpells()}
		for _, f := range fighters(next) {
			if over := f.cs.GetNextSegment() - sys.last(f, s.GetRound()) - 1; over > 0 && !f.cs.GetDown() {
				rs.Carried = append(rs.Carried, &d20segv1.CarriedOver{CombatantId: f.id(), Segments: over})
			}
		}
		ev := event(&d20segv1.Event{Kind: &d20segv1.Event_RoundStarted{RoundStarted: rs}})
		if err := fold(ev); err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}

func anyoneStanding(st *encounterv1.EncounterState) bool {
	for _, f := range fighters(st) {
		if !f.cs.GetDown() {
			return true
		}
	}
	return false
}
