package ka

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// Decide validates a Ka action and returns its events; the engine then asks Close whether they
// end the pass.
func (sys System) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	a := cmd.GetKa()
	if a == nil {
		return nil, engine.Invalid("", "Ka does not know this command")
	}
	s := kaState(st)
	var evs []*encounterv1.Event
	var err error
	if r := a.GetReact(); r != nil {
		evs, err = sys.decideReact(st, a.GetCombatantId(), r, env)
	} else if t := a.GetTerror(); t != nil {
		if !engine.IsGameMaster(st, env.Actor) {
			return nil, engine.Forbidden("only the Maître de Ka calls for a Terror draw")
		}
		f, ferr := fighterOf(st, a.GetCombatantId())
		if ferr != nil {
			return nil, ferr
		}
		evs = sys.terror(st, f, t, env.Dice)
	} else {
		if err := engine.MayCommand(st, env.Actor, a.GetCombatantId()); err != nil {
			return nil, err
		}
		f, ferr := fighterOf(st, a.GetCombatantId())
		if ferr != nil {
			return nil, ferr
		}
		if s.GetPending() != nil {
			d, _ := fighterOf(st, s.GetPending().GetDefenderId())
			return nil, engine.Because(engine.Refused("KA-020", "%s must first say whether it defends against the attack declared", d.name()),
				engine.ReasonReactionPending, nil)
		}
		if err := turn(st, f); err != nil {
			return nil, err
		}
		switch k := a.GetKind().(type) {
		case *kav1.Action_Attack:
			evs, err = sys.decideAttack(st, f, k.Attack, env)
		case *kav1.Action_Disarm:
			evs, err = sys.decideDisarm(st, f, k.Disarm, env)
		case *kav1.Action_PickUp:
			evs, err = decidePickUp(f, k.PickUp)
		case *kav1.Action_PassTurn:
			evs = one(&kav1.Event{Kind: &kav1.Event_Passed{Passed: &kav1.Passed{CombatantId: f.id()}}})
		default:
			return nil, engine.Invalid("", "the action of %s is empty", f.name())
		}
	}
	if err != nil {
		return nil, err
	}
	return evs, nil
}

// FollowUp answers the GM's removal of a combatant: when the removed one was the last target
// of a declared attack still to answer, the draws are made (KA-020); when it leaves no one
// able to act, the next pass or round starts (KA-015).
func (sys System) FollowUp(st *encounterv1.EncounterState, env engine.Env) ([]*encounterv1.Event, error) {
	var evs []*encounterv1.Event
	if p := kaState(st).GetPending(); p != nil && p.GetDefenderId() == "" {
		att, err := fighterOf(st, p.GetAttackerId())
		if err != nil {
			return nil, err
		}
		if evs, err = sys.drawStep(st, att, p.GetAttack(), p.GetActionsTaken(), true, p.GetAnswers(), env); err != nil {
			return nil, err
		}
	}
	return append(evs, nextPass(sys, st, evs)...), nil
}

// Close starts the next pass, or the next round, when the events of an action, folded into
// next, leave no one able to act (KA-015).
func (System) Close(next *encounterv1.EncounterState, _ engine.Env, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	ev := passOver(next)
	if ev == nil {
		return nil, nil
	}
	return []*encounterv1.Event{ev}, fold(ev)
}

func one(e *kav1.Event) []*encounterv1.Event { return []*encounterv1.Event{event(e)} }
