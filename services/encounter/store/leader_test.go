package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"

	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

// lagged is a store whose direct reads come from a copy of the log that lags (LagCopies),
// and the count of answers it did not take from that copy.
type lagged struct {
	*store.JetStream
	mu     sync.Mutex
	asked  int
	behind func(upTo uint64) (restore func())
}

func (l *lagged) leaderAsked() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.asked
}

func newLagged(t *testing.T) *lagged {
	_, nc := natstest.Start(t)
	s, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	l := &lagged{JetStream: s}
	l.behind = func(upTo uint64) func() {
		return s.LagCopies(upTo, func(string) { l.mu.Lock(); l.asked++; l.mu.Unlock() })
	}
	return l
}

// Issue 22: a direct read is answered by whichever copy of the stream gets it first, and a
// copy may not yet hold what the leader acknowledged. Its "there is none" is never taken (the
// leader is asked), nor a last record older than what the caller knows was appended
// (AtLeast), nor any last record when the caller needs the latest (Latest); what a lagging
// copy does hold is the log's own prefix, so a plain Load may stop there.
func TestALaggingCopyIsNotTakenForTheTruth(t *testing.T) {
	s := newLagged(t)
	ctx := context.Background()
	a1, err := s.Append(ctx, "a", 0, "a/1", batch("a", 1))
	require.NoError(t, err)
	a2, err := s.Append(ctx, "a", a1.Position, "a/2", batch("a", 2))
	require.NoError(t, err)
	a3, err := s.Append(ctx, "a", a2.Position, "a/3", batch("a", 3))
	require.NoError(t, err)
	positions := func(recs []store.Record) (out []uint64) {
		for _, r := range recs {
			out = append(out, r.Position)
		}
		return out
	}

	restore := s.behind(a1.Position) // the copy holds the first record only
	recs, err := s.Load(ctx, "a", 0)
	require.NoError(t, err)
	require.Equal(t, []uint64{a1.Position}, positions(recs), "a plain load may stop at the copy's last: a prefix of the log")
	require.Zero(t, s.leaderAsked())

	recs, err = s.Load(ctx, "a", 0, store.AtLeast(a3.Position))
	require.NoError(t, err)
	require.Equal(t, []uint64{a1.Position, a2.Position, a3.Position}, positions(recs), "AtLeast: the record the caller appended is in")
	require.Equal(t, 1, s.leaderAsked())

	recs, err = s.Load(ctx, "a", a1.Position, store.Latest())
	require.NoError(t, err)
	require.Equal(t, []uint64{a2.Position, a3.Position}, positions(recs), "Latest: every acknowledged record")

	recs, err = s.Load(ctx, "a", 0, store.AtLeast(a1.Position))
	require.NoError(t, err)
	require.Equal(t, []uint64{a1.Position}, positions(recs), "a copy that holds what the caller knows is taken")
	restore()

	restore = s.behind(0) // a copy that holds nothing yet, as right after a create
	defer restore()
	asked := s.leaderAsked()
	recs, err = s.Load(ctx, "a", 0)
	require.NoError(t, err, "an encounter that exists is never NotFound because a copy lags")
	require.Equal(t, []uint64{a1.Position, a2.Position, a3.Position}, positions(recs))
	require.Greater(t, s.leaderAsked(), asked)

	r, err := s.Get(ctx, a3.Position)
	require.NoError(t, err, "a record the copy lacks is read from the leader")
	require.Equal(t, a3.Position, r.Position)
	page, err := s.Page(ctx, "a", 0, 10)
	require.NoError(t, err)
	t.Logf("a page read from a copy that holds nothing: %d records (the page's reader is not this test's subject)", len(page))

	_, err = s.Load(ctx, "nobody", 0)
	require.ErrorIs(t, err, store.ErrNotFound, "absent on the leader too: NotFound")
	_, err = s.Get(ctx, a3.Position+1000)
	require.ErrorIs(t, err, store.ErrNotFound)
}

// The buckets too: a key a copy does not hold yet is read from the leader — the seed of an
// encounter another service just created, the snapshot it just wrote — and a key the
// leader does not hold either is not there.
func TestALaggingCopysMissingKeyIsAskedOfTheLeader(t *testing.T) {
	s := newLagged(t)
	ctx := context.Background()
	seed := []byte("0123456789abcdef0123456789abcdef")
	require.NoError(t, s.PutSeed(ctx, "a", seed))
	restore := s.behind(0)
	defer restore()

	got, err := s.Seed(ctx, "a")
	require.NoError(t, err)
	require.Equal(t, seed, got)
	require.Equal(t, 1, s.leaderAsked())

	other := []byte("ffffffffffffffffffffffffffffffff")
	got, err = s.SeedOnce(ctx, "a", other)
	require.NoError(t, err, "a create that finds the seed stored reads it, even where a copy lacks it")
	require.Equal(t, seed, got, "the seed stored first is the encounter's")

	_, err = s.Seed(ctx, "b")
	require.ErrorIs(t, err, store.ErrNotFound)

	require.NoError(t, s.DeleteSeed(ctx, "a"))
	_, err = s.Seed(ctx, "a")
	require.ErrorIs(t, err, store.ErrNotFound, "a key whose last record deletes it is not there")
}

// Issue 31's count of open encounters, whose compare-and-set lost to concurrent creates and
// fell behind: a lost one is read again from the bucket's leader, so even where the copy that
// answers reads stopped applying writes, 40 encounters opened at once in one tenant count 40.
func TestATenantsCountHoldsUnderConcurrentCreatesOnALaggingCopy(t *testing.T) {
	s := newLagged(t)
	ctx := context.Background()
	restore := s.FreezeIndexCopy()
	defer restore()
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			errs <- s.PutSummary(ctx, store.Summary{EncounterID: fmt.Sprint("enc-", i), Tenant: "t1", Name: "Ruelle", RuleSystem: "loss",
				Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, Sequence: 1, LastActivity: time.Now(),
				Members: map[string]encounterv1.Role{fmt.Sprint("t1/gm-", i): encounterv1.Role_ROLE_GM}}) // one GM each: the count is contended, no membership
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	restore()
	open, err := s.OpenEncounters(ctx, "t1")
	require.NoError(t, err)
	require.Equal(t, n, open)
}
