package store_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"
)

// The fault-injection run (cli/test/faults, a routes-only partition of the stream's leader)
// once refused a command "canahan has no PA left this Tour" on a state behind the log: the
// service on the cut-off node asked the stream's leader for the latest record before letting
// the refusal stand, and that leader — cut off, not yet stepped down (nats-server waits about
// 10 s) — answered its own last record while the other two nodes had elected a new leader
// and recorded past it. A leader's "this is the last" and "there is none" now stand only when
// that leader shows, after the read, that it still hears from a quorum; otherwise the read is
// Unavailable (nothing decided, try again), never an answer behind the log.
func TestACutOffLeaderNeverAnswersTheLatest(t *testing.T) {
	if testing.Short() {
		t.Skip("a 3-node NATS cluster: not under -short")
	}
	c := natstest.StartCluster(t, 3)
	ctx := context.Background()
	open := func(ns *server.Server) *store.JetStream {
		// One node only, never another: the client of a cut-off node stays on it.
		nc, err := nats.Connect(ns.ClientURL(), nats.DontRandomize(), nats.IgnoreDiscoveredServers(), nats.MaxReconnects(-1))
		require.NoError(t, err)
		t.Cleanup(nc.Close)
		st, err := store.Open(ctx, nc, store.Config{Replicas: 3, CallTimeout: 5 * time.Second, Log: slog.New(slog.DiscardHandler)})
		require.NoError(t, err)
		return st
	}
	first := open(c.Nodes[0])
	info, err := first.JetStream().Stream(ctx, first.StreamName())
	require.NoError(t, err)
	leaderName := info.CachedInfo().Cluster.Leader
	li, leaderNode := c.Node(leaderName)
	require.GreaterOrEqual(t, li, 0, "the stream's leader %q is a node of the cluster", leaderName)
	other := c.Nodes[(li+1)%3]
	onLeader, onOther := open(leaderNode), open(other)

	a1, err := onLeader.Append(ctx, "a", 0, "a/1", batch("a", 1))
	require.NoError(t, err)
	recs, err := onLeader.Load(ctx, "a", 0, store.Latest())
	require.NoError(t, err, "before the cut the leader shows its quorum")
	require.Equal(t, a1.Position, recs[len(recs)-1].Position)

	began := time.Now()
	c.Partition(li)
	t.Cleanup(func() { c.Heal(li) })
	// The other two elect a leader and record past a1, and create an encounter "b".
	var a2 store.Appended
	require.Eventually(t, func() bool {
		a2, err = onOther.Append(ctx, "a", a1.Position, "a/2", batch("a", 2))
		return err == nil
	}, 2*time.Minute, 100*time.Millisecond, "the majority side never recorded: %v", err)
	_, err = onOther.Append(ctx, "b", 0, "b/1", batch("b", 1))
	require.NoError(t, err)
	t.Logf("leader %s cut off; the majority recorded a/2 at %d %s after the cut", leaderName, a2.Position, time.Since(began).Round(time.Millisecond))

	// Through the cut-off node, until it has stepped down and beyond: never a last record
	// behind a2, never "there is none" for b.
	refused, unconfirmed := 0, 0
	for time.Since(began) < 20*time.Second {
		recs, err := onLeader.Load(ctx, "a", 0, store.Latest())
		if err == nil {
			require.GreaterOrEqual(t, recs[len(recs)-1].Position, a2.Position, "the cut-off node answered a latest record behind the log")
		} else {
			// The service answers any such failure Unavailable ("nothing was recorded, try
			// again"): the unconfirmed leader, or, once it stepped down, JetStream's own 503.
			require.NotErrorIs(t, err, store.ErrNotFound)
			refused++
			if errors.Is(err, store.ErrUnavailable) {
				unconfirmed++
			}
		}
		_, err = onLeader.Load(ctx, "b", 0, store.Latest())
		require.NotErrorIs(t, err, store.ErrNotFound, "the cut-off node answered NotFound for an encounter the majority recorded")
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("through the cut-off node: %d reads failed (%d of them unconfirmed leader or no answer), none behind the log", refused, unconfirmed)
	require.Positive(t, refused, "the cut-off node's reads failed")

	c.Heal(li)
	require.Eventually(t, func() bool {
		recs, err := onLeader.Load(ctx, "a", 0, store.Latest())
		return err == nil && recs[len(recs)-1].Position == a2.Position
	}, 2*time.Minute, 200*time.Millisecond, "after the heal, the node's reads are confirmed again")
	t.Logf("healed: the node answers the latest again %s after the cut", time.Since(began).Round(time.Millisecond))
}
