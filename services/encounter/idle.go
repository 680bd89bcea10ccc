package encounter

// Ends for idleness: an encounter not ended that has recorded no event for Options.IdleEnd is
// ended by the service itself, with an EncounterEnded recorded as the GM's would be (the seed
// revealed, the seed key deleted, the index told, the tenant's count of open encounters down
// by one), through the same pipeline as every command (executeAs). Every replica sweeps;
// the end is recorded at most once: it is appended only on the position its decider read, and
// under a command id derived from that position, so that of two replicas ending the same
// encounter one appends and the other meets the end (and stops) or the duplicate.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"google.golang.org/protobuf/types/known/durationpb"
)

// Defaults of the ends for idleness (Options.IdleEnd, IdleSweepEvery, IdleSweepBatch).
const (
	DefaultIdleEnd        = 30 * 24 * time.Hour
	DefaultIdleSweepEvery = 5 * time.Minute
	DefaultIdleSweepBatch = 100
	// idleEndTimeout bounds the end of one encounter (its load, decision and append).
	idleEndTimeout = 30 * time.Second
)

var (
	errNotIdle = errors.New("the encounter has recorded an event since")
	errEnded   = errors.New("the encounter has ended already")
)

// IdleEndOption is Options.IdleEnd for an operator's setting, where 0 means never (-1).
func IdleEndOption(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// idleCommandID is the command id of the end for idleness of an encounter whose last record
// is at position: the same for every replica that ends it there.
func idleCommandID(position uint64) string { return "idle-end-" + strconv.FormatUint(position, 10) }

// idleEnd is one encounter ended for idleness: what it was before, and the end recorded.
type idleEnd struct {
	last    time.Time // its last event before the end
	o       outcome
	summary store.Summary
}

// endIdle ends the encounter of sum for idleness if it has recorded no event for idle (the
// log decides, under the entry's lock, not the index), with reason; ok is false when it has
// recorded one since, or has ended already (by another replica, say).
func (s *Service) endIdle(ctx context.Context, sum store.Summary, idle time.Duration, reason string) (_ idleEnd, ok bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, idleEndTimeout)
	defer cancel()
	id := sum.EncounterID
	if _, err := s.entry(ctx, id, true); err != nil { // what other replicas recorded included
		return idleEnd{}, false, err
	}
	var last time.Time
	cmd := &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Idle: durationpb.New(idle), Reason: reason}}}
	o, err := s.executeAs(ctx, caller{principal: engine.IdleActor, tenant: sum.Tenant}, access{}, id, "", nil, cmd, func(ctx context.Context, e *entry) (string, error) {
		if e.state.GetStatus() == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED {
			return "", errEnded
		}
		var err error
		if last, err = s.lastActivity(ctx, id, e); err != nil {
			return "", err
		}
		if s.opts.Now().Sub(last) < idle {
			return "", errNotIdle
		}
		return idleCommandID(e.position), nil
	})
	s.countCommand(id, o, err)
	if errors.Is(err, errNotIdle) || errors.Is(err, errEnded) {
		return idleEnd{}, false, nil
	}
	if err != nil {
		return idleEnd{}, false, err
	}
	if s.obs.Metrics != nil {
		s.obs.idleEnded.Inc()
	}
	return idleEnd{last: last, o: o, summary: sum}, true, nil
}

// lastActivity is the time of the encounter's last event (e.mu held): the entry's, or, loaded
// from a snapshot with nothing after it, its last record's.
func (s *Service) lastActivity(ctx context.Context, id string, e *entry) (time.Time, error) {
	if !e.last.IsZero() {
		return e.last, nil
	}
	r, err := s.events.Get(ctx, e.position)
	if err != nil {
		return time.Time{}, unavailable(fmt.Errorf("the last record of %s: %w", id, err))
	}
	if evs := r.Batch.GetEvents(); len(evs) > 0 {
		e.last = evs[len(evs)-1].GetTime().AsTime()
	}
	return e.last, nil
}

