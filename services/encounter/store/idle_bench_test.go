package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

// BenchmarkIdleSweepScan is one sweep's look for idle encounters on a JetStream index holding
// 5,000 open encounters (1,000 of them idle) and 5,000 ended ones (a delete marker each): the
// scan of every open key, then the summaries of the 100 oldest; and the scan of one tenant's
// keys a refusal at the cap reads. Reported: per pass, and per key read (open keys and
// markers).
func BenchmarkIdleSweepScan(b *testing.B) {
	ctx := context.Background()
	_, nc := natstest.Start(b)
	js, err := store.Open(ctx, nc, store.Config{})
	require.NoError(b, err)
	t0 := time.Date(2026, 1, 5, 20, 0, 0, 0, time.UTC)
	const open, idle, ended = 5000, 1000, 5000
	for i := range open + ended {
		last := t0.Add(time.Duration(i) * time.Minute)
		if i < idle {
			last = t0.Add(-time.Duration(idle-i) * time.Minute)
		}
		sum := store.Summary{EncounterID: fmt.Sprintf("enc-%05d", i), Tenant: fmt.Sprintf("t%d", i%10), Name: "Ruelle", RuleSystem: "loss",
			Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_SETUP, Sequence: 1, LastActivity: last,
			Members: map[string]encounterv1.Role{"t/gm": encounterv1.Role_ROLE_GM}}
		require.NoError(b, js.PutSummary(ctx, sum))
		if i >= open {
			sum.Status, sum.Sequence = encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED, 2
			require.NoError(b, js.PutSummary(ctx, sum))
		}
	}
	b.Run("sweep", func(b *testing.B) {
		for b.Loop() {
			sums, err := js.IdleEncounters(ctx, "", t0, 100)
			require.NoError(b, err)
			require.Len(b, sums, 100)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(open+ended), "ns/key")
	})
	// What a create refused at the cap reads (at most every 10 s a tenant): the scan of one
	// tenant's keys alone, 500 open and 500 markers.
	b.Run("oldest of a tenant", func(b *testing.B) {
		for b.Loop() {
			oldest, err := js.OldestActivity(ctx, "t3")
			require.NoError(b, err)
			require.False(b, oldest.IsZero())
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64((open+ended)/10), "ns/key")
	})
}
