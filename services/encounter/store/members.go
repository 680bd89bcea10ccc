package store

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/nats-io/nats.go/jetstream"
)

// Each principal's encounters in the JetStream index: one key per principal and encounter,
// each written by one small Put or Delete, and a principal's listed by one ordered consumer
// filtered on its keys. (Until 2026-12 all of a principal's memberships were one value,
// rewritten whole under a compare-and-set at each change; it grew without bound and past
// NATS's max_payload at some 17,000 encounters. Memberships reads that format and migrates it.)

// memberPrefix is the start of principal's membership keys, memberKey one of them:
// m.<tenant>.<subject>.<encounter id>, holding the encounter's Summary as the principal lists
// it. A tenant or subject may hold any printable character but '/' and spaces, a key only
// [-/_=.A-Za-z0-9] and no empty token: each is in base64url without padding (never "="); a
// principal not of the form tenant/subject is m.=.<principal in base64url>. An encounter id is
// [A-Za-z0-9_-], as in its summary key. m.<tenant>.> are all the memberships of a tenant's
// principals.
func memberPrefix(principal string) string {
	enc := base64.RawURLEncoding.EncodeToString
	tenant, subject, ok := strings.Cut(principal, "/")
	if !ok || tenant == "" || subject == "" || strings.Contains(subject, "/") {
		return "m.=." + enc([]byte(principal))
	}
	return "m." + enc([]byte(tenant)) + "." + enc([]byte(subject))
}

func memberKey(principal, encounterID string) string {
	return memberPrefix(principal) + "." + encounterID
}

// maxRewrites bounds how many later summaries of an encounter writeMembers follows before it
// gives up (each is one another writer wrote while it wrote its own).
const maxRewrites = 8

// memberWriters bounds the membership keys of one summary written at once.
const memberWriters = 16

// writeMembers sets the membership keys of the principals in touched as sum, revision rev of
// the encounter's summary key, says: a member's listing put, a non-member's key deleted. Each
// is one small write with no read before it. Two replicas writing summaries of one encounter
// could have the older one's keys land last; so it then reads the summary key back, and if a
// later summary was written meanwhile (whose writer may have written its keys before these
// landed) writes the touched keys again as that one says, until the summary it read back is
// the one it wrote. Whoever writes a later summary writes after its own compare-and-set, so
// the last keys to land are the latest summary's.
func (s *JetStream) writeMembers(ctx context.Context, sum Summary, rev uint64, touched map[string]bool) error {
	for range maxRewrites {
		if err := s.putMembers(ctx, sum, touched); err != nil {
			return err
		}
		now, nowRev, err := s.readSummary(ctx, sum.EncounterID, true)
		if err != nil {
			return err
		}
		if nowRev <= rev || now.Sequence <= sum.Sequence {
			return nil // still the summary written (or a replica behind answered: it was)
		}
		sum, rev = now, nowRev
	}
	return fmt.Errorf("index memberships of %s: its summary changed %d times while they were written", sum.EncounterID, maxRewrites)
}

