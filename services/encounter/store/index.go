package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/nats-io/nats.go/jetstream"
)

// Summary is what ListEncounters shows of an encounter, and who belongs to it.
type Summary struct {
	EncounterID  string                      `json:"id"`
	Tenant       string                      `json:"tenant"`
	Name         string                      `json:"name"`
	RuleSystem   string                      `json:"system"`
	Status       encounterv1.EncounterStatus `json:"status"`
	Sequence     uint64                      `json:"seq"`
	LastActivity time.Time                   `json:"last"`
	// Members are the principals with a role in the encounter, with that role.
	Members map[string]encounterv1.Role `json:"members"`
}

// Index keeps a summary of each encounter and, for each principal, the encounters it belongs
// to: what ListEncounters reads. It is derived from the log, written after each append (the
// log stays the truth: the index can be rebuilt from it).
type Index interface {
	// PutSummary records s, unless the index holds a later sequence of the encounter already,
	// and the membership of each of its members (and of every principal that left since the
	// summary it replaces).
	PutSummary(ctx context.Context, s Summary) error
	// Memberships passes fn each encounter principal belongs to, as the principal's listing
	// shows it: the encounter's Summary with Members holding the principal alone, with its
	// role. They come in no order, fn called from one goroutine at a time; fn's error ends
	// the pass with that error (ErrStop: with nil). An encounter whose summary is written
	// during the pass may be passed twice, the later summary last.
	//
	// The pass reads the principal's memberships only, one key each: it costs in proportion
	// to their number, whatever else the index holds, and keeps none of them in memory (what
	// fn keeps is its own). A caller that wants one page of them keeps the page (a bounded
	// selection) as they pass.
	Memberships(ctx context.Context, principal string, fn func(Summary) error) error
	// Indexed reports whether the index holds any summary.
	Indexed(ctx context.Context) (bool, error)
}

// Summaries are all the encounters principal belongs to, in no order (at most one Summary an
// encounter, the latest passed): Memberships collected. For tests and small listings; a
// listing of an unknown size reads Memberships a page at a time.
func Summaries(ctx context.Context, idx Index, principal string) ([]Summary, error) {
	at := map[string]int{}
	var out []Summary
	err := idx.Memberships(ctx, principal, func(s Summary) error {
		if i, ok := at[s.EncounterID]; ok {
			if s.Sequence > out[i].Sequence {
				out[i] = s
			}
			return nil
		}
		at[s.EncounterID] = len(out)
		out = append(out, s)
		return nil
	})
	return out, err
}

// listing is sum as principal's listing shows it: its members the principal alone.
func listing(sum Summary, principal string) Summary {
	sum.Members = map[string]encounterv1.Role{principal: sum.Members[principal]}
	return sum
}

// touchedBy are the principals whose membership of the encounter a summary written over old
// sets: its members (each listing changes with the sequence) and those of old that left.
func touchedBy(old map[string]encounterv1.Role, s Summary) map[string]bool {
	out := make(map[string]bool, len(s.Members)+len(old))
	for p := range s.Members {
		out[p] = true
	}
	for p := range old {
		out[p] = true
	}
	return out
}

// summaryKey is the index key of an encounter's Summary: e.<encounter id> (the other keys:
// members.go, tenants.go).
func summaryKey(id string) string { return "e." + id }

// indexed is what a JetStream index remembers of the summary it last wrote for an encounter.
type indexed struct {
	revision uint64
	sequence uint64
	members  map[string]encounterv1.Role
	status   encounterv1.EncounterStatus
	openLast time.Time // the last activity its open key holds (idle.go; zero: not known)
}

// putAttempts bounds PutSummary's writes of one summary: each that fails was beaten by
// another writer's (or found a summary this store did not remember).
const putAttempts = 10

// maxRemembered bounds the revisions a JetStream index remembers (past it, one is forgotten
// and read again when next needed).
const maxRemembered = 10_000

