package odds_test

import (
	"math"
	"testing"

	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/stretchr/testify/require"
)

func sum(d odds.Dist) float64 {
	var s float64
	for _, p := range d.P {
		s += p
	}
	return s
}

// TestDistributionsByHand: dice and their sums computed by hand (LOS-002: a d10 rolled again
// on a 10 and added; the dice stop after dice.MaxExplosion rerolls).
func TestDistributionsByHand(t *testing.T) {
	d6 := odds.Die(6)
	require.Equal(t, 1, d6.Min)
	require.Equal(t, 6, d6.Max())
	require.InDelta(t, 3.5, d6.Mean(), 1e-12)
	require.InDelta(t, 1.0/6, d6.At(4), 1e-15)
	require.Zero(t, d6.At(0))
	require.Zero(t, d6.At(7))
	require.InDelta(t, 1, d6.AtLeast(-3), 1e-12)
	require.InDelta(t, 0.5, d6.AtLeast(4), 1e-12)
	require.Zero(t, d6.AtLeast(7))

	// A d10 followed for one reroll: 1…9 at 1/10, 11…19 at 1/100, and 10-10 (1/100) left out.
	x := odds.Exploding(10, 1)
	require.Equal(t, 1, x.Min)
	require.InDelta(t, 0.1, x.At(9), 1e-15)
	require.Zero(t, x.At(10))
	require.InDelta(t, 0.01, x.At(11), 1e-15)
	require.InDelta(t, 0.01, x.At(19), 1e-15)
	require.Zero(t, x.At(20))
	require.InDelta(t, 0.01, x.Left, 1e-15)
	require.InDelta(t, 0.99, sum(x), 1e-12)

	// A d2 followed to the dice's cap is exact: 2j+1 at 2^-(j+1) for j < 20; after twenty 2s
	// the 21st face is kept whatever it shows: 41 and 42 at 2^-21 each.
	d2 := odds.Exploding(2, 99)
	require.Zero(t, d2.Left)
	require.InDelta(t, 1, sum(d2), 1e-15)
	require.InDelta(t, 0.5, d2.At(1), 1e-15)
	require.Zero(t, d2.At(2))
	require.InDelta(t, 0.25, d2.At(3), 1e-15)
	require.InDelta(t, math.Pow(2, -20), d2.At(2*19+1), 1e-18)
	require.InDelta(t, math.Pow(2, -21), d2.At(2*dice.MaxExplosion+1), 1e-18)
	require.InDelta(t, math.Pow(2, -21), d2.At(2*dice.MaxExplosion+2), 1e-18)
	require.Equal(t, 2*dice.MaxExplosion+2, d2.Max())
	h := odds.Exploding(2, 0)
	require.InDelta(t, 0.5, h.At(1), 1e-15)
	require.InDelta(t, 0.5, h.Left, 1e-15)
	require.Equal(t, odds.Point(dice.MaxExplosion+1), odds.Exploding(1, 3), "a one-sided die rerolls to the cap")

	// Rerolls: the fewest that leave out at most MaxLeft, or the cap.
	for _, sides := range []int{3, 6, 10, 20, 100} {
		n := odds.Rerolls(sides)
		require.LessOrEqual(t, odds.Exploding(sides, n).Left, odds.MaxLeft, "d%d", sides)
		require.Greater(t, odds.Exploding(sides, n-1).Left, odds.MaxLeft, "d%d", sides)
	}
	require.Equal(t, dice.MaxExplosion, odds.Rerolls(2))
	require.Zero(t, odds.Rerolls(1e12), "a die whose highest face has the chance MaxLeft needs no reroll: it leaves out just MaxLeft")
	require.Zero(t, odds.Exploding(2, odds.Rerolls(2)).Left)

	// 2d6+1: 3…13, 8 at 6/36; the kept distribution is the same.
	e := odds.Expr(dice.Expr{Count: 2, Sides: 6, Modifier: 1})
	require.Equal(t, 3, e.Min)
	require.Equal(t, 13, e.Max())
	require.InDelta(t, 6.0/36, e.At(8), 1e-15)
	require.InDelta(t, 1.0/36, e.At(13), 1e-15)
	require.InDelta(t, 8, e.Mean(), 1e-12)
	require.Equal(t, e, odds.Expr(dice.Expr{Count: 2, Sides: 6, Modifier: 1}))
	ten := odds.Expr(dice.D10(true))
	require.LessOrEqual(t, ten.Left, odds.MaxLeft)
	require.InDelta(t, 1, sum(ten)+ten.Left, 1e-12)
	once := odds.Exploding(10, 1).Add(odds.Exploding(10, 1)) // either die's chain left out
	require.InDelta(t, 0.01+0.01-0.0001, once.Left, 1e-15)
	require.InDelta(t, 1, sum(once)+once.Left, 1e-12)
	two := ten.Add(ten)
	require.InDelta(t, 2*ten.Left-ten.Left*ten.Left, two.Left, 1e-24)

	// d6 − d6: −5…5, 0 at 6/36; shifted by 3: −2…8.
	diff := d6.Add(d6.Neg())
	require.Equal(t, -5, diff.Min)
	require.Equal(t, 5, diff.Max())
	require.InDelta(t, 6.0/36, diff.At(0), 1e-15)
	require.InDelta(t, 1.0/36, diff.At(-5), 1e-15)
	require.InDelta(t, 2.0/36, diff.At(4), 1e-15)
	require.Equal(t, -2, diff.Shift(3).Min)
	require.InDelta(t, 6.0/36, diff.Shift(3).At(3), 1e-15)

	// Map: |d6 − 3|, 0 at 1/6, 1 and 2 at 2/6, 3 at 1/6.
	m := d6.Map(func(v int) int { return int(math.Abs(float64(v - 3))) })
	require.Equal(t, 0, m.Min)
	require.InDelta(t, 2.0/6, m.At(2), 1e-15)
	require.InDelta(t, 1.0/6, m.At(3), 1e-15)
}

// TestBuilderGathersMassInAnyOrder: a Builder takes values above and below those it holds.
func TestBuilderGathersMassInAnyOrder(t *testing.T) {
	var b odds.Builder
	require.Empty(t, b.Dist().P)
	b.Add(5, 0.25)
	b.Add(2, 0.25)
	require.Equal(t, odds.Dist{Min: 2, P: []float64{0.25, 0, 0, 0.25}}, b.Dist(), "grown at the front by what it needs")
	b.Add(9, 0.125)
	b.Add(5, 0.25)
	b.Add(3, 0.125)
	d := b.Dist()
	require.Equal(t, 2, d.Min)
	require.Equal(t, 9, d.Max())
	require.Equal(t, []float64{0.25, 0.125, 0, 0.5, 0, 0, 0, 0.125}, d.P)
}
