package d20seg_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/stretchr/testify/require"
)

// tieFight: Aldric (the player's), a visible guard (Initiative 5) and the GM's hidden ogre of
// Initiative ogreInit, its roll-off with Aldric (Initiative 2) drawn from rollOff when they
// tie (D20-011); the dice drawn from one stream as the service draws them. The ogre acts
// before Aldric when first is set. Everything else rolls the same.
func tieFight(t *testing.T, ogreInit int32, rollOff []int32, first bool) *enginetest.Script {
	ogre := sheet("ogre", "L'ogre", initiative(ogreInit))
	ogre.Hidden, ogre.Side = true, "monstres"
	s := enginetest.NewScript(t, engine.NewRegistry(d20seg.New(1)))
	s.Do(gm, createCmd(nil))
	s.Do(gm, addCmd(pc(sheet("aldric", "Aldric"))))
	s.Do(gm, addCmd(sheet("garde", "Le garde", initiative(5))))
	s.Do(gm, addCmd(ogre))
	s.Do(gm, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, rollOff...)
	s.Do(gm, endTurn("garde"))
	turns := []func(){
		func() { s.Do(player, attack("aldric", "ogre"), 16, 7) }, // 16 against CA 10: 7 damage
		func() { s.Do(gm, attack("ogre", "aldric"), 12, 6) },     // 12 against CA 10: 6 damage
		func() { s.Do(player, endTurn("aldric")) },
		func() { s.Do(gm, endTurn("ogre")) },
	}
	if first { // the ogre's turn first, at each segment
		turns[0], turns[1], turns[2], turns[3] = turns[1], turns[0], turns[3], turns[2]
	}
	for _, turn := range turns {
		turn()
	}
	s.Do(gm, endTurn("garde")) // round 2
	if first {
		s.Do(gm, endTurn("ogre"))
	}
	s.Do(player, attack("aldric", "garde"), 3) // 3 against CA 10: missed
	return s
}

// TestATieWithAHiddenCombatantLeavesNoTrace: a roll-off is rolled only when Initiatives tie
// (D20-011), so where the dice stream stands after the start, and Aldric's own place in the
// roll-off (his tie order), would tell Aldric's player that the hidden ogre's Initiative
// equals his. Two fights alike but for the ogre's hidden Initiative — equal to Aldric's, the
// roll-off deciding, or just off it, acting in the same order — give his player and an
// observer the very same bytes, every event and every state; the GM tells them apart.
func TestATieWithAHiddenCombatantLeavesNoTrace(t *testing.T) {
	for _, c := range []struct {
		name           string
		tied, untied   *enginetest.Script
		aldricTieOrder int32
	}{
		{"the ogre loses the roll-off or has a lower Initiative",
			tieFight(t, 2, []int32{15, 4}, false), tieFight(t, 1, nil, false), 0},
		{"the ogre wins the roll-off or has a higher Initiative",
			tieFight(t, 2, []int32{4, 15}, true), tieFight(t, 3, nil, true), 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.untied.St.GetDiceOffset()+2, c.tied.St.GetDiceOffset(), "the roll-off drew two words")
			require.Equal(t, c.aldricTieOrder, c.tied.St.GetD20Seg().GetCombatants()["aldric"].GetTieOrder(), "Aldric's place in the roll-off")
			for _, v := range []engine.Viewer{playerView, {}} {
				enginetest.RequireSameReceived(t, c.tied.Reg, c.tied.Log, c.untied.Log, v)
			}
			enginetest.RequireDifferentReceived(t, c.tied.Reg, c.tied.Log, c.untied.Log, gmView)
		})
	}
}
