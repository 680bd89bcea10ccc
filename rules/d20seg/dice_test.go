package d20seg_test

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// TestDiceEnd: for every kind of d20seg event, every field filled, DiceEnd finds each roll
// the engine's walk finds (enginetest.CheckDiceEnd). It answers for d20seg events only.
func TestDiceEnd(t *testing.T) {
	n := enginetest.CheckDiceEnd(t, d20seg.New(1), &d20segv1.Event{}, func(m proto.Message) *encounterv1.Event {
		return &encounterv1.Event{Payload: &encounterv1.Event_D20Seg{D20Seg: m.(*d20segv1.Event)}}
	})
	require.Equal(t, 3, n, "d20seg events with rolls: the roll-offs, the surprise round, an attack")
}
