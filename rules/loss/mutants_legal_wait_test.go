package loss_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// LOS-040: a wait is offered to a phase from 1 to one below the combatant's own: Diego, at 15,
// may wait until 14 at the latest. Written against mutants of the wait's offer (ap − 1 made
// ap + 1) that lived in a gremlins run of legal.go (issue 26).
func TestLOS040TheWaitOfferedRunsToOneBelowThePhase(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5) // Diego 15
	legal, err := f.Reg.Legal(f.St, "diego")
	require.NoError(t, err)
	var found bool
	for _, l := range legal {
		if l.GetName() != "wait" {
			continue
		}
		found = true
		require.Equal(t, "act later, at a phase from 1 to 14", l.GetDescription())
		require.Len(t, l.GetChoices(), 1)
		c := l.GetChoices()[0]
		require.Equal(t, []int32{1, 14}, []int32{int32(c.GetMin()), int32(c.GetMax())})
	}
	require.True(t, found, "a wait is offered")
}
