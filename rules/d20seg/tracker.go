package d20seg

import (
	"fmt"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/fight"
	"golang.org/x/text/language"
)

// CostUnit: its costs are segments of the round (D20-017): an action takes the next ones.
func (System) CostUnit() engine.CostUnit { return engine.CostUnit{One: "segment", Many: "segments"} }

// Tracker: the round; each combatant's hit points (PV, D20-044) and the segment it acts at
// next (D20-015), and whether it is down or surprised (D20-003).
func (System) Tracker(view *encounterv1.EncounterState, _ engine.Viewer, lang language.Tag) *rulesetv1.Tracker {
	ds := view.GetD20Seg()
	t := &rulesetv1.Tracker{Header: []string{"PV", "segment"}}
	if ds.GetRound() > 0 {
		t.Turn = fmt.Sprintf("Round %d", ds.GetRound())
	}
	fight.Rows(t, view, ds.GetCombatants(), func(c *encounterv1.Combatant, cs *d20segv1.CombatantState) ([]string, []string) {
		is := engine.Conditions{Lang: lang}
		is.Add(cs.GetDown(), "out of the fight", "hors de combat")
		is.Add(cs.GetSurprised(), "surprised", "surpris")
		return []string{fmt.Sprint(cs.GetHitPoints()), fmt.Sprint(cs.GetNextSegment())}, is.Words
	})
	return t
}
