package dice_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func seed(b byte) []byte { return bytes.Repeat([]byte{b}, dice.SeedSize) }

func TestParseValid(t *testing.T) {
	cases := []struct {
		in   string
		want dice.Expr
		str  string
	}{
		{"3d10+4", dice.Expr{Count: 3, Sides: 10, Modifier: 4}, "3d10+4"},
		{"1d10!", dice.Expr{Count: 1, Sides: 10, Explode: true}, "1d10!"},
		{"d20", dice.Expr{Count: 1, Sides: 20}, "1d20"},
		{"2D6-1", dice.Expr{Count: 2, Sides: 6, Modifier: -1}, "2d6-1"},
		{"  4d8 + 2 ", dice.Expr{Count: 4, Sides: 8, Modifier: 2}, "4d8+2"},
		{"d10!-3", dice.Expr{Count: 1, Sides: 10, Modifier: -3, Explode: true}, "1d10!-3"},
		{"1d10+0", dice.Expr{Count: 1, Sides: 10}, "1d10"},
		{"100d1000+10000", dice.Expr{Count: dice.MaxDice, Sides: dice.MaxSides, Modifier: dice.MaxModifier}, "100d1000+10000"},
		{"1d2-10000", dice.Expr{Count: 1, Sides: 2, Modifier: -dice.MaxModifier}, "1d2-10000"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := dice.Parse(c.in)
			require.NoError(t, err)
			require.Equal(t, c.want, got)
			require.Equal(t, c.str, got.String())
			// String renders what Parse reads back.
			again, err := dice.Parse(got.String())
			require.NoError(t, err)
			require.Equal(t, got, again)
		})
	}
	require.Equal(t, dice.Expr{Count: 1, Sides: 10, Explode: true}, dice.D10(true))
	require.Equal(t, "1d10", dice.D10(false).String())
}

func TestParseInvalid(t *testing.T) {
	for _, in := range []string{
		"", "d", "10", "3x10", "d10+", "1d10!!", "-1d10", "1d-10", "1d10*2", "1d10+4+2",
		"0d10", "101d10", // dice count out of 1..100
		"1d1", "1d0", "1d1001", // sides out of 2..1000
		"1d10+10001", "1d10-10001", // modifier beyond ±10000
		"1d10 extra",
		"99999999999999999999d10", "1d99999999999999999999", "1d10+99999999999999999999", // overflow
	} {
		t.Run(in, func(t *testing.T) {
			e, err := dice.Parse(in)
			require.Error(t, err)
			require.True(t, errors.Is(err, dice.ErrNotation), "%v should wrap ErrNotation", err)
			require.Equal(t, dice.Expr{}, e)
		})
	}
}

func TestNewStreamNeedsAFullSeed(t *testing.T) {
	_, err := dice.NewStream(make([]byte, 31), 0)
	require.Error(t, err)
	_, err = dice.NewStream(nil, 0)
	require.Error(t, err)
	s, err := dice.NewStream(seed(1), 7)
	require.NoError(t, err)
	require.Equal(t, uint64(7), s.Offset())
}

func TestSeedAndCommitment(t *testing.T) {
	a, b := dice.NewSeed(), dice.NewSeed()
	require.Len(t, a, dice.SeedSize)
	require.Len(t, b, dice.SeedSize)
	require.NotEqual(t, a, b)
	want := sha256.Sum256(a)
	require.Equal(t, want[:], dice.Commitment(a))
	require.NotEqual(t, dice.Commitment(a), dice.Commitment(b))
}

