package feerie_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// TestDiceEnd: for every kind of Contes de Fées event, every field filled, DiceEnd finds each roll
// the engine's walk finds (enginetest.CheckDiceEnd). It answers for Contes de Fées events only.
func TestDiceEnd(t *testing.T) {
	n := enginetest.CheckDiceEnd(t, feerie.New(1), &feeriev1.Event{}, func(m proto.Message) *encounterv1.Event {
		return &encounterv1.Event{Payload: &encounterv1.Event_Feerie{Feerie: m.(*feeriev1.Event)}}
	})
	require.Equal(t, 3, n, "Contes de Fées events with rolls: the countdown, an activity, an unseen attack")
}
