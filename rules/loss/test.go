package loss

import (
	"slices"
	"strconv"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
)

// mods gathers the modifiers of one Test, each with its reason and rule, so that the log shows
// how every Difficulty and total came about.
type mods struct {
	diff, tst []*lossv1.Modifier
}

func (m *mods) difficulty(reason, rule string, v int32) {
	if v != 0 {
		m.diff = append(m.diff, &lossv1.Modifier{Reason: reason, Value: v, Rule: rule})
	}
}

func (m *mods) test(reason, rule string, v int32) {
	if v != 0 {
		m.tst = append(m.tst, &lossv1.Modifier{Reason: reason, Value: v, Rule: rule})
	}
}

func sum(ms []*lossv1.Modifier) int32 {
	var n int32
	for _, m := range ms {
		n += m.GetValue()
	}
	return n
}

func plural(n int32, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(int(n)) + " " + many
}

// ownModifiers adds what a fighter's own state and situation add to its Test (LOS-022,
// LOS-050, LOS-069…LOS-075).
func (sys System) ownModifiers(st *encounterv1.EncounterState, f fighter, sit *lossv1.Situation, m *mods, defending bool) {
	m.difficulty("wounds", "LOS-022", f.healthPenalty(sys, st))
	m.difficulty("aimed blows suffered", "LOS-069", f.cs.GetLastingDifficulty())
	if sit.GetDarkness() {
		m.difficulty("darkness or blinded", "LOS-050", 10)
	}
	if sit.GetLower() {
		m.difficulty("lower than the opponent", "LOS-050", 5)
	}
	if f.cs.GetProne() || sit.GetProne() { // down, or on the ground as the GM says (LOS-035)
		m.difficulty("prone", "LOS-050", 10)
	}
	if !defending && sit.GetOutnumbered() {
		m.difficulty("outnumbered by 3 or more", "LOS-050", 5)
	}
	if !defending && sit.GetOffHand() {
		m.difficulty("off-hand", "LOS-050", 5)
	}
	if sit.GetHigher() {
		m.test("higher than the opponent", "LOS-052", 5)
	}
}

// defenceExploitBonus adds the bonus of a successful defensive Exploit to the first Test of the
// fighter's very next action (LOS-016); Evolve spends it on that action, whatever it is.
func defenceExploitBonus(f fighter, m *mods) {
	if f.cs.GetNextActionBonus() > 0 {
		m.test("successful defensive Exploit", "LOS-016", f.cs.GetNextActionBonus())
	}
}

// roll makes a Test: Trait + Talent + 1d10 + modifiers against base + 5 per Exploit +
// modifiers (LOS-001, LOS-002, LOS-010).
func (sys System) roll(st *encounterv1.EncounterState, f fighter, s *lossv1.Score, base, exploits int32, m *mods, sp *lossv1.Spend, roller dice.Roller) *lossv1.TestResult {
	if exploits != 0 { // named only when it counts
		m.difficulty(plural(exploits, "Exploit", "Exploits"), "LOS-010", sys.ExploitsDifficulty(exploits))
	}
	r := roller.Roll(dice.D10(options(st).GetExplodeActionD10()))
	t := &lossv1.TestResult{
		Roll:                r,
		Trait:               f.sh.GetTraits()[s.GetTrait()],
		Talent:              f.sh.GetTalents()[s.GetTalent()],
		Bonus:               sum(m.tst),
		Spend:               sp,
		Difficulty:          base + sum(m.diff),
		DifficultyModifiers: m.diff,
		TestModifiers:       m.tst,
	}
	t.Total = t.Trait + t.Talent + r.GetTotal() + t.Bonus
	t.Success = t.Total >= t.Difficulty
	return t
}

// spendBonus checks that f holds what it spends and returns the bonus (LOS-004, LOS-005).
func (sys System) spendBonus(st *encounterv1.EncounterState, f fighter, sp *lossv1.Spend, m *mods) error {
	if sp.GetFursa() < 0 || sp.GetFreeRaises() < 0 {
		return engine.Invalid("LOS-004", "what a Test spends cannot be negative")
	}
	if n := sp.GetFursa(); n > 0 {
		switch {
		case f.isSbire():
			return engine.Refused("LOS-005", "%s is a Sbire and has no Fursa", f.name())
		case f.isPC() && n > f.cs.GetFursa():
			return engine.Refused("LOS-005", "%s holds %d Fursa and cannot spend %d", f.name(), f.cs.GetFursa(), n)
		case !f.isPC() && n > lossState(st).GetGmFursa():
			return engine.Refused("LOS-005", "the GM's Fursa reserve holds %d and %s cannot spend %d", lossState(st).GetGmFursa(), f.name(), n)
		}
		m.test(plural(n, "Fursa", "Fursa"), "LOS-004", n*sys.SpendBonus)
	}
	if n := sp.GetFreeRaises(); n > 0 {
		if n > f.cs.GetFreeRaises() {
			return engine.Refused("LOS-004", "%s holds %d free raises and cannot spend %d", f.name(), f.cs.GetFreeRaises(), n)
		}
		m.test(plural(n, "free raise", "free raises"), "LOS-004", n*sys.SpendBonus)
	}
	vertus := make([]string, 0, len(sp.GetInspiration()))
	for v := range sp.GetInspiration() {
		vertus = append(vertus, v)
	}
	slices.Sort(vertus)
	for _, v := range vertus {
		k := sp.GetInspiration()[v]
		switch held := f.cs.GetInspiration()[v]; {
		case k < 0:
			return engine.Invalid("LOS-004", "Inspiration spent cannot be negative")
		case k > held:
			return engine.Refused("LOS-005", "%s holds %d Inspiration of %s and cannot spend %d", f.name(), held, v, k)
		case k > 0:
			m.test(plural(k, "Inspiration of "+v, "Inspiration of "+v), "LOS-004", k*sys.SpendBonus)
		}
	}
	return nil
}
