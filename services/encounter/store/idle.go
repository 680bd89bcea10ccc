package store

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/nats-io/nats.go/jetstream"
)

// IdleFinder finds the encounters not ended that have recorded nothing for a while: the
// candidates of an end for idleness. The index lags behind the log (a summary's last activity
// is written up to IndexDelay late, and what a JetStream index keeps of it for this search up
// to an hour late), never ahead of it: a candidate is checked against the log before it is
// ended, and no encounter idle that long is missed.
type IdleFinder interface {
	// IdleEncounters returns the summaries of up to n encounters not ended of tenant ("": of
	// every tenant) whose last activity is before before, the oldest activity first.
	IdleEncounters(ctx context.Context, tenant string, before time.Time, n int) ([]Summary, error)
	// OldestActivity is the earliest last activity of the tenant's encounters not ended, or
	// a time no later than it (zero: none is open).
	OldestActivity(ctx context.Context, tenant string) (time.Time, error)
}

// IdleBackfiller writes into an index what IdleFinder needs of the encounters it held before
// it kept that (an index written by an older version), once.
type IdleBackfiller interface {
	// BackfillIdle writes it, unless it was written already; it returns how many open
	// encounters it wrote.
	BackfillIdle(ctx context.Context) (int, error)
}

func ended(s encounterv1.EncounterStatus) bool {
	return s == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED
}

// oldestFirst sorts summaries by last activity, then id.
func oldestFirst(sums []Summary) {
	slices.SortFunc(sums, func(a, b Summary) int {
		if c := a.LastActivity.Compare(b.LastActivity); c != 0 {
			return c
		}
		return cmp.Compare(a.EncounterID, b.EncounterID)
	})
}

func (m *Memory) IdleEncounters(_ context.Context, tenant string, before time.Time, n int) ([]Summary, error) {
	m.index.mu.Lock()
	defer m.index.mu.Unlock()
	var out []Summary
	for _, sum := range m.index.summaries {
		if !ended(sum.Status) && (tenant == "" || sum.Tenant == tenant) && sum.LastActivity.Before(before) {
			out = append(out, sum)
		}
	}
	oldestFirst(out)
	return out[:min(n, len(out))], nil
}

func (m *Memory) OldestActivity(_ context.Context, tenant string) (time.Time, error) {
	m.index.mu.Lock()
	defer m.index.mu.Unlock()
	var oldest time.Time
	for _, sum := range m.index.summaries {
		if !ended(sum.Status) && sum.Tenant == tenant && (oldest.IsZero() || sum.LastActivity.Before(oldest)) {
			oldest = sum.LastActivity
		}
	}
	return oldest, nil
}

// In the JetStream index, each encounter not ended has a key o.<tenant>.<encounter id>
// (the tenant in base64url, "=" for none) holding its last activity, written when it is
// created, again when its summary's last activity has moved on by openTouch, and deleted
// when it ends. Finding a tenant's idle encounters reads its keys only (o.<tenant>.*), every
// tenant's o.*.*: what is open, plus one delete marker per encounter ended since the bucket
// was made. A key's last activity is at most openTouch behind its summary's (a candidate is
// checked against the summary, then the log), and never ahead of it.
const openTouch = time.Hour

func openTenant(tenant string) string {
	if tenant == "" {
		return "="
	}
	return base64.RawURLEncoding.EncodeToString([]byte(tenant))
}

func openKey(tenant, id string) string { return "o." + openTenant(tenant) + "." + id }

func openPattern(tenant string) string {
	if tenant == "" {
		return "o.*.*"
	}
	return "o." + openTenant(tenant) + ".*"
}

type openValue struct {
	Last time.Time `json:"last"`
}

// trackOpen keeps the encounter's open key as the summary sum, written over known, says.
func (s *JetStream) trackOpen(ctx context.Context, known indexed, sum Summary) error {
	key := openKey(sum.Tenant, sum.EncounterID)
	if ended(sum.Status) {
		if known.revision == 0 || ended(known.status) {
			return nil // no open key was written for it (a delete would leave a marker for nothing)
		}
		if err := s.index.Delete(ctx, key); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
			return fmt.Errorf("index: the open key of %s: %w", sum.EncounterID, err)
		}
		return nil
	}
	openLast := known.openLast
	if known.revision == 0 || openLast.IsZero() || sum.LastActivity.Sub(openLast) >= openTouch {
		if err := s.putOpen(ctx, sum); err != nil {
			return err
		}
		openLast = sum.LastActivity
	}
	s.mu.Lock() // what PutSummary remembers of the summary just written carries it on
	if k, ok := s.known[sum.EncounterID]; ok && k.sequence == sum.Sequence {
		k.openLast = openLast
		s.known[sum.EncounterID] = k
	}
	s.mu.Unlock()
	return nil
}

