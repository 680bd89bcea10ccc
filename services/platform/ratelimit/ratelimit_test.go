package ratelimit_test

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/ratelimit"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// A principal's burst, then ResourceExhausted with when to retry. The rate is one call in
// 1000 s, so that no token comes back while the test runs, however slow the machine (at 0.5/s,
// a machine taking 2 s over the burst gave one back).
func TestRateLimitOverGRPC(t *testing.T) {
	lim := ratelimit.New(ratelimit.Limits{PrincipalRate: 0.001, PrincipalBurst: 2, TenantRate: 100, TenantBurst: 100})
	cc := authtest.ServeWho(t, append(authtest.ServerOptions(), ratelimit.WithLimiter(lim))...)
	mallory, alice := authtest.As("mallory"), authtest.As("alice")
	for range 2 {
		_, err := authtest.Am(mallory, cc)
		require.NoError(t, err)
	}
	_, err := authtest.Am(mallory, cc)
	st := status.Convert(err)
	require.Equal(t, codes.ResourceExhausted, st.Code(), err)
	require.Regexp(t, `^dev/mallory: more than 0.001 requests/s; retry in 1[56]m\d+(\.\d+)?s$`, st.Message())
	require.Len(t, st.Details(), 1)
	retry, ok := st.Details()[0].(*errdetails.RetryInfo)
	require.True(t, ok)
	require.Greater(t, retry.GetRetryDelay().AsDuration(), time.Second)
	// Streams draw from the same bucket.
	_, err = authtest.Watch(mallory, cc)
	require.Equal(t, codes.ResourceExhausted, status.Code(err))
	// Another principal is served; so is health, which needs no token.
	got, err := authtest.Am(alice, cc)
	require.NoError(t, err)
	require.Contains(t, got, "dev/alice")
	_, err = healthpb.NewHealthClient(cc).Check(context.Background(), &healthpb.HealthCheckRequest{})
	require.NoError(t, err)
	// Without a token, authentication refuses first: no bucket is made for nobody.
	_, err = authtest.Am(context.Background(), cc)
	require.Equal(t, codes.Unauthenticated, status.Code(err))
}

// An invite's calls (a token bound to an encounter, naming its inviter) take from the
// inviter's bucket: two invited principals and their GM share the GM's burst of 3, so that
// minting principals does not multiply a budget; the refusal says whose budget it is. Over a
// real listener, the encounter service's methods answered Unimplemented once admitted.
func TestAnInviteDrawsFromItsInvitersBucket(t *testing.T) {
	lim := ratelimit.New(ratelimit.Limits{PrincipalRate: 0.001, PrincipalBurst: 3, TenantRate: 100, TenantBurst: 100})
	srv := server.New(telemetry.NewLogger("text", "error"), append(authtest.ServerOptions(), ratelimit.WithLimiter(lim))...)
	encounterv1.RegisterEncounterServiceServer(srv.GRPC, encounterv1.UnimplementedEncounterServiceServer{})
	// As encounter.Register declares it from its access table.
	auth.AllowBound(encounterv1.EncounterService_GetEncounter_FullMethodName)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	a := authtest.Default()
	invited := func(subject string) context.Context {
		c := authtest.Claims("dev", subject)
		c.Encounter, c.Inviter = "enc-1", "dev/gm"
		return authtest.WithToken(context.Background(), a.Mint(a.Ed, c))
	}
	get := func(ctx context.Context) error {
		_, err := encounterv1.NewEncounterServiceClient(cc).GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: "enc-1"})
		return err
	}
	for _, ctx := range []context.Context{invited("diego-a"), invited("ruffian-b"), a.As("gm")} {
		require.Equal(t, codes.Unimplemented, status.Code(get(ctx)))
	}
	err = get(invited("diego-a"))
	require.Equal(t, codes.ResourceExhausted, status.Code(err), "%v", err)
	require.Contains(t, status.Convert(err).Message(), "dev/diego-a (invited: the budget of dev/gm): more than 0.001 requests/s")
	err = get(a.As("gm"))
	require.Equal(t, codes.ResourceExhausted, status.Code(err), "%v", err)
	require.Contains(t, status.Convert(err).Message(), "dev/gm: more than 0.001 requests/s")
	require.Equal(t, codes.Unimplemented, status.Code(get(a.As("alice"))), "another principal's bucket is its own")
}

// TestFairShareOverGRPC: a tenant's budget is shared fairly among its principals, not first
// come, first served. 20 principals of the tenant flood it while a well-behaved player of the
// same tenant makes its 200 calls among theirs (round by round: 2 calls of each flooder, one
// of the player, until each flooder has been refused K times); the flooders use up the
// tenant's budget and are refused, each at least K times, and the player, under its share, has none of its calls refused. The tenant's rate is
// one call in 1000 s, so that what counts is the calls, not the time: the burst of 21×220
// calls is the tenant's budget, 220 each principal's share of it.
func TestFairShareOverGRPC(t *testing.T) {
	const flooders, playerCalls, refusalsEach = 20, 200, 3
	lim := ratelimit.New(ratelimit.Limits{TenantRate: 0.001, TenantBurst: (flooders + 1) * 220})
	cc := authtest.ServeWho(t, append(authtest.ServerOptions(), ratelimit.WithLimiter(lim))...)
	player := authtest.As("player")
	flood := make([]context.Context, flooders)
	for i := range flood {
		flood[i] = authtest.As(fmt.Sprintf("flooder-%d", i))
	}
	start := time.Now()
	refused := make([]int, flooders)
	var sent, firstRefusal, rounds int
	for round := 0; ; round++ {
		done := sent == playerCalls
		for i, ctx := range flood {
			for range 2 {
				if refused[i] >= refusalsEach {
					break // this flooder has been refused enough
				}
				_, err := authtest.Am(ctx, cc)
				if err == nil {
					continue
				}
				st := status.Convert(err)
				require.Equal(t, codes.ResourceExhausted, st.Code(), err)
				require.Regexp(t, `^tenant dev: more than 0.001 requests/s, and you have used your share of it \(0/s, shared among 21 callers\); retry in `, st.Message())
				if firstRefusal == 0 {
					firstRefusal = sent
				}
				refused[i]++
			}
			done = done && refused[i] >= refusalsEach
		}
		if sent < playerCalls {
			_, err := authtest.Am(player, cc)
			require.NoError(t, err, "the player's call %d of %d, %d flooder calls refused before it", sent+1, playerCalls, sum(refused))
			sent++
		}
		if done {
			rounds = round
			break
		}
		// The player's calls take playerCalls rounds; the tenant's budget ((flooders+1)×220
		// calls, nothing refilled at 0.001/s) is spent by the flood's 2 calls each a round in
		// about 115. Bounded by rounds, not by the clock, which a busy machine slows.
		require.Less(t, round, 1000, "the flooders were not refused %d times each: %v", refusalsEach, refused)
	}
	// The flood did use up the tenant's budget while the player was still calling: first come,
	// first served, the player's later calls would have been refused.
	require.Greater(t, firstRefusal, 0)
	require.Less(t, firstRefusal, playerCalls)
	t.Logf("%d rounds in %s; the flooders were first refused before the player's call %d, %d times in all; the player was refused 0 times of %d",
		rounds, time.Since(start).Round(time.Millisecond), firstRefusal+1, sum(refused), playerCalls)
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
