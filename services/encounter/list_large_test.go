package encounter_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

// A GM with 30,000 encounters (past what the index's old one-value membership could hold:
// it passed NATS's 1 MiB max_payload at some 17,000) lists every one of them exactly once, a
// page at a time, the most recently active first, through the service over gRPC on an
// embedded JetStream; a player lists exactly its own; no value of the index grows with their
// number. One encounter is created through the service; the other summaries are written
// straight through the store, as the service writes them after each append.
func TestAGMWithThirtyThousandEncountersListsEachOnce(t *testing.T) {
	const n = 30_000
	ctx := context.Background()
	_, nc := natstest.Start(t)
	// What is checked is that each is listed once, not how fast: on a machine busy with other
	// builds (load average 35) the index's consumer paused past the 5 s a call is given and the
	// list answered Unavailable, so the store's calls get a minute here.
	js, err := store.Open(ctx, nc, store.Config{CallTimeout: time.Minute})
	require.NoError(t, err)
	idx := &countedPasses{Index: js}
	c := serve(t, js, encounter.Options{Index: idx})
	created := create(t, c) // now: after every summary below

	// The GM in each, david in every 7th.
	members := func(i int) map[string]encounterv1.Role {
		m := map[string]encounterv1.Role{"dev/gm": encounterv1.Role_ROLE_GM}
		if i%7 == 3 {
			m["dev/david"] = encounterv1.Role_ROLE_PLAYER
		}
		return m
	}
	began := time.Now()
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	const writers = 16
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := w; i < n-1; i += writers {
				// Ended: the tenant's count of open encounters is not what this test is about.
				err := js.PutSummary(ctx, store.Summary{
					EncounterID: fmt.Sprintf("bulk-%05d", i), Tenant: "dev", Name: "Ruelle", RuleSystem: "loss",
					Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED, Sequence: 9,
					// Pairs share a time: the list orders them by id.
					LastActivity: at.Add(time.Duration(i/2) * time.Second),
					Members:      members(i),
				})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	require.NoError(t, <-errs)
	t.Logf("%d summaries written through the store in %s", n-1, time.Since(began).Round(time.Millisecond))

	var first time.Duration // the first page's: a pass over the memberships
	listAll := func(who string) ([]*encounterv1.EncounterSummary, int) {
		var all []*encounterv1.EncounterSummary
		pages := 0
		for token := ""; ; {
			began := time.Now()
			r, err := c.ListEncounters(as(who), &encounterv1.ListEncountersRequest{PageSize: encounter.MaxPageSize, PageToken: token})
			require.NoError(t, err)
			if pages++; pages == 1 {
				first = time.Since(began)
			}
			all = append(all, r.GetEncounters()...)
			if token = r.GetNextPageToken(); token == "" {
				return all, pages
			}
			require.Len(t, r.GetEncounters(), encounter.MaxPageSize, "a page before the last is full")
		}
	}
	began = time.Now()
	idx.passes.Store(0)
	all, pages := listAll("gm")
	took := time.Since(began)
	t.Logf("the GM's %d encounters listed in %d pages of %d in %s (the first %s), %d passes over the memberships",
		len(all), pages, encounter.MaxPageSize, took.Round(time.Millisecond), first.Round(time.Millisecond), idx.passes.Load())
	require.LessOrEqual(t, idx.passes.Load(), 1+int64(took/encounter.SnapshotTTL), "the pages after the first are cut from the first's pass")
	seen := map[string]int{}
	for i, e := range all {
		seen[e.GetEncounterId()]++
		require.Equal(t, encounterv1.Role_ROLE_GM, e.GetRole())
		if i > 0 {
			prev, cur := all[i-1].GetLastActivity().AsTime(), e.GetLastActivity().AsTime()
			require.True(t, prev.After(cur) || prev.Equal(cur) && all[i-1].GetEncounterId() < e.GetEncounterId(),
				"the most recently active first, then by id: %s then %s", all[i-1].GetEncounterId(), e.GetEncounterId())
		}
	}
	require.Len(t, seen, n, "every encounter is listed")
	for id, times := range seen {
		require.Equal(t, 1, times, "%s listed more than once", id)
	}
	require.Equal(t, created, all[0].GetEncounterId(), "the one created through the service is the most recent")
	require.Equal(t, "bulk-00001", all[n-1].GetEncounterId(), "the oldest pair, by id")

	mine, _ := listAll("david")
	require.Len(t, mine, (n-2-3)/7+1, "david plays in every 7th, from the 4th")
	for _, e := range mine {
		var i int
		_, err := fmt.Sscanf(e.GetEncounterId(), "bulk-%05d", &i)
		require.NoError(t, err)
		require.Equal(t, 3, i%7, e.GetEncounterId())
		require.Equal(t, encounterv1.Role_ROLE_PLAYER, e.GetRole())
	}

	key, size, keys := largestIndexValue(t, nc)
	t.Logf("the index holds %d keys; the largest value is %s, %d bytes", keys, key, size)
	require.GreaterOrEqual(t, keys, 2*n+len(mine), "a summary and a membership per encounter and member")
	require.Less(t, size, 1024, "no value holds a list that grows with the encounters")
}

// countedPasses counts the passes over memberships.
type countedPasses struct {
	store.Index
	passes atomic.Int64
}

func (c *countedPasses) Memberships(ctx context.Context, principal string, fn func(store.Summary) error) error {
	c.passes.Add(1)
	return c.Index.Memberships(ctx, principal, fn)
}

// largestIndexValue reads the current value of every key of the index: the key of the
// largest, its size, and how many keys there are.
func largestIndexValue(t *testing.T, nc *nats.Conn) (string, int, int) {
	t.Helper()
	ctx := context.Background()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	cons, err := js.OrderedConsumer(ctx, "KV_FRAY_INDEX", jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverLastPerSubjectPolicy})
	require.NoError(t, err)
	it, err := cons.Messages()
	require.NoError(t, err)
	defer it.Stop()
	largest, size, keys := "", -1, 0
	for {
		m, err := it.Next()
		require.NoError(t, err)
		keys++
		if len(m.Data()) > size {
			largest, size = m.Subject(), len(m.Data())
		}
		meta, err := m.Metadata()
		require.NoError(t, err)
		if meta.NumPending == 0 {
			return largest, size, keys
		}
	}
}