func TestStreamIsDeterministic(t *testing.T) {
	e, err := dice.Parse("5d10!+3")
	require.NoError(t, err)
	s1, err := dice.NewStream(seed(7), 0)
	require.NoError(t, err)
	s2, err := dice.NewStream(seed(7), 0)
	require.NoError(t, err)
	var rolls []*dicev1.Roll
	for range 50 {
		r1, r2 := s1.Roll(e), s2.Roll(e)
		require.True(t, proto.Equal(r1, r2), "same seed and offset give the same roll: %v vs %v", r1, r2)
		rolls = append(rolls, r1)
	}
	require.Equal(t, s1.Offset(), s2.Offset())

	// Rolls are contiguous in the stream and each records where it started and how many
	// words it drew.
	var at uint64
	for _, r := range rolls {
		require.Equal(t, at, r.GetOffset())
		require.GreaterOrEqual(t, r.GetDraws(), uint64(5))
		require.Equal(t, "5d10!+3", r.GetExpression())
		require.Equal(t, int32(3), r.GetModifier())
		sum := int32(3)
		for _, f := range r.GetFaces() {
			sum += f
		}
		require.Equal(t, sum, r.GetTotal())
		at += r.GetDraws()
	}
	require.Equal(t, at, s1.Offset())

	// A stream opened at a later offset continues exactly where the first one was.
	s3, err := dice.NewStream(seed(7), rolls[10].GetOffset())
	require.NoError(t, err)
	require.True(t, proto.Equal(rolls[10], s3.Roll(e)))
	require.True(t, proto.Equal(rolls[11], s3.Roll(e)))

	// Another seed gives other faces.
	s4, err := dice.NewStream(seed(8), 0)
	require.NoError(t, err)
	var same int
	for _, r := range rolls {
		if proto.Equal(r, s4.Roll(e)) {
			same++
		}
	}
	require.Less(t, same, 5)
}

func TestRederiveAndVerify(t *testing.T) {
	sd := seed(42)
	s, err := dice.NewStream(sd, 0)
	require.NoError(t, err)
	var rolls []*dicev1.Roll
	for _, n := range []string{"1d10!", "3d10", "d20", "2d6+1", "1d10", "4d8-2"} {
		e, err := dice.Parse(n)
		require.NoError(t, err)
		rolls = append(rolls, s.Roll(e))
	}
	for _, r := range rolls {
		got, err := dice.Rederive(sd, r)
		require.NoError(t, err)
		require.True(t, proto.Equal(r, got), "rederived %v, recorded %v", got, r)
		require.NoError(t, dice.Verify(sd, r))
	}

	// A tampered face, total or draw count is detected.
	r := proto.CloneOf(rolls[1])
	r.Faces[1] = r.Faces[1]%10 + 1
	err = dice.Verify(sd, r)
	require.Error(t, err)
	require.Contains(t, err.Error(), "3d10")

	r = proto.CloneOf(rolls[1])
	r.Total++
	require.Error(t, dice.Verify(sd, r))

	r = proto.CloneOf(rolls[1])
	r.Draws++
	require.Error(t, dice.Verify(sd, r))

	// Another seed, or a shifted offset, does not verify.
	require.Error(t, dice.Verify(seed(43), rolls[1]))
	r = proto.CloneOf(rolls[1])
	r.Offset++
	require.Error(t, dice.Verify(sd, r))

	// A recorded expression that does not parse, or a short seed, is an error.
	r = proto.CloneOf(rolls[1])
	r.Expression = "3 dice"
	_, err = dice.Rederive(sd, r)
	require.ErrorIs(t, err, dice.ErrNotation)
	_, err = dice.Rederive(sd[:16], rolls[1])
	require.Error(t, err)
}

func TestFacesStayInRange(t *testing.T) {
	s, err := dice.NewStream(seed(3), 0)
	require.NoError(t, err)
	for _, sides := range []int{2, 3, 6, 7, 10, 20, 100, 1000} {
		counts := make([]int, sides+1)
		const n = 20000
		for range n {
			r := s.Roll(dice.Expr{Count: 1, Sides: sides})
			require.Len(t, r.GetFaces(), 1)
			f := r.GetFaces()[0]
			require.GreaterOrEqual(t, f, int32(1), "d%d", sides)
			require.LessOrEqual(t, f, int32(sides), "d%d", sides)
			counts[f]++
		}
		if sides <= 20 {
			// Every face turns up, and none is far from n/sides (a fixed seed, so this
			// cannot flake).
			exp := n / sides
			for f := 1; f <= sides; f++ {
				require.InDelta(t, exp, counts[f], float64(exp)/5, "d%d face %d", sides, f)
			}
		}
	}
}

func TestD10Distribution(t *testing.T) {
	s, err := dice.NewStream(seed(9), 0)
	require.NoError(t, err)
	counts := map[int32]int{}
	for range 10000 {
		r := s.Roll(dice.D10(false))
		require.Equal(t, uint64(1), r.GetDraws(), "a plain d10 draws one word (rejection is vanishingly rare)")
		counts[r.GetTotal()]++
	}
	require.Len(t, counts, 10)
	for f := int32(1); f <= 10; f++ {
		require.InDelta(t, 1000, counts[f], 150, "face %d", f)
	}
}

