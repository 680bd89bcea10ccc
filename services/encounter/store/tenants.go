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

// OpenCounter counts each tenant's encounters not ended, kept by the index as it writes
// summaries: what the cap on encounters per tenant reads.
type OpenCounter interface {
	// OpenEncounters is the number of the tenant's encounters the index holds that have not
	// ended.
	OpenEncounters(ctx context.Context, tenant string) (int, error)
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

type tenantCount struct {
	Open int `json:"open"`
}

// tenantCount reads the tenant's count: with latest, as the bucket's leader holds it (for a
// compare-and-set that lost to another writer: a copy that lags would lose it again).
func (s *JetStream) tenantCount(ctx context.Context, tenant string, latest bool) (tenantCount, uint64, error) {
	e, err := s.indexGet(ctx, tenantKey(tenant), latest)
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

// addOpen adds d to the tenant's count, compare-and-set: after a lost one, the count is read
// from the bucket's leader, after a random wait of up to 2, 4, 8… 64 ms (writers racing on one
// tenant's count spread out), up to 64 times: of n writers at once each round lets one win, so
// 8 attempts did not outlast 40 (the count then lost a create for good).
func (s *JetStream) addOpen(ctx context.Context, tenant string, d int) error {
	var last error
	for attempt := range 64 {
		if attempt > 0 {
			select {
			case <-time.After(time.Duration(1+rand.IntN(min(1<<attempt, 64))) * time.Millisecond):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		c, rev, err := s.tenantCount(ctx, tenant, attempt > 0)
		if err != nil {
			return err
		}
		c.Open = max(c.Open+d, 0)
		data, _ := json.Marshal(c)
		if rev == 0 {
			_, err = s.index.Create(ctx, tenantKey(tenant), data)
		} else {
			_, err = s.index.Update(ctx, tenantKey(tenant), data, rev)
		}
		if err == nil {
			return nil
		}
		last = err
	}
	return fmt.Errorf("index count of tenant %s: %w", tenant, last)
}

func (s *JetStream) OpenEncounters(ctx context.Context, tenant string) (int, error) {
	if s.index == nil {
		return 0, ErrNoBucket
	}
	c, _, err := s.tenantCount(ctx, tenant, false)
	return c.Open, err
}

func (m *Memory) OpenEncounters(_ context.Context, tenant string) (int, error) {
	m.index.mu.Lock()
	defer m.index.mu.Unlock()
	return m.index.open[tenant], nil
}
