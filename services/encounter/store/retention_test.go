package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

func streamConfig(t *testing.T, js jetstream.JetStream, name string) jetstream.StreamConfig {
	t.Helper()
	s, err := js.Stream(context.Background(), name)
	require.NoError(t, err)
	info, err := s.Info(context.Background())
	require.NoError(t, err)
	return info.Config
}

// The stream and buckets are created with stated limits; a restart leaves an operator's
// limits alone unless told to apply its own.
func TestRetentionIsStatedAndAnOperatorsLimitsStay(t *testing.T) {
	ctx := context.Background()
	_, nc := natstest.Start(t)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	_, err = store.Open(ctx, nc, store.Config{})
	require.NoError(t, err)
	cfg := streamConfig(t, js, "FRAY_ENCOUNTERS")
	require.Equal(t, jetstream.DiscardNew, cfg.Discard)
	require.True(t, cfg.DiscardNewPerSubject)
	require.Equal(t, int64(store.DefaultStreamMaxBytes), cfg.MaxBytes)
	require.Equal(t, int64(store.DefaultMaxRecordsPerEncounter), cfg.MaxMsgsPerSubject)
	require.Zero(t, cfg.MaxAge)
	require.True(t, cfg.DenyDelete)
	require.True(t, cfg.DenyPurge)
	for bucket, want := range map[string]int64{"KV_FRAY_SEEDS": store.DefaultSeedsMaxBytes, "KV_FRAY_SNAPSHOTS": store.DefaultSnapshotsMaxBytes, "KV_FRAY_INDEX": store.DefaultIndexMaxBytes} {
		c := streamConfig(t, js, bucket)
		require.Equal(t, want, c.MaxBytes, bucket)
		require.Equal(t, jetstream.DiscardNew, c.Discard, bucket)
	}

	// An operator raises the stream's bytes and sets an age.
	cfg.MaxBytes, cfg.MaxAge = 20<<30, 90*24*time.Hour
	_, err = js.UpdateStream(ctx, cfg)
	require.NoError(t, err)
	_, err = store.Open(ctx, nc, store.Config{Retention: store.Retention{StreamMaxBytes: 1 << 30}})
	require.NoError(t, err)
	got := streamConfig(t, js, "FRAY_ENCOUNTERS")
	require.Equal(t, int64(20<<30), got.MaxBytes, "a start keeps the operator's limits")
	require.Equal(t, 90*24*time.Hour, got.MaxAge)

	// Told to apply its own, it does, on the stream and the buckets.
	_, err = store.Open(ctx, nc, store.Config{Retention: store.Retention{StreamMaxBytes: 1 << 30, MaxAge: 30 * 24 * time.Hour, SeedsMaxBytes: 1 << 20, Apply: true}})
	require.NoError(t, err)
	got = streamConfig(t, js, "FRAY_ENCOUNTERS")
	require.Equal(t, int64(1<<30), got.MaxBytes)
	require.Equal(t, 30*24*time.Hour, got.MaxAge)
	seeds := streamConfig(t, js, "KV_FRAY_SEEDS")
	require.Equal(t, int64(1<<20), seeds.MaxBytes)
	require.Equal(t, 30*24*time.Hour, seeds.MaxAge, "a seed lives no longer than its log")
}

// At a limit, new appends are refused and what is recorded stays whole.
func TestAtTheLimitAppendsAreRefusedAndNothingIsDropped(t *testing.T) {
	ctx := context.Background()
	_, nc := natstest.Start(t)
	s, err := store.Open(ctx, nc, store.Config{Retention: store.Retention{MaxRecordsPerEncounter: 2, StreamMaxBytes: 64 << 10}})
	require.NoError(t, err)

	// Per encounter: the third record of "a" is refused; "b" still takes records.
	a1, err := s.Append(ctx, "a", 0, "a/1", batch("a", 1))
	require.NoError(t, err)
	a2, err := s.Append(ctx, "a", a1.Position, "a/2", batch("a", 2))
	require.NoError(t, err)
	_, err = s.Append(ctx, "a", a2.Position, "a/3", batch("a", 3))
	require.Error(t, err)
	require.Contains(t, err.Error(), "maximum messages per subject exceeded")
	recs, err := s.Load(ctx, "a", 0)
	require.NoError(t, err)
	require.Len(t, recs, 2, "nothing of a was dropped")
	require.Equal(t, uint64(1), recs[0].Batch.GetEvents()[0].GetSequence())

	// The stream's bytes: appends are refused once it is full; the first records stay.
	big := &encounterv1.EventBatch{Events: []*encounterv1.Event{{EncounterId: "b", Sequence: 1, CommandId: strings.Repeat("x", 8<<10)}}}
	var last uint64
	var refused error
	for i := range 20 {
		big.Events[0].Sequence = uint64(i + 1)
		app, err := s.Append(ctx, "c"+string(rune('a'+i)), 0, "", big)
		if err != nil {
			refused = err
			break
		}
		last = app.Position
	}
	require.Error(t, refused)
	require.Contains(t, refused.Error(), "maximum bytes exceeded")
	require.NotZero(t, last)
	recs, err = s.Load(ctx, "a", 0)
	require.NoError(t, err)
	require.Len(t, recs, 2, "nothing was dropped to make room")
}

func TestDeleteSeed(t *testing.T) {
	backends(t, func(t *testing.T, s backend) {
		ctx := context.Background()
		require.NoError(t, s.PutSeed(ctx, "a", []byte("seed")))
		require.NoError(t, s.DeleteSeed(ctx, "a"))
		_, err := s.Seed(ctx, "a")
		require.ErrorIs(t, err, store.ErrNotFound)
		require.NoError(t, s.DeleteSeed(ctx, "never"))
	})
}
