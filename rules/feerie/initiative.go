package feerie

import (
	"cmp"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/dice"
)

// declarationsDone: the declarations are under way and every able combatant has declared, so
// Initiative is rolled (FEE-040 step 2).
func declarationsDone(st *encounterv1.EncounterState) bool {
	if feerieState(st).GetStep() != feeriev1.Step_STEP_DECLARING {
		return false
	}
	any := false
	for _, f := range fighters(st) {
		// One held by a surprise that forbids all activity has nothing to declare (FEE-082).
		if f.able() && !f.cs.GetHasDeclared() && !f.cs.GetSurpriseNoActivity() {
			return false
		}
		any = any || f.able()
	}
	return any
}

// roll rolls the encounter's zero-mean roll (FEE-001).
func rollDice(st *encounterv1.EncounterState, roller dice.Roller) (*feeriev1.RollResult, int32) {
	plus, minus, _ := rollExprs(options(st).GetRoll())
	r := &feeriev1.RollResult{Roll: roller.Roll(plus)}
	net := r.GetRoll().GetTotal()
	if minus != nil {
		r.Minus = roller.Roll(*minus)
		net -= r.GetMinus().GetTotal()
	}
	return r, net
}

// rollInitiative is step 2: Vigilance roll + applied Attributes + tactic + circumstances
// (FEE-010, FEE-043, FEE-062, FEE-073, FEE-080).
func (sys System) rollInitiative(st *encounterv1.EncounterState, roller dice.Roller) *encounterv1.Event {
	s := feerieState(st)
	cs := &feeriev1.CountdownStarted{Action: s.GetAction()}
	for _, f := range fighters(st) {
		if !f.able() {
			continue
		}
		v, _ := sys.ComputeValues(f.sh, f.cs.GetDeclared())
		m := v.Initiative
		m.add("tactic", "FEE-031", f.cs.GetDeclared().GetTactic().GetInitiative())
		m.add("penalties of the last Action", "FEE-062", -f.cs.GetThisAction())
		if f.cs.GetSurprisedActions() > 0 {
			m.add("surprised", "FEE-080", -sys.n.SurpriseInitiative)
		}
		if house(st).GetActivityMalusOnInitiative() { // the option of FEE-178
			sys.conditionMalus(f, &m)
		}
		m.add("attacking unseen", "FEE-081", f.cs.GetUnseenBonus())
		r, net := rollDice(st, roller)
		r.Score = m.sum()
		r.Modifiers = m
		r.Total = r.Score + net
		ir := &feeriev1.InitiativeRoll{CombatantId: f.id(), Result: r, CanAct: r.GetTotal() > 0 && !f.cs.GetSurpriseNoActivity()}
		cs.Initiative = append(cs.Initiative, ir)
		if ir.GetCanAct() && r.GetTotal() > cs.TopRank {
			cs.TopRank = r.GetTotal()
		}
	}
	return event(&feeriev1.Event{Kind: &feeriev1.Event_CountdownStarted{CountdownStarted: cs}})
}

// priority orders activities at one rank (FEE-044): higher Vigilance, then more Attributes
// applied to the Initiative roll, then the better tactic modifier to Initiative, then the
// better net die; the rolled Initiative itself is not a tie-breaker.
func priority(st *encounterv1.EncounterState, a, b *feeriev1.Queued) int {
	fa, _ := fighterOf(st, a.GetCombatantId())
	fb, _ := fighterOf(st, b.GetCombatantId())
	return cmp.Or(
		cmp.Compare(fb.sh.GetVigilance(), fa.sh.GetVigilance()),
		cmp.Compare(fb.cs.GetInitiativeApplied(), fa.cs.GetInitiativeApplied()),
		cmp.Compare(fb.cs.GetTactic().GetInitiative(), fa.cs.GetTactic().GetInitiative()),
		cmp.Compare(fb.cs.GetInitiativeDie(), fa.cs.GetInitiativeDie()),
	)
}
