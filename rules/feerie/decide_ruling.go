package feerie

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/dice"
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

// decideSurprise: the GM rules, at step 1 and before it declares a tactic, that a combatant is
// surprised, for one Action or more, perhaps with no activity at all (FEE-080, FEE-082).
func decideSurprise(st *encounterv1.EncounterState, id string, sp *feeriev1.Surprise) ([]*encounterv1.Event, error) {
	if feerieState(st).GetStep() != feeriev1.Step_STEP_DECLARING {
		return nil, engine.Refused("FEE-080", "surprise is set at step 1 of an Action")
	}
	f, err := fighterOf(st, id)
	if err != nil {
		return nil, err
	}
	if t := f.cs.GetDeclared().GetTactic(); t.GetInitiative() != 0 || t.GetAttack() != 0 || t.GetDefense() != 0 {
		return nil, engine.Refused("FEE-080", "%s has already declared a tactic: rule on its surprise before it declares", f.name())
	}
	if sp.GetActions() < 1 {
		return nil, engine.Invalid("FEE-082", "surprise lasts at least one Action")
	}
	return one(&feeriev1.Event{Kind: &feeriev1.Event_Surprised{Surprised: &feeriev1.Surprised{
		CombatantId: f.id(), Actions: sp.GetActions(), NoActivity: sp.GetNoActivity(),
	}}}), nil
}

// decideUnseen: an attacker unseen by a victim on guard rolls its dissimulation against the
// victim's Vigilance score and gains half the margin to its Initiative (FEE-081, FEE-186).
func decideUnseen(st *encounterv1.EncounterState, id string, u *feeriev1.Unseen, roller dice.Roller) ([]*encounterv1.Event, error) {
	f, err := fighterOf(st, id)
	if err != nil {
		return nil, err
	}
	if feerieState(st).GetStep() != feeriev1.Step_STEP_DECLARING {
		return nil, engine.Refused("FEE-081", "%s's dissimulation is rolled at step 1, before the Initiative rolls", f.name())
	}
	v, err := fighterOf(st, u.GetVictimId())
	if err != nil {
		return nil, err
	}
	if v.id() == f.id() {
		return nil, engine.Invalid("FEE-081", "%s cannot hide from itself", f.name())
	}
	if v.cs.GetSurprisedActions() > 0 {
		return nil, engine.Refused("FEE-081", "%s is surprised, not on guard: the surprise (FEE-080) applies, not %s's dissimulation", v.name(), f.name())
	}
	if slices.Contains(f.cs.GetUnseenVictims(), v.id()) { // a failure stands until the next Action
		return nil, engine.Refused("FEE-081", "%s has already rolled its dissimulation against %s this Action; the result stands until the next Action", f.name(), v.name())
	}
	if f.cs.GetUnseenBonus() != 0 {
		return nil, engine.Refused("FEE-081", "%s already gains %+d Initiative from its dissimulation this Action", f.name(), f.cs.GetUnseenBonus())
	}
	score := aspect(f.sh, u.GetAspect())
	if score < 0 {
		return nil, engine.Invalid("FEE-081", "name the Aspect of %s's dissimulation roll: vigilance, habilete, puissance, resistance or charme", f.name())
	}
	var m Mods
	m.add(u.GetAspect(), "FEE-081", score)
	if err := applied(f.sh, u.GetApplied(), "FEE-081", &m); err != nil {
		return nil, withName(err, f.name())
	}
	r, net := rollDice(st, roller)
	r.Score, r.Modifiers, r.Total = m.sum(), m, m.sum()+net
	o := house(st)
	against := v.sh.GetVigilance() // the score, not a roll (FEE-186)
	var vr *feeriev1.RollResult
	if o.GetDissimulationOpposedRoll() { // or the victim's Vigilance roll, as the option says
		var vnet int32
		vr, vnet = rollDice(st, roller)
		vm := Mods{{Reason: "Vigilance", Value: against, Rule: "FEE-186"}}
		vr.Score, vr.Modifiers, vr.Total = vm.sum(), vm, vm.sum()+vnet
		against = vr.GetTotal()
	}
	margin := r.GetTotal() - against
	return one(&feeriev1.Event{Kind: &feeriev1.Event_UnseenRolled{UnseenRolled: &feeriev1.UnseenRolled{
		CombatantId: f.id(), VictimId: v.id(), Roll: r, Vigilance: against, Margin: margin, VigilanceRoll: vr,
		InitiativeBonus: halfMargin(o, max(0, margin)), // FEE-003
	}}}), nil
}
