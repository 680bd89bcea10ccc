package store_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

// Issue 31: the store bounded each call by 2 s of its own, so a call starved of CPU failed
// Unavailable while its caller would have waited far longer (under load 3,827 of 5,000
// watches were cut: "event log unreachable"). With every answer of the server held 3 s,
// an append and a load whose caller gives them 2 minutes succeed, and so does a page read
// with no deadline at all (as a watch's catch-up reads), which the store bounds by
// DefaultCallTimeout (30 s), not 2 s. A call with no deadline still ends, Unavailable, at
// a CallTimeout set shorter than the answers take.
func TestACallWaitsForItsCallersDeadlineNotAnInternalOne(t *testing.T) {
	if os.Getenv(natstest.SecuredEnv) == "1" {
		t.Skip("connects through a proxy, with no NATS user")
	}
	ns, _ := natstest.Start(t)
	proxy := natstest.StartSlowAnswers(t, ns.ClientURL())
	nc := proxy.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // the caller's: far
	defer cancel()
	s, err := store.Open(ctx, nc, store.Config{})
	require.NoError(t, err)
	short, err := store.Open(ctx, nc, store.Config{CallTimeout: time.Second})
	require.NoError(t, err)

	const late = 3 * time.Second // beyond the 2 s the store used to give a call
	proxy.SetLatency(late)
	start := time.Now()
	a, err := s.Append(ctx, "slow", 0, "slow/1", batch("slow", 1))
	require.NoError(t, err, "an append whose caller gives it 2 minutes, answered 3 s late")
	recs, err := s.Load(ctx, "slow", 0)
	require.NoError(t, err)
	require.Len(t, recs, 1)
	page, err := s.Page(context.Background(), "slow", 0, 10)
	require.NoError(t, err, "a read with no deadline (a watch's) is bounded by 30 s, not 2 s")
	require.Len(t, page, 1)
	require.Equal(t, a.Position, page[0].Position)
	t.Logf("an append, a load and a page, each answer %s late: %s", late, time.Since(start))

	_, err = short.Page(context.Background(), "slow", 0, 10)
	var down *store.UnavailableError
	require.ErrorAs(t, err, &down, "no deadline from the caller, a CallTimeout of 1s, answers 3s late")
	require.Equal(t, "no answer within 1s", down.Why)
}
