package store

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/nats-io/nats.go/jetstream"
)

// OpenCounter counts each tenant's encounters not ended, and each GM's, kept by the index as
// it writes summaries: what the caps on encounters per tenant and per principal read.
type OpenCounter interface {
	// OpenEncounters is the number of the tenant's encounters the index holds that have not
	// ended.
	OpenEncounters(ctx context.Context, tenant string) (int, error)
	// OpenEncountersOf is the number of encounters not ended that principal is the GM of
	// (counted from the summaries written since the count began: encounters opened before it
	// are not in it).
	OpenEncountersOf(ctx context.Context, principal string) (int, error)
}

// gmOf is the encounter's GM, as its summary's members say.
func gmOf(sum Summary) string {
	for p, r := range sum.Members {
		if r == encounterv1.Role_ROLE_GM {
			return p
		}
	}
	return ""
}

// openDelta is how a summary's change moves its tenant's count of open encounters: +1 for a
// new encounter not ended, -1 for one that ends.
func openDelta(known bool, old, now encounterv1.EncounterStatus) int {
	ended := func(s encounterv1.EncounterStatus) bool {
		return s == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED
	}
	switch {
	case !known && !ended(now):
		return 1
	case known && !ended(old) && ended(now):
		return -1
	}
	return 0
}

// tenantKey is the index key of a tenant's count: t.<tenant in base64url>.
func tenantKey(tenant string) string {
	return "t." + base64.RawURLEncoding.EncodeToString([]byte(tenant))
}

// gmKey is the index key of a GM's count: g.<principal in base64url>.
func gmKey(principal string) string {
	return "g." + base64.RawURLEncoding.EncodeToString([]byte(principal))
}

type tenantCount struct {
	Open int `json:"open"`
}

// tenantCount reads the count at key (tenantKey, gmKey): with latest, as the bucket's leader
// holds it (for a compare-and-set that lost to another writer: a copy that lags would lose it
// again).
func (s *JetStream) tenantCount(ctx context.Context, key string, latest bool) (tenantCount, uint64, error) {
	e, err := s.indexGet(ctx, key, latest)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return tenantCount{}, 0, nil
	}
	if err != nil {
		return tenantCount{}, 0, err
	}
	var c tenantCount
	_ = json.Unmarshal(e.Value(), &c) // unreadable: counted again from zero
	return c, e.Revision(), nil
}

// addOpen adds d to the count of the summary's tenant and to its GM's (issue 23: one member
// could fill the tenant's cap).
func (s *JetStream) addOpen(ctx context.Context, sum Summary, d int) error {
	if err := s.addCount(ctx, tenantKey(sum.Tenant), d); err != nil {
		return fmt.Errorf("index count of tenant %s: %w", sum.Tenant, err)
	}
	if gm := gmOf(sum); gm != "" {
		if err := s.addCount(ctx, gmKey(gm), d); err != nil {
			return fmt.Errorf("index count of GM %s: %w", gm, err)
		}
	}
	return nil
}

// countWithin bounds the writing of one addition to a count. It is not the caller's deadline:
// the addition follows a summary already written, and a count left without it would be off
// for good (the summary, once written, is never counted again); a caller that gives up waits
// no longer, but its addition is still written.
const countWithin = time.Minute

// counts merges the additions to one count that this store's callers make at once into one
// compare-and-set: 200 creates at once in a tenant are then one writer of its count per
// replica of the service, not 200 racing writers each round of which lets one win.
type counts struct {
	mu      sync.Mutex
	pending map[string]*countAdd // key → the additions not yet being written
	writing map[string]bool      // key → a writer is at work on it
}

// countAdd is the sum of the additions to one count made while its writer was busy.
type countAdd struct {
	ctx  context.Context // the first caller's, without its cancel: the trace and logs it carries
	d    int
	done chan struct{} // closed once written (err nil) or failed
	err  error
}

// addCount adds d to the count at key. Additions to one key made at once are summed and
// written by one writer (counts); addCount returns once its own is written, or the caller's
// ctx ends (its addition is then still written).
func (s *JetStream) addCount(ctx context.Context, key string, d int) error {
	c := &s.counts
	c.mu.Lock()
	if c.pending == nil {
		c.pending, c.writing = map[string]*countAdd{}, map[string]bool{}
	}
	a := c.pending[key]
	if a == nil {
		a = &countAdd{ctx: context.WithoutCancel(ctx), done: make(chan struct{})}
		c.pending[key] = a
	}
	a.d += d
	if !c.writing[key] {
		c.writing[key] = true
		go s.writeCounts(key)
	}
	c.mu.Unlock()
	select {
	case <-a.done:
		return a.err
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// writeCounts writes the additions pending for key, one sum at a time, until none is left.
func (s *JetStream) writeCounts(key string) {
	c := &s.counts
	for {
		c.mu.Lock()
		a := c.pending[key]
		delete(c.pending, key)
		if a == nil {
			delete(c.writing, key)
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		if a.d != 0 {
			ctx, cancel := context.WithTimeout(a.ctx, countWithin)
			a.err = s.casCount(ctx, key, a.d)
			cancel()
		}
		close(a.done)
	}
}

// casCount adds d to the count at key, compare-and-set, until it wins or ctx ends: after a
// lost one (another replica wrote first) the count is read from the bucket's leader (a copy
// that lags would have it lose again), after a random wait of up to 2, 4, 8… 64 ms, so that
// writers racing on one count spread out. It was 64 attempts: 1<<63 overflowed at the last
// and panicked the service (200 creates at once under a CPU hog reached it), and a count
// bounded by attempts, not time, gave up on a busy machine while time remained.
func (s *JetStream) casCount(ctx context.Context, key string, d int) error {
	lost := 0
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			wait := time.Duration(1+rand.IntN(2<<min(attempt, 5))) * time.Millisecond
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return fmt.Errorf("%d compare-and-sets lost to other writers, then: %w", lost, context.Cause(ctx))
			}
		}
		c, rev, err := s.tenantCount(ctx, key, attempt > 0)
		if err != nil {
			return err
		}
		c.Open = max(c.Open+d, 0)
		data, _ := json.Marshal(c)
		if rev == 0 {
			_, err = s.index.Create(ctx, key, data)
		} else {
			_, err = s.index.Update(ctx, key, data, rev)
		}
		if err == nil {
			return nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) && !errors.Is(err, jetstream.ErrKeyRevisionMismatch) && !isWrongLastSequence(err) {
			return err // not a write that lost: no use trying again
		}
		lost++
	}
}

func (s *JetStream) OpenEncounters(ctx context.Context, tenant string) (int, error) {
	if s.index == nil {
		return 0, ErrNoBucket
	}
	c, _, err := s.tenantCount(ctx, tenantKey(tenant), false)
	return c.Open, err
}

func (s *JetStream) OpenEncountersOf(ctx context.Context, principal string) (int, error) {
	if s.index == nil {
		return 0, ErrNoBucket
	}
	c, _, err := s.tenantCount(ctx, gmKey(principal), false)
	return c.Open, err
}

func (m *Memory) OpenEncounters(_ context.Context, tenant string) (int, error) {
	m.index.mu.Lock()
	defer m.index.mu.Unlock()
	return m.index.open[tenantKey(tenant)], nil
}

func (m *Memory) OpenEncountersOf(_ context.Context, principal string) (int, error) {
	m.index.mu.Lock()
	defer m.index.mu.Unlock()
	return m.index.open[gmKey(principal)], nil
}
