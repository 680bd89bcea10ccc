package encounter_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
)

// stuckFollow is a log whose first Follow never begins until released, whatever its context
// (a consumer the event log never answers for); the next ones are the log's own.
type stuckFollow struct {
	*store.Memory
	calls   atomic.Int32
	release chan struct{}
	stuck   chan context.Context // the stuck Follow's context
}

func (s *stuckFollow) Follow(ctx context.Context, id string, fn func(store.Record)) (<-chan error, error) {
	if s.calls.Add(1) == 1 {
		s.stuck <- ctx
		<-s.release
	}
	return s.Memory.Follow(ctx, id, fn)
}

// A watch is not held on a follow that never begins (issue 23: a watch got no first event in
// 10 s): the watches waiting on it are refused Unavailable after the service's FollowWait,
// told to watch again, and the next watch follows afresh and gets every event. The stuck
// follow, once it returns, is stopped at once: nothing is left followed.
func TestAWatchIsNotHeldOnAFollowThatNeverBegins(t *testing.T) {
	log := &stuckFollow{Memory: store.NewMemory(), release: make(chan struct{}), stuck: make(chan context.Context, 1)}
	s := serveWatches(t, log, encounter.Options{FollowWait: 300 * time.Millisecond})
	id := create(t, s.c)
	ctx, cancel := context.WithTimeout(as("gm"), patience)
	defer cancel()

	start := time.Now()
	var wg sync.WaitGroup
	refusals := make([]error, 2)
	for i := range refusals {
		wg.Go(func() {
			w, err := s.c.WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id, FromSequence: 1})
			if err == nil {
				_, err = w.Recv()
			}
			refusals[i] = err
		})
	}
	wg.Wait()
	for _, err := range refusals {
		requireCode(t, err, codes.Unavailable, "could not begin following encounter "+id+" within 300ms", "watch again")
	}
	t.Logf("both watches refused %v after they were opened: %v", time.Since(start).Round(time.Millisecond), refusals[0])
	require.ErrorIs(t, (<-log.stuck).Err(), context.Canceled, "the stuck follow is given up: its context ended")

	w := openWatch(t, ctx, s.c, id, 1)
	first, err := w.Recv()
	require.NoError(t, err, "the next watch follows afresh")
	require.Equal(t, uint64(1), first.GetEvent().GetSequence())
	next := sequenceOf(t, s.c, id) + 1
	_, err = s.c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: toggle(0)})
	require.NoError(t, err)
	for {
		r, err := w.Recv()
		require.NoError(t, err)
		if r.GetEvent().GetSequence() == next {
			break
		}
	}

	close(log.release)
	cancel()
	require.Eventually(t, func() bool { e, n := s.svc.Watching(); return e == 0 && n == 0 }, patience, 5*time.Millisecond,
		"the stuck follow, once it returned, and the watch's are stopped")
	require.EqualValues(t, 2, log.calls.Load(), "one stuck follow, one afresh")
}
