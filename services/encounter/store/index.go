package store

import (
	"context"
	"encoding/base64"
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
	// and the membership of every principal that joined or left since the summary it
	// replaces.
	PutSummary(ctx context.Context, s Summary) error
	// Summaries returns the summaries of the encounters principal belongs to, in no order.
	Summaries(ctx context.Context, principal string) ([]Summary, error)
	// Indexed reports whether the index holds any summary.
	Indexed(ctx context.Context) (bool, error)
}

// membership is one principal's encounters: for each, whether the principal belongs to it, as
// of an encounter sequence. A change applies only over an older one, so that changes written
// out of order by two replicas end as the later one says.
type membership map[string]memberAt

type memberAt struct {
	Sequence uint64 `json:"s"`
	In       bool   `json:"in"`
}

// changes lists, for every principal that is a member in old or in s, whether it is one in s;
// for principals whose membership did not change, nothing.
func changes(old map[string]encounterv1.Role, s Summary) map[string]bool {
	out := map[string]bool{}
	for p := range s.Members {
		if _, ok := old[p]; !ok {
			out[p] = true
		}
	}
	for p := range old {
		if _, ok := s.Members[p]; !ok {
			out[p] = false
		}
	}
	return out
}

// apply sets the membership of encounter id at sequence seq, unless a later one is recorded;
// it reports whether anything changed.
func (m membership) apply(id string, seq uint64, in bool) bool {
	if cur, ok := m[id]; ok && cur.Sequence >= seq {
		return false
	}
	m[id] = memberAt{Sequence: seq, In: in}
	return true
}

// The index bucket's keys: e.<encounter id> holds a Summary, m.<principal in base64url> the
// principal's membership.
func summaryKey(id string) string { return "e." + id }
func memberKey(principal string) string {
	return "m." + base64.RawURLEncoding.EncodeToString([]byte(principal))
}

// indexed is what a JetStream index remembers of the summary it last wrote for an encounter.
type indexed struct {
	revision uint64
	sequence uint64
	members  map[string]encounterv1.Role
	status   encounterv1.EncounterStatus
	openLast time.Time // the last activity its open key holds (idle.go; zero: not known)
}

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
	for attempt := range 4 {
		s.mu.Lock()
		known, ok := s.known[sum.EncounterID]
		s.mu.Unlock()
		if !ok {
			if known, err = s.readSummary(ctx, key, attempt > 0); err != nil {
				return err
			}
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
		if err != nil { // most likely another replica wrote first: read it again
			last = err
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
		for p, in := range changes(known.members, sum) {
			if err := s.setMember(ctx, p, sum.EncounterID, sum.Sequence, in); err != nil {
				return err
			}
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

// readSummary reads a summary, with latest from the bucket's leader (indexGet).
func (s *JetStream) readSummary(ctx context.Context, key string, latest bool) (indexed, error) {
	e, err := s.indexGet(ctx, key, latest)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return indexed{}, nil
	}
	if err != nil {
		return indexed{}, err
	}
	var old Summary
	if err := json.Unmarshal(e.Value(), &old); err != nil {
		return indexed{revision: e.Revision()}, nil // unreadable: overwrite it
	}
	return indexed{revision: e.Revision(), sequence: old.Sequence, members: old.Members, status: old.Status}, nil
}

// setMember records, compare-and-set, that principal is (or is no longer) a member of id as
// of sequence seq.
func (s *JetStream) setMember(ctx context.Context, principal, id string, seq uint64, in bool) error {
	key := memberKey(principal)
	var last error
	for range 4 {
		m, rev, err := s.membership(ctx, key)
		if err != nil {
			return err
		}
		if !m.apply(id, seq, in) {
			return nil
		}
		data, err := json.Marshal(m)
		if err != nil {
			return err
		}
		if rev == 0 {
			_, err = s.index.Create(ctx, key, data)
		} else {
			_, err = s.index.Update(ctx, key, data, rev)
		}
		if err == nil {
			return nil
		}
		last = err
	}
	return fmt.Errorf("index membership of %s in %s: %w", principal, id, last)
}

func (s *JetStream) membership(ctx context.Context, key string) (membership, uint64, error) {
	e, err := s.index.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return membership{}, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	m := membership{}
	if err := json.Unmarshal(e.Value(), &m); err != nil {
		return membership{}, e.Revision(), nil
	}
	return m, e.Revision(), nil
}

func (s *JetStream) Summaries(ctx context.Context, principal string) ([]Summary, error) {
	if s.index == nil {
		return nil, ErrNoBucket
	}
	m, _, err := s.membership(ctx, memberKey(principal))
	if err != nil {
		return nil, err
	}
	var out []Summary
	for id, at := range m {
		if !at.In {
			continue
		}
		e, err := s.index.Get(ctx, summaryKey(id))
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var sum Summary
		if err := json.Unmarshal(e.Value(), &sum); err != nil {
			return nil, fmt.Errorf("index summary of %s: %w", id, err)
		}
		if _, ok := sum.Members[principal]; ok { // the summary is the authority
			out = append(out, sum)
		}
	}
	return out, nil
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
	members   map[string]membership
	open      map[string]int // tenantKey or gmKey → encounters not ended
}

func (m *Memory) PutSummary(_ context.Context, sum Summary) error {
	m.index.mu.Lock()
	defer m.index.mu.Unlock()
	if m.index.summaries == nil {
		m.index.summaries, m.index.members = map[string]Summary{}, map[string]membership{}
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
	for p, in := range changes(old.Members, sum) {
		if m.index.members[p] == nil {
			m.index.members[p] = membership{}
		}
		m.index.members[p].apply(sum.EncounterID, sum.Sequence, in)
	}
	return nil
}

func (m *Memory) Summaries(_ context.Context, principal string) ([]Summary, error) {
	m.index.mu.Lock()
	defer m.index.mu.Unlock()
	var out []Summary
	for id, at := range m.index.members[principal] {
		if sum, ok := m.index.summaries[id]; ok && at.In {
			if _, member := sum.Members[principal]; member {
				out = append(out, sum)
			}
		}
	}
	return out, nil
}

func (m *Memory) Indexed(context.Context) (bool, error) {
	m.index.mu.Lock()
	defer m.index.mu.Unlock()
	return len(m.index.summaries) > 0, nil
}
