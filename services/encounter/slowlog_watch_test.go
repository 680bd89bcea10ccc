package encounter_test

import (
	"context"
	"os"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

// Issue 31: under load 3,827 of 5,000 watches were cut, "event log unreachable": a watch's
// reads of the log (its catch-up, its follow) have no deadline of their caller, and the store
// gave each 2 s. With every answer of the event log held 3 s, a watch from the first event
// still gets every event to the last, none cut.
func TestAWatchIsNotCutWhenTheLogAnswersSlowly(t *testing.T) {
	if os.Getenv(natstest.SecuredEnv) == "1" {
		t.Skip("connects through a proxy, with no NATS user")
	}
	ns, _ := natstest.Start(t)
	proxy := natstest.StartSlowAnswers(t, ns.ClientURL())
	js, err := store.Open(context.Background(), proxy.Connect(t), store.Config{})
	require.NoError(t, err)
	s := serveWatches(t, js, encounter.Options{})
	id := create(t, s.c)
	for i := range 4 {
		_, err := s.c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: toggle(i)})
		require.NoError(t, err)
	}
	last := sequenceOf(t, s.c, id)

	proxy.SetLatency(3 * time.Second) // beyond the 2 s the store gave a call
	start := time.Now()
	ctx, cancel := context.WithTimeout(as("gm"), 5*time.Minute) // the watcher's patience
	defer cancel()
	w, err := s.c.WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id, FromSequence: 1})
	require.NoError(t, err)
	var got uint64
	for got < last {
		r, err := w.Recv()
		require.NoError(t, err, "the watch, at sequence %d of %d", got, last)
		got = r.GetEvent().GetSequence()
	}
	t.Logf("a watch from the first event to %d, each answer of the log 3 s late: %s", last, time.Since(start))
}
