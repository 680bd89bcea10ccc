package encounter_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
	"google.golang.org/grpc/status"
)

// natsFor is the URL and the encounter user of a fresh secured NATS server.
func natsFor(t *testing.T) (string, natsconn.Auth) {
	s := natstest.StartSecured(t)
	return s.Server.ClientURL(), natsconn.Auth{User: natsconn.EncounterUser, Password: s.Users.Encounter}
}

func createNamed(ctx context.Context, c encounterv1.EncounterServiceClient, name string) error {
	_, err := c.CreateEncounter(ctx, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: name, RuleSystem: "loss"}})
	return err
}

// Two resolvers behind one name both take calls (round_robin); with every resolver stopped a
// command fails fast with Unavailable in a player's words — "unreachable", not a deadline: the
// client would wait minutes, and the service's own resolve deadline would say "did not answer
// within" — and the service's health turns NOT_SERVING; once they are back, it serves again
// and commands pass.
func TestResolverRoundRobinFailFastAndHealth(t *testing.T) {
	url, auth := natsFor(t)
	r1, r2 := &countingRules{}, &countingRules{}
	s1, s2 := serveRules(t, "127.0.0.1:0", r1), serveRules(t, "127.0.0.1:0", r2)
	names := manual.NewBuilderWithScheme("fraytest")
	names.InitialState(resolver.State{Addresses: []resolver.Address{{Addr: s1.addr}, {Addr: s2.addr}}})
	client, health, _ := startService(t, encounter.Config{NATSURL: url, NATS: auth,
		ResolverAddr: "fraytest:///localhost", ResolverDialOptions: []grpc.DialOption{grpc.WithResolvers(names)},
		ResolverCheckEvery: 100 * time.Millisecond})
	awaitHealth(t, health, encounterService, healthpb.HealthCheckResponse_SERVING)

	for i := range 20 {
		require.NoError(t, createNamed(as("gm"), client, fmt.Sprint("Ruelle ", i)))
	}
	require.Positive(t, r1.calls.Load(), "the first resolver took calls")
	require.Positive(t, r2.calls.Load(), "the second resolver took calls")

	s1.stop()
	s2.stop()
	ctx, cancel := context.WithTimeout(as("gm"), patience) // a patient client
	defer cancel()
	began := time.Now()
	err := createNamed(ctx, client, "Ruelle sans règles")
	t.Logf("refused after %v", time.Since(began).Round(time.Millisecond))
	// Unavailable for want of a resolver (not DeadlineExceeded, nor the resolve deadline's
	// "did not answer within"): it did not wait for one to come back.
	require.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
	require.Equal(t, "the rules service is unreachable; nothing was recorded, try again", status.Convert(err).Message())
	awaitHealth(t, health, encounterService, healthpb.HealthCheckResponse_NOT_SERVING)
	awaitHealth(t, health, "", healthpb.HealthCheckResponse_NOT_SERVING)

	serveRules(t, s1.addr, r1)
	serveRules(t, s2.addr, r2)
	awaitHealth(t, health, encounterService, healthpb.HealthCheckResponse_SERVING)
	awaitHealth(t, health, "", healthpb.HealthCheckResponse_SERVING)
	require.NoError(t, createNamed(as("gm"), client, "Ruelle retrouvée"))
}

// A resolver that does not answer is given up after the service's own deadline
// (Unavailable, naming it), or the caller's if sooner (DeadlineExceeded); nothing is recorded.
// Each deadline is far from the other (2 s against minutes, 100 ms against 2 s), so which one
// ended the call is what it returns, however slow the machine.
func TestResolveHasAServerSideDeadline(t *testing.T) {
	url, auth := natsFor(t)
	rules := &countingRules{}
	rs := serveRules(t, "127.0.0.1:0", rules)
	client, health, _ := startService(t, encounter.Config{NATSURL: url, NATS: auth, ResolverAddr: rs.addr,
		ResolveTimeout: 2 * time.Second})
	awaitHealth(t, health, encounterService, healthpb.HealthCheckResponse_SERVING)
	rules.block.Store(true)

	ctx, cancel := context.WithTimeout(as("gm"), patience)
	defer cancel()
	began := time.Now()
	err := createNamed(ctx, client, "Ruelle muette")
	t.Logf("given up after %v", time.Since(began).Round(time.Millisecond))
	require.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
	require.Equal(t, "the rules service did not answer within 2s; nothing was recorded, try again", status.Convert(err).Message())

	short, cancel2 := context.WithTimeout(as("gm"), 100*time.Millisecond)
	defer cancel2()
	err = createNamed(short, client, "Ruelle pressée")
	require.Equal(t, codes.DeadlineExceeded, status.Code(err), "%v", err)

	list, err := client.ListEncounters(as("gm"), &encounterv1.ListEncountersRequest{})
	require.NoError(t, err)
	require.Empty(t, list.GetEncounters(), "nothing was recorded")
}

func TestResolverTarget(t *testing.T) {
	for _, tc := range []struct{ addr, target, endpoint string }{
		{"127.0.0.1:7071", "dns:///127.0.0.1:7071", "127.0.0.1:7071"},
		{"resolver:7071", "dns:///resolver:7071", "resolver:7071"},
		{"dns:///resolver.fray.svc:7071", "dns:///resolver.fray.svc:7071", "resolver.fray.svc:7071"},
		{"dns://10.0.0.10:53/resolver:7071", "dns://10.0.0.10:53/resolver:7071", "resolver:7071"},
		{"fraytest:///localhost", "fraytest:///localhost", "localhost"},
	} {
		target, endpoint := encounter.ResolverTarget(tc.addr)
		require.Equal(t, tc.target, target, tc.addr)
		require.Equal(t, tc.endpoint, endpoint, tc.addr)
	}
}