// putMembers writes the membership keys of touched as sum says, up to memberWriters at once.
func (s *JetStream) putMembers(ctx context.Context, sum Summary, touched map[string]bool) error {
	errs := make(chan error, len(touched))
	slots := make(chan struct{}, memberWriters)
	var wg sync.WaitGroup
	for p := range touched {
		if p == "" {
			continue
		}
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			key := memberKey(p, sum.EncounterID)
			var err error
			if _, in := sum.Members[p]; in {
				var data []byte
				if data, err = json.Marshal(listing(sum, p)); err == nil {
					_, err = s.index.Put(ctx, key, data)
				}
			} else {
				err = s.index.Delete(ctx, key)
			}
			if err != nil {
				errs <- fmt.Errorf("index membership of %s in %s: %w", p, sum.EncounterID, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs // the first, or nil
}

func (s *JetStream) Memberships(ctx context.Context, principal string, fn func(Summary) error) error {
	if s.index == nil {
		return ErrNoBucket
	}
	if principal == "" {
		return nil
	}
	legacy, err := s.readLegacy(ctx, principal)
	if err != nil {
		return err
	}
	err = s.scanKeys(ctx, memberPrefix(principal)+".*", func(_ string, value []byte) error {
		var sum Summary
		if json.Unmarshal(value, &sum) != nil || sum.EncounterID == "" {
			return nil // unreadable: rewritten with the encounter's next summary
		}
		delete(legacy.ids, sum.EncounterID) // migrated already
		return fn(sum)
	})
	if errors.Is(err, ErrStop) {
		return nil
	}
	if err != nil || legacy.revision == 0 {
		return err
	}
	err = s.migrate(ctx, principal, legacy, fn)
	if errors.Is(err, ErrStop) {
		return nil
	}
	return err
}

// The old format: m.<principal in base64url> held a JSON object, encounter id → memberAt.
func legacyMemberKey(principal string) string {
	return "m." + base64.RawURLEncoding.EncodeToString([]byte(principal))
}

type memberAt struct {
	Sequence uint64 `json:"s"`
	In       bool   `json:"in"`
}

// legacyMembers is what the old format holds of a principal's encounters.
type legacyMembers struct {
	revision uint64          // of the old key; 0: there is none
	ids      map[string]bool // the encounters it lists the principal in
}

func (s *JetStream) readLegacy(ctx context.Context, principal string) (legacyMembers, error) {
	e, err := s.index.Get(ctx, legacyMemberKey(principal))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return legacyMembers{}, nil
	}
	if err != nil {
		return legacyMembers{}, err
	}
	var old map[string]memberAt
	_ = json.Unmarshal(e.Value(), &old) // unreadable: nothing to migrate (every summary lists its members)
	ids := map[string]bool{}
	for id, at := range old {
		if at.In {
			ids[id] = true
		}
	}
	return legacyMembers{revision: e.Revision(), ids: ids}, nil
}

// migrators bounds the encounters migrate reads and writes at once.
const migrators = 8

// migrate writes the membership key of each encounter the old format lists principal in and
// no membership key does, as the encounter's summary says (the authority, as it was for the
// old format's readers: one the principal left is skipped), passes each to fn, then deletes
// the old key, unless it was written again meanwhile (by a replica of an older version,
// during an upgrade: the principal's next listing migrates that). Interrupted, it leaves the
// old key: the next listing migrates what is still missing.
func (s *JetStream) migrate(ctx context.Context, principal string, legacy legacyMembers, fn func(Summary) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	todo := make(chan string)
	go func() {
		defer close(todo)
		for id := range legacy.ids {
			select {
			case todo <- id:
			case <-ctx.Done():
				return
			}
		}
	}()
	type migrated struct {
		sum Summary
		in  bool
		err error
	}
	done := make(chan migrated)
	var wg sync.WaitGroup
	for range min(migrators, len(legacy.ids)) {
		wg.Go(func() {
			for id := range todo {
				var m migrated
				sum, rev, err := s.readSummary(ctx, id, false)
				if _, in := sum.Members[principal]; err == nil && rev != 0 && in {
					err = s.writeMembers(ctx, sum, rev, map[string]bool{principal: true})
					m = migrated{sum: listing(sum, principal), in: true}
				}
				m.err = err
				select {
				case done <- m:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() { wg.Wait(); close(done) }()
	var first error
	for m := range done {
		if first != nil {
			continue // draining: the workers stop at cancel
		}
		if m.err == nil && m.in {
			m.err = fn(m.sum)
		}
		if m.err != nil {
			first = m.err
			cancel()
		}
	}
	if first != nil {
		return first
	}
	err := s.index.Delete(ctx, legacyMemberKey(principal), jetstream.LastRevision(legacy.revision))
	if err != nil && !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		return fmt.Errorf("index: delete the old membership of %s: %w", principal, err)
	}
	return nil
}
