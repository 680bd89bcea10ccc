package feerie_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
)

// The fight is over when Brun's side has no one standing: at 0 Essence (FEE-024) or helpless
// (FEE-022), a combatant is out of the fight (issue 28).
func TestOutEndsTheFight(t *testing.T) {
	a, b := sqPlain("a", "Aude", 10), sqPlain("b", "Brun", 10)
	a.Side, b.Side = "pcs", "foes"
	f := sqNew(t, a, b)
	enginetest.CheckOut(t, f.Reg, f.St, "b", "a",
		enginetest.OutCase{Rule: "FEE-024", Take: func(st *encounterv1.EncounterState, id string) { st.GetFeerie().GetCombatants()[id].Essence = 0 }},
		enginetest.OutCase{Rule: "FEE-022", Take: func(st *encounterv1.EncounterState, id string) { st.GetFeerie().GetCombatants()[id].Helpless = true }},
	)
}
