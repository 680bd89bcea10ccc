package enginetest

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// CheckDiceEnd checks a system's engine.DiceEnder against the engine's walk (engine.Rolls):
// for every kind of the system's event (event: an empty one; wrap: the common event holding
// it), every field filled, each roll the walk finds is counted (with every other roll at 0,
// the furthest position is that roll's offset plus its draws), and a kind without rolls
// gives 0. It returns the number of kinds with rolls.
func CheckDiceEnd(t testing.TB, d engine.DiceEnder, event proto.Message, wrap func(proto.Message) *encounterv1.Event) int {
	t.Helper()
	return len(diceEnd(t, d, event, wrap))
}

// diceEnd is CheckDiceEnd returning the kinds with rolls, named as KindOf names them.
func diceEnd(t testing.TB, d engine.DiceEnder, event proto.Message, wrap func(proto.Message) *encounterv1.Event) map[string]bool {
	t.Helper()
	kinds := event.ProtoReflect().Descriptor().Oneofs().Get(0).Fields()
	withRolls := map[string]bool{}
	for i := range kinds.Len() {
		e := event.ProtoReflect().New()
		Fill(e.Mutable(kinds.Get(i)).Message(), 8, 1)
		ev := wrap(e.Interface())
		rolls := engine.Rolls(ev)
		for _, r := range rolls {
			r.Offset, r.Draws = 0, 0
		}
		end, own := d.DiceEnd(ev)
		require.True(t, own, kinds.Get(i).Name())
		require.Zero(t, end, kinds.Get(i).Name())
		for k, r := range rolls {
			r.Offset, r.Draws = 100+uint64(k), 7
			end, _ := d.DiceEnd(ev)
			require.Equal(t, 107+uint64(k), end, "%s: roll %d", kinds.Get(i).Name(), k)
			r.Offset, r.Draws = 0, 0
		}
		if len(rolls) > 0 {
			withRolls[KindOf(ev)] = true
		}
	}
	_, own := d.DiceEnd(&encounterv1.Event{Payload: &encounterv1.Event_EncounterStarted{EncounterStarted: &encounterv1.EncounterStarted{}}})
	require.False(t, own, "a common event is not the system's own")
	return withRolls
}
