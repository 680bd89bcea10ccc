package store_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

type idleIndex interface {
	store.Index
	store.IdleFinder
}

// The index finds the encounters not ended whose last activity is before a time, per tenant
// or of every tenant, the oldest first; an encounter that was active since, or that ended,
// is no longer found.
func TestTheIndexFindsIdleEncounters(t *testing.T) {
	t.Run("memory", func(t *testing.T) { testIdleIndex(t, store.NewMemory()) })
	t.Run("jetstream, as the encounter user", func(t *testing.T) {
		s := natstest.StartSecured(t)
		js, err := store.Open(context.Background(), s.Encounter, store.Config{})
		require.NoError(t, err)
		testIdleIndex(t, js)
	})
}

func testIdleIndex(t *testing.T, idx idleIndex) {
	ctx := context.Background()
	t0 := time.Date(2026, 1, 5, 20, 0, 0, 0, time.UTC)
	put := func(id, tenant string, seq uint64, last time.Time, status encounterv1.EncounterStatus) {
		t.Helper()
		require.NoError(t, idx.PutSummary(ctx, store.Summary{EncounterID: id, Tenant: tenant, Name: id, RuleSystem: "loss", Status: status,
			Sequence: seq, LastActivity: last, Members: map[string]encounterv1.Role{tenant + "/gm": encounterv1.Role_ROLE_GM}}))
	}
	setup := encounterv1.EncounterStatus_ENCOUNTER_STATUS_SETUP
	over := encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED
	idle := func(tenant string, before time.Time, n int) []string {
		t.Helper()
		sums, err := idx.IdleEncounters(ctx, tenant, before, n)
		require.NoError(t, err)
		ids := []string{}
		for _, s := range sums {
			ids = append(ids, s.EncounterID)
		}
		return ids
	}
	put("a1", "acme", 1, t0, setup)
	put("a2", "acme", 1, t0.Add(2*time.Hour), setup)
	put("b1", "bree", 1, t0.Add(time.Hour), setup)
	put("a3", "acme", 1, t0, setup)
	put("a3", "acme", 2, t0, over)

	require.Equal(t, []string{"a1", "a2"}, idle("acme", t0.Add(3*time.Hour), 10))
	require.Equal(t, []string{"a1", "b1", "a2"}, idle("", t0.Add(3*time.Hour), 10))
	require.Equal(t, []string{"a1"}, idle("", t0.Add(3*time.Hour), 1), "the oldest first")
	require.Equal(t, []string{"a1"}, idle("acme", t0.Add(90*time.Minute), 10))
	require.Empty(t, idle("nobody", t0.Add(3*time.Hour), 10))
	oldest, err := idx.OldestActivity(ctx, "acme")
	require.NoError(t, err)
	require.True(t, oldest.Equal(t0), "%v", oldest)
	oldest, err = idx.OldestActivity(ctx, "nobody")
	require.NoError(t, err)
	require.True(t, oldest.IsZero())

	// a1 active again at +10h; b1 at +90m, half an hour after what found it (the summary
	// decides, however little it moved); a2 ends.
	put("a1", "acme", 2, t0.Add(10*time.Hour), setup)
	put("b1", "bree", 2, t0.Add(90*time.Minute), setup)
	require.Empty(t, idle("", t0.Add(80*time.Minute), 10))
	require.Equal(t, []string{"b1", "a2"}, idle("", t0.Add(3*time.Hour), 10))
	put("a2", "acme", 2, t0.Add(2*time.Hour), over)
	require.Empty(t, idle("acme", t0.Add(3*time.Hour), 10))
	require.Equal(t, []string{"a1"}, idle("acme", t0.Add(11*time.Hour), 10))
	oldest, err = idx.OldestActivity(ctx, "acme")
	require.NoError(t, err)
	require.False(t, oldest.After(t0.Add(10*time.Hour)), "never later than the oldest open encounter's activity: %v", oldest)
	require.True(t, oldest.After(t0), "the ended ones no longer count: %v", oldest)
}

// An index written before it kept what finding idle encounters needs (summaries only) is
// prepared once: the open encounters it holds are found after, the ended ones never.
func TestBackfillPreparesAnOlderIndex(t *testing.T) {
	ctx := context.Background()
	s := natstest.StartSecured(t)
	js, err := store.Open(ctx, s.Encounter, store.Config{})
	require.NoError(t, err)
	kv, err := jetstream.New(s.Encounter)
	require.NoError(t, err)
	bucket, err := kv.KeyValue(ctx, "FRAY_INDEX")
	require.NoError(t, err)
	t0 := time.Date(2026, 1, 5, 20, 0, 0, 0, time.UTC)
	for id, status := range map[string]encounterv1.EncounterStatus{"old-open": encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, "old-ended": encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED} {
		b, err := json.Marshal(store.Summary{EncounterID: id, Tenant: "acme", Status: status, Sequence: 5, LastActivity: t0})
		require.NoError(t, err)
		_, err = bucket.Put(ctx, "e."+id, b) // as an older version wrote it
		require.NoError(t, err)
	}
	sums, err := js.IdleEncounters(ctx, "acme", t0.Add(time.Hour), 10)
	require.NoError(t, err)
	require.Empty(t, sums, "not prepared yet")

	n, err := js.BackfillIdle(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	sums, err = js.IdleEncounters(ctx, "acme", t0.Add(time.Hour), 10)
	require.NoError(t, err)
	require.Len(t, sums, 1)
	require.Equal(t, "old-open", sums[0].EncounterID)

	again, err := store.Open(ctx, s.Encounter, store.Config{}) // another replica, or a restart
	require.NoError(t, err)
	n, err = again.BackfillIdle(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "once")
}
