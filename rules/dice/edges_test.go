package dice_test

import (
	"testing"

	"github.com/fray-rpg/fray/rules/dice"
	"github.com/stretchr/testify/require"
)

// A Fixed roll records the faces it took from its position: offset and draws of a roll that
// starts past the first face (an exploding one, 3 faces from 2).
func TestFixedRecordsOffsetAndDraws(t *testing.T) {
	f := dice.NewFixed(4, 7, 10, 10, 2)
	r := f.Roll(dice.D10(false))
	require.Equal(t, []uint64{0, 1}, []uint64{r.GetOffset(), r.GetDraws()})
	r = f.Roll(dice.D10(false))
	require.Equal(t, []uint64{1, 1}, []uint64{r.GetOffset(), r.GetDraws()})
	r = f.Roll(dice.D10(true))
	require.Equal(t, []int32{10, 10, 2}, r.GetFaces())
	require.Equal(t, []uint64{2, 3}, []uint64{r.GetOffset(), r.GetDraws()})
	require.Equal(t, 0, f.Left())
}

// A Fixed out of faces panics saying so, the expression and the number of faces given.
func TestFixedOutOfFacesSaysSo(t *testing.T) {
	f := dice.NewFixed(3)
	f.Roll(dice.D10(false))
	require.PanicsWithValue(t, "dice.Fixed: roll 1d10 needs more than the 1 faces given", func() { f.Roll(dice.D10(false)) })
	require.PanicsWithValue(t, "dice.Fixed: roll 2d6 needs more than the 0 faces given", func() { dice.NewFixed().Roll(dice.Expr{Count: 2, Sides: 6}) })
}

// A Verifier keeps its Scheme1 stream's place: rolls verified in stream order cost their own
// draws, never a second positioning (nothing skipped, each roll starting where the last
// ended); one verified out of order positions the stream again from the start.
func TestVerifierKeepsItsPlaceInStreamOrder(t *testing.T) {
	sd := seed(7)
	s, err := dice.NewStreamScheme(dice.Scheme1, sd, 0)
	require.NoError(t, err)
	v := dice.NewVerifier(sd)
	var first, last = s.Roll(dice.D10(true)), s.Roll(dice.D10(false))
	require.NoError(t, v.Verify(first))
	require.NoError(t, v.Verify(last))
	for range 50 {
		r := s.Roll(dice.Expr{Count: 3, Sides: 10, Explode: true})
		require.NoError(t, v.Verify(r))
	}
	_, skipped := dice.VerifierCost(v)
	require.Zero(t, skipped, "in stream order nothing is skipped")

	require.NoError(t, v.Verify(last), "out of order")
	_, skipped = dice.VerifierCost(v)
	require.Equal(t, last.GetOffset(), skipped, "back to the start, then to the roll's offset")
}
