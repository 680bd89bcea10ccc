package encounter_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"sync"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// watchSpy notes where each watch reads the log from (its first catch-up page), by the
// watch's tag in its request metadata: a watch cancelled a moment ago may still read a page,
// and that must not pass for the next watch's start.
type watchSpy struct {
	backend
	mu     sync.Mutex
	starts map[string]uint64
}

const watchTag = "x-watch-tag"

func (w *watchSpy) Page(ctx context.Context, id string, after uint64, n int) ([]store.Record, error) {
	if md, ok := metadata.FromIncomingContext(ctx); ok && len(md.Get(watchTag)) == 1 {
		w.mu.Lock()
		if _, seen := w.starts[md.Get(watchTag)[0]]; !seen {
			w.starts[md.Get(watchTag)[0]] = after
		}
		w.mu.Unlock()
	}
	return w.backend.Page(ctx, id, after, n)
}

// start is where the watch tagged tag started reading the log.
func (w *watchSpy) start(t *testing.T, tag string) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	at, ok := w.starts[tag]
	require.True(t, ok, "watch %s read no page", tag)
	return at
}

// A watch from a late sequence reads the log from the nearest known position before it (the
// last record, or the latest snapshot's), not from the start, and still sends every event
// from that sequence on, in order, then the new ones as they are recorded.
func TestWatchFromALateSequenceStartsNearIt(t *testing.T) {
	t.Run("memory", func(t *testing.T) { testWatchFromALateSequence(t, store.NewMemory()) })
	t.Run("jetstream", func(t *testing.T) {
		_, nc := natstest.Start(t)
		js, err := store.Open(context.Background(), nc, store.Config{})
		require.NoError(t, err)
		testWatchFromALateSequence(t, js)
	})
}

func testWatchFromALateSequence(t *testing.T, b backend) {
	spy := &watchSpy{backend: b, starts: map[string]uint64{}}
	id := longDuel(t, spy, 40)
	sum := sha256.Sum256([]byte("fray-long-duel"))
	c := serve(t, spy, encounter.Options{NewSeed: func() []byte { return sum[:] }, Snapshots: spy, SnapshotEvery: 16})
	got, err := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	last := got.GetState().GetSequence()
	snap, err := spy.Snapshot(context.Background(), id)
	require.NoError(t, err)
	require.Less(t, snap.GetState().GetSequence()+1, last, "the fight goes on past its latest snapshot")
	recs, err := spy.Load(context.Background(), id, 0)
	require.NoError(t, err)
	lastPos := recs[len(recs)-1].Position

	// watch reads events from sequence from up to sequence upTo and returns where it started.
	watches := 0
	watch := func(from, upTo uint64, then func()) uint64 {
		t.Helper()
		watches++
		tag := fmt.Sprint(watches)
		ctx, cancel := context.WithCancel(metadata.AppendToOutgoingContext(as("gm"), watchTag, tag))
		defer cancel()
		ws, err := c.WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id, FromSequence: from})
		require.NoError(t, err)
		if then != nil {
			_, err := ws.Header() // the watch is under way
			require.NoError(t, err)
			then()
		}
		for want := from; want <= upTo; want++ {
			r, err := ws.Recv()
			require.NoError(t, err)
			require.Equal(t, want, r.GetEvent().GetSequence())
		}
		return spy.start(t, tag)
	}

	require.Zero(t, watch(1, last, nil), "from the first event: the whole log")
	require.Zero(t, watch(snap.GetState().GetSequence(), last, nil), "from the snapshot's own last event: before the snapshot")
	require.Equal(t, snap.GetPosition(), watch(snap.GetState().GetSequence()+1, last, nil))
	require.Equal(t, snap.GetPosition(), watch(last, last, nil))

	// What comes next only: from the last record, and the next command's events arrive.
	var next *encounterv1.SubmitResponse
	start := watch(last+1, last+1, func() { next = step(t, c, id) })
	require.Equal(t, lastPos, start)
	require.Equal(t, last+1, next.GetEvents()[0].GetSequence())

	// From further on than the next event: refused at once, holding no watcher's slot
	// (issue 23: from 2^64-1 it was held until the client's deadline).
	now := next.GetState().GetSequence()
	for _, from := range []uint64{now + 2, math.MaxUint64} {
		ws, err := c.WatchEncounter(as("gm"), &encounterv1.WatchEncounterRequest{EncounterId: id, FromSequence: from})
		require.NoError(t, err)
		_, err = ws.Recv()
		require.Equal(t, codes.OutOfRange, status.Code(err), "from %d: %v", from, err)
		require.Contains(t, status.Convert(err).Message(), fmt.Sprintf("a watch starts at most at %d, the next event", now+1))
	}
}
