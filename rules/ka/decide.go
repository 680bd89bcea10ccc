package ka

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// Decide validates a Ka command and returns its events; the engine then asks Close whether
// they end the pass. A defender's answer (KA-020) and the Maître de Ka's Terror draw (KA-034)
// come at any moment; every other action in the combatant's turn (decideAction).
func (sys System) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	a := cmd.GetKa()
	if a == nil {
		return nil, engine.Invalid("", "Ka does not know this command")
	}
	if r := a.GetReact(); r != nil {
		return sys.decideReact(st, a.GetCombatantId(), r, env)
	}
	if t := a.GetTerror(); t != nil {
		return sys.decideTerror(st, a.GetCombatantId(), t, env)
	}
	return sys.decideAction(st, a, env)
}

// decideAction: a combatant's action in its turn of the pass (KA-012, KA-014, KA-015), once
// no attack awaits an answer (KA-020).
func (sys System) decideAction(st *encounterv1.EncounterState, a *kav1.Action, env engine.Env) ([]*encounterv1.Event, error) {
	if err := engine.MayCommand(st, env.Actor, a.GetCombatantId()); err != nil {
		return nil, err
	}
	f, err := fighterOf(st, a.GetCombatantId())
	if err != nil {
		return nil, err
	}
	if p := kaState(st).GetPending(); p != nil {
		d, _ := fighterOf(st, p.GetDefenderId())
		return nil, engine.Because(engine.Refused("KA-020", "%s must first say whether it defends against the attack declared", d.name()),
			engine.ReasonReactionPending, nil)
	}
	if err := turn(st, f); err != nil {
		return nil, err
	}
	switch k := a.GetKind().(type) {
	case *kav1.Action_Attack:
		return sys.decideAttack(st, f, k.Attack, env)
	case *kav1.Action_Disarm:
		return sys.decideDisarm(st, f, k.Disarm, env)
	case *kav1.Action_PickUp:
		return decidePickUp(f, k.PickUp)
	case *kav1.Action_PassTurn:
		return one(&kav1.Event{Kind: &kav1.Event_Passed{Passed: &kav1.Passed{CombatantId: f.id()}}}), nil
	}
	return nil, engine.Invalid("", "the action of %s is empty", f.name())
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
