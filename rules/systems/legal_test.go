package systems

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/stretchr/testify/require"
)

// Every legal action, in every state the golden fights of all four rule systems go through,
// for every combatant, passes enginetest.CheckLegal: its key is an action DescribeRuleset
// names; every option of every choice fills the field the choice names; its pre-filled
// command, its required choices filled from the first option, is taken by the rules (not
// refused) on the state it was listed for.
func TestLegalCommandsAreTakenInEveryGoldenState(t *testing.T) {
	reg := Registry()
	for _, system := range IDs() {
		t.Run(system, func(t *testing.T) {
			events, _ := readGolden(t, system, 1)
			st := &encounterv1.EncounterState{EncounterId: events[0].GetEncounterId()}
			keys := map[string]int{}
			for _, ev := range events {
				require.NoError(t, reg.Evolve(st, ev))
				for k, n := range enginetest.CheckLegal(t, reg, st) {
					keys[k] += n
				}
			}
			t.Logf("%s: commands taken by key %v", system, keys)
			require.NotEmpty(t, keys)
		})
	}
}
