package store

import (
	"context"
	"errors"
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
	// Apply sets these limits (bytes, age, records per encounter, and the discard policy
	// that refuses new writes at a limit) on a stream and buckets that exist already. Without
	// it, Open creates what is missing and only checks what exists: an operator's limits
	// stay, and what differs is logged. Replicas, subjects and the rest are never changed.
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
