package loss

import (
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// Decide validates a Loss action and returns its events; the engine then asks Close whether
// they end the Tour.
func (sys System) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	a := cmd.GetLoss()
	if a == nil {
		return nil, engine.Invalid("", "Les Chants de Loss does not know this command")
	}
	return sys.decideAction(st, a, env)
}

func (sys System) decideAction(st *encounterv1.EncounterState, a *lossv1.Action, env engine.Env) ([]*encounterv1.Event, error) {
	gm := engine.IsGameMaster(st, env.Actor)
	switch k := a.GetKind().(type) {
	case *lossv1.Action_React:
		return sys.decideReact(st, a.GetCombatantId(), k.React, env)
	case *lossv1.Action_Dying:
		return decideDying(st, a.GetCombatantId(), k.Dying, env)
	case *lossv1.Action_Disaster:
		return decideDisaster(st, a.GetCombatantId(), k.Disaster, gm)
	case *lossv1.Action_StartPursuit:
		return sys.decideStartPursuit(st, k.StartPursuit, gm)
	case *lossv1.Action_GrantFreeRaises:
		return decideGrant(st, a.GetCombatantId(), k.GrantFreeRaises, gm)
	case *lossv1.Action_Declare:
		return decideDeclare(st, a.GetCombatantId(), k.Declare, env)
	case nil:
		name := a.GetCombatantId()
		if f, err := fighterOf(st, name); err == nil {
			name = f.name()
		}
		return nil, engine.Invalid("", "the action of %s is empty", name)
	}
	if err := engine.MayCommand(st, env.Actor, a.GetCombatantId()); err != nil {
		return nil, err
	}
	f, err := fighterOf(st, a.GetCombatantId())
	if err != nil {
		return nil, err
	}
	if sp := a.GetSimple(); sp != nil && sp.GetKind() == lossv1.SimpleKind_SIMPLE_KIND_SPEAK {
		return sys.decideSimple(st, f, sp) // speaking costs nothing and needs no turn (LOS-035)
	}
	if p := lossState(st).GetPending(); p != nil {
		d, _ := fighterOf(st, p.GetDefenderId())
		return nil, engine.Because(engine.Refused("LOS-009", "%s must first answer the attack (parry, dodge or take the blow)", d.name()),
			engine.ReasonReactionPending, nil)
	}
	if err := mayAct(st, f); err != nil {
		return nil, err
	}
	switch k := a.GetKind().(type) {
	case *lossv1.Action_Attack:
		return sys.decideAttack(st, f, k.Attack, env, false)
	case *lossv1.Action_PassTurn:
		return one(&lossv1.Event{Kind: &lossv1.Event_Passed{Passed: &lossv1.Passed{
			CombatantId: f.id(), ActionPointsLeft: f.cs.GetActionPoints(),
		}}}), nil
	case *lossv1.Action_Wait:
		return decideWait(st, f, k.Wait)
	case *lossv1.Action_Aim:
		return sys.decideAim(st, f, k.Aim)
	case *lossv1.Action_Simple:
		return sys.decideSimple(st, f, k.Simple)
	case *lossv1.Action_Pursuit:
		return sys.decidePursuit(st, f, k.Pursuit, env)
	default:
		return nil, engine.Unimplemented("this action is not part of Les Chants de Loss version %d", sys.Version())
	}
}

func one(e *lossv1.Event) []*encounterv1.Event { return []*encounterv1.Event{lossEvent(e)} }

// Close starts the next Tour when the events of an action, folded into next, leave no one
// able to act (LOS-033).
func (sys System) Close(next *encounterv1.EncounterState, env engine.Env, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	if !tourOver(next) {
		return nil, nil
	}
	ev := sys.startTour(next, env.Dice)
	return []*encounterv1.Event{ev}, fold(ev)
}

// FollowUp starts the next Tour when the GM's removal of a combatant (the last one still
// acting, or one side of the attack awaiting a reaction) leaves no one able to act (LOS-033).
func (sys System) FollowUp(st *encounterv1.EncounterState, env engine.Env) ([]*encounterv1.Event, error) {
	if !tourOver(st) {
		return nil, nil
	}
	return []*encounterv1.Event{sys.startTour(st, env.Dice)}, nil
}

