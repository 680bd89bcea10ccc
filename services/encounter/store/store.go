// Package store keeps encounters' events: one subject per encounter, one message per command
// holding the command's events (an EventBatch), appended only if the encounter is where the
// writer last saw it, and at most once per command id.
package store

import (
	"context"
	"errors"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
)

var (
	// ErrConflict: the encounter has moved past the expected position; reload and retry.
	ErrConflict = errors.New("the encounter has changed since it was read")
	// ErrNotFound: no events are recorded for the encounter.
	ErrNotFound = errors.New("no such encounter")
)

// Record is one stored batch with its position in the log.
type Record struct {
	// Position is the log position of the batch (the JetStream stream sequence), increasing
	// along an encounter's records but not contiguous.
	Position uint64
	Batch    *encounterv1.EventBatch
}

// Appended says where a batch went.
type Appended struct {
	Position uint64
	// Duplicate: a batch with the same message id was already stored, at Position; the new
	// one was dropped.
	Duplicate bool
}

// Log is an event log of encounters.
type Log interface {
	// Append stores batch on the encounter if the encounter's last position is expected
	// (0: the encounter has no events yet); otherwise ErrConflict. A msgID already stored
	// returns that record's position with Duplicate set; the expected position is checked
	// first, so a repeated message id on a stale position is an ErrConflict.
	Append(ctx context.Context, encounterID string, expected uint64, msgID string, batch *encounterv1.EventBatch) (Appended, error)
	// Load returns the encounter's records after position after (0: all), in order, or
	// ErrNotFound when the encounter has none at all. It includes at least what opts ask
	// (AtLeast, Latest); on a replicated log, "none" is never a lagging replica's answer.
	Load(ctx context.Context, encounterID string, after uint64, opts ...LoadOption) ([]Record, error)
	// Get returns the record at a position.
	Get(ctx context.Context, position uint64) (Record, error)
	// Watch calls fn with each record of the encounter after position after, then with each
	// new one as it is stored, until ctx ends or fn returns an error (which Watch returns;
	// ErrStop ends it quietly).
	Watch(ctx context.Context, encounterID string, after uint64, fn func(Record) error) error
	// Follow passes fn each record of the encounter stored after Follow returns, in order and
	// each once, from a single goroutine, until ctx ends; then it releases everything it
	// holds on the server (nothing lingers) and done receives nil, or earlier the error that
	// stopped it (fn gets nothing more).
	Follow(ctx context.Context, encounterID string, fn func(Record)) (done <-chan error, err error)
	// Page returns up to n of the encounter's records after position after, in order; none
	// past its last record.
	Page(ctx context.Context, encounterID string, after uint64, n int) ([]Record, error)
	// List returns the ids of the encounters that have events.
	List(ctx context.Context) ([]string, error)
}

// LoadOption says what a Load must include, beyond the records any copy of the log holds.
type LoadOption func(*loadOptions)

type loadOptions struct {
	atLeast uint64
	latest  bool
}

func loadOptionsOf(opts []LoadOption) loadOptions {
	var o loadOptions
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// AtLeast: the caller knows the encounter has a record at position p (it appended it, or
// was told of it), so the load includes it, even where the copy of the log that first
// answers does not hold it yet.
func AtLeast(p uint64) LoadOption {
	return func(o *loadOptions) { o.atLeast = max(o.atLeast, p) }
}

// Latest: the load includes every record acknowledged before it began (the stream's leader
// says which is the last): for an answer that must not be stale, such as a refusal, or
// after a conditional append found the encounter moved on.
func Latest() LoadOption {
	return func(o *loadOptions) { o.latest = true }
}

// ErrStop ends a Watch without an error.
var ErrStop = errors.New("stop watching")

// Snapshots keeps each encounter's latest snapshot.
type Snapshots interface {
	PutSnapshot(ctx context.Context, encounterID string, s *encounterv1.Snapshot) error
	// Snapshot returns the latest snapshot, or ErrNotFound.
	Snapshot(ctx context.Context, encounterID string) (*encounterv1.Snapshot, error)
}

// Seeds keeps each encounter's secret dice seed.
type Seeds interface {
	PutSeed(ctx context.Context, encounterID string, seed []byte) error
	// SeedOnce stores seed unless the encounter has one already, and returns the encounter's
	// seed: seed, or the one stored first (concurrent creates of one encounter share a seed).
	SeedOnce(ctx context.Context, encounterID string, seed []byte) ([]byte, error)
	// Seed returns the seed, or ErrNotFound.
	Seed(ctx context.Context, encounterID string) ([]byte, error)
	// DeleteSeed forgets the seed (of an ended encounter, whose log reveals it); none is no
	// error.
	DeleteSeed(ctx context.Context, encounterID string) error
}
