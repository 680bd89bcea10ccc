package fight

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// Rows adds to t a row per combatant of view, in its order (System.Tracker): the cells and
// conditions row gives of one whose numbers view holds, its sheet and its state in states; a
// row of empty cells for one whose sheet view withholds from its reader, or that the system
// holds no state of yet.
func Rows[CS any](t *rulesetv1.Tracker, view *encounterv1.EncounterState, states map[string]*CS, row func(c *encounterv1.Combatant, cs *CS) (cells, conditions []string)) {
	for _, c := range view.GetCombatants() {
		cs := states[c.GetId()]
		if c.GetSheet() == nil || cs == nil { // its numbers withheld, or none yet
			t.Rows = append(t.Rows, engine.TrackerRow(t.Header, c.GetId(), nil))
			continue
		}
		cells, conditions := row(c, cs)
		t.Rows = append(t.Rows, engine.TrackerRow(t.Header, c.GetId(), cells, conditions...))
	}
}
