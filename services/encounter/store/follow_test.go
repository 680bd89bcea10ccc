package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/stretchr/testify/require"
)

// consumers counts the JetStream consumers on the store's stream (-1 for the memory store).
func consumers(t *testing.T, s backend) int {
	t.Helper()
	js, ok := s.(*store.JetStream)
	if !ok {
		return -1
	}
	info, err := js.JetStream().Stream(context.Background(), js.StreamName())
	require.NoError(t, err)
	i, err := info.Info(context.Background())
	require.NoError(t, err)
	return i.State.Consumers
}

// Follow passes only what is stored after it returns, of its encounter, in order; when its
// context ends, done says nil and no consumer is left on the stream.
func TestFollowDeliversTheLiveTailAndLeavesNothing(t *testing.T) {
	backends(t, func(t *testing.T, s backend) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		old, err := s.Append(ctx, "a", 0, "a/1", batch("a", 1))
		require.NoError(t, err)
		got := make(chan store.Record, 10)
		done, err := s.Follow(ctx, "a", func(r store.Record) { got <- r })
		require.NoError(t, err)
		last := old.Position
		for n := uint64(2); n <= 4; n++ {
			_, err := s.Append(ctx, "b", 0, fmt.Sprint("b/", n), batch("b", 1))
			if n == 2 {
				require.NoError(t, err)
			}
			a, err := s.Append(ctx, "a", last, fmt.Sprint("a/", n), batch("a", n))
			require.NoError(t, err)
			last = a.Position
		}
		for n := uint64(2); n <= 4; n++ {
			r := <-got
			require.Equal(t, n, r.Batch.Events[0].Sequence)
			require.Equal(t, "a", r.Batch.Events[0].EncounterId)
		}
		if c := consumers(t, s); c >= 0 {
			require.Equal(t, 1, c)
		}
		cancel()
		require.NoError(t, <-done)
		if c := consumers(t, s); c >= 0 {
			require.Zero(t, c, "the consumer is deleted when the follower stops")
		}
		require.Empty(t, got)
	})
}

// A Watch deletes its consumer when it ends, not 5 minutes later.
func TestWatchLeavesNoConsumer(t *testing.T) {
	backends(t, func(t *testing.T, s backend) {
		ctx := context.Background()
		_, err := s.Append(ctx, "a", 0, "a/1", batch("a", 1))
		require.NoError(t, err)
		require.NoError(t, s.Watch(ctx, "a", 0, func(store.Record) error { return store.ErrStop }))
		if c := consumers(t, s); c >= 0 {
			require.Zero(t, c)
		}
	})
}

// Page reads up to n of an encounter's records after a position, none past the last.
func TestPage(t *testing.T) {
	backends(t, func(t *testing.T, s backend) {
		ctx := context.Background()
		var pos []uint64
		last := uint64(0)
		for n := uint64(1); n <= 5; n++ {
			_, err := s.Append(ctx, "b", 0, fmt.Sprint("b/", n), batch("b", 1))
			if n == 1 {
				require.NoError(t, err)
			}
			a, err := s.Append(ctx, "a", last, fmt.Sprint("a/", n), batch("a", n))
			require.NoError(t, err)
			last = a.Position
			pos = append(pos, last)
		}
		page, err := s.Page(ctx, "a", 0, 2)
		require.NoError(t, err)
		require.Len(t, page, 2)
		require.Equal(t, pos[:2], []uint64{page[0].Position, page[1].Position})
		page, err = s.Page(ctx, "a", pos[1], 10)
		require.NoError(t, err)
		require.Len(t, page, 3)
		require.Equal(t, uint64(3), page[0].Batch.Events[0].Sequence)
		page, err = s.Page(ctx, "a", last, 10)
		require.NoError(t, err)
		require.Empty(t, page)
		page, err = s.Page(ctx, "nobody", 0, 10)
		require.NoError(t, err)
		require.Empty(t, page)
	})
}
