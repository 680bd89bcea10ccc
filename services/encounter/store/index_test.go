package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

// The index keeps each encounter's latest summary and each principal's encounters; a
// summary older than the one written is dropped, so that two replicas writing out of order
// end as the later sequence says; who left is no longer listed.
func TestIndexKeepsTheLatestSummaryAndMemberships(t *testing.T) {
	t.Run("memory", func(t *testing.T) {
		m := store.NewMemory()
		testIndex(t, m, func() store.Index { return m }) // one memory: replicas share it
	})
	t.Run("jetstream, as the encounter user", func(t *testing.T) {
		s := natstest.StartSecured(t)
		open := func() *store.JetStream {
			js, err := store.Open(context.Background(), s.Encounter, store.Config{})
			require.NoError(t, err)
			return js
		}
		a := open()
		testIndex(t, a, func() store.Index { return open() }) // another replica: nothing remembered
	})
}

func testIndex(t *testing.T, a store.Index, replica func() store.Index) {
	ctx := context.Background()
	ok, err := a.Indexed(ctx)
	require.NoError(t, err)
	require.False(t, ok)
	at := time.Date(2025, 1, 1, 20, 0, 0, 0, time.UTC)
	sum := func(seq uint64, members map[string]encounterv1.Role) store.Summary {
		return store.Summary{EncounterID: "enc-a", Tenant: "dev", Name: "Ruelle", RuleSystem: "loss", Sequence: seq,
			LastActivity: at.Add(time.Duration(seq) * time.Minute), Members: members}
	}
	ids := func(p string) []uint64 {
		t.Helper()
		got, err := store.Summaries(ctx, a, p)
		require.NoError(t, err)
		var out []uint64
		for _, s := range got {
			out = append(out, s.Sequence)
		}
		return out
	}
	gm := map[string]encounterv1.Role{"dev/gm": encounterv1.Role_ROLE_GM}
	withDavid := map[string]encounterv1.Role{"dev/gm": encounterv1.Role_ROLE_GM, "dev/david": encounterv1.Role_ROLE_PLAYER}
	require.NoError(t, a.PutSummary(ctx, sum(1, gm)))
	require.Equal(t, []uint64{1}, ids("dev/gm"))
	require.Empty(t, ids("dev/david"))
	require.NoError(t, a.PutSummary(ctx, sum(2, withDavid)))
	require.Equal(t, []uint64{2}, ids("dev/david"))
	ok, err = a.Indexed(ctx)
	require.NoError(t, err)
	require.True(t, ok)

	// Another replica writes sequence 4 (david gone), then this one's late sequence 3 arrives.
	b := replica()
	require.NoError(t, b.PutSummary(ctx, sum(4, gm)))
	require.NoError(t, a.PutSummary(ctx, sum(3, withDavid)))
	require.Equal(t, []uint64{4}, ids("dev/gm"))
	require.Empty(t, ids("dev/david"), "the later summary wins: david left")

	// Concurrent writers: the highest sequence stands.
	var wg sync.WaitGroup
	for i := range 8 {
		w := replica()
		wg.Add(1)
		go func() {
			defer wg.Done()
			require.NoError(t, w.PutSummary(ctx, sum(uint64(10+i), withDavid)))
		}()
	}
	wg.Wait()
	require.Equal(t, []uint64{17}, ids("dev/gm"))
	require.Equal(t, []uint64{17}, ids("dev/david"))
}
