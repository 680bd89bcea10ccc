package encounter

// ListEncounters and the index behind it: one summary per encounter, kept after each append.

import (
	"context"
	"errors"
	"maps"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// summary is the encounter's entry in the index.
func summary(st *encounterv1.EncounterState, last time.Time) store.Summary {
	members := map[string]encounterv1.Role{}
	candidates := []string{st.GetGameMaster()}
	for _, g := range st.GetRoles() {
		candidates = append(candidates, g.GetPrincipal())
	}
	for _, c := range st.GetCombatants() {
		candidates = append(candidates, c.GetController())
	}
	for _, p := range candidates {
		if r := engine.RoleOf(st, p); r != engine.RoleNone {
			members[p] = r
		}
	}
	return store.Summary{
		EncounterID: st.GetEncounterId(), Tenant: st.GetTenant(), Name: st.GetName(), RuleSystem: st.GetRuleSystem(),
		Status: st.GetStatus(), Sequence: st.GetSequence(), LastActivity: last, Members: members,
	}
}

// DefaultIndexDelay is how long the index may lag behind an encounter's sequence and last
// activity (Options.IndexDelay).
const DefaultIndexDelay = time.Second

// indexing is what an entry knows of its summary in the index; its entry's mu guards it.
type indexing struct {
	written bool          // listed is the summary this service last wrote into the index
	listed  store.Summary // (since the entry was made)
	due     bool          // a later sequence and activity are to be written (by a timer)
}

// sameListing reports whether a and b list an encounter alike but for its sequence and last
// activity.
func sameListing(a, b store.Summary) bool {
	return a.EncounterID == b.EncounterID && a.Tenant == b.Tenant && a.Name == b.Name && a.RuleSystem == b.RuleSystem &&
		a.Status == b.Status && maps.Equal(a.Members, b.Members)
}

// updateIndex updates the index after an append, best effort (the log is the truth, the index
// can be rebuilt from it: Reindex); e.mu is held. A summary that differs from the one this
// service last wrote only by its sequence and last activity is written IndexDelay later,
// once for every command in between (ListEncounters of this service shows them at once);
// any other change at once.
func (s *Service) updateIndex(ctx context.Context, e *entry) {
	if s.index == nil {
		return
	}
	sum := summary(e.state, e.last)
	if e.idx.written && sameListing(e.idx.listed, sum) && s.opts.IndexDelay > 0 {
		s.scheduleIndex(e)
		return
	}
	if err := s.index.PutSummary(ctx, sum); err != nil {
		s.log.WarnContext(ctx, "index not updated; ListEncounters may be behind until the next command", "encounter", sum.EncounterID, "err", err)
		return
	}
	e.idx = indexing{written: true, listed: sum} // a write due is now done: its timer finds nothing to do
}

// writeIndex writes the summary of an entry whose sequence and last activity are due in the
// index; e.mu is not held. A failed write is tried again IndexDelay later, unless the
// connection to the index was closed.
func (s *Service) writeIndex(ctx context.Context, e *entry) {
	e.idxMu.Lock() // one write at a time per entry: a later one waits for the one under way
	defer e.idxMu.Unlock()
	e.mu.Lock()
	s.mu.Lock()
	delete(s.indexDue, e)
	s.mu.Unlock()
	if !e.idx.due {
		e.mu.Unlock()
		return
	}
	e.idx.due = false
	sum := summary(e.state, e.last)
	e.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := s.index.PutSummary(ctx, sum); err != nil {
		s.log.WarnContext(ctx, "index not updated; ListEncounters of other replicas may show an older sequence of this encounter", "encounter", sum.EncounterID, "err", err)
		if ue := (*store.UnavailableError)(nil); errors.As(err, &ue) && ue.Closed {
			return // the service is stopping: tried again, it would fail every IndexDelay for ever
		}
		e.mu.Lock()
		s.scheduleIndex(e)
		e.mu.Unlock()
	}
}

// scheduleIndex marks e's sequence and last activity due in the index, to be written IndexDelay later
// (unless they are already); e.mu is held.
func (s *Service) scheduleIndex(e *entry) {
	if e.idx.due {
		return
	}
	e.idx.due = true
	s.mu.Lock()
	s.indexDue[e] = struct{}{}
	s.mu.Unlock()
	time.AfterFunc(s.opts.IndexDelay, func() { s.writeIndex(context.Background(), e) })
}

// FlushIndex writes now the summaries due in the index (the sequence and last activity of the
// encounters changed in the last IndexDelay): before this service stops.
func (s *Service) FlushIndex(ctx context.Context) {
	s.mu.Lock()
	due := make([]*entry, 0, len(s.indexDue))
	for e := range s.indexDue {
		due = append(due, e)
	}
	s.mu.Unlock()
	for _, e := range due {
		s.writeIndex(ctx, e)
	}
}

// Reindex writes every encounter's summary into the index, from the log.
func (s *Service) Reindex(ctx context.Context) (int, error) {
	if s.index == nil {
		return 0, nil
	}
	ids, err := s.events.List(ctx)
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		e, err := s.entry(ctx, id, true)
		if err != nil {
			return 0, err
		}
		e.mu.Lock()
		st, last, pos := e.state, e.last, e.position
		e.mu.Unlock()
		if last.IsZero() { // loaded from a snapshot: the time is on its last record
			if r, err := s.events.Get(ctx, pos); err == nil && len(r.Batch.GetEvents()) > 0 {
				last = r.Batch.GetEvents()[len(r.Batch.GetEvents())-1].GetTime().AsTime()
			}
		}
		if err := s.index.PutSummary(ctx, summary(st, last)); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}

// ReindexIfEmpty rebuilds the index when it holds nothing but the log holds encounters (a
// first start with an index, or a lost bucket).
func (s *Service) ReindexIfEmpty(ctx context.Context) {
	if s.index == nil {
		return
	}
	if ok, err := s.index.Indexed(ctx); err != nil || ok {
		return
	}
	n, err := s.Reindex(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "index not rebuilt", "err", err)
		return
	}
	if n > 0 {
		s.log.InfoContext(ctx, "index rebuilt from the log", "encounters", n)
	}
}

