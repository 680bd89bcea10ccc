package dice_test

import (
	"crypto/sha256"
	"errors"
	"testing"

	"github.com/fray-rpg/fray/rules/dice"
	"google.golang.org/protobuf/proto"
)

// FuzzDice: any text is either a dice expression or ErrNotation, never a panic; an
// expression prints as text that parses back to it; a roll of it from any seed, at any
// position its scheme allows, has faces on its dice, adds up, costs words in proportion to
// its dice (not to its position), and verifies, while the same roll with another total does
// not. Corpus: testdata/fuzz/FuzzDice.
func FuzzDice(f *testing.F) {
	for _, s := range []string{"1d10", "3d10+4", "1d10!", "d20", "2D6-1", " 100d1000! + 10000 ", "0d6", "1d1", "1d10+99999", "d", ""} {
		f.Add(s, []byte("seed"), uint64(0), uint32(2))
	}
	f.Add("4d6!", []byte{}, uint64(1)<<32, uint32(2))
	f.Add("1d10", []byte{1}, uint64(1)<<24, uint32(1))
	f.Add("1d10", []byte{2}, uint64(7), uint32(0))
	f.Add("1d10", []byte{3}, uint64(5), uint32(9))
	f.Fuzz(func(t *testing.T, expr string, seedText []byte, offset uint64, scheme uint32) {
		e, err := dice.Parse(expr)
		if err != nil {
			if !errors.Is(err, dice.ErrNotation) {
				t.Fatalf("Parse(%q): %v is not ErrNotation", expr, err)
			}
			return
		}
		if again, err := dice.Parse(e.String()); err != nil || again != e {
			t.Fatalf("Parse(%q) = %+v, printed %q, parsed back %+v, %v", expr, e, e.String(), again, err)
		}
		sum := sha256.Sum256(seedText)
		seed := sum[:]
		sch := dice.SchemeOf(scheme)
		if sch == dice.Scheme1 {
			offset %= 1 << 12 // scheme 1 seeks word by word: keep each input quick
		}
		s, err := dice.NewStreamScheme(sch, seed, offset)
		if err != nil {
			if dice.CheckOffset(sch, offset, 0) == nil {
				t.Fatalf("NewStreamScheme(%d, %d): %v, yet the position is allowed", sch, offset, err)
			}
			return
		}
		r := s.Roll(e)
		total := int32(e.Modifier)
		for _, face := range r.GetFaces() {
			if face < 1 || int(face) > e.Sides {
				t.Fatalf("%s rolled a face %d", e, face)
			}
			total += face
		}
		if n := len(r.GetFaces()); n < e.Count || n > e.Count*(dice.MaxExplosion+1) {
			t.Fatalf("%s rolled %d faces", e, n)
		}
		if total != r.GetTotal() || r.GetOffset() != offset || r.GetDraws() < uint64(len(r.GetFaces())) {
			t.Fatalf("%s: %v", e, r)
		}
		// Rejection sampling redraws a word at most rarely: a roll's cost is its dice's.
		if r.GetDraws() > 64*uint64(len(r.GetFaces())) {
			t.Fatalf("%s drew %d words for %d faces", e, r.GetDraws(), len(r.GetFaces()))
		}
		if err := dice.CheckOffset(sch, offset, r.GetDraws()); err != nil {
			return // the roll ends past the bound: not one an encounter may record
		}
		if err := dice.Verify(seed, r); err != nil {
			t.Fatalf("%s at %d under scheme %d does not verify: %v", e, offset, sch, err)
		}
		forged := proto.CloneOf(r)
		forged.Total++
		if dice.Verify(seed, forged) == nil {
			t.Fatalf("a forged total verifies: %v", forged)
		}
	})
}