func (s *JetStream) putOpen(ctx context.Context, sum Summary) error {
	data, err := json.Marshal(openValue{Last: sum.LastActivity})
	if err != nil {
		return err
	}
	if _, err := s.index.Put(ctx, openKey(sum.Tenant, sum.EncounterID), data); err != nil {
		return fmt.Errorf("index: the open key of %s: %w", sum.EncounterID, err)
	}
	return nil
}

// openOf passes fn each open key of tenant ("": every tenant) with its encounter id.
func (s *JetStream) openOf(ctx context.Context, tenant string, fn func(id string, v openValue) error) error {
	return s.scanKeys(ctx, openPattern(tenant), func(key string, value []byte) error {
		var v openValue
		if json.Unmarshal(value, &v) != nil {
			return nil // unreadable: rewritten with the encounter's next summary
		}
		return fn(key[strings.LastIndexByte(key, '.')+1:], v)
	})
}

// summaryOf is the encounter's summary in the index (ok false: none, or unreadable).
func (s *JetStream) summaryOf(ctx context.Context, id string) (Summary, bool, error) {
	e, err := s.index.Get(ctx, summaryKey(id))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Summary{}, false, nil
	}
	if err != nil {
		return Summary{}, false, err
	}
	var sum Summary
	if json.Unmarshal(e.Value(), &sum) != nil {
		return Summary{}, false, nil
	}
	return sum, true, nil
}

// maxIdleCandidates bounds the candidates IdleEncounters keeps while it reads the open keys
// (the oldest), per encounter it is asked for.
const maxIdleCandidates = 8

