package ka

import (
	"fmt"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/fight"
	"golang.org/x/text/language"
)

// CostUnit: its costs are actions of a round (KA-010, KA-013): an attack or a defence spends one.
func (System) CostUnit() engine.CostUnit { return engine.CostUnit{One: "action", Many: "actions"} }

// Tracker: the round, the pass and whose turn it is (KA-014); each combatant's Animalité (its
// rank in the pass), Ka dice, points de réalité and actions left (KA-010), and what keeps it
// from acting (KA-025).
func (System) Tracker(view *encounterv1.EncounterState, _ engine.Viewer, lang language.Tag) *rulesetv1.Tracker {
	ks := view.GetKa()
	t := &rulesetv1.Tracker{Header: []string{Animalite, "dés de Ka", "points de réalité", "actions"}}
	if ks.GetRound() > 0 {
		t.Turn = fmt.Sprintf("Round %d · passe %d", ks.GetRound(), ks.GetPassNumber())
		if next := ks.GetUpNext(); len(next) > 0 {
			names := make([]string, len(next))
			for i, id := range next {
				names[i] = id
				if c := engine.FindCombatant(view, id); c != nil {
					names[i] = c.GetName()
				}
			}
			t.Turn += " · " + strings.Join(names, ", ")
		}
	}
	fight.Rows(t, view, ks.GetCombatants(), func(c *encounterv1.Combatant, cs *kav1.CombatantState) ([]string, []string) {
		animalite := ""
		if v, ok := c.GetKa().GetSpheres()[Animalite]; ok {
			animalite = fmt.Sprint(v)
		}
		is := engine.Conditions{Lang: lang}
		is.Add(cs.GetPassed(), "passed", "passe")
		is.Add(cs.GetUnconscious(), "unconscious", "inconscient")
		is.Add(cs.GetDying(), "dying", "mourant")
		return []string{animalite, fmt.Sprint(cs.GetKaDice()),
			fmt.Sprint(cs.GetRealityPoints()), fmt.Sprint(cs.GetActionsLeft())}, is.Words
	})
	return t
}
