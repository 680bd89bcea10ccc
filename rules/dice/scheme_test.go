package dice_test

import (
	"crypto/sha256"
	"encoding/binary"
	mrand "math/rand/v2"
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func vectorSeed() []byte {
	s := sha256.Sum256([]byte("fray dice vectors"))
	return s[:]
}

// Scheme 1 is exactly what it was: these faces were drawn by the code before schemes existed
// (commit e6ae9f5), and NewStream, NewStreamScheme(Scheme1) and Verify give them still.
func TestScheme1Vectors(t *testing.T) {
	for _, tc := range []struct {
		expr   string
		offset uint64
		faces  []int32
		total  int32
		draws  uint64
	}{
		{"3d10", 0, []int32{3, 3, 7}, 13, 3},
		{"1d20+2", 7, []int32{2}, 4, 1},
		{"4d6!", 1000, []int32{5, 4, 3, 3}, 15, 4},
		{"2d1000", 1 << 16, []int32{975, 463}, 1438, 2},
	} {
		e, err := dice.Parse(tc.expr)
		require.NoError(t, err)
		old, err := dice.NewStream(vectorSeed(), tc.offset)
		require.NoError(t, err)
		viaScheme, err := dice.NewStreamScheme(dice.Scheme1, vectorSeed(), tc.offset)
		require.NoError(t, err)
		want := &dicev1.Roll{Expression: tc.expr, Faces: tc.faces, Modifier: int32(e.Modifier), Total: tc.total, Offset: tc.offset, Draws: tc.draws}
		for _, s := range []*dice.Stream{old, viaScheme} {
			require.Equal(t, dice.Scheme1, s.Scheme())
			got := s.Roll(e)
			require.True(t, proto.Equal(want, got), "%s at %d: want %v, got %v", tc.expr, tc.offset, want, got)
		}
		require.NoError(t, dice.Verify(vectorSeed(), want))
	}
}

// A scheme-2 stream is one continuous stream: word k is word k%64 of ChaCha8 keyed by
// sha256(seed || "fray dice v2" || k/64 big-endian), whether drawn from offset 0 or opened at k.
func TestScheme2Construction(t *testing.T) {
	sd := vectorSeed()
	want := func(k uint64) uint64 {
		buf := append(append(append([]byte{}, sd...), "fray dice v2"...), binary.BigEndian.AppendUint64(nil, k/dice.BlockWords)...)
		src := mrand.NewChaCha8(sha256.Sum256(buf))
		for range k % dice.BlockWords {
			src.Uint64()
		}
		return src.Uint64()
	}
	from0, err := dice.NewStreamScheme(dice.Scheme2, sd, 0)
	require.NoError(t, err)
	for k := range uint64(3*dice.BlockWords + 5) {
		require.Equal(t, want(k), dice.Word(from0), "word %d drawn from 0", k)
	}
	for _, k := range []uint64{1, dice.BlockWords - 1, dice.BlockWords, 1 << 40, 1<<40 + dice.BlockWords - 1, 1<<64 - 1} {
		s, err := dice.Seek2(sd, k)
		require.NoError(t, err)
		require.Equal(t, want(k), dice.Word(s), "word %d opened there", k)
		if _, err := dice.NewStreamScheme(dice.Scheme2, sd, k); k > dice.Scheme2.MaxOffset() {
			require.ErrorIs(t, err, dice.ErrOffset, "beyond an encounter's bound")
		} else {
			require.NoError(t, err)
		}
	}

	// Rolls across block boundaries re-derive from their own offsets, and record scheme 2.
	e, err := dice.Parse("7d10!+1")
	require.NoError(t, err)
	s, err := dice.NewStreamScheme(dice.Scheme2, sd, dice.BlockWords-3)
	require.NoError(t, err)
	for range 40 {
		r := s.Roll(e)
		require.Equal(t, uint32(2), r.GetScheme())
		again, err := dice.Rederive(sd, r)
		require.NoError(t, err)
		require.True(t, proto.Equal(r, again), "%v vs %v", r, again)
	}
	require.Greater(t, s.Offset(), uint64(4*dice.BlockWords))

	// The two schemes are different streams of one seed.
	s1, _ := dice.NewStream(sd, 0)
	s2, _ := dice.NewStreamScheme(dice.Scheme2, sd, 0)
	require.NotEqual(t, dice.Word(s1), dice.Word(s2))
}

// Opening a scheme-2 stream costs one key derivation and fewer than BlockWords draws at any
// offset, counted (not timed); scheme 1 draws every word before the offset.
func TestScheme2SeekCostsTheSame(t *testing.T) {
	const n = dice.BlockWords
	for _, tc := range []struct {
		offset  uint64
		skipped uint64
	}{
		{0, 0}, {1, 1}, {n - 1, n - 1}, {n, 0}, {n + 1, 1},
		{1 << 32, 0}, {1 << 40, 0}, {1<<40 + 1, 1}, {1<<40 + n - 1, n - 1}, {1<<63 + n - 1, n - 1},
	} {
		// Seek2 is NewStreamScheme(Scheme2) without the bound (2^32), which refuses the
		// offsets beyond it before any work.
		s, err := dice.Seek2(vectorSeed(), tc.offset)
		require.NoError(t, err)
		keys, skipped := dice.SeekCost(s)
		require.Equal(t, uint64(1), keys, "offset %d: one key", tc.offset)
		require.Equal(t, tc.skipped, skipped, "offset %d: words drawn to get there", tc.offset)
		// A d10 from there (a word, or very rarely two): still that one key, or the next
		// block's on crossing into it.
		r := s.Roll(dice.D10(false))
		keys, _ = dice.SeekCost(s)
		require.LessOrEqual(t, keys, uint64(2))
		require.Equal(t, tc.offset+r.GetDraws(), s.Offset())
	}
	s, err := dice.NewStream(vectorSeed(), 100_000)
	require.NoError(t, err)
	_, skipped := dice.SeekCost(s)
	require.Equal(t, uint64(100_000), skipped, "scheme 1 draws its way there")
}

func TestCheckOffset(t *testing.T) {
	for _, tc := range []struct {
		scheme        dice.Scheme
		offset, draws uint64
		ok            bool
	}{
		{dice.Scheme1, 0, 0, true},
		{dice.Scheme1, 1 << 24, 0, true},
		{dice.Scheme1, 1<<24 + 1, 0, false},
		{dice.Scheme1, 1<<24 - 1, 2, false},
		{dice.Scheme2, 1 << 32, 0, true},
		{dice.Scheme2, 1 << 36, 0, false},
		{dice.Scheme2, 1 << 62, 0, false},
		{dice.Scheme2, 5, 1<<64 - 1, false},
		{dice.Scheme(0), 0, 0, false},
		{dice.Scheme(3), 0, 0, false},
	} {
		err := dice.CheckOffset(tc.scheme, tc.offset, tc.draws)
		if tc.ok {
			require.NoError(t, err, "%+v", tc)
		} else {
			require.Error(t, err, "%+v", tc)
		}
	}
	require.Equal(t, dice.Scheme1, dice.SchemeOf(0))
	require.Equal(t, dice.Scheme2, dice.SchemeOf(2))
	require.Equal(t, uint32(0), dice.Scheme1.Recorded())
	require.Equal(t, uint32(2), dice.Latest.Recorded())
}

// Verify takes the scheme from the roll, either one; a tampered roll, a roll relabelled to
// the other scheme, an unknown scheme and a position beyond the bound are refused, the last
// before anything is drawn (a scheme-1 roll at 2^36 would draw for minutes).
func TestVerifyBothSchemes(t *testing.T) {
	sd := vectorSeed()
	e, err := dice.Parse("3d10!+2")
	require.NoError(t, err)
	for _, scheme := range []dice.Scheme{dice.Scheme1, dice.Scheme2} {
		s, err := dice.NewStreamScheme(scheme, sd, 12_345)
		require.NoError(t, err)
		v := dice.NewVerifier(sd)
		for range 20 {
			r := s.Roll(e)
			require.Equal(t, scheme.Recorded(), r.GetScheme())
			require.NoError(t, dice.Verify(sd, r))
			require.NoError(t, v.Verify(r), "in stream order")

			other := proto.CloneOf(r)
			other.Scheme = map[dice.Scheme]uint32{dice.Scheme1: 2, dice.Scheme2: 0}[scheme]
			require.Error(t, dice.Verify(sd, other), "the same faces under the other scheme")
			tampered := proto.CloneOf(r)
			tampered.Faces[0] = tampered.Faces[0]%10 + 1
			require.Error(t, dice.Verify(sd, tampered))
		}
		// Verifying out of order (a rewind in an old log) still works.
		first, err := dice.NewStreamScheme(scheme, sd, 12_345)
		require.NoError(t, err)
		require.NoError(t, v.Verify(first.Roll(e)))

		far := &dicev1.Roll{Expression: "1d10", Faces: []int32{1}, Total: 1, Offset: 1 << 36, Draws: 1, Scheme: scheme.Recorded()}
		require.ErrorIs(t, dice.Verify(sd, far), dice.ErrOffset)
	}
	require.ErrorContains(t, dice.Verify(sd, &dicev1.Roll{Expression: "1d10", Faces: []int32{1}, Total: 1, Draws: 1, Scheme: 3}), "scheme 3 is unknown")
}

// BenchmarkSeek opens a stream at an offset and rolls one d10, under each scheme.
func BenchmarkSeek(b *testing.B) {
	sd := vectorSeed()
	for _, bc := range []struct {
		name   string
		scheme dice.Scheme
		offset uint64
	}{
		{"scheme1/0", dice.Scheme1, 0},
		{"scheme1/2^10", dice.Scheme1, 1 << 10},
		{"scheme1/2^16", dice.Scheme1, 1 << 16},
		{"scheme1/2^20", dice.Scheme1, 1 << 20},
		{"scheme2/0", dice.Scheme2, 0},
		{"scheme2/63", dice.Scheme2, dice.BlockWords - 1},
		{"scheme2/2^10", dice.Scheme2, 1 << 10},
		{"scheme2/2^20", dice.Scheme2, 1 << 20},
		{"scheme2/2^32", dice.Scheme2, 1 << 32},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				s, err := dice.NewStreamScheme(bc.scheme, sd, bc.offset)
				if err != nil {
					b.Fatal(err)
				}
				s.Roll(dice.D10(false))
			}
		})
	}
}
