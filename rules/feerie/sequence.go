package feerie

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
)

// decideGesture: walking slowly, talking, a simple gesture or the ordinary use of a Power that
// costs no Essence goes alongside the activities; it is no roll and no activity (FEE-047).
func decideGesture(st *encounterv1.EncounterState, f fighter, g *feeriev1.Gesture) ([]*encounterv1.Event, error) {
	rank, err := countdown(st)
	if err != nil {
		return nil, withName(err, f.name())
	}
	if f.cs.GetSurpriseNoActivity() {
		return nil, engine.Refused("FEE-082", "%s is under a surprise that forbids any activity", f.name())
	}
	if g.GetDescription() == "" {
		return nil, engine.Invalid("FEE-047", "describe %s's gesture (walking slowly, talking, a simple gesture…)", f.name())
	}
	return one(&feeriev1.Event{Kind: &feeriev1.Event_Gestured{Gestured: &feeriev1.Gestured{
		CombatantId: f.id(), Description: g.GetDescription(), Rank: rank,
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

// anyoneActed: some activity has been performed in this Action; until then nobody may
// anticipate, for the first to act cannot (FEE-051).
func anyoneActed(st *encounterv1.EncounterState) bool {
	for _, cs := range feerieState(st).GetCombatants() {
		if cs.GetActivities() > 0 {
			return true
		}
	}
	return false
}

// pendingDefense is the Defense penalty of a combatant's activities performed at this rank but
// not resolved yet: anticipation and further activities weigh on its Defense only against the
// attacks resolved after them (FEE-050, FEE-061).
func (sys System) pendingDefense(st *encounterv1.EncounterState, id string, rank int32) int32 {
	var n int32
	for _, q := range feerieState(st).GetQueue() {
		if q.GetCombatantId() != id || q.GetRank() != rank {
			continue
		}
		n += q.GetAnticipation()
		if q.GetNth() > 1 && !q.GetDeclaredChange() {
			n += sys.n.SupplementaryMalus
		}
	}
	return n
}

// cannotAct is what becomes of an activity whose performer was put out of the fight by an
// activity resolved before it at the same rank (FEE-024, FEE-045).
func cannotAct(f fighter, q *feeriev1.Queued) *encounterv1.Event {
	return event(&feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: &feeriev1.ActivityResolved{
		CombatantId: f.id(), Rank: q.GetRank(),
		Note: f.name() + " is at 0 Essence before its activity is resolved and cannot act (FEE-024, FEE-045)",
	}}})
}
