package feerie

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

// decideRuling: the GM cancels or modifies a tactic, or gives a malus, when the player's
// description does not fit it (FEE-036). A modified tactic is still a tactic (FEE-030…FEE-032);
// its Initiative modifier moves the acting rank as a change of tactic would (FEE-071), with
// no penalty: the ruling is not the player's change of intention.
func (sys System) decideRuling(st *encounterv1.EncounterState, id string, r *feeriev1.Ruling) ([]*encounterv1.Event, error) {
	f, err := fighterOf(st, id)
	if err != nil {
		return nil, err
	}
	s := feerieState(st)
	if s.GetStep() == feeriev1.Step_STEP_COUNTDOWN && s.GetRank() < 1 {
		return nil, engine.Refused("FEE-036", "the Action of %s is over; rule on its tactic at the next one", f.name())
	}
	if r.GetMalus() < 0 {
		return nil, engine.Invalid("FEE-036", "the GM's malus to %s is a positive number, not %d", f.name(), r.GetMalus())
	}
	if r.GetCancelTactic() && r.GetTactic() != nil {
		return nil, engine.Invalid("FEE-036", "cancel %s's tactic or modify it, not both", f.name())
	}
	touches := r.GetCancelTactic() || r.GetTactic() != nil
	if !touches && r.GetMalus() == 0 {
		return nil, engine.Invalid("FEE-036", "a ruling cancels or modifies %s's tactic, or gives it a malus", f.name())
	}
	old := f.cs.GetTactic()
	if touches && old.GetInitiative() == 0 && old.GetAttack() == 0 && old.GetDefense() == 0 {
		return nil, engine.Refused("FEE-036", "%s has declared no tactic to cancel or modify", f.name())
	}
	var t *feeriev1.Tactic
	if r.GetTactic() != nil {
		in := proto.CloneOf(f.cs.GetDeclared())
		in.Tactic = proto.CloneOf(r.GetTactic())
		if err := CheckTactic(f.sh, in, f.name()); err != nil {
			return nil, err
		}
		t = in.GetTactic()
	}
	ev := &feeriev1.TacticRuled{CombatantId: f.id(), CancelTactic: r.GetCancelTactic(), Tactic: t, Malus: r.GetMalus(), Reason: r.GetReason(), ActingRank: f.cs.GetActingRank()}
	if s.GetStep() == feeriev1.Step_STEP_COUNTDOWN {
		ev.Rank = s.GetRank()
		if touches && t.GetInitiative() != old.GetInitiative() && f.cs.GetActivities() == 0 {
			in := &feeriev1.Intent{Tactic: t}
			ev.ActingRank = sys.newRank(f, in, s.GetRank())
		}
	}
	return one(&feeriev1.Event{Kind: &feeriev1.Event_TacticRuled{TacticRuled: ev}}), nil
}

// decideHelpless: the GM rules that a combatant is helpless — asleep, paralysed, unconscious
// — or that it is no longer; a helpless defender has Defense 0 against every attack (FEE-022)
// and cannot act (FEE-024). At 0 Essence it is helpless by the rules already.
func decideHelpless(st *encounterv1.EncounterState, id string, h *feeriev1.Helpless) ([]*encounterv1.Event, error) {
	f, err := fighterOf(st, id)
	if err != nil {
		return nil, err
	}
	if f.inanimate() {
		return nil, engine.Invalid("FEE-023", "%s is an inanimate object: it has no Defense to lose, nor activity", f.name())
	}
	switch {
	case h.GetClear() && !f.cs.GetHelpless():
		return nil, engine.Refused("FEE-022", "%s is not helpless by a ruling", f.name())
	case !h.GetClear() && f.cs.GetHelpless():
		return nil, engine.Refused("FEE-022", "%s is already helpless (%s)", f.name(), helplessReason(f))
	case !h.GetClear() && f.cs.GetEssence() <= 0:
		return nil, engine.Refused("FEE-022", "%s is at 0 Essence: helpless by the rules already", f.name())
	}
	return one(&feeriev1.Event{Kind: &feeriev1.Event_HelplessRuled{HelplessRuled: &feeriev1.HelplessRuled{
		CombatantId: f.id(), Helpless: !h.GetClear(), Reason: h.GetReason(),
	}}}), nil
}

func helplessReason(f fighter) string {
	if r := f.cs.GetHelplessReason(); r != "" {
		return r
	}
	return "the GM's ruling"
}

// decideBecomeObject: a Power gives the character the status of an inanimate object; it then
// takes damage as an object and renounces every activity (FEE-026).
func decideBecomeObject(f fighter, b *feeriev1.BecomeObject) ([]*encounterv1.Event, error) {
	if b.GetEnd() {
		if !f.cs.GetInanimate() {
			return nil, engine.Refused("FEE-026", "%s is not an inanimate object through a Power", f.name())
		}
		return one(&feeriev1.Event{Kind: &feeriev1.Event_BecameObject{BecameObject: &feeriev1.BecameObject{CombatantId: f.id(), Power: f.cs.GetInanimatePower(), End: true}}}), nil
	}
	if a := attribute(f.sh, b.GetPower()); a == nil || a.GetKind() != feeriev1.AttributeKind_ATTRIBUTE_KIND_POWER {
		return nil, engine.Invalid("FEE-026", "%s has no Power %q to become an inanimate object", f.name(), b.GetPower())
	}
	return one(&feeriev1.Event{Kind: &feeriev1.Event_BecameObject{BecameObject: &feeriev1.BecameObject{CombatantId: f.id(), Power: b.GetPower()}}}), nil
}

// checkObjectAndRelentless: a difficulty goes only with a small object (FEE-025); a Relentless
// strike needs a wound, the Essence loss the previous activity inflicted on that target
// (FEE-156, FEE-177).
func checkObjectAndRelentless(st *encounterv1.EncounterState, f fighter, a *feeriev1.Act) error {
	in := a.GetIntent()
	attack := in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK || in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	if d := a.GetCircumstances().GetSmallObjectDifficulty(); d != 0 {
		t, _ := fighterOf(st, in.GetTargetId())
		if !attack || !t.inanimate() {
			return engine.Invalid("FEE-025", "%s: only an attack on an inanimate object is made against a difficulty", f.name())
		}
		if d < 0 {
			return engine.Invalid("FEE-025", "%s: the difficulty of hitting %s cannot be negative", f.name(), t.name())
		}
	}
	if has(in.GetStrikes(), feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS) && (f.cs.GetLastLoss() <= 0 || f.cs.GetLastTarget() != in.GetTargetId()) {
		t, _ := fighterOf(st, in.GetTargetId())
		return engine.Refused("FEE-156", "%s's previous activity inflicted no Essence loss on %s: there is no wound to be relentless in", f.name(), t.name())
	}
	return nil
}

// spendable is the most Essence a combatant may spend on a roll (FEE-005): the option's cap,
// and never its last point.
func spendable(st *encounterv1.EncounterState, f fighter) int32 {
	most := f.cs.GetEssence() - 1
	if c := options(st).GetEssenceSpendCap(); c > 0 {
		most = min(most, c)
	}
	return max(most, 0)
}
