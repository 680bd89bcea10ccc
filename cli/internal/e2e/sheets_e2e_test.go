package e2e_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/resolver"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	grpcresolver "google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
)

// startResolverServer serves srv as its own resolver and returns its address.
func startResolverServer(t *testing.T, srv rulesv1.RulesServiceServer) string {
	s := server.New(quietLog(), authtest.ServerOptions()...)
	rulesv1.RegisterRulesServiceServer(s.GRPC, srv)
	return serveOn(t, s)
}

// listCounting is a resolver that counts the ListRulesets calls it answered.
type listCounting struct {
	*resolver.Server
	lists atomic.Int32
}

func (c *listCounting) ListRulesets(ctx context.Context, req *rulesv1.ListRulesetsRequest) (*rulesv1.ListRulesetsResponse, error) {
	c.lists.Add(1)
	return c.Server.ListRulesets(ctx, req)
}

// Two resolver replicas behind one connection, calls spread round robin (as a headless
// Service spreads them): each replica is sent the sheets it lacks when it says so, and every
// answer is the rules' in-process answer.
func TestSheetsAcrossResolverReplicas(t *testing.T) {
	a, b := &listCounting{Server: resolver.New(systems.Registry())}, &listCounting{Server: resolver.New(systems.Registry())}
	r := manual.NewBuilderWithScheme("fray-replicas")
	r.InitialState(grpcresolver.State{Addresses: []grpcresolver.Address{{Addr: startResolverServer(t, a)}, {Addr: startResolverServer(t, b)}}})
	cc, err := grpc.NewClient(r.Scheme()+":///rules", grpc.WithResolvers(r), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(`{"loadBalancingConfig": [{"round_robin": {}}]}`))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	client := rulesv1.NewRulesServiceClient(cc)
	// round_robin picks among the replicas connected so far: on a busy machine the first
	// calls all went to one (the test's known flake). Both answer before the fight begins.
	for a.lists.Load() == 0 || b.lists.Load() == 0 {
		_, err := client.ListRulesets(authtest.As("encounter-service", identity.ScopeResolve), &rulesv1.ListRulesetsRequest{}, grpc.WaitForReady(true))
		require.NoError(t, err)
		require.Less(t, a.lists.Load()+b.lists.Load(), int32(10000), "both replicas reached")
	}
	decideTour1(t, &encounter.RemoteDecider{HashEvery: 1, Client: client})
	na, _ := a.CachedSheets()
	nb, _ := b.CachedSheets()
	require.Equal(t, 2, na, "replica a was sent both sheets")
	require.Equal(t, 2, nb, "replica b was sent both sheets")
}

// switching sends each call to the resolver of the moment; next moves to a fresh one.
type switching struct {
	rulesv1.RulesServiceClient
	mu    sync.Mutex
	t     *testing.T
	calls int
	fresh int // calls after which the next resolver is fresh
}

func (s *switching) Resolve(ctx context.Context, req *rulesv1.ResolveRequest, opts ...grpc.CallOption) (*rulesv1.ResolveResponse, error) {
	s.mu.Lock()
	if s.RulesServiceClient == nil || s.calls%s.fresh == 0 {
		s.RulesServiceClient = rulesv1.NewRulesServiceClient(dial(s.t, startResolverServer(s.t, resolver.New(systems.Registry()))))
	}
	s.calls++
	c := s.RulesServiceClient
	s.mu.Unlock()
	return c.Resolve(ctx, req, opts...)
}

// A resolver that never saw the sheets (a new replica, a restart) every few calls: the
// decider's digests miss, it sends the sheets again, and the answers are still the rules'.
func TestSheetsWithAColdResolver(t *testing.T) {
	decideTour1(t, &encounter.RemoteDecider{HashEvery: 1, Client: &switching{t: t, fresh: 5}})
}
