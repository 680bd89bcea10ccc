package encounter

// Loading an encounter into its cache entry, bringing it up to date with the log, its
// snapshot, and its state as of an earlier sequence.

import (
	"context"
	"errors"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// entry returns the encounter's cache entry, loading it from the log if needed; its lock is
// not held.
// With fresh, every record acknowledged before the call is folded in, whichever service
// appended it (the stream's leader says which is the last: store.Latest); commands need not
// ask for it: an append on a stale position conflicts and refreshes (execute).
func (s *Service) entry(ctx context.Context, id string, fresh bool, opts ...store.LoadOption) (*entry, error) {
	if id == "" {
		return nil, refusal.BadRequest("encounter_id", "no encounter id given")
	}
	s.mu.Lock()
	e := s.cacheEntry(id)
	s.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	s.obs.cacheLookup(e.loaded)
	if e.loaded && !fresh {
		return e, nil
	}
	cold, start := !e.loaded, s.obs.start()
	if fresh {
		opts = append(opts, store.Latest())
	}
	if err := s.refresh(ctx, id, e, opts...); err != nil {
		return nil, err
	}
	if cold {
		s.obs.coldLoaded(start)
	}
	return e, nil
}

// refresh folds the records after the entry's position (on a first load, those after the
// latest snapshot, or all of them): at least up to the entry's position, and to what opts
// ask (store.AtLeast, store.Latest), even from a copy of the log that lags.
func (s *Service) refresh(ctx context.Context, id string, e *entry, opts ...store.LoadOption) error {
	if !e.loaded {
		// Read from the start, the entry knows every command id; from a snapshot, those it
		// keeps.
		e.state, e.position, e.cmds, e.seed, e.born = &encounterv1.EncounterState{}, 0, newCommandIDs(s.opts.RecentCommands, true), nil, time.Time{}
		if snap := s.snapshot(ctx, id); snap != nil {
			e.state, e.position, e.cmds = snap.GetState(), snap.GetPosition(), commandIDsOf(snap, s.opts.RecentCommands)
		}
	}
	recs, err := s.events.Load(ctx, id, e.position, append(opts, store.AtLeast(e.position))...)
	if errors.Is(err, store.ErrNotFound) {
		return absent{noEncounter(id)}
	}
	if err != nil {
		return unavailable(err)
	}
	if e.loaded && len(recs) > 0 {
		e.state = s.reg.Fork(e.state) // the state folded so far may be read by others: fold into a copy
	}
	for _, r := range recs {
		evs := r.Batch.GetEvents()
		for _, ev := range evs {
			if err := s.reg.Evolve(e.state, ev); err != nil {
				e.loaded = false
				return status.Errorf(codes.DataLoss, "encounter %s: event %d cannot be folded: %v", id, ev.GetSequence(), err)
			}
			e.last = ev.GetTime().AsTime()
		}
		if len(evs) > 0 && evs[0].GetCommandId() != "" { // a record's events share its command id
			e.cmds.add(evs[0].GetCommandId(), r.Position, evs[0].GetCommandDigest())
		}
		e.position = r.Position
	}
	e.loaded = true
	s.account(e)
	return nil
}

// absent is the answer for an encounter the log does not hold (noEncounter), which a write
// that creates it recognises (errors.Is store.ErrNotFound).
type absent struct{ error }

func (a absent) GRPCStatus() *status.Status { return status.Convert(a.error) }

func (a absent) Is(target error) bool { return target == store.ErrNotFound }

// known is the position of the last record folded into the entry.
func (e *entry) known() uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.position
}

// snapshot returns the encounter's latest snapshot if it can be trusted: folded by the rules
// this service folds with. A snapshot of older rules is ignored, not trusted.
func (s *Service) snapshot(ctx context.Context, id string) *encounterv1.Snapshot {
	if s.opts.Snapshots == nil {
		return nil
	}
	snap, err := s.opts.Snapshots.Snapshot(ctx, id)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.WarnContext(ctx, "snapshot unreadable; loading from the log", "encounter", id, "err", err)
		}
		return nil
	}
	sys, err := s.reg.Lookup(snap.GetRuleSystem(), 0)
	if err != nil || sys.Version() != snap.GetFoldVersion() || snap.GetState().GetEncounterId() != id {
		s.log.InfoContext(ctx, "snapshot folded by other rules; loading from the log", "encounter", id,
			"snapshot_rules", snap.GetRuleSystem(), "snapshot_version", snap.GetFoldVersion())
		return nil
	}
	return snap
}

// stateAt folds the encounter's events up to sequence at, read from a log that holds at
// least the record at position known (the caller's entry's).
func (s *Service) stateAt(ctx context.Context, id string, at, known uint64) (*encounterv1.EncounterState, error) {
	st := &encounterv1.EncounterState{EncounterId: id}
	if at == 0 {
		return st, nil
	}
	recs, err := s.events.Load(ctx, id, 0, store.AtLeast(known))
	if err != nil {
		return nil, unavailable(err)
	}
	for _, r := range recs {
		for _, ev := range r.Batch.GetEvents() {
			if ev.GetSequence() > at {
				return st, nil
			}
			if err := s.reg.Evolve(st, ev); err != nil {
				return nil, status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
			}
		}
	}
	return st, nil
}
