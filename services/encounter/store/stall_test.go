package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

// appendInterleaved appends n records to "a" and n to "b", alternately, and returns the
// positions of a's.
func appendInterleaved(t *testing.T, s store.Log, n int) []uint64 {
	t.Helper()
	ctx := context.Background()
	var as []uint64
	var lastA, lastB uint64
	for i := range n {
		a, err := s.Append(ctx, "a", lastA, fmt.Sprint("a/", i), batch("a", uint64(i+1)))
		require.NoError(t, err)
		lastA = a.Position
		as = append(as, a.Position)
		b, err := s.Append(ctx, "b", lastB, fmt.Sprint("b/", i), batch("b", uint64(i+1)))
		require.NoError(t, err)
		lastB = b.Position
	}
	return as
}

// requireLoaded checks that Load after `after` gives exactly a's records past it, in order.
func requireLoaded(t *testing.T, s store.Log, as []uint64, after uint64) {
	t.Helper()
	recs, err := s.Load(context.Background(), "a", after)
	require.NoError(t, err)
	var want, got []uint64
	for i, p := range as {
		if p > after {
			want = append(want, p)
			require.Equal(t, uint64(i+1), recs[len(want)-1].Batch.GetEvents()[0].GetSequence(), "record at %d", p)
		}
	}
	for _, r := range recs {
		got = append(got, r.Position)
	}
	require.Equal(t, want, got)
}

// When Load's ordered consumer stalls (seen once in the faults test: after a NATS node's
// restart, a consumer delivered nothing until the read gave up), the rest of the encounter
// is read by lookups: the same records, in order, none twice, and no consumer left behind.
func TestAStalledLoadReadsTheRestByLookups(t *testing.T) {
	_, nc := natstest.Start(t)
	s, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	as := appendInterleaved(t, s, 60) // more than Load walks back: the rest is read forward
	for _, stall := range []int{0, 1, 20, 43} {
		t.Run(fmt.Sprint("after ", stall), func(t *testing.T) {
			var stalls []int
			defer store.StallForwardAfter(stall, func(n int) { stalls = append(stalls, n) })()
			for _, after := range []uint64{0, as[0], as[9]} {
				stalls = nil
				requireLoaded(t, s, as, after)
				read := 0 // forward's share: past after, all but the last 16 (walked back)
				for _, p := range as[:len(as)-16] {
					if p > after {
						read++
					}
				}
				if stall < read {
					require.Equal(t, []int{stall}, stalls, "the consumer read %d, then lookups the rest", stall)
				} else {
					require.Empty(t, stalls, "the consumer read all %d before it would stall", read)
				}
			}
			require.Zero(t, consumers(t, s), "the stalled consumer is deleted")
		})
	}
}

// A consumer awaited for no time at all stalls at once or after a few records, by the race of
// its records with the timer: either way Load reads the same records.
func TestLoadIsTheSameWhenTheConsumerIsAwaitedNoTime(t *testing.T) {
	_, nc := natstest.Start(t)
	s, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	as := appendInterleaved(t, s, 40)
	s.SetForwardStall(time.Nanosecond)
	for _, after := range []uint64{0, as[5]} {
		requireLoaded(t, s, as, after)
	}
	require.Zero(t, consumers(t, s), "the stalled consumer is deleted")
}

// The auditor's lookups are allowed: `fray audit verify` falls back to them too.
func TestTheAuditorsStalledLoadReadsTheRestByLookups(t *testing.T) {
	sec, _ := secured(t)
	ctx := context.Background()
	st, err := store.Open(ctx, sec.Encounter, store.Config{})
	require.NoError(t, err)
	recs, err := st.Load(ctx, "a", 0)
	require.NoError(t, err)
	last := recs[len(recs)-1].Position
	var as []uint64
	for _, r := range recs {
		as = append(as, r.Position)
	}
	for i := range 30 {
		a, err := st.Append(ctx, "a", last, fmt.Sprint("a/more/", i), batch("a", uint64(4+i)))
		require.NoError(t, err)
		last = a.Position
		as = append(as, last)
	}
	nc, errs := sec.Auditor(t)
	aud, err := store.Attach(ctx, nc, store.Config{})
	require.NoError(t, err)
	var stalls []int
	defer store.StallForwardAfter(2, func(n int) { stalls = append(stalls, n) })()
	got, err := aud.Load(ctx, "a", 0)
	require.NoError(t, err)
	require.Len(t, got, len(as))
	for i, r := range got {
		require.Equal(t, as[i], r.Position)
	}
	require.Equal(t, []int{2}, stalls)
	require.Empty(t, errs, "nothing the auditor did was refused")
}
