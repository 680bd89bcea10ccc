package platform_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/authtest"
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
	lim := platform.NewRateLimiter(platform.RateLimits{PrincipalRate: 0.001, PrincipalBurst: 2, TenantRate: 100, TenantBurst: 100})
	cc := serveWho(t, append(authtest.ServerOptions(), platform.WithRateLimiter(lim))...)
	mallory, alice := authtest.As("mallory"), authtest.As("alice")
	for range 2 {
		_, err := am(mallory, cc)
		require.NoError(t, err)
	}
	_, err := am(mallory, cc)
	st := status.Convert(err)
	require.Equal(t, codes.ResourceExhausted, st.Code(), err)
	require.Regexp(t, `^dev/mallory: more than 0.001 requests/s; retry in 1[56]m\d+(\.\d+)?s$`, st.Message())
	require.Len(t, st.Details(), 1)
	retry, ok := st.Details()[0].(*errdetails.RetryInfo)
	require.True(t, ok)
	require.Greater(t, retry.GetRetryDelay().AsDuration(), time.Second)
	// Streams draw from the same bucket.
	_, err = watch(mallory, cc)
	require.Equal(t, codes.ResourceExhausted, status.Code(err))
	// Another principal is served; so is health, which needs no token.
	got, err := am(alice, cc)
	require.NoError(t, err)
	require.Contains(t, got, "dev/alice")
	_, err = healthpb.NewHealthClient(cc).Check(context.Background(), &healthpb.HealthCheckRequest{})
	require.NoError(t, err)
	// Without a token, authentication refuses first: no bucket is made for nobody.
	_, err = am(context.Background(), cc)
	require.Equal(t, codes.Unauthenticated, status.Code(err))
}

// captured is a slog handler keeping every record (at INFO and above if infoOnly).
type captured struct {
	mu       sync.Mutex
	records  []slog.Record
	infoOnly bool
}

func (c *captured) Enabled(_ context.Context, l slog.Level) bool {
	return !c.infoOnly || l >= slog.LevelInfo
}
func (c *captured) Handle(_ context.Context, r slog.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.records = append(c.records, r.Clone())
	return nil
}
func (c *captured) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c *captured) WithGroup(string) slog.Handler      { return c }

// finished returns the "finished call" lines of method, each as its level and attributes.
func (c *captured) finished(method string) []map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []map[string]string
	for _, r := range c.records {
		attrs := map[string]string{"level": r.Level.String()}
		r.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value.String(); return true })
		if r.Message == "finished call" && attrs["grpc.method"] == method {
			out = append(out, attrs)
		}
	}
	return out
}

// encDesc is a service whose Get answers NotFound quoting the encounter id, or Internal for
// the id "fail", OK for "ok", or the code C for "code-C" (code-Unavailable).
var encDesc = grpc.ServiceDesc{
	ServiceName: "test.Enc",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Get",
		Handler: func(_ any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
			in := &encounterv1.GetEncounterRequest{}
			if err := dec(in); err != nil {
				return nil, err
			}
			h := func(ctx context.Context, req any) (any, error) {
				switch id := req.(*encounterv1.GetEncounterRequest).GetEncounterId(); id {
				case "ok":
					return &encounterv1.GetEncounterResponse{}, nil
				case "fail":
					return nil, status.Error(codes.Internal, "the disk is on fire")
				default:
					if name, ok := strings.CutPrefix(id, "code-"); ok {
						for c := codes.OK + 1; c <= codes.Unauthenticated; c++ {
							if c.String() == name {
								return nil, status.Error(c, "answered "+name)
							}
						}
					}
					return nil, status.Errorf(codes.NotFound, "there is no encounter %q", id)
				}
			}
			return interceptor(ctx, in, &grpc.UnaryServerInfo{FullMethod: "/test.Enc/Get"}, h)
		},
	}},
}

func TestRequestLogsNameTheCallerAndAreSafe(t *testing.T) {
	logs := &captured{}
	srv := platform.NewServer(slog.New(logs), authtest.ServerOptions()...)
	srv.GRPC.RegisterService(&encDesc, struct{}{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	get := func(ctx context.Context, id string) error {
		return cc.Invoke(ctx, "/test.Enc/Get", &encounterv1.GetEncounterRequest{EncounterId: id}, &encounterv1.GetEncounterResponse{})
	}

	hostile := "\x1b[2J\r\nlevel=ERROR msg=forged\u202e" + strings.Repeat("*", 4000)
	require.NoError(t, get(authtest.As("david"), "ok"))
	// Refused by the validation of ids, or not found: a client's error either way.
	require.Contains(t, []codes.Code{codes.NotFound, codes.InvalidArgument}, status.Code(get(authtest.As("mallory"), hostile)))
	require.Equal(t, codes.Internal, status.Code(get(authtest.As("david"), "fail")))
	require.Equal(t, codes.Unauthenticated, status.Code(get(context.Background(), "ok")))

	lines := logs.finished("Get")
	require.Len(t, lines, 4)
	ok, notFound, internal, unauth := lines[0], lines[1], lines[2], lines[3]
	require.Equal(t, "INFO", ok["level"])
	require.Equal(t, "dev/david", ok["principal"])
	require.Equal(t, "dev", ok["tenant"])
	require.Equal(t, "ok", ok["encounter"])

	// A client's error is INFO; its values are cut and escaped.
	require.Equal(t, "INFO", notFound["level"])
	require.Equal(t, "dev/mallory", notFound["principal"])
	require.Equal(t, `\x1b[2J\x0d\x0alevel=ERROR msg=forged\u202e`+strings.Repeat("*", 64-29)+"…", notFound["encounter"])
	require.LessOrEqual(t, len(notFound["grpc.error"]), platform.MaxLoggedValue+8)
	for k, v := range notFound {
		require.NotContains(t, v, "\x1b", k)
		require.NotContains(t, v, "\n", k)
		require.NotContains(t, v, "\u202e", k)
	}

	// The server's failure is ERROR.
	require.Equal(t, "ERROR", internal["level"])
	require.Equal(t, "fail", internal["encounter"])

	// Without a token: INFO, no principal, the encounter still named.
	require.Equal(t, "INFO", unauth["level"])
	require.Empty(t, unauth["principal"])
	require.Equal(t, "ok", unauth["encounter"])
}

// An invite's calls (a token bound to an encounter, naming its inviter) take from the
// inviter's bucket: two invited principals and their GM share the GM's burst of 3, so that
// minting principals does not multiply a budget; the refusal says whose budget it is. Over a
// real listener, the encounter service's methods answered Unimplemented once admitted.
func TestAnInviteDrawsFromItsInvitersBucket(t *testing.T) {
	lim := platform.NewRateLimiter(platform.RateLimits{PrincipalRate: 0.001, PrincipalBurst: 3, TenantRate: 100, TenantBurst: 100})
	srv := platform.NewServer(platform.NewLogger("text", "error"), append(authtest.ServerOptions(), platform.WithRateLimiter(lim))...)
	encounterv1.RegisterEncounterServiceServer(srv.GRPC, encounterv1.UnimplementedEncounterServiceServer{})
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
	lim := platform.NewRateLimiter(platform.RateLimits{TenantRate: 0.001, TenantBurst: (flooders + 1) * 220})
	cc := serveWho(t, append(authtest.ServerOptions(), platform.WithRateLimiter(lim))...)
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
				_, err := am(ctx, cc)
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
			_, err := am(player, cc)
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
