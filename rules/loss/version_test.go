package loss_test

import (
	"fmt"
	"testing"

	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// Released gives every released version oldest first, each a value of this one package; New
// refuses version 0 (the registry's "latest") and a version never released: a programmer's
// error.
func TestReleasedVersions(t *testing.T) {
	var got []uint32
	for _, s := range loss.Released() {
		got = append(got, s.Version())
		require.Equal(t, loss.New(s.Version()), s)
	}
	require.Len(t, got, loss.Latest)
	for i, v := range got {
		require.Equal(t, uint32(i+1), v)
	}
	require.PanicsWithValue(t, fmt.Sprintf("loss: version 0 of Les Chants de Loss was never released (1 to %d are)", loss.Latest), func() { loss.New(0) })
	require.Panics(t, func() { loss.New(loss.Latest + 1) })
}

// LOS-014: a failed defence cancels one Exploit from 20, one more every 5, never more than
// the attack declared; below 20, none.
func TestLOS014PartialDefenceFormula(t *testing.T) {
	n := loss.New(1)
	for total, want := range map[int32]int32{0: 0, 19: 0, 20: 1, 24: 1, 25: 2, 29: 2, 30: 3, 40: 5, 99: 5} {
		require.Equal(t, want, n.PartialDefence(total, 5), "total %d", total)
	}
	require.Equal(t, int32(2), n.PartialDefence(40, 2), "never more than declared")
	require.Equal(t, int32(15), n.ExploitsDifficulty(3))
}
