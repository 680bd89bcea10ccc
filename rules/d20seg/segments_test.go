package d20seg_test

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// D20-004, D20-014: a combatant that may use segment −1 (and 6, 7) has, in the surprise round,
// the three surprise segments 0–2 as everyone does, not −1 to 2: after its free action it acts
// at 0, 1 and 2, and the round ends; from round 1 it starts at −1 again.
func TestD20_004_014_TheSurpriseRoundIsSegments0To2ForAll(t *testing.T) {
	f := newFight(t, &d20segv1.Options{SkipApprehension: proto.Bool(true)},
		sheet("haut", "Haut-niveau", initiative(0), extra(-1, 6, 7)),
		sheet("bas", "Bas-niveau", initiative(5), ca(100)))
	f.start()
	require.Equal(t, []int32{-1, 0}, f.next("haut", "bas"), "round 1: −1 for Haut (D20-014)")
	f.do(gm, surprise([]string{"haut"}, defender("bas"))) // no roll: Bas is surprised
	require.Equal(t, int32(0), f.round())
	require.Equal(t, []int32{0, 0}, f.next("haut", "bas"), "the surprise round starts at segment 0 (D20-004)")

	free := action(&d20segv1.Action{CombatantId: "haut", Kind: &d20segv1.Action_Other{Other: &d20segv1.Other{Description: "se cacher", Free: true}}})
	od := find(t, f.do(gm, free), (*d20segv1.Event).GetOtherDone)
	require.Equal(t, []int32{0, 0}, []int32{od.GetSegment(), od.GetCost()})
	require.Equal(t, int32(0), f.cs("haut").GetNextSegment())

	f.refuse(gm, other("haut", "fouiller", 4), engine.CodePrecondition, "D20-004",
		"fouiller costs 4 segments; Haut-niveau has 3 left in the surprise round (segments 0 to 2)")
	var segs []int32
	for f.round() == 0 {
		require.Equal(t, "haut", f.upNext(), "Bas is surprised")
		evs := f.do(gm, other("haut", "", 0))
		segs = append(segs, find(t, evs, (*d20segv1.Event).GetOtherDone).GetSegment())
	}
	require.Equal(t, []int32{0, 1, 2}, segs, "three surprise segments, 0–2")
	require.Equal(t, int32(1), f.round())
	require.Equal(t, []int32{-1, 0}, f.next("haut", "bas"), "round 1: −1 again")
	f.replay()
}
