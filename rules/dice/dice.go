// Package dice draws an encounter's dice from a ChaCha8 stream keyed by a 32-byte seed and
// records every roll (expression, faces, stream offset) so that replays never roll again and
// anyone holding the revealed seed can re-derive each roll.
package dice

import (
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/bits"
	mrand "math/rand/v2"
	"regexp"
	"slices"
	"strconv"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
)

// SeedSize is the size of an encounter's seed in bytes.
const SeedSize = 32

// Limits on one expression, so a roll stays small enough to record.
const (
	MaxDice      = 100
	MaxSides     = 1000
	MaxModifier  = 10000
	MaxExplosion = 20 // rerolls of one exploding die
)

// NewSeed returns a fresh seed from crypto/rand.
func NewSeed() []byte {
	seed := make([]byte, SeedSize)
	_, _ = rand.Read(seed) // crypto/rand.Read never fails (Go 1.24+).
	return seed
}

// Commitment is the published sha256 of a seed.
func Commitment(seed []byte) []byte {
	sum := sha256.Sum256(seed)
	return sum[:]
}

// Expr is a parsed dice expression: Count dice of Sides faces, plus Modifier; with Explode a
// die showing its highest face is rolled again and added.
type Expr struct {
	Count, Sides, Modifier int
	Explode                bool
}

// D10 is one ten-sided die, exploding or not.
func D10(explode bool) Expr { return Expr{Count: 1, Sides: 10, Explode: explode} }

// String renders the expression in the notation Parse reads.
func (e Expr) String() string {
	s := fmt.Sprintf("%dd%d", e.Count, e.Sides)
	if e.Explode {
		s += "!"
	}
	switch {
	case e.Modifier > 0:
		s += "+" + strconv.Itoa(e.Modifier)
	case e.Modifier < 0:
		s += strconv.Itoa(e.Modifier)
	}
	return s
}

var notation = regexp.MustCompile(`^\s*(\d*)[dD](\d+)(!?)\s*(?:([+-])\s*(\d+))?\s*$`)

// ErrNotation is returned for an expression Parse cannot read.
var ErrNotation = errors.New("dice notation")

// Parse reads "NdX", "NdX!", "NdX+K", "dX-K" (N defaults to 1).
func Parse(s string) (Expr, error) {
	m := notation.FindStringSubmatch(s)
	if m == nil {
		return Expr{}, fmt.Errorf("%w: %q is not of the form NdX+K (e.g. 3d10+4, 1d10!, d20)", ErrNotation, s)
	}
	e := Expr{Count: 1, Explode: m[3] == "!"}
	if m[1] != "" {
		e.Count, _ = strconv.Atoi(m[1])
	}
	e.Sides, _ = strconv.Atoi(m[2])
	if m[5] != "" {
		e.Modifier, _ = strconv.Atoi(m[5])
		if m[4] == "-" {
			e.Modifier = -e.Modifier
		}
	}
	switch {
	case e.Count < 1 || e.Count > MaxDice:
		return Expr{}, fmt.Errorf("%w: %q rolls %d dice; between 1 and %d may be rolled", ErrNotation, s, e.Count, MaxDice)
	case e.Sides < 2 || e.Sides > MaxSides:
		return Expr{}, fmt.Errorf("%w: %q has dice of %d faces; between 2 and %d are allowed", ErrNotation, s, e.Sides, MaxSides)
	case e.Modifier > MaxModifier || e.Modifier < -MaxModifier:
		return Expr{}, fmt.Errorf("%w: %q adds %d; at most %d either way", ErrNotation, s, e.Modifier, MaxModifier)
	}
	return e, nil
}

// Roller rolls dice and records them.
type Roller interface {
	Roll(Expr) *dicev1.Roll
}

// Stream is an encounter's dice stream: ChaCha8 keyed by the seed, positioned at an offset
// counted in 64-bit words.
type Stream struct {
	src    *mrand.ChaCha8
	offset uint64
}