func (s *JetStream) PutSummary(ctx context.Context, sum Summary) error {
	if s.index == nil {
		return ErrNoBucket
	}
	data, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	key := summaryKey(sum.EncounterID)
	var last error
	for attempt := range putAttempts {
		s.mu.Lock()
		known, ok := s.known[sum.EncounterID]
		s.mu.Unlock()
		// An encounter not remembered is most often a new one: its summary is created with no
		// read first (one that exists fails the create, and is read at the next attempt).
		if !ok && attempt > 0 {
			old, rev, err := s.readSummary(ctx, sum.EncounterID, true) // after a write that failed: the leader's
			if err != nil {
				return err
			}
			known = indexed{revision: rev, sequence: old.Sequence, members: old.Members, status: old.Status}
		}
		if known.sequence >= sum.Sequence && known.revision != 0 {
			return nil // a later summary is written already
		}
		var rev uint64
		if known.revision == 0 {
			rev, err = s.index.Create(ctx, key, data)
		} else {
			rev, err = s.index.Update(ctx, key, data, known.revision)
		}
		if err != nil {
			if !errors.Is(err, jetstream.ErrKeyExists) && !errors.Is(err, jetstream.ErrKeyRevisionMismatch) && !isWrongLastSequence(err) {
				return fmt.Errorf("index summary of %s: %w", sum.EncounterID, err) // not a write that lost: no use trying again
			}
			last = err // another writer wrote first: read it again
			s.forget(sum.EncounterID)
			continue
		}
		s.mu.Lock()
		if len(s.known) >= maxRemembered {
			for other := range s.known {
				delete(s.known, other)
				break
			}
		}
		s.known[sum.EncounterID] = indexed{revision: rev, sequence: sum.Sequence, members: sum.Members, status: sum.Status}
		s.mu.Unlock()
		if d := openDelta(known.revision != 0, known.status, sum.Status); d != 0 {
			if err := s.addOpen(ctx, sum, d); err != nil {
				return err
			}
		}
		if err := s.writeMembers(ctx, sum, rev, touchedBy(known.members, sum)); err != nil {
			return err
		}
		return s.trackOpen(ctx, known, sum) // idle.go
	}
	return fmt.Errorf("index summary of %s: %w", sum.EncounterID, last)
}

func (s *JetStream) forget(id string) {
	s.mu.Lock()
	delete(s.known, id)
	s.mu.Unlock()
}

// readSummary reads an encounter's summary and its revision (0: none), with latest from the
// bucket's leader (indexGet). An unreadable one is returned empty, with its revision: the
// next summary overwrites it.
func (s *JetStream) readSummary(ctx context.Context, id string, latest bool) (Summary, uint64, error) {
	e, err := s.indexGet(ctx, summaryKey(id), latest)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Summary{}, 0, nil
	}
	if err != nil {
		return Summary{}, 0, err
	}
	var sum Summary
	if err := json.Unmarshal(e.Value(), &sum); err != nil {
		return Summary{}, e.Revision(), nil
	}
	return sum, e.Revision(), nil
}

func (s *JetStream) Indexed(ctx context.Context) (bool, error) {
	if s.index == nil {
		return false, ErrNoBucket
	}
	st, err := s.index.Status(ctx)
	if err != nil {
		return false, err
	}
	return st.Values() > 0, nil
}

// memIndex is Memory's Index.
type memIndex struct {
	mu        sync.Mutex
	summaries map[string]Summary
	members   map[string]map[string]bool // principal → the encounters it belongs to
	open      map[string]int             // tenantKey or gmKey → encounters not ended
}

func (m *Memory) PutSummary(_ context.Context, sum Summary) error {
	m.index.mu.Lock()
	defer m.index.mu.Unlock()
	if m.index.summaries == nil {
		m.index.summaries, m.index.members = map[string]Summary{}, map[string]map[string]bool{}
	}
	old, ok := m.index.summaries[sum.EncounterID]
	if ok && old.Sequence >= sum.Sequence {
		return nil
	}
	m.index.summaries[sum.EncounterID] = sum
	if d := openDelta(ok, old.Status, sum.Status); d != 0 {
		if m.index.open == nil {
			m.index.open = map[string]int{}
		}
		m.index.open[tenantKey(sum.Tenant)] += d
		if gm := gmOf(sum); gm != "" {
			m.index.open[gmKey(gm)] = max(m.index.open[gmKey(gm)]+d, 0)
		}
	}
	for p := range touchedBy(old.Members, sum) {
		if _, in := sum.Members[p]; !in {
			delete(m.index.members[p], sum.EncounterID)
			continue
		}
		if m.index.members[p] == nil {
			m.index.members[p] = map[string]bool{}
		}
		m.index.members[p][sum.EncounterID] = true
	}
	return nil
}

func (m *Memory) Memberships(_ context.Context, principal string, fn func(Summary) error) error {
	m.index.mu.Lock()
	var sums []Summary // passed with the lock released: fn may call the index
	for id := range m.index.members[principal] {
		sums = append(sums, listing(m.index.summaries[id], principal))
	}
	m.index.mu.Unlock()
	for _, s := range sums {
		if err := fn(s); err != nil {
			if errors.Is(err, ErrStop) {
				return nil
			}
			return err
		}
	}
	return nil
}

func (m *Memory) Indexed(context.Context) (bool, error) {
	m.index.mu.Lock()
	defer m.index.mu.Unlock()
	return len(m.index.summaries) > 0, nil
}
