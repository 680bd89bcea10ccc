package logtools

import (
	"context"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
)

func TestReadJSONL(t *testing.T) {
	events, err := ReadJSONL(strings.NewReader(`{"encounterId": "e", "sequence": "1", "commandId": "a"}

{"encounterId": "e", "sequence": "2", "commandId": "a"}
`))
	require.NoError(t, err)
	require.Len(t, events, 2, "blank lines skipped")
	require.Equal(t, uint64(2), events[1].GetSequence())

	_, err = ReadJSONL(strings.NewReader("{\"encounterId\": \"e\"}\n{\"nope\": 1}\n"))
	require.ErrorContains(t, err, "line 2:")
}

// A record starts at an event carrying its command, or where the command id changes.
func TestBatches(t *testing.T) {
	ev := func(seq uint64, id string, cmd bool) *encounterv1.Event {
		e := &encounterv1.Event{Sequence: seq, CommandId: id}
		if cmd {
			e.Command = &encounterv1.Command{}
		}
		return e
	}
	batches := Batches([]*encounterv1.Event{ev(1, "a", true), ev(2, "a", false), ev(3, "b", false), ev(4, "b", true), ev(5, "b", false)})
	var sizes []int
	for _, b := range batches {
		sizes = append(sizes, len(b.GetEvents()))
	}
	require.Equal(t, []int{2, 1, 2}, sizes)
}

func TestImportRefusesWhatItCannotRecord(t *testing.T) {
	_, err := Import(context.Background(), nil, nil)
	require.ErrorContains(t, err, "the file holds no events")
	_, err = Import(context.Background(), nil, []*encounterv1.Event{{EncounterId: "a", Sequence: 1}, {EncounterId: "b", Sequence: 2}})
	require.ErrorContains(t, err, "event 2 belongs to encounter b, not a: import one encounter at a time")
}
