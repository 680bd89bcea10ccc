package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

type backend interface {
	store.Log
	store.Seeds
	store.Snapshots
}

// backends runs a contract test against the real JetStream store and the in-memory one.
func backends(t *testing.T, test func(t *testing.T, s backend)) {
	t.Run("jetstream", func(t *testing.T) {
		_, nc := natstest.Start(t)
		s, err := store.Open(context.Background(), nc, store.Config{})
		require.NoError(t, err)
		test(t, s)
	})
	t.Run("memory", func(t *testing.T) { test(t, store.NewMemory()) })
}

func batch(enc string, seqs ...uint64) *encounterv1.EventBatch {
	b := &encounterv1.EventBatch{}
	for _, n := range seqs {
		b.Events = append(b.Events, &encounterv1.Event{EncounterId: enc, Sequence: n, CommandId: fmt.Sprint("c", n)})
	}
	return b
}

func TestAppendAndLoad(t *testing.T) {
	backends(t, func(t *testing.T, s backend) {
		ctx := context.Background()
		_, err := s.Load(ctx, "a", 0)
		require.ErrorIs(t, err, store.ErrNotFound)

		a1, err := s.Append(ctx, "a", 0, "a/1", batch("a", 1, 2))
		require.NoError(t, err)
		require.False(t, a1.Duplicate)
		b1, err := s.Append(ctx, "b", 0, "b/1", batch("b", 1))
		require.NoError(t, err)
		a2, err := s.Append(ctx, "a", a1.Position, "a/2", batch("a", 3))
		require.NoError(t, err)
		require.Greater(t, a2.Position, b1.Position)

		recs, err := s.Load(ctx, "a", 0)
		require.NoError(t, err)
		require.Len(t, recs, 2)
		require.Equal(t, a1.Position, recs[0].Position)
		require.True(t, proto.Equal(batch("a", 1, 2), recs[0].Batch))
		require.True(t, proto.Equal(batch("a", 3), recs[1].Batch))

		tail, err := s.Load(ctx, "a", a1.Position)
		require.NoError(t, err)
		require.Len(t, tail, 1)
		require.Equal(t, a2.Position, tail[0].Position)

		none, err := s.Load(ctx, "a", a2.Position)
		require.NoError(t, err)
		require.Empty(t, none)

		got, err := s.Get(ctx, b1.Position)
		require.NoError(t, err)
		require.True(t, proto.Equal(batch("b", 1), got.Batch))

		ids, err := s.List(ctx)
		require.NoError(t, err)
		require.Equal(t, []string{"a", "b"}, ids)
	})
}

func TestAppendOnStalePositionConflicts(t *testing.T) {
	backends(t, func(t *testing.T, s backend) {
		ctx := context.Background()
		first, err := s.Append(ctx, "a", 0, "a/1", batch("a", 1))
		require.NoError(t, err)
		_, err = s.Append(ctx, "a", 0, "a/2", batch("a", 2))
		require.ErrorIs(t, err, store.ErrConflict, "the encounter already has a record")
		_, err = s.Append(ctx, "a", first.Position+5, "a/3", batch("a", 2))
		require.ErrorIs(t, err, store.ErrConflict)
		recs, err := s.Load(ctx, "a", 0)
		require.NoError(t, err)
		require.Len(t, recs, 1, "nothing is recorded for a conflicting append")
	})
}

func TestRacingAppendsExactlyOneWins(t *testing.T) {
	backends(t, func(t *testing.T, s backend) {
		ctx := context.Background()
		first, err := s.Append(ctx, "a", 0, "a/0", batch("a", 1))
		require.NoError(t, err)
		const racers = 8
		var (
			wg        sync.WaitGroup
			mu        sync.Mutex
			wins      int
			conflicts int
		)
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.Append(ctx, "a", first.Position, fmt.Sprintf("a/r%d", i), batch("a", 2))
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					wins++
				} else {
					require.ErrorIs(t, err, store.ErrConflict)
					conflicts++
				}
			}()
		}
		wg.Wait()
		require.Equal(t, 1, wins)
		require.Equal(t, racers-1, conflicts)
		recs, err := s.Load(ctx, "a", 0)
		require.NoError(t, err)
		require.Len(t, recs, 2, "no forked history")
	})
}

func TestSameMessageIDIsRecordedOnce(t *testing.T) {
	backends(t, func(t *testing.T, s backend) {
		ctx := context.Background()
		first, err := s.Append(ctx, "a", 0, "a/cmd-1", batch("a", 1))
		require.NoError(t, err)
		again, err := s.Append(ctx, "a", first.Position, "a/cmd-1", batch("a", 2))
		require.NoError(t, err)
		require.True(t, again.Duplicate)
		require.Equal(t, first.Position, again.Position)
		// JetStream checks the expected position before the message id: a retry made on
		// stale state conflicts, and the service finds the command in the reloaded history.
		_, err = s.Append(ctx, "a", 0, "a/cmd-1", batch("a", 1))
		require.ErrorIs(t, err, store.ErrConflict)
		recs, err := s.Load(ctx, "a", 0)
		require.NoError(t, err)
		require.Len(t, recs, 1)
	})
}

