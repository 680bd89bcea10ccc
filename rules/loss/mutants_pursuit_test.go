package loss_test

import (
	"testing"

	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// LOS-100: sight is lost beyond the greatest distance, not at it. No knock-down of a released
// version reaches the greatest distance (6): a Clothesline makes 3 of 2, a shot at the legs 4
// of 3 at most. So the rule is checked under version 1 with a greatest distance of 3, as a
// version may set it: Diego's Clothesline at 2 leaves the vigile at 3, down and still in sight.
// Written against pursuitEffect's `Distance > MaxDistance` made `>=`, which lived in a
// gremlins run of decide_pursuit.go (issue 26).
func TestLOS100AKnockDownToTheGreatestDistanceKeepsSight(t *testing.T) {
	sys := loss.New(1)
	sys.MaxDistance = 3
	f := &fight{enginetest.NewFight(t, engine.NewRegistry(sys))}
	f.Setup(gm, createCmd(nil), fleeing(), vigile())
	f.start(7, 1) // Diego 15, the vigile 6
	f.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 2))
	f.do("david", pursue("diego", clothes, "vigile", 1), 8) // Athletics 12 + 8 = 20
	a := pursuitActed(t, f.do(gm, dodge("vigile", 0, nil), 7))
	require.True(t, a.GetTargetDown())
	require.False(t, a.GetEnded(), "in sight at the greatest distance")
	require.Equal(t, int32(3), a.GetDistance())
	require.Equal(t, int32(3), f.pursuit().GetDistance())
}
