package loss_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// TestDiceEnd: for every kind of Loss event, every field filled, DiceEnd finds each roll the
// engine's walk (engine.Rolls) finds: with every other roll at 0, the furthest position is
// that roll's offset plus its draws. It answers for Loss events only.
func TestDiceEnd(t *testing.T) {
	sys := loss.New()
	kinds := (&lossv1.Event{}).ProtoReflect().Descriptor().Oneofs().ByName("kind").Fields()
	withRolls := 0
	for i := range kinds.Len() {
		e := &lossv1.Event{}
		enginetest.Fill(e.ProtoReflect().Mutable(kinds.Get(i)).Message(), 8, 1)
		ev := &encounterv1.Event{Payload: &encounterv1.Event_Loss{Loss: e}}
		rolls := engine.Rolls(ev)
		for _, r := range rolls {
			r.Offset, r.Draws = 0, 0
		}
		end, own := sys.DiceEnd(ev)
		require.True(t, own)
		require.Zero(t, end, kinds.Get(i).Name())
		for k, r := range rolls {
			r.Offset, r.Draws = 100+uint64(k), 7
			end, _ := sys.DiceEnd(ev)
			require.Equal(t, 107+uint64(k), end, "%s: roll %d", kinds.Get(i).Name(), k)
			r.Offset, r.Draws = 0, 0
		}
		if len(rolls) > 0 {
			withRolls++
		}
	}
	require.Equal(t, 5, withRolls, "Loss events with rolls: Tour, attack, defence, resolution, pursuit")
	_, own := sys.DiceEnd(&encounterv1.Event{Payload: &encounterv1.Event_EncounterStarted{EncounterStarted: &encounterv1.EncounterStarted{}}})
	require.False(t, own)
}
