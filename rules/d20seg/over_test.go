package d20seg_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
)

// The fight is over when Berthe's side has no one standing: down at 0 hit points (D20-044)
// takes a combatant out of the fight (issue 28).
func TestOutEndsTheFight(t *testing.T) {
	a, b := sheet("aldric", "Aldric", initiative(5)), sheet("berthe", "Berthe", initiative(1))
	a.Side, b.Side = "pcs", "foes"
	f := newFight(t, nil, a, b)
	f.start()
	enginetest.CheckOut(t, f.Reg, f.St, "berthe", "aldric",
		enginetest.OutCase{Rule: "D20-044", Take: func(st *encounterv1.EncounterState, id string) {
			st.GetD20Seg().GetCombatants()[id].HitPoints, st.GetD20Seg().GetCombatants()[id].Down = 0, true
		}},
	)
}
