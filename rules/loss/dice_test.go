package loss_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// TestDiceEnd: for every kind of Loss event, every field filled, DiceEnd finds each roll the
// engine's walk finds (enginetest.CheckDiceEnd). It answers for Loss events only.
func TestDiceEnd(t *testing.T) {
	n := enginetest.CheckDiceEnd(t, loss.New(1), &lossv1.Event{}, func(m proto.Message) *encounterv1.Event {
		return &encounterv1.Event{Payload: &encounterv1.Event_Loss{Loss: m.(*lossv1.Event)}}
	})
	require.Equal(t, 5, n, "Loss events with rolls: Tour, attack, defence, resolution, pursuit")
}
