package store_test

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

// logBuffer is a logger writing text lines to a buffer safe for concurrent use.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *logBuffer) logger() *slog.Logger { return slog.New(slog.NewTextHandler(b, nil)) }

// An existing stream and buckets are checked, never rewritten: what differs from this
// service's settings is logged, each difference named with both values, and everything stays
// as the operator left it (replicas, duplicate window, denied deletes, direct gets, limits).
func TestAnExistingStreamIsCheckedNeverRewritten(t *testing.T) {
	ctx := context.Background()
	_, nc := natstest.Start(t)
	js, err := jetstream.New(nc)
	require.NoError(t, err)

	// Made by this service: a second start finds nothing to say.
	var first logBuffer
	_, err = store.Open(ctx, nc, store.Config{Log: first.logger()})
	require.NoError(t, err)
	var again logBuffer
	_, err = store.Open(ctx, nc, store.Config{Log: again.logger()})
	require.NoError(t, err)
	require.Contains(t, first.String(), "created stream")
	require.Empty(t, again.String(), "nothing differs from what it made")

	// An operator made them otherwise.
	_, nc = natstest.Start(t)
	js, err = jetstream.New(nc)
	require.NoError(t, err)
	_, err = js.CreateStream(ctx, jetstream.StreamConfig{Name: "FRAY_ENCOUNTERS", Subjects: []string{"fray.enc.*"}, Storage: jetstream.FileStorage,
		Duplicates: time.Hour, MaxBytes: 20 << 30, MaxAge: 90 * 24 * time.Hour, DenyPurge: true, MaxMsgSize: store.MaxRecordBytes,
		Discard: jetstream.DiscardNew, DiscardNewPerSubject: true, MaxMsgsPerSubject: store.DefaultMaxRecordsPerEncounter})
	require.NoError(t, err)
	for b, n := range map[string]int64{"FRAY_SEEDS": 1 << 30, "FRAY_SNAPSHOTS": store.DefaultSnapshotsMaxBytes, "FRAY_INDEX": store.DefaultIndexMaxBytes} {
		_, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: b, Storage: jetstream.FileStorage, MaxBytes: n})
		require.NoError(t, err)
	}
	before := streamConfig(t, js, "FRAY_ENCOUNTERS")

	for _, apply := range []bool{false, true} {
		var logs logBuffer
		_, err = store.Open(ctx, nc, store.Config{Replicas: 3, Log: logs.logger(), Retention: store.Retention{Apply: apply}})
		require.NoError(t, err)
		out := logs.String()
		for _, want := range []string{
			"level=WARN msg=\"stream differs from these settings and was left as it is",
			"replicas 1 (these settings: 3)",
			"duplicate window 1h0m0s (these settings: 24h0m0s)",
			"deny delete false (these settings: true)",
			"direct get false (these settings: true)",
			"bucket=FRAY_SEEDS",
		} {
			require.Contains(t, out, want, "apply %v", apply)
		}
		got := streamConfig(t, js, "FRAY_ENCOUNTERS")
		require.Equal(t, 1, got.Replicas, "replicas are never changed")
		require.Equal(t, time.Hour, got.Duplicates)
		require.False(t, got.DenyDelete)
		require.False(t, got.AllowDirect)
		if !apply {
			require.Contains(t, out, "limits_kept=\"max bytes 20 GiB (these settings: 8 GiB); max age 2160h0m0s (these settings: none)\"")
			require.Contains(t, out, "max bytes 1 GiB (these settings: 64 MiB)")
			require.Equal(t, before, got, "the stream is left exactly as it was")
			require.Equal(t, int64(1<<30), streamConfig(t, js, "KV_FRAY_SEEDS").MaxBytes)
			continue
		}
		// --apply-storage-limits sets the limits, and only them.
		require.Contains(t, out, "limits_set=\"max bytes 20 GiB (these settings: 8 GiB); max age 2160h0m0s (these settings: none)\"")
		require.Equal(t, int64(store.DefaultStreamMaxBytes), got.MaxBytes)
		require.Zero(t, got.MaxAge)
		require.Equal(t, int64(store.DefaultSeedsMaxBytes), streamConfig(t, js, "KV_FRAY_SEEDS").MaxBytes)
	}
}

// A stream fray cannot use is refused, untouched: subjects that do not take its records, or
// a retention that would remove them.
func TestAStreamFrayCannotUseIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  jetstream.StreamConfig
		want string
	}{
		{"subjects", jetstream.StreamConfig{Name: "FRAY_ENCOUNTERS", Subjects: []string{"other.*"}},
			"stream FRAY_ENCOUNTERS has subjects other.* (these settings: fray.enc.*)"},
		{"retention", jetstream.StreamConfig{Name: "FRAY_ENCOUNTERS", Subjects: []string{"fray.>"}, Retention: jetstream.WorkQueuePolicy},
			"stream FRAY_ENCOUNTERS has retention WorkQueue (these settings: Limits)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			_, nc := natstest.Start(t)
			js, err := jetstream.New(nc)
			require.NoError(t, err)
			_, err = js.CreateStream(ctx, tc.cfg)
			require.NoError(t, err)
			before := streamConfig(t, js, "FRAY_ENCOUNTERS")
			for _, apply := range []bool{false, true} {
				_, err = store.Open(ctx, nc, store.Config{Log: slog.New(slog.DiscardHandler), Retention: store.Retention{Apply: apply}})
				require.ErrorIs(t, err, store.ErrMisconfigured)
				require.Contains(t, err.Error(), tc.want)
				require.Equal(t, before, streamConfig(t, js, "FRAY_ENCOUNTERS"))
			}
		})
	}
}

// OpenLog (fray import) creates the stream with the replicas asked, and otherwise leaves an
// existing one as it is, whatever replicas it is asked for; it opens no bucket.
func TestOpenLogCreatesOrLeavesTheStream(t *testing.T) {
	ctx := context.Background()
	_, nc := natstest.Start(t)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	s, err := store.OpenLog(ctx, nc, store.Config{Replicas: 1, Log: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	_, err = s.Seed(ctx, "a")
	require.ErrorIs(t, err, store.ErrNoBucket)
	_, err = js.KeyValue(ctx, "FRAY_SEEDS")
	require.ErrorIs(t, err, jetstream.ErrBucketNotFound, "no bucket made")
	cfg := streamConfig(t, js, "FRAY_ENCOUNTERS")
	require.Equal(t, 1, cfg.Replicas)
	require.True(t, cfg.DenyDelete)

	cfg.MaxBytes = 20 << 30
	_, err = js.UpdateStream(ctx, cfg)
	require.NoError(t, err)
	before := streamConfig(t, js, "FRAY_ENCOUNTERS")
	var logs logBuffer
	// Three replicas on a one-node server: any change would fail.
	_, err = store.OpenLog(ctx, nc, store.Config{Replicas: 3, Log: logs.logger()})
	require.NoError(t, err)
	require.Equal(t, before, streamConfig(t, js, "FRAY_ENCOUNTERS"))
	require.Contains(t, logs.String(), "replicas 1 (these settings: 3)")
}