func TestWatchDeliversHistoryThenLiveInOrder(t *testing.T) {
	backends(t, func(t *testing.T, s backend) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		pos, err := s.Append(ctx, "a", 0, "a/1", batch("a", 1))
		require.NoError(t, err)
		_, err = s.Append(ctx, "b", 0, "b/1", batch("b", 1))
		require.NoError(t, err)

		got := make(chan store.Record, 10)
		done := make(chan error, 1)
		go func() {
			done <- s.Watch(ctx, "a", 0, func(r store.Record) error {
				got <- r
				if r.Batch.Events[0].Sequence == 3 {
					return store.ErrStop
				}
				return nil
			})
		}()
		first := <-got
		require.Equal(t, uint64(1), first.Batch.Events[0].Sequence)
		last := pos.Position
		for _, n := range []uint64{2, 3} {
			a, err := s.Append(ctx, "a", last, fmt.Sprint("a/", n), batch("a", n))
			require.NoError(t, err)
			last = a.Position
		}
		require.Equal(t, uint64(2), (<-got).Batch.Events[0].Sequence)
		require.Equal(t, uint64(3), (<-got).Batch.Events[0].Sequence)
		require.NoError(t, <-done)
	})
}

func TestWatchEndsWithContext(t *testing.T) {
	backends(t, func(t *testing.T, s backend) {
		ctx, cancel := context.WithCancel(context.Background())
		_, err := s.Append(ctx, "a", 0, "a/1", batch("a", 1))
		require.NoError(t, err)
		seen := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- s.Watch(ctx, "a", 0, func(store.Record) error { close(seen); return nil })
		}()
		<-seen
		cancel()
		require.ErrorIs(t, <-done, context.Canceled)
	})
}

func TestSeeds(t *testing.T) {
	backends(t, func(t *testing.T, s backend) {
		ctx := context.Background()
		_, err := s.Seed(ctx, "a")
		require.ErrorIs(t, err, store.ErrNotFound)
		seed := []byte("0123456789abcdef0123456789abcdef")
		require.NoError(t, s.PutSeed(ctx, "a", seed))
		got, err := s.Seed(ctx, "a")
		require.NoError(t, err)
		require.Equal(t, seed, got)
	})
}

func TestLoadManyRecordsInterleaved(t *testing.T) {
	backends(t, func(t *testing.T, s backend) {
		ctx := context.Background()
		var lastA, lastB uint64
		for i := range 80 { // more than the direct gets Load makes before it opens a consumer
			a, err := s.Append(ctx, "a", lastA, fmt.Sprint("a/", i), batch("a", uint64(i+1)))
			require.NoError(t, err)
			lastA = a.Position
			b, err := s.Append(ctx, "b", lastB, fmt.Sprint("b/", i), batch("b", uint64(i+1)))
			require.NoError(t, err)
			lastB = b.Position
		}
		for _, after := range []uint64{0, 1, 40, 101, lastA - 1} {
			recs, err := s.Load(ctx, "a", after)
			require.NoError(t, err)
			prev := after
			for _, r := range recs {
				require.Greater(t, r.Position, prev)
				require.Equal(t, "a", r.Batch.GetEvents()[0].GetEncounterId())
				prev = r.Position
			}
			require.Equal(t, lastA, prev, "loaded up to the last record after %d", after)
		}
		all, err := s.Load(ctx, "a", 0)
		require.NoError(t, err)
		require.Len(t, all, 80)
		for i, r := range all {
			require.Equal(t, uint64(i+1), r.Batch.GetEvents()[0].GetSequence())
		}
		if c := consumers(t, s); c >= 0 {
			require.Zero(t, c, "a long load deletes the consumer it read with")
		}
	})
}

// Records without the link to the previous one (written by hand, or before the link existed)
// are read forward, whatever the length of the tail.
func TestLoadRecordsWithoutLinks(t *testing.T) {
	ctx := context.Background()
	_, nc := natstest.Start(t)
	s, err := store.Open(ctx, nc, store.Config{})
	require.NoError(t, err)
	var positions []uint64
	for i := range 40 {
		b, err := proto.Marshal(batch("a", uint64(i+1)))
		require.NoError(t, err)
		ack, err := s.JetStream().Publish(ctx, s.Subject("a"), b)
		require.NoError(t, err)
		positions = append(positions, ack.Sequence)
		_, err = s.JetStream().Publish(ctx, s.Subject("b"), b)
		require.NoError(t, err)
	}
	last, err := s.Append(ctx, "a", positions[39], "a/41", batch("a", 41)) // one linked record on top
	require.NoError(t, err)
	for _, after := range []uint64{0, positions[0], positions[20], positions[38], positions[39]} {
		recs, err := s.Load(ctx, "a", after)
		require.NoError(t, err)
		prev := after
		for _, r := range recs {
			require.Greater(t, r.Position, prev)
			require.Equal(t, "a", r.Batch.GetEvents()[0].GetEncounterId())
			prev = r.Position
		}
		require.Equal(t, last.Position, prev, "loaded up to the last record after %d", after)
	}
	recs, err := s.Load(ctx, "a", 0)
	require.NoError(t, err)
	require.Len(t, recs, 41)
	require.Zero(t, consumers(t, s))
}

func TestSnapshots(t *testing.T) {
	backends(t, func(t *testing.T, s backend) {
		ctx := context.Background()
		_, err := s.Snapshot(ctx, "a")
		require.ErrorIs(t, err, store.ErrNotFound)
		snap := &encounterv1.Snapshot{Position: 7, RuleSystem: "loss", FoldVersion: 1,
			State: &encounterv1.EncounterState{EncounterId: "a", Sequence: 12}, Commands: map[string]uint64{"c1": 3}}
		require.NoError(t, s.PutSnapshot(ctx, "a", snap))
		got, err := s.Snapshot(ctx, "a")
		require.NoError(t, err)
		require.True(t, proto.Equal(snap, got))
		snap.Position = 9
		require.NoError(t, s.PutSnapshot(ctx, "a", snap))
		got, err = s.Snapshot(ctx, "a")
		require.NoError(t, err)
		require.Equal(t, uint64(9), got.GetPosition(), "the latest snapshot wins")
	})
}