// hindered refuses what a fallen or disarmed fighter may not do (LOS-072, LOS-074); an owed
// action at the same phase is not hindered (LOS-110). A fighter disarmed in this Tour cannot
// attack at all until the Tour ends, even once it has recovered; one disarmed in an earlier
// Tour and not yet recovered must recover first (pick up its weapon, 2 PA, or regain its
// balance, 4 PA).
func (sys System) hindered(st *encounterv1.EncounterState, f fighter, standingUp, recovering, attacking bool) error {
	if f.owed() {
		return nil
	}
	if f.cs.GetProne() && !standingUp {
		return engine.Refused("LOS-072", "%s is down and must stand up first (%d PA)", f.name(), sys.StandUpCost)
	}
	tour := lossState(st).GetTour()
	if f.cs.GetDisarmed() && f.cs.GetDisarmedTour() < tour && !recovering {
		return engine.Refused("LOS-074", "%s was disarmed: its first action this Tour is to recover (pick up its weapon, %d PA, or regain its balance, %d PA)",
			f.name(), sys.PickUpCost, sys.StandUpCost)
	}
	if attacking && f.cs.GetDisarmedTour() == tour && tour > 0 {
		return engine.Refused("LOS-074", "%s was disarmed this Tour and cannot attack at all until the next, even with its weapon back", f.name())
	}
	return nil
}

// cost applies the reduction of a wait to an action's cost (LOS-040, erratum).
func (sys System) cost(f fighter, base int32) int32 {
	d := f.cs.GetWaitDiscount()
	if d <= 0 || base <= sys.MinWaitedCost {
		return base
	}
	return max(sys.MinWaitedCost, base-d)
}

// needPA refuses an action that costs more PA than f has left; what names the action, its
// parts joined only then.
func needPA(f fighter, cost int32, what ...string) error {
	if f.cs.GetActionPoints() < cost { // LOS-111
		return engine.Because(engine.Refused("LOS-035", "%s has %d PA left; %s costs %d", f.name(), f.cs.GetActionPoints(), strings.Join(what, ""), cost),
			engine.ReasonNotEnoughActionPoints, map[string]int64{"needed": int64(cost), "available": int64(f.cs.GetActionPoints())})
	}
	return nil
}

// lossEvent is the common event of a Loss event. Its two parts, always made and kept
// together, are allocated together (as are the four of the events of an attack and its
// reaction, attackRolled and the like): a command's events are a good part of its allocations.
func lossEvent(e *lossv1.Event) *encounterv1.Event {
	b := &struct {
		ev encounterv1.Event
		w  encounterv1.Event_Loss
	}{}
	b.w.Loss = e
	b.ev.Payload = &b.w
	return &b.ev
}

// attackRolled is the event of an attack's Test.
func attackRolled(ar *lossv1.AttackRolled) *encounterv1.Event {
	b := &struct {
		ev encounterv1.Event
		w  encounterv1.Event_Loss
		e  lossv1.Event
		k  lossv1.Event_AttackRolled
	}{}
	b.k.AttackRolled = ar
	b.e.Kind, b.w.Loss, b.ev.Payload = &b.k, &b.e, &b.w
	return &b.ev
}

// defenceRolled is the event of a parry or dodge.
func defenceRolled(dr *lossv1.DefenceRolled) *encounterv1.Event {
	b := &struct {
		ev encounterv1.Event
		w  encounterv1.Event_Loss
		e  lossv1.Event
		k  lossv1.Event_DefenceRolled
	}{}
	b.k.DefenceRolled = dr
	b.e.Kind, b.w.Loss, b.ev.Payload = &b.k, &b.e, &b.w
	return &b.ev
}

// attackResolved is the event of a blow resolved.
func attackResolved(r *lossv1.AttackResolved) *encounterv1.Event {
	b := &struct {
		ev encounterv1.Event
		w  encounterv1.Event_Loss
		e  lossv1.Event
		k  lossv1.Event_AttackResolved
	}{}
	b.k.AttackResolved = r
	b.e.Kind, b.w.Loss, b.ev.Payload = &b.k, &b.e, &b.w
	return &b.ev
}
