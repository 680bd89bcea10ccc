// Package dice draws an encounter's dice from a ChaCha8 stream keyed by a 32-byte seed and
// records every roll (expression, faces, stream offset) so that replays never roll again and
// anyone holding the revealed seed can re-derive each roll.
package dice

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
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

// Scheme is how an encounter's seed becomes its dice stream. An encounter records its scheme
// at creation (EncounterCreated.dice_scheme, 0 or absent meaning Scheme1) and every roll of the
// encounter uses it; a roll records it too (Roll.scheme, likewise), so Verify needs only the
// roll and the seed. A scheme never changes once released: old logs audit forever.
type Scheme uint32

const (
	// Scheme1 is one ChaCha8 stream keyed by the seed: a position is reached by drawing every
	// word before it, so seeking costs time linear in the offset. Encounters created before
	// schemes existed use it; nothing new does.
	Scheme1 Scheme = 1
	// Scheme2 cuts the stream into blocks of BlockWords words, block b drawn from ChaCha8
	// keyed by sha256(seed || "fray dice v2" || b as 8 bytes big-endian): a position costs one
	// key derivation and fewer than BlockWords draws, at any offset.
	Scheme2 Scheme = 2
	// Latest is the scheme a new encounter records.
	Latest = Scheme2
)

// BlockWords is the number of 64-bit words in one block of Scheme2.
const BlockWords = 64

// SchemeOf reads a recorded scheme number: 0 (absent, as in every log written before schemes
// existed) is Scheme1.
func SchemeOf(recorded uint32) Scheme {
	if recorded == 0 {
		return Scheme1
	}
	return Scheme(recorded)
}

// Recorded is the number a log records for s: Scheme1 is recorded as 0 (absent), as before
// schemes existed, so an old log and a new one of the same scheme record the same bytes.
func (s Scheme) Recorded() uint32 {
	if s == Scheme1 {
		return 0
	}
	return uint32(s)
}

// Known reports whether s is a scheme this package can draw.
func (s Scheme) Known() bool { return s == Scheme1 || s == Scheme2 }

// MaxOffset is the furthest position (in words) an encounter's dice may reach under s, which
// no recorded roll, state or request may exceed; see CheckOffset.
//
// Scheme2 positions are bounded by what an encounter can use: 2^32 words is 20 times what
// 100,000 events (the encounter service's default MaxEvents) would draw if every one rolled
// the largest expression there is (100 dice each exploding 20 times: 2,100 words).
// Scheme1 seeks word by word (about 1 s of a core per 2^28 words), so it keeps the bound of
// the Roll RPC, 2^24 words (under 0.1 s): only encounters created before Scheme2 use it.
func (s Scheme) MaxOffset() uint64 {
	if s == Scheme1 {
		return 1 << 24
	}
	return 1 << 32
}

// ErrOffset is returned for a dice position beyond its scheme's MaxOffset.
var ErrOffset = errors.New("dice offset out of bounds")

// CheckOffset refuses an unknown scheme, and a position (or a roll ending there) beyond the
// scheme's MaxOffset, without drawing anything.
func CheckOffset(s Scheme, offset, draws uint64) error {
	if !s.Known() {
		return fmt.Errorf("dice scheme %d is unknown: this fray knows schemes 1 and 2", s)
	}
	if offset > s.MaxOffset() || draws > s.MaxOffset()-offset {
		return fmt.Errorf("%w: position %d (+%d words) is beyond %d, the furthest an encounter's dice reach under scheme %d", ErrOffset, offset, draws, s.MaxOffset(), s)
	}
	return nil
}

// Stream is an encounter's dice stream under a Scheme, positioned at an offset counted in
// 64-bit words.
type Stream struct {
	scheme Scheme
	seed   [SeedSize]byte
	src    *mrand.ChaCha8
	offset uint64
	left   uint64 // words left in the current block (Scheme2)
	// What positioning cost: keys derived and words drawn only to reach a position.
	keys, skipped uint64
}

// NewStream returns the Scheme1 stream of seed positioned at offset. It draws every word
// before offset: callers bound offset first (CheckOffset, or NewStreamScheme).
func NewStream(seed []byte, offset uint64) (*Stream, error) {
	if len(seed) != SeedSize {
		return nil, fmt.Errorf("a dice seed has %d bytes, not %d", SeedSize, len(seed))
	}
	s := &Stream{scheme: Scheme1, seed: [SeedSize]byte(seed), src: mrand.NewChaCha8([SeedSize]byte(seed))}
	for range offset {
		s.src.Uint64()
	}
	s.offset, s.skipped = offset, offset
	return s, nil
}