func TestD20AndModifiers(t *testing.T) {
	s, err := dice.NewStream(seed(5), 0)
	require.NoError(t, err)
	d20, err := dice.Parse("d20")
	require.NoError(t, err)
	for range 1000 {
		r := s.Roll(d20)
		require.Len(t, r.GetFaces(), 1)
		require.Equal(t, r.GetFaces()[0], r.GetTotal())
		require.True(t, r.GetTotal() >= 1 && r.GetTotal() <= 20)
	}
	e, err := dice.Parse("3d6+2")
	require.NoError(t, err)
	for range 1000 {
		r := s.Roll(e)
		require.Len(t, r.GetFaces(), 3)
		require.Equal(t, int32(2), r.GetModifier())
		require.Equal(t, r.GetFaces()[0]+r.GetFaces()[1]+r.GetFaces()[2]+2, r.GetTotal())
		require.True(t, r.GetTotal() >= 5 && r.GetTotal() <= 20)
	}
	// A negative modifier may take the total below zero.
	r := dice.NewFixed(1).Roll(dice.Expr{Count: 1, Sides: 4, Modifier: -3})
	require.Equal(t, int32(-2), r.GetTotal())
	require.Equal(t, int32(-3), r.GetModifier())
}

func TestFixedExplosion(t *testing.T) {
	e, err := dice.Parse("1d10!")
	require.NoError(t, err)
	f := dice.NewFixed(10, 4)
	r := f.Roll(e)
	require.Equal(t, int32(14), r.GetTotal())
	require.Equal(t, []int32{10, 4}, r.GetFaces())
	require.Equal(t, uint64(2), r.GetDraws())
	require.Equal(t, uint64(0), r.GetOffset())
	require.Equal(t, "1d10!", r.GetExpression())
	require.Equal(t, 0, f.Left())

	// Repeated explosions add up; each die of a pool explodes on its own.
	f = dice.NewFixed(10, 10, 3, 2, 10, 1)
	r = f.Roll(dice.Expr{Count: 3, Sides: 10, Explode: true, Modifier: 1})
	require.Equal(t, []int32{10, 10, 3, 2, 10, 1}, r.GetFaces())
	require.Equal(t, int32(37), r.GetTotal())
	require.Equal(t, uint64(6), r.GetDraws())

	// Without "!" a 10 is just a 10.
	f = dice.NewFixed(10, 4)
	r = f.Roll(dice.D10(false))
	require.Equal(t, []int32{10}, r.GetFaces())
	require.Equal(t, int32(10), r.GetTotal())
	require.Equal(t, 1, f.Left())
	// The next roll starts at the next face, and records its offset.
	r = f.Roll(dice.D10(false))
	require.Equal(t, int32(4), r.GetTotal())
	require.Equal(t, uint64(1), r.GetOffset())
	require.Equal(t, 0, f.Left())
	require.Panics(t, func() { f.Roll(dice.D10(false)) })
}

func TestExplosionIsCapped(t *testing.T) {
	faces := make([]int32, 30)
	for i := range faces {
		faces[i] = 6
	}
	f := dice.NewFixed(faces...)
	r := f.Roll(dice.Expr{Count: 1, Sides: 6, Explode: true})
	require.Len(t, r.GetFaces(), dice.MaxExplosion+1)
	require.Equal(t, int32(6*(dice.MaxExplosion+1)), r.GetTotal())
	require.Equal(t, 30-(dice.MaxExplosion+1), f.Left())
}

func TestStreamExplosionsVerify(t *testing.T) {
	// Over many exploding d10s of a real stream some explode, each extra face follows a 10,
	// and every roll verifies.
	sd := seed(11)
	s, err := dice.NewStream(sd, 0)
	require.NoError(t, err)
	exploded := 0
	for range 2000 {
		r := s.Roll(dice.D10(true))
		fs := r.GetFaces()
		require.Equal(t, uint64(len(fs)), r.GetDraws())
		for i, f := range fs {
			require.True(t, f >= 1 && f <= 10)
			if i < len(fs)-1 {
				require.Equal(t, int32(10), f, "only a 10 is rolled again")
			}
		}
		require.NotEqual(t, int32(10), fs[len(fs)-1], "a roll never ends on a 10 below the cap")
		if len(fs) > 1 {
			exploded++
		}
		require.NoError(t, dice.Verify(sd, r))
	}
	require.InDelta(t, 200, exploded, 60)
}
