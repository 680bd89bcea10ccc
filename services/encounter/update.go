package encounter

// The one write pipeline. Every change recorded in an encounter's log — a command, a
// creation, an end for idleness — goes through update, which owns what every write needs:
// the entry loaded, a stale copy refreshed from the log's leader before a refusal, the
// conflict retried, the record appended, its events folded, the cache, the snapshot and the
// index kept. A write only decides (write.decide), on the entry as update holds it.

import (
	"bytes"
	"context"
	"errors"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// write is one change update makes to an encounter.
type write struct {
	// creates: the encounter need not exist yet (CreateEncounter); an entry the log does not
	// hold is decided on as empty, at position 0.
	creates bool
	// decide says, on the entry as it is (e.mu held), what to record, or answers a command the
	// log holds already (decided.done). A refusal a fresher state may not make is
	// stale(err): update reads the log once, as its leader holds it, and decides again if it
	// holds more.
	decide func(ctx context.Context, e *entry) (decided, error)
	// recall answers the command whose record the log holds at position already (the
	// append met its duplicate); the entry holds at least that position.
	recall func(ctx context.Context, e *entry, position uint64) (outcome, error)
}

// decided is what a write decided: the events of the record to append, under the record's
// de-duplication id and its command's id and digest; or done, the answer of a command
// recorded before.
type decided struct {
	events []*encounterv1.Event
	msgID  string
	cmdID  string
	digest []byte
	// hash is the resolver's hash of the state the events lead to, when it sent one.
	hash []byte
	done *outcome
}

// staleRefusal is a refusal that may come from a state behind the log (stale).
type staleRefusal struct{ error }

func (e staleRefusal) Unwrap() error { return e.error }

// stale marks err as a refusal a fresher state may not make.
func stale(err error) error { return staleRefusal{err} }

// update records what w decides on encounter id, and returns what it recorded (or what the
// log held of it already).
func (s *Service) update(ctx context.Context, id string, w write) (outcome, error) {
	e, err := s.entryFor(ctx, id, w.creates)
	if err != nil {
		return outcome{}, err
	}
	// A snapshot taken under the entry's lock is written after it is released (deferred
	// calls run last first).
	var snap *pendingSnapshot
	defer func() { s.writeSnapshot(ctx, id, e, snap) }()
	e.mu.Lock()
	defer e.mu.Unlock()
	// What this service holds may be behind the log (another replica recorded since): before
	// a refusal on it stands, the log is read once, as its leader holds it (a lagging copy
	// would refuse on the same stale state).
	refreshed := false
	for attempt := 1; ; {
		d, err := w.decide(ctx, e)
		if why := (staleRefusal{}); errors.As(err, &why) {
			if refreshed {
				return outcome{}, why.error
			}
			refreshed = true
			at := e.position
			if err := s.refreshFor(ctx, id, e, w.creates, store.Latest()); err != nil {
				return outcome{}, err
			}
			if e.position == at {
				return outcome{}, why.error
			}
			continue
		}
		if err != nil {
			return outcome{}, err
		}
		if d.done != nil {
			return *d.done, nil
		}
		o, appended, err := s.record(ctx, id, e, w, d)
		if !errors.Is(err, store.ErrConflict) {
			if appended && !w.creates {
				// A creation is snapshotted with the encounter's next commands.
				snap = s.snapshotDue(e, o.before.GetSequence())
			}
			return o, err
		}
		// The log moved past e.position: read it as its leader holds it, not from a copy
		// that may not hold the record this append collided with.
		if attempt >= s.opts.MaxAttempts {
			return outcome{}, status.Errorf(codes.Aborted,
				"encounter %q changed under this command %d times in a row; nothing was recorded, try again", e.state.GetName(), attempt)
		}
		if err := s.refreshFor(ctx, id, e, w.creates, store.Latest()); err != nil {
			return outcome{}, err
		}
		s.obs.retried()
		attempt++
		refreshed = true // what follows is decided on the log as it is now
	}
}

// record appends what d decided on e (e.mu held) and folds it into the entry, or answers the
// retry the log found it to be (not appended); store.ErrConflict when the append met a
// conflict, to be decided again.
func (s *Service) record(ctx context.Context, id string, e *entry, w write, d decided) (_ outcome, appended bool, _ error) {
	batch := &encounterv1.EventBatch{Events: d.events}
	if err := s.checkLimits(e.state, e.stateBytes, batch); err != nil {
		return outcome{}, false, err
	}
	app, err := s.appendRecord(ctx, id, e.position, d.msgID, batch)
	switch {
	case errors.Is(err, store.ErrConflict):
		return outcome{}, false, err
	case err != nil:
		return outcome{}, false, unavailable(err)
	case app.Duplicate:
		if err := s.refreshFor(ctx, id, e, w.creates, store.AtLeast(app.Position)); err != nil {
			return outcome{}, false, err
		}
		o, err := w.recall(ctx, e, app.Position)
		return o, false, err
	}
	before, err := s.fold(e, app.Position, d)
	if err != nil {
		return outcome{}, false, err
	}
	s.updateIndex(ctx, e)
	s.forgetSeed(ctx, id, e, d.events)
	// Only when the decider sent the hash (a sample of the commands: RemoteDecider) is the
	// state hashed here too: two hashes of the whole state per command are what the check
	// costs, and a resolver that folds otherwise shows within a sample.
	if d.hash != nil && !bytes.Equal(engine.Hash(e.state), d.hash) {
		s.log.WarnContext(ctx, "the resolver and this service fold to different states; the log is the truth",
			"encounter", id, "sequence", e.state.GetSequence())
	}
	return outcome{events: d.events, before: before, after: e.state}, true, nil
}

// fold folds the events just recorded at position into a copy that replaces the entry's
// state (e.mu held): the state before them stays as it is, for the answer (states.go). It
// returns that state before.
func (s *Service) fold(e *entry, position uint64, d decided) (*encounterv1.EncounterState, error) {
	before, next := e.state, s.reg.Fork(e.state)
	for _, ev := range d.events {
		if err := s.reg.Evolve(next, ev); err != nil {
			e.loaded = false
			return nil, status.Errorf(codes.Internal, "recorded event %d cannot be folded: %v", ev.GetSequence(), err)
		}
	}
	e.state = next
	e.position = position
	e.loaded = true // an encounter just created is loaded: its record is its first
	e.cmds.add(d.cmdID, position, d.digest)
	e.last = d.events[len(d.events)-1].GetTime().AsTime()
	s.account(e)
	return before, nil
}

// entryFor is the entry of encounter id for a write; one that creates it takes an
// encounter the log does not hold as empty.
func (s *Service) entryFor(ctx context.Context, id string, creates bool) (*entry, error) {
	if !creates {
		return s.entry(ctx, id, false)
	}
	s.mu.Lock()
	e := s.cacheEntry(id)
	s.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.loaded {
		return e, nil
	}
	return e, s.refreshFor(ctx, id, e, true)
}

// refreshFor is refresh, for a write: one that creates the encounter finds an entry the
// log does not hold yet empty, at position 0, and not loaded (so that no other call takes
// it for the truth).
func (s *Service) refreshFor(ctx context.Context, id string, e *entry, creates bool, opts ...store.LoadOption) error {
	err := s.refresh(ctx, id, e, opts...)
	if creates && !e.loaded && errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}
