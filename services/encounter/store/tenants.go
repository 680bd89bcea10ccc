package store

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
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

// addCount adds d to the count at key, compare-and-set: after a lost one, the count is read
// from the bucket's leader, after a random wait of up to 2, 4, 8… 64 ms (writers racing on one
// tenant's count spread out), up to 64 times: of n writers at once each round lets one win, so
// 8 attempts did not outlast 40 (the count then lost a create for good).
func (s *JetStream) addCount(ctx context.Context, key string, d int) error {
	var last error
	for attempt := range 64 {
		if attempt > 0 {
			select {
			case <-time.After(time.Duration(1+rand.IntN(min(1<<attempt, 64))) * time.Millisecond):
			case <-ctx.Done():
				return ctx.Err()
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
		last = err
	}
	return last
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