func (s *JetStream) IdleEncounters(ctx context.Context, tenant string, before time.Time, n int) ([]Summary, error) {
	if s.index == nil {
		return nil, ErrNoBucket
	}
	if n <= 0 {
		return nil, nil
	}
	type candidate struct {
		id   string
		last time.Time
	}
	keep := max(n*maxIdleCandidates, 64)
	var cands []candidate
	oldest := func() {
		slices.SortFunc(cands, func(a, b candidate) int { return a.last.Compare(b.last) })
	}
	err := s.openOf(ctx, tenant, func(id string, v openValue) error {
		if v.Last.Before(before) {
			cands = append(cands, candidate{id, v.Last})
			if len(cands) >= 2*keep {
				oldest()
				cands = cands[:keep]
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	oldest()
	var out []Summary
	for _, c := range cands {
		if len(out) == n {
			break
		}
		sum, ok, err := s.summaryOf(ctx, c.id)
		if err != nil {
			return nil, err
		}
		switch {
		case !ok || (tenant != "" && sum.Tenant != tenant):
		case ended(sum.Status): // ended: its key is left over (a delete that failed, a backfill that raced the end)
			if err := s.index.Delete(ctx, openKey(sum.Tenant, c.id)); err != nil {
				return nil, err
			}
		case !sum.LastActivity.Before(before): // active since the key was written
			if err := s.putOpen(ctx, sum); err != nil {
				return nil, err
			}
		default:
			out = append(out, sum)
		}
	}
	oldestFirst(out)
	return out, nil
}

func (s *JetStream) OldestActivity(ctx context.Context, tenant string) (time.Time, error) {
	if s.index == nil {
		return time.Time{}, ErrNoBucket
	}
	var oldest time.Time
	err := s.openOf(ctx, tenant, func(_ string, v openValue) error {
		if oldest.IsZero() || v.Last.Before(oldest) {
			oldest = v.Last
		}
		return nil
	})
	return oldest, err
}

// backfilledKey marks an index whose open keys were written for the encounters it held
// before it kept them.
const backfilledKey = "v.open"

func (s *JetStream) BackfillIdle(ctx context.Context) (int, error) {
	if s.index == nil {
		return 0, ErrNoBucket
	}
	if _, err := s.index.Get(ctx, backfilledKey); err == nil {
		return 0, nil
	} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
		return 0, err
	}
	n := 0
	err := s.scanKeys(ctx, "e.*", func(_ string, value []byte) error {
		var sum Summary
		if json.Unmarshal(value, &sum) != nil || sum.EncounterID == "" || ended(sum.Status) {
			return nil
		}
		data, err := json.Marshal(openValue{Last: sum.LastActivity})
		if err != nil {
			return err
		}
		// Create: a key written since (by PutSummary) is as recent or more.
		if _, err := s.index.Create(ctx, openKey(sum.Tenant, sum.EncounterID), data); err != nil && !errors.Is(err, jetstream.ErrKeyExists) {
			return err
		}
		n++
		return nil
	})
	if err != nil {
		return n, err
	}
	if _, err := s.index.Put(ctx, backfilledKey, []byte(`{}`)); err != nil {
		return n, err
	}
	return n, nil
}

// scanPull is how many messages one pull of scanKeys asks for.
const scanPull = 1024

// kvOperation is the header that marks a KV delete or purge.
const kvOperation = "KV-Operation"

// scanKeys passes fn the key and value of each key of the index that matches pattern (a key
// with wildcards: "o.<tenant>.*"), deleted keys left out: one ordered consumer delivering the
// last message of each matching key, deleted when done. The server finds those by its index
// of subjects: the cost is the matching keys', not the bucket's. The scan fails
// (Unavailable) when the consumer delivers nothing for s.stall, or the connection is lost.
func (s *JetStream) scanKeys(ctx context.Context, pattern string, fn func(key string, value []byte) error) error {
	prefix := "$KV." + s.cfg.IndexBucket + "."
	streamName := "KV_" + s.cfg.IndexBucket
	callCtx, end, err := s.conn.call(ctx, false)
	if err != nil {
		return err
	}
	cons, err := s.js.OrderedConsumer(callCtx, streamName, jetstream.OrderedConsumerConfig{
		FilterSubjects:    []string{prefix + pattern},
		DeliverPolicy:     jetstream.DeliverLastPerSubjectPolicy,
		InactiveThreshold: followInactive,
	})
	if err = end(err); err != nil {
		return err
	}
	defer s.deleteIndexConsumer(streamName, cons)
	if info := cons.CachedInfo(); info == nil || info.NumPending == 0 {
		return nil // no key matches
	}
	it, err := cons.Messages(jetstream.PullMaxMessages(scanPull))
	if err != nil {
		return err
	}
	up := s.conn.current()
	if up == nil {
		it.Stop()
		return s.conn.down()
	}
	readCtx, stopReading := context.WithCancelCause(ctx)
	defer stopReading(nil)
	lost := context.AfterFunc(up, func() { stopReading(errLost) })
	defer lost()
	idle := time.AfterFunc(s.stall, func() { stopReading(errStalled) })
	defer idle.Stop()
	stop := context.AfterFunc(readCtx, it.Stop)
	defer stop()
	defer it.Stop()
	for {
		m, err := it.Next()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			switch cause := context.Cause(readCtx); {
			case errors.Is(cause, errLost):
				return &UnavailableError{Why: errLost.Error()}
			case errors.Is(cause, errStalled):
				return &UnavailableError{Why: fmt.Sprintf("the index delivered nothing for %s while reading %s", s.stall, pattern)}
			}
			return err
		}
		idle.Reset(s.stall)
		meta, err := m.Metadata()
		if err != nil {
			return err
		}
		if op := m.Headers().Get(kvOperation); op != "DEL" && op != "PURGE" {
			if err := fn(strings.TrimPrefix(m.Subject(), prefix), m.Data()); err != nil {
				return err
			}
		}
		if meta.NumPending == 0 {
			return nil
		}
	}
}

// deleteIndexConsumer removes a consumer scanKeys created, whatever the caller's context.
func (s *JetStream) deleteIndexConsumer(streamName string, cons jetstream.Consumer) {
	info := cons.CachedInfo()
	if info == nil {
		return
	}
	// NATS down: left for the server to remove once inactive (followInactive).
	ctx, end, err := s.conn.call(context.Background(), true)
	if err != nil {
		return
	}
	_ = end(s.js.DeleteConsumer(ctx, streamName, info.Name))
}
