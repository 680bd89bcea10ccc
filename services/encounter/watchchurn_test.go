package encounter_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// stuckAfter is how long a watch waits for its first event before the churn counts it as
// stuck and dumps the goroutines (issue 23: 1 watch in ~1,500 churned opens never got its
// first event within 10 s). It marks, it does not fail: a watch fails only past patience.
const stuckAfter = 10 * time.Second

// Watches opened and closed again and again, on one encounter and on eight, while the
// encounters record events: each watch, from the first event or from the next one, gets its
// first event; the times to it are logged. FRAY_WATCH_CHURN sets the watches of each run
// (default 200, 40 under -short): FRAY_WATCH_CHURN=20000 is the search for issue 23's stuck
// watch.
func TestEveryChurnedWatchGetsItsFirstEvent(t *testing.T) {
	total := 200
	if testing.Short() {
		total = 40
	}
	if n, err := strconv.Atoi(os.Getenv("FRAY_WATCH_CHURN")); err == nil && n > 0 {
		total = n
	}
	for _, encounters := range []int{1, 8} {
		t.Run(fmt.Sprintf("%d encounters", encounters), func(t *testing.T) { churnWatches(t, encounters, total) })
	}
}

func churnWatches(t *testing.T, encounters, total int) {
	js := jetStream(t)
	// Snapshots as the service keeps them (a watch from a recent event starts from the last).
	s := serveWatches(t, js, encounter.Options{Snapshots: js})
	ids := make([]string, encounters)
	for i := range ids {
		ids[i] = create(t, s.c)
	}
	// One GM per encounter records an event every 200 ms × encounters (5 a second in all),
	// so that a watch of what comes next gets one soon.
	ctx, stop := context.WithCancel(context.Background())
	var recording sync.WaitGroup
	for _, id := range ids {
		recording.Go(func() {
			tick := time.NewTicker(time.Duration(encounters) * 200 * time.Millisecond)
			defer tick.Stop()
			for n := 0; ; n++ {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
				_, err := s.c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: toggle(n)})
				if err != nil && ctx.Err() == nil {
					t.Errorf("recording on %s: %v", id, err)
					return
				}
			}
		})
	}
	defer func() { stop(); recording.Wait() }()

	const concurrent = 8 // under the 16 watches one caller may hold while closed ones are let go
	var (
		mu      sync.Mutex
		waits   []time.Duration
		stuck   int
		dumps   int
		retried atomic.Int64
	)
	// dump writes every goroutine's stack to a file (the first 3 stuck watches), for the
	// cause.
	dump := func(i int) {
		mu.Lock()
		stuck++
		if dumps >= 3 {
			mu.Unlock()
			return
		}
		dumps++
		mu.Unlock()
		buf := make([]byte, 64<<20)
		buf = buf[:runtime.Stack(buf, true)]
		f, err := os.CreateTemp("", "watch-stuck-*.txt")
		if err == nil {
			_, _ = f.Write(buf)
			_ = f.Close()
			t.Logf("watch %d: no first event after %v; goroutines in %s", i, stuckAfter, f.Name())
		}
	}
	watch := func(i int) error {
		e := i % encounters
		// From the first event (the first page of the log) or from the next one (live). (Not
		// from an event at or before the latest snapshot's: its catch-up reads the log from
		// the start, a cost that grows with the encounter, not a watch stuck.)
		from := uint64(1)
		if i%2 == 1 {
			from = sequenceOf(t, s.c, ids[e]) + 1
		}
		for {
			wctx, cancel := context.WithTimeout(as("gm"), patience)
			start := time.Now()
			marked := time.AfterFunc(stuckAfter, func() { dump(i) })
			w, err := s.c.WatchEncounter(wctx, &encounterv1.WatchEncounterRequest{EncounterId: ids[e], FromSequence: from})
			var r *encounterv1.WatchEncounterResponse
			if err == nil {
				r, err = w.Recv()
			}
			took := time.Since(start)
			marked.Stop()
			cancel()
			if status.Code(err) == codes.ResourceExhausted {
				// A closed watch of this caller not yet let go by the server: again.
				retried.Add(1)
				time.Sleep(10 * time.Millisecond)
				continue
			}
			if err != nil {
				return fmt.Errorf("watch %d of %s from %d: no first event after %v: %w", i, ids[e], from, took.Round(time.Millisecond), err)
			}
			if got := r.GetEvent().GetSequence(); got != from {
				return fmt.Errorf("watch %d of %s from %d: first event %d", i, ids[e], from, got)
			}
			mu.Lock()
			waits = append(waits, took)
			mu.Unlock()
			return nil
		}
	}
	began := time.Now()
	work := make(chan int)
	errs := make(chan error, concurrent)
	var wg sync.WaitGroup
	for range concurrent {
		wg.Go(func() {
			for i := range work {
				if err := watch(i); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for i := range total {
		select {
		case work <- i:
		case err := <-errs:
			require.NoError(t, err)
		}
	}
	close(work)
	wg.Wait()
	close(errs)
	require.NoError(t, <-errs)
	slices.Sort(waits)
	pct := func(p float64) time.Duration { return waits[int(float64(len(waits)-1)*p)].Round(time.Microsecond) }
	t.Logf("%d watches of %d encounters opened and closed in %v, %d at a time (%d retried past the per-caller cap): first event p50 %v, p99 %v, max %v; %d waited more than %v",
		total, encounters, time.Since(began).Round(time.Millisecond), concurrent, retried.Load(), pct(0.5), pct(0.99), pct(1), stuck, stuckAfter)
}
