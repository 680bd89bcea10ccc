package d20seg_test

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// D20-022, D20-018, D20-015: with one segment left, a combatant may still take an action of 1
// segment (other, D20-022) or cast a level-0 spell (1 segment, D20-018), not attack at BBA 0
// (4 segments); its action at segment 5 ends the round.
func TestD20_022_OneSegmentLeftStillAllowsAnAction(t *testing.T) {
	f := newFight(t, nil, sheet("aldric", "Aldric", initiative(5)), sheet("berthe", "Berthe", initiative(1)))
	f.start()
	f.do(gm, other("aldric", "", 4))
	f.do(gm, endTurn("berthe"))
	require.Equal(t, []string{"cast", "cast", "other", "end turn"}, f.legal("aldric"), "2 left, segments 4–5")
	f.do(gm, other("aldric", "", 0))
	require.Equal(t, int32(5), f.cs("aldric").GetNextSegment())
	require.Equal(t, []string{"cast", "other", "end turn"}, f.legal("aldric"), "1 left, segment 5")
	legal, err := f.Reg.Legal(f.St, "aldric")
	require.NoError(t, err)
	require.Equal(t, []any{int32(1), "D20-018"}, []any{legal[0].GetCost(), legal[0].GetRule()})
	require.Equal(t, []any{int32(1), "D20-022"}, []any{legal[1].GetCost(), legal[1].GetRule()})
	rs := find(t, f.do(gm, other("aldric", "dégainer", 0)), (*d20segv1.Event).GetRoundStarted)
	require.Equal(t, int32(2), rs.GetRound(), "segments 0–5 used: the round ends")
	f.replay()
}

// D20-020, D20-014: with carry_over, an action runs on into the next round, no further than the
// segments the combatant has there: 9 (−1 to 7) for one whose sheet gives −1, 6 and 7. At its
// last segment, 7, Haut may start 10 segments (7, then 9 of round 2), not 11; in round 2 it
// is then at segment 8, past its last, and does not act.
func TestD20_020_CarryOverIntoNineSegments(t *testing.T) {
	f := newFight(t, &d20segv1.Options{CarryOver: proto.Bool(true)},
		sheet("haut", "Haut-niveau", initiative(0), extra(-1, 6, 7)), pell())
	f.start()
	require.Equal(t, "haut", f.upNext())
	od := find(t, f.do(gm, other("haut", "", 8)), (*d20segv1.Event).GetOtherDone)
	require.Equal(t, []int32{-1, 8}, []int32{od.GetSegment(), od.GetCost()})
	f.do(gm, endTurn("pell"))
	require.Equal(t, int32(7), f.cs("haut").GetNextSegment())
	f.refuse(gm, other("haut", "rituel", 11), engine.CodePrecondition, "D20-020",
		"rituel costs 11 segments; Haut-niveau has 1 left this round (segments 7 to 7), and an action carries over into the next round only (9 segments there)")
	evs := f.do(gm, other("haut", "rituel", 10))
	rs := find(t, evs, (*d20segv1.Event).GetRoundStarted)
	require.Equal(t, int32(2), rs.GetRound())
	require.Len(t, rs.GetCarried(), 1)
	require.Equal(t, []any{"haut", int32(9)}, []any{rs.GetCarried()[0].GetCombatantId(), rs.GetCarried()[0].GetSegments()})
	require.Equal(t, []int32{8, 0}, f.next("haut", "pell"), "−1 + 9: past segment 7")
	require.Equal(t, "pell", f.upNext())
	evs = f.do(gm, endTurn("pell"))
	require.Equal(t, int32(3), find(t, evs, (*d20segv1.Event).GetRoundStarted).GetRound())
	require.Equal(t, []int32{-1, 0}, f.next("haut", "pell"))
	f.replay()
}

// D20-017, D20-004: the state counts the attacks of the round that cost segments — the count
// that makes a BBA 16+ combatant's first attack cost 1 and the next ones 2 —, not a surprise
// free action, and starts again at 0 each round.
func TestD20_017_AttacksOfTheRoundAreCounted(t *testing.T) {
	f := newFight(t, &d20segv1.Options{SkipApprehension: proto.Bool(true)},
		sheet("gaston", "Gaston", bba(16), initiative(5)), pell())
	f.start()
	f.do(gm, surprise([]string{"gaston"}, defender("pell")))
	f.do(gm, freeAttack("gaston", "pell"), 1)
	require.Equal(t, int32(0), f.cs("gaston").GetAttacksThisRound(), "the free action is not one of the round's attacks")
	ar := find(t, f.do(gm, attack("gaston", "pell"), 1), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, []int32{0, 1}, []int32{ar.GetSegment(), ar.GetCost()})
	require.Equal(t, int32(1), f.cs("gaston").GetAttacksThisRound())
	evs := f.do(gm, attack("gaston", "pell"), 1) // at 1, 2 segments: the surprise round ends
	require.Equal(t, int32(2), find(t, evs, (*d20segv1.Event).GetAttackRolled).GetCost())
	require.Equal(t, int32(1), find(t, evs, (*d20segv1.Event).GetRoundStarted).GetRound())
	require.Equal(t, int32(0), f.cs("gaston").GetAttacksThisRound(), "round 1 starts again at 0")
	for n, want := range []int32{1, 2, 2} {
		ar := find(t, f.do(gm, attack("gaston", "pell"), 1), (*d20segv1.Event).GetAttackRolled)
		require.Equal(t, want, ar.GetCost(), "attack %d", n+1)
		require.Equal(t, int32(n+1), f.cs("gaston").GetAttacksThisRound())
		if n == 0 {
			f.do(gm, endTurn("pell")) // at segment 0, before Gaston at 1
		}
	}
	f.replay()
}
