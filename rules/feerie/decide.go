package feerie

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// Decide validates a Contes de Fées action and returns its events; the engine then asks Close
// whether they close the declarations.
func (sys System) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	a := cmd.GetFeerie()
	if a == nil {
		return nil, engine.Invalid("", "Contes de Fées does not know this command")
	}
	s := feerieState(st)
	gm := engine.IsGameMaster(st, env.Actor)
	var evs []*encounterv1.Event
	var err error
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
		evs, err = decideImpersonal(st, k.Impersonal)
	case *feeriev1.Action_Ruling:
		if !gm {
			return nil, engine.Forbidden("only the GM rules on a tactic or gives a malus (FEE-036)")
		}
		evs, err = sys.decideRuling(st, a.GetCombatantId(), k.Ruling)
	case *feeriev1.Action_Unseen:
		if !gm {
			return nil, engine.Forbidden("only the GM rules that an attacker is unseen (FEE-081)")
		}
		evs, err = decideUnseen(st, a.GetCombatantId(), k.Unseen, env.Dice)
	case *feeriev1.Action_Helpless:
		if !gm {
			return nil, engine.Forbidden("only the GM rules that a combatant is helpless (FEE-022)")
		}
		evs, err = decideHelpless(st, a.GetCombatantId(), k.Helpless)
	case *feeriev1.Action_Surprise:
		if !gm {
			return nil, engine.Forbidden("only the GM rules on surprise")
		}
		if s.GetStep() != feeriev1.Step_STEP_DECLARING {
			return nil, engine.Refused("FEE-080", "surprise is set at step 1 of an Action")
		}
		f, err := fighterOf(st, a.GetCombatantId())
		if err != nil {
			return nil, err
		}
		if t := f.cs.GetDeclared().GetTactic(); t.GetInitiative() != 0 || t.GetAttack() != 0 || t.GetDefense() != 0 {
			return nil, engine.Refused("FEE-080", "%s has already declared a tactic: rule on its surprise before it declares", f.name())
		}
		if k.Surprise.GetActions() < 1 {
			return nil, engine.Invalid("FEE-082", "surprise lasts at least one Action")
		}
		evs = one(&feeriev1.Event{Kind: &feeriev1.Event_Surprised{Surprised: &feeriev1.Surprised{
			CombatantId: f.id(), Actions: k.Surprise.GetActions(), NoActivity: k.Surprise.GetNoActivity(),
		}}})
	case nil:
		return nil, engine.Invalid("", "empty action")
	default:
		if err := engine.MayCommand(st, env.Actor, a.GetCombatantId()); err != nil {
			return nil, err
		}
		f, ferr := fighterOf(st, a.GetCombatantId()) // not err: the refusals below must reach the check after the switch
		if ferr != nil {
			return nil, ferr
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
			evs, err = sys.decideDeclare(st, f, k.Declare)
		case *feeriev1.Action_Act:
			evs, err = sys.decideAct(st, f, k.Act)
		case *feeriev1.Action_Change:
			evs, err = sys.decideChange(st, f, k.Change)
		case *feeriev1.Action_Gesture:
			evs, err = decideGesture(st, f, k.Gesture)
		case *feeriev1.Action_BecomeObject:
			evs, err = decideBecomeObject(f, k.BecomeObject)
		case *feeriev1.Action_Renounce:
			if s.GetStep() != feeriev1.Step_STEP_COUNTDOWN {
				return nil, engine.Refused("FEE-075", "%s has nothing to renounce before the countdown", f.name())
			}
			evs = one(&feeriev1.Event{Kind: &feeriev1.Event_Renounced{Renounced: &feeriev1.Renounced{CombatantId: f.id()}}})
		default:
			return nil, engine.Unimplemented("this action is not part of Contes de Fées version %d", sys.version)
		}
	}
	if err != nil {
		return nil, err
	}
	return evs, nil
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
