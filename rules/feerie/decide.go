package feerie

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// Decide validates a Contes de Fées command and returns its events; the engine then asks
// Close whether they close the declarations. The GM runs the countdown and rules
// (decideGameMaster); a combatant declares, acts, changes its intention… (decideActivity).
func (sys System) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	a := cmd.GetFeerie()
	if a == nil {
		return nil, engine.Invalid("", "Contes de Fées does not know this command")
	}
	switch a.GetKind().(type) {
	case *feeriev1.Action_Advance, *feeriev1.Action_Impersonal, *feeriev1.Action_Ruling, *feeriev1.Action_Unseen,
		*feeriev1.Action_Helpless, *feeriev1.Action_Surprise:
		return sys.decideGameMaster(st, a, env)
	case nil:
		return nil, engine.Invalid("", "empty action")
	}
	return sys.decideActivity(st, a, env)
}

// decideGameMaster: what only the GM does: run the countdown (FEE-041), make impersonal events
// happen (FEE-046), rule on a tactic (FEE-036), an unseen attacker (FEE-081), a helpless
// combatant (FEE-022) or a surprise (FEE-080).
func (sys System) decideGameMaster(st *encounterv1.EncounterState, a *feeriev1.Action, env engine.Env) ([]*encounterv1.Event, error) {
	gm := engine.IsGameMaster(st, env.Actor)
	switch k := a.GetKind().(type) {
	case *feeriev1.Action_Advance:
		if !gm {
			return nil, engine.Forbidden("only the GM runs the countdown")
		}
		return decideAdvance(sys, st, k.Advance, env)
	case *feeriev1.Action_Impersonal:
		if !gm {
			return nil, engine.Forbidden("only the GM makes impersonal events happen")
		}
		return decideImpersonal(st, k.Impersonal)
	case *feeriev1.Action_Ruling:
		if !gm {
			return nil, engine.Forbidden("only the GM rules on a tactic or gives a malus (FEE-036)")
		}
		return sys.decideRuling(st, a.GetCombatantId(), k.Ruling)
	case *feeriev1.Action_Unseen:
		if !gm {
			return nil, engine.Forbidden("only the GM rules that an attacker is unseen (FEE-081)")
		}
		return decideUnseen(st, a.GetCombatantId(), k.Unseen, env.Dice)
	case *feeriev1.Action_Helpless:
		if !gm {
			return nil, engine.Forbidden("only the GM rules that a combatant is helpless (FEE-022)")
		}
		return decideHelpless(st, a.GetCombatantId(), k.Helpless)
	case *feeriev1.Action_Surprise:
		if !gm {
			return nil, engine.Forbidden("only the GM rules on surprise")
		}
		return decideSurprise(st, a.GetCombatantId(), k.Surprise)
	}
	return nil, engine.Invalid("", "empty action")
}

// decideActivity: what a combatant's controller does for it, while it is no object (FEE-026),
// not helpless (FEE-022) and above 0 Essence (FEE-024): declare (FEE-033), act in the
// countdown, change its intention (FEE-070), a free gesture (FEE-047), become an object by a
// Power (FEE-026), renounce its activity (FEE-075).
func (sys System) decideActivity(st *encounterv1.EncounterState, a *feeriev1.Action, env engine.Env) ([]*encounterv1.Event, error) {
	if err := engine.MayCommand(st, env.Actor, a.GetCombatantId()); err != nil {
		return nil, err
	}
	f, err := fighterOf(st, a.GetCombatantId())
	if err != nil {
		return nil, err
	}
	if b := a.GetBecomeObject(); f.inanimate() && !(b.GetEnd() && f.cs.GetInanimate()) {
		return nil, engine.Refused("FEE-026", "%s is an inanimate object and renounces every activity", f.name())
	}
	if f.cs.GetHelpless() && f.cs.GetEssence() > 0 {
		return nil, engine.Refused("FEE-022", "%s is helpless (%s) and cannot act until the GM rules it is no longer", f.name(), helplessReason(f))
	}
	if !f.able() && !f.inanimate() {
		return nil, engine.Refused("FEE-024", "%s is at 0 Essence and cannot act", f.name())
	}
	switch k := a.GetKind().(type) {
	case *feeriev1.Action_Declare:
		return sys.decideDeclare(st, f, k.Declare)
	case *feeriev1.Action_Act:
		return sys.decideAct(st, f, k.Act)
	case *feeriev1.Action_Change:
		return sys.decideChange(st, f, k.Change)
	case *feeriev1.Action_Gesture:
		return decideGesture(st, f, k.Gesture)
	case *feeriev1.Action_BecomeObject:
		return decideBecomeObject(f, k.BecomeObject)
	case *feeriev1.Action_Renounce:
		if feerieState(st).GetStep() != feeriev1.Step_STEP_COUNTDOWN {
			return nil, engine.Refused("FEE-075", "%s has nothing to renounce before the countdown", f.name())
		}
		return one(&feeriev1.Event{Kind: &feeriev1.Event_Renounced{Renounced: &feeriev1.Renounced{CombatantId: f.id()}}}), nil
	}
	return nil, engine.Unimplemented("this action is not part of Contes de Fées version %d", sys.Version())
}

// Close rolls Initiative once the events of an action, folded into next, leave every able
// combatant declared (FEE-040 step 2).
func (sys System) Close(next *encounterv1.EncounterState, env engine.Env, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	if !declarationsDone(next) {
		return nil, nil
	}
	ev := sys.rollInitiative(next, env.Dice)
	return []*encounterv1.Event{ev}, fold(ev)
}

func one(e *feeriev1.Event) []*encounterv1.Event { return []*encounterv1.Event{event(e)} }
