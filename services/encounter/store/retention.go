package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Retention is what the stream and the buckets may hold, and for how long. At a limit, new
// writes are refused (JetStream's DiscardNew): history is never dropped to make room. A zero
// field takes its default; a negative one means no limit.
type Retention struct {
	// StreamMaxBytes bounds the stream of events (default 8 GiB). When it is full, every
	// command is refused (Unavailable, "maximum bytes exceeded") until an operator raises it.
	StreamMaxBytes int64
	// MaxAge removes records older than it from the stream, and seeds and snapshots older
	// than it from their buckets (default: none, kept for ever). An encounter whose first
	// records expired can no longer be loaded: set it only to keep a rolling window of
	// games, longer than any game lasts.
	MaxAge time.Duration
	// MaxRecordsPerEncounter bounds one encounter's records, one a command (default 100,000,
	// the service's events per encounter); past it the stream refuses the encounter's
	// appends, whatever the service says.
	MaxRecordsPerEncounter int64
	// SeedsMaxBytes, SnapshotsMaxBytes and IndexMaxBytes bound the buckets (defaults 64 MiB,
	// 2 GiB, 512 MiB). A full seed bucket refuses new encounters; a full snapshot or index
	// bucket leaves the snapshots or the index behind (loads replay more of the log,
	// ListEncounters lags) until an operator raises it.
	SeedsMaxBytes, SnapshotsMaxBytes, IndexMaxBytes int64
	// Apply sets these limits on a stream and buckets that exist already. Without it, an
	// existing stream or bucket keeps the limits an operator gave it: Open only creates what is
	// missing, and otherwise changes only what fray needs to work (subjects, denied deletes
	// and purges, direct gets, the record size).
	Apply bool
}

// Default retention.
const (
	DefaultStreamMaxBytes         = 8 << 30
	DefaultMaxRecordsPerEncounter = 100_000
	DefaultSeedsMaxBytes          = 64 << 20
	DefaultSnapshotsMaxBytes      = 2 << 30
	DefaultIndexMaxBytes          = 512 << 20
)

// orDefault is v, def for 0, -1 (no limit) for a negative v.
func orDefault(v, def int64) int64 {
	switch {
	case v == 0:
		return def
	case v < 0:
		return -1
	}
	return v
}

func (r Retention) withDefaults() Retention {
	r.StreamMaxBytes = orDefault(r.StreamMaxBytes, DefaultStreamMaxBytes)
	r.MaxRecordsPerEncounter = orDefault(r.MaxRecordsPerEncounter, DefaultMaxRecordsPerEncounter)
	r.SeedsMaxBytes = orDefault(r.SeedsMaxBytes, DefaultSeedsMaxBytes)
	r.SnapshotsMaxBytes = orDefault(r.SnapshotsMaxBytes, DefaultSnapshotsMaxBytes)
	r.IndexMaxBytes = orDefault(r.IndexMaxBytes, DefaultIndexMaxBytes)
	if r.MaxAge < 0 {
		r.MaxAge = 0
	}
	return r
}

// ensureStream creates the stream as want if it is missing. An existing stream keeps its
// limits (bytes, age, per-subject, discard policy, replicas, duplicate window) unless
// r.Apply; what fray needs of it is set.
func ensureStream(ctx context.Context, js jetstream.JetStream, want jetstream.StreamConfig, r Retention) (jetstream.Stream, error) {
	stream, err := js.Stream(ctx, want.Name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return js.CreateStream(ctx, want)
	}
	if err != nil {
		return nil, err
	}
	info, err := stream.Info(ctx)
	if err != nil {
		return nil, err
	}
	cur := info.Config
	next := cur
	next.Subjects, next.DenyDelete, next.DenyPurge, next.AllowDirect = want.Subjects, true, true, true
	next.MaxMsgSize = max(cur.MaxMsgSize, want.MaxMsgSize)
	if cur.MaxMsgSize <= 0 {
		next.MaxMsgSize = want.MaxMsgSize
	}
	if r.Apply {
		next.MaxBytes, next.MaxAge, next.MaxMsgsPerSubject = want.MaxBytes, want.MaxAge, want.MaxMsgsPerSubject
		next.Discard, next.DiscardNewPerSubject = want.Discard, want.DiscardNewPerSubject
	}
	if reflect.DeepEqual(cur, next) {
		return stream, nil
	}
	return js.UpdateStream(ctx, next)
}

// ensureBucket creates the bucket as want if it is missing; an existing one keeps its
// limits unless r.Apply.
func ensureBucket(ctx context.Context, js jetstream.JetStream, want jetstream.KeyValueConfig, r Retention) (jetstream.KeyValue, error) {
	kv, err := js.KeyValue(ctx, want.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return js.CreateKeyValue(ctx, want)
	}
	if err != nil || !r.Apply {
		return kv, err
	}
	st, err := kv.Status(ctx)
	if err != nil {
		return nil, err
	}
	info := st.(*jetstream.KeyValueBucketStatus).StreamInfo()
	if info.Config.MaxBytes == want.MaxBytes && info.Config.MaxAge == want.TTL {
		return kv, nil
	}
	cfg := info.Config
	cfg.MaxBytes, cfg.MaxAge = want.MaxBytes, want.TTL
	if _, err := js.UpdateStream(ctx, cfg); err != nil {
		return nil, fmt.Errorf("update the limits of bucket %s: %w", want.Bucket, err)
	}
	return js.KeyValue(ctx, want.Bucket)
}

// DeleteSeed forgets an encounter's seed: once the encounter has ended, its EncounterEnded
// event reveals the seed, and the log is the only copy kept.
func (s *JetStream) DeleteSeed(ctx context.Context, encounterID string) error {
	if s.seeds == nil {
		return ErrNoBucket
	}
	// Purge, not Delete: no revision of the seed stays behind its delete marker.
	err := s.seeds.Purge(ctx, encounterID)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil
	}
	return err
}

func (m *Memory) DeleteSeed(_ context.Context, encounterID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.seeds, encounterID)
	return nil
}