// latest are the summaries with the sequence and last activity of the encounters this
// service holds, when they are later than the index's (latestOf).
func (s *Service) latest(sums []store.Summary) []store.Summary {
	for i := range sums {
		sums[i] = s.latestOf(sums[i])
	}
	return sums
}

// latestOf is sum with the sequence and last activity of the encounter this service holds,
// when they are later than the index's (written IndexDelay after a command).
func (s *Service) latestOf(sum store.Summary) store.Summary {
	s.mu.Lock()
	e := s.cache[sum.EncounterID]
	s.mu.Unlock()
	if e == nil {
		return sum
	}
	e.mu.Lock()
	if e.loaded && !e.last.IsZero() && e.state.GetSequence() > sum.Sequence {
		sum.Sequence, sum.LastActivity = e.state.GetSequence(), e.last
	}
	e.mu.Unlock()
	return sum
}

// eachSummary passes fn the summary of each encounter of the caller's tenant it has a role in:
// from the index's memberships of the caller, or, without an index, from every encounter of
// the log.
func (s *Service) eachSummary(ctx context.Context, who caller, fn func(store.Summary)) error {
	mine := func(sum store.Summary) bool {
		_, member := sum.Members[who.principal]
		return sum.Tenant == who.tenant && member
	}
	if s.index != nil {
		err := s.index.Memberships(ctx, who.principal, func(sum store.Summary) error {
			if mine(sum) {
				fn(s.latestOf(sum))
			}
			return nil
		})
		if down := (*store.UnavailableError)(nil); errors.As(err, &down) {
			// A listing records nothing (unless it migrates an old index: that is done again).
			return status.Errorf(codes.Unavailable, "the encounter index is unreachable (%s); try again", down.Why)
		}
		return unavailable(err)
	}
	ids, err := s.events.List(ctx)
	if err != nil {
		return unavailable(err)
	}
	for _, id := range ids {
		e, err := s.entry(ctx, id, false)
		if err != nil {
			return err
		}
		e.mu.Lock()
		sum := summary(e.state, e.last)
		e.mu.Unlock()
		if mine(sum) {
			fn(sum)
		}
	}
	return nil
}