// NewStreamScheme returns the stream of seed under scheme positioned at offset, after
// CheckOffset: a Scheme2 stream costs the same to open at any offset.
func NewStreamScheme(scheme Scheme, seed []byte, offset uint64) (*Stream, error) {
	if err := CheckOffset(scheme, offset, 0); err != nil {
		return nil, err
	}
	if scheme == Scheme1 {
		return NewStream(seed, offset)
	}
	return seek2(seed, offset)
}

// seek2 positions a Scheme2 stream at any offset: one key derivation, offset%BlockWords draws.
func seek2(seed []byte, offset uint64) (*Stream, error) {
	if len(seed) != SeedSize {
		return nil, fmt.Errorf("a dice seed has %d bytes, not %d", SeedSize, len(seed))
	}
	s := &Stream{scheme: Scheme2, seed: [SeedSize]byte(seed)}
	s.rekey(offset / BlockWords)
	for range offset % BlockWords {
		s.src.Uint64()
		s.left--
		s.skipped++
	}
	s.offset = offset
	return s, nil
}

// blockKey is the ChaCha8 key of block b of a Scheme2 stream.
func blockKey(seed [SeedSize]byte, b uint64) [32]byte {
	buf := make([]byte, 0, SeedSize+len(scheme2Label)+8)
	buf = append(buf, seed[:]...)
	buf = append(buf, scheme2Label...)
	buf = binary.BigEndian.AppendUint64(buf, b)
	return sha256.Sum256(buf)
}

const scheme2Label = "fray dice v2"

func (s *Stream) rekey(block uint64) {
	s.src = mrand.NewChaCha8(blockKey(s.seed, block))
	s.left = BlockWords
	s.keys++
}

// Scheme is the stream's scheme.
func (s *Stream) Scheme() Scheme { return s.scheme }

// Offset is the number of words drawn so far.
func (s *Stream) Offset() uint64 { return s.offset }

func (s *Stream) word() uint64 {
	if s.scheme == Scheme2 {
		if s.left == 0 {
			s.rekey(s.offset / BlockWords)
		}
		s.left--
	}
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
	r.Offset, r.Draws, r.Scheme = start, s.offset-start, s.scheme.Recorded()
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

// Rederive rolls the recorded expression again from seed at the recorded offset, under the
// recorded scheme; an offset beyond the scheme's bound is refused before anything is drawn.
func Rederive(seed []byte, recorded *dicev1.Roll) (*dicev1.Roll, error) {
	e, err := Parse(recorded.GetExpression())
	if err != nil {
		return nil, err
	}
	s, err := NewStreamScheme(SchemeOf(recorded.GetScheme()), seed, recorded.GetOffset())
	if err != nil {
		return nil, err
	}
	return s.Roll(e), nil
}

// Verify re-derives a recorded roll (either scheme, the one it records) and reports any
// difference. A position beyond the scheme's bound is refused before anything is drawn.
func Verify(seed []byte, recorded *dicev1.Roll) error {
	return NewVerifier(seed).Verify(recorded)
}

// Verifier verifies many rolls of one seed. A Scheme1 stream can only be drawn forwards, so
// it keeps its place: rolls verified in stream order cost their own draws, not their offsets.
type Verifier struct {
	seed []byte
	s1   *Stream
}

// NewVerifier returns a Verifier of rolls drawn from seed.
func NewVerifier(seed []byte) *Verifier { return &Verifier{seed: seed} }

// Verify is dice.Verify, keeping the Scheme1 stream's place for the next roll.
func (v *Verifier) Verify(recorded *dicev1.Roll) error {
	scheme, off := SchemeOf(recorded.GetScheme()), recorded.GetOffset()
	if err := CheckOffset(scheme, off, recorded.GetDraws()); err != nil {
		return err
	}
	e, err := Parse(recorded.GetExpression())
	if err != nil {
		return err
	}
	var s *Stream
	if scheme == Scheme1 {
		if v.s1 == nil || v.s1.offset > off {
			if v.s1, err = NewStream(v.seed, 0); err != nil {
				return err
			}
		}
		for range off - v.s1.offset {
			v.s1.word()
			v.s1.skipped++
		}
		s = v.s1
	} else if s, err = seek2(v.seed, off); err != nil {
		return err
	}
	got := s.Roll(e)
	if !slices.Equal(got.Faces, recorded.GetFaces()) || got.Total != recorded.GetTotal() || got.Draws != recorded.GetDraws() {
		return fmt.Errorf("roll %s at offset %d recorded faces %v (total %d), the seed gives %v (total %d)",
			recorded.GetExpression(), recorded.GetOffset(), recorded.GetFaces(), recorded.GetTotal(), got.Faces, got.Total)
	}
	return nil
}