// NewStream returns the stream of seed positioned at offset.
func NewStream(seed []byte, offset uint64) (*Stream, error) {
	if len(seed) != SeedSize {
		return nil, fmt.Errorf("a dice seed has %d bytes, not %d", SeedSize, len(seed))
	}
	s := &Stream{src: mrand.NewChaCha8([SeedSize]byte(seed))}
	for range offset {
		s.src.Uint64()
	}
	s.offset = offset
	return s, nil
}

// Offset is the number of words drawn so far.
func (s *Stream) Offset() uint64 { return s.offset }

func (s *Stream) word() uint64 {
	s.offset++
	return s.src.Uint64()
}

// face draws a uniform face in [1, sides]. It uses Lemire's multiply-and-reject method written
// out here, rather than math/rand/v2's IntN, so that the mapping from stream words to faces is
// fixed by this code and not by a Go release: an audit must re-derive the same faces forever.
func (s *Stream) face(sides int) int32 {
	n := uint64(sides)
	hi, lo := bits.Mul64(s.word(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(s.word(), n)
		}
	}
	return int32(hi) + 1
}

// Roll draws e from the stream.
func (s *Stream) Roll(e Expr) *dicev1.Roll {
	start := s.offset
	r := roll(e, func() int32 { return s.face(e.Sides) })
	r.Offset, r.Draws = start, s.offset-start
	return r
}

func roll(e Expr, face func() int32) *dicev1.Roll {
	r := &dicev1.Roll{Expression: e.String(), Modifier: int32(e.Modifier), Total: int32(e.Modifier)}
	for range e.Count {
		for n := 0; ; n++ {
			f := face()
			r.Faces = append(r.Faces, f)
			r.Total += f
			if !e.Explode || int(f) != e.Sides || n == MaxExplosion {
				break
			}
		}
	}
	return r
}

// Fixed is a Roller that returns given faces in order, for tests and worked examples. Each
// face counts as one word of the stream.
type Fixed struct {
	faces  []int32
	offset uint64
}

// NewFixed returns a Roller that yields faces in order and panics when they run out.
func NewFixed(faces ...int32) *Fixed { return &Fixed{faces: faces} }

// Roll implements Roller.
func (f *Fixed) Roll(e Expr) *dicev1.Roll {
	start := f.offset
	r := roll(e, func() int32 {
		if int(f.offset) >= len(f.faces) {
			panic(fmt.Sprintf("dice.Fixed: roll %s needs more than the %d faces given", e, len(f.faces)))
		}
		v := f.faces[f.offset]
		f.offset++
		return v
	})
	r.Offset, r.Draws = start, f.offset-start
	return r
}

// Left is the number of faces not yet used.
func (f *Fixed) Left() int { return len(f.faces) - int(f.offset) }

// Rederive rolls the recorded expression again from seed at the recorded offset.
func Rederive(seed []byte, recorded *dicev1.Roll) (*dicev1.Roll, error) {
	e, err := Parse(recorded.GetExpression())
	if err != nil {
		return nil, err
	}
	s, err := NewStream(seed, recorded.GetOffset())
	if err != nil {
		return nil, err
	}
	return s.Roll(e), nil
}

// Verify re-derives a recorded roll and reports any difference.
func Verify(seed []byte, recorded *dicev1.Roll) error {
	got, err := Rederive(seed, recorded)
	if err != nil {
		return err
	}
	if !slices.Equal(got.Faces, recorded.GetFaces()) || got.Total != recorded.GetTotal() || got.Draws != recorded.GetDraws() {
		return fmt.Errorf("roll %s at offset %d recorded faces %v (total %d), the seed gives %v (total %d)",
			recorded.GetExpression(), recorded.GetOffset(), recorded.GetFaces(), recorded.GetTotal(), got.Faces, got.Total)
	}
	return nil
}
