package ka_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
)

// The fight is over when the dog's side has no one standing: each rule that takes a
// combatant out of a Ka fight ends it (issue 28).
func TestOutEndsTheFight(t *testing.T) {
	j, d := joshua(), molosse()
	j.Side, d.Side = "pcs", "foes"
	f := newFight(t, nil, j, d)
	f.start(coupe(2), coupe(5))
	enginetest.CheckOut(t, f.Reg, f.St, "chien", "joshua",
		// KA-025: its last Ka die lost, it makes its death draw.
		enginetest.OutCase{Rule: "KA-025", Take: func(st *encounterv1.EncounterState, id string) {
			st.GetKa().GetCombatants()[id].KaDice, st.GetKa().GetCombatants()[id].Dying = 0, true
		}},
		// KA-027, KA-031: knocked unconscious.
		enginetest.OutCase{Rule: "KA-027", Take: func(st *encounterv1.EncounterState, id string) { st.GetKa().GetCombatants()[id].Unconscious = true }},
	)
}
