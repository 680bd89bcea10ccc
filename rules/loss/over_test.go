package loss_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
)

// The fight is over when the malfrat's side has no one standing: each rule that takes a
// combatant out of a Les Chants de Loss fight ends it (issue 28).
func TestOutEndsTheFight(t *testing.T) {
	pcs, foes := diego(), ruffian()
	pcs.Side, foes.Side = "pcs", "foes"
	f := newFight(t, nil, pcs, foes)
	f.start(7, 5)
	enginetest.CheckOut(t, f.Reg, f.St, "malfrat", "diego",
		// LOS-022: at 0 fatal boxes, down; LOS-025: a Sbire taken out by an Exploit (both the out flag).
		enginetest.OutCase{Rule: "LOS-022", Take: func(st *encounterv1.EncounterState, id string) { st.GetLoss().GetCombatants()[id].Out = true }},
		enginetest.OutCase{Rule: "LOS-023", Take: func(st *encounterv1.EncounterState, id string) { st.GetLoss().GetCombatants()[id].Dying = true }},
		enginetest.OutCase{Rule: "LOS-078", Take: func(st *encounterv1.EncounterState, id string) { st.GetLoss().GetCombatants()[id].Dead = true }},
		enginetest.OutCase{Rule: "LOS-076", Take: func(st *encounterv1.EncounterState, id string) { st.GetLoss().GetCombatants()[id].Neutralised = true }},
	)
}