// SweepIdle ends for idleness, once, up to IdleSweepBatch encounters of any tenant that have
// recorded no event for IdleEnd, the longest idle first, and logs each; it returns how many it
// ended. Each end holds one encounter's lock for one decision and one append, like any
// command. Without ends for idleness (IdleEnd negative) or an index that finds them, none.
func (s *Service) SweepIdle(ctx context.Context) (int, error) {
	finder, ok := s.index.(store.IdleFinder)
	if !ok || s.opts.IdleEnd <= 0 {
		return 0, nil
	}
	sums, err := finder.IdleEncounters(ctx, "", s.opts.Now().Add(-s.opts.IdleEnd), s.opts.IdleSweepBatch)
	if err != nil {
		return 0, err
	}
	ended := 0
	for _, sum := range sums {
		end, ok, err := s.endIdle(ctx, sum, s.opts.IdleEnd, "")
		if err != nil {
			if ctx.Err() != nil {
				return ended, ctx.Err()
			}
			s.log.WarnContext(ctx, "an idle encounter was not ended; tried again at the next sweep", "encounter", sum.EncounterID, "tenant", sum.Tenant, "err", err)
			continue
		}
		if ok {
			ended++
			s.logIdleEnd(ctx, end, "the service")
		}
	}
	return ended, nil
}

func (s *Service) logIdleEnd(ctx context.Context, end idleEnd, by string) {
	s.log.InfoContext(ctx, "encounter ended for idleness", "encounter", end.summary.EncounterID, "tenant", end.summary.Tenant,
		"name", end.summary.Name, "last_activity", end.last.UTC().Format(time.RFC3339), "idle", s.opts.Now().Sub(end.last).Round(time.Second),
		"sequence", end.o.after.GetSequence(), "by", by)
}

// RunIdleSweeps sweeps (SweepIdle) every IdleSweepEvery until ctx ends, after writing into the
// index what finding idle encounters needs of those it holds from before (store.IdleBackfiller).
func (s *Service) RunIdleSweeps(ctx context.Context) {
	if s.opts.IdleEnd <= 0 {
		return
	}
	if _, ok := s.index.(store.IdleFinder); !ok {
		return
	}
	if b, ok := s.index.(store.IdleBackfiller); ok {
		if n, err := b.BackfillIdle(ctx); err != nil {
			s.log.WarnContext(ctx, "the index was not prepared to find idle encounters; those open before this version are not ended for idleness until it is (next start)", "err", err)
		} else if n > 0 {
			s.log.InfoContext(ctx, "index prepared to find idle encounters", "open", n)
		}
	}
	t := time.NewTicker(s.opts.IdleSweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := s.SweepIdle(ctx); err != nil && ctx.Err() == nil {
			s.log.WarnContext(ctx, "idle encounters not looked for; tried again at the next sweep", "err", err)
		}
	}
}

// idleSpan says a duration as an operator gives it: "720h", "90m", "45s", else as Go prints it.
func idleSpan(d time.Duration) string {
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d >= time.Minute && d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	}
	return d.String()
}

// oldestOpen remembers, per tenant, the oldest activity of its open encounters for a while:
// a tenant at its cap may send many creates, each refused with when a wait helps.
type oldestOpen struct {
	mu sync.Mutex
	by map[string]oldestAt
}

type oldestAt struct {
	read, oldest time.Time
}

// Bounds of oldestOpen: how long a tenant's is kept, and how many tenants.
const (
	oldestKeep  = 10 * time.Second
	oldestLimit = 1000
)

// retryHorizon: a refusal at the cap of open encounters carries a RetryInfo when one of them
// ends for idleness within it; a longer wait is not one to make a client wait for.
const retryHorizon = time.Hour

// nextIdleEnd is how long until one of the tenant's open encounters ends for idleness, at the
// latest (0: none will within retryHorizon, or ends are off).
func (s *Service) nextIdleEnd(ctx context.Context, tenant string) time.Duration {
	finder, ok := s.index.(store.IdleFinder)
	if !ok || s.opts.IdleEnd <= 0 {
		return 0
	}
	now := s.opts.Now()
	s.oldest.mu.Lock()
	at, ok := s.oldest.by[tenant]
	s.oldest.mu.Unlock()
	if !ok || now.Sub(at.read) > oldestKeep || now.Before(at.read) {
		oldest, err := finder.OldestActivity(ctx, tenant)
		if err != nil {
			return 0
		}
		at = oldestAt{read: now, oldest: oldest}
		s.oldest.mu.Lock()
		if s.oldest.by == nil || len(s.oldest.by) >= oldestLimit {
			s.oldest.by = map[string]oldestAt{}
		}
		s.oldest.by[tenant] = at
		s.oldest.mu.Unlock()
	}
	if at.oldest.IsZero() {
		return 0
	}
	// It is idle at oldest + IdleEnd, and ended by the next sweep after that.
	wait := max(at.oldest.Add(s.opts.IdleEnd).Sub(now), 0) + s.opts.IdleSweepEvery
	if wait > retryHorizon {
		return 0
	}
	return wait
}
