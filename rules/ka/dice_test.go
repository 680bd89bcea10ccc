package ka_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// TestDiceEnd: for every kind of Ka event, every field filled, DiceEnd finds each roll
// the engine's walk finds (enginetest.CheckDiceEnd). It answers for Ka events only.
func TestDiceEnd(t *testing.T) {
	n := enginetest.CheckDiceEnd(t, ka.New(ka.Latest), &kav1.Event{}, func(m proto.Message) *encounterv1.Event {
		return &encounterv1.Event{Payload: &encounterv1.Event_Ka{Ka: m.(*kav1.Event)}}
	})
	require.Equal(t, 6, n, "Ka events with rolls: the deck shuffled, the draws of an attack, a defence, a death, a disarm, a Terror")
}
