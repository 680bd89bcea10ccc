package encounter

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/server"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/codes"
	_ "google.golang.org/grpc/health" // client-side health checking (healthCheckConfig)
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// Defaults of the connection to the resolver.
const (
	// DefaultResolveTimeout bounds each Resolve call (or the caller's deadline, if sooner):
	// past it the command is refused with Unavailable, nothing recorded.
	DefaultResolveTimeout = 2 * time.Second
	// DefaultResolverCheckEvery is how often the resolver's health is checked, for this
	// service's own readiness (and at once after a call found it unreachable).
	DefaultResolverCheckEvery = time.Second
)

// rulesUnreachable is what a player reads when no resolver answers.
const rulesUnreachable = "the rules service is unreachable; nothing was recorded, try again"

// rulesServiceName is the resolver's service, as its health service names it.
var rulesServiceName = rulesv1.RulesService_ServiceDesc.ServiceName

// resolverTarget is the gRPC target of addr: a bare host:port is reached through DNS
// (dns:///host:port: every address the name resolves to, as behind a headless Service);
// a target with a scheme (dns:///, unix:, a test's manual resolver) is kept as given.
// endpoint is its host:port, which decides the transport (a loopback resolver is reached in
// plaintext).
func resolverTarget(addr string) (target, endpoint string) {
	i := strings.Index(addr, "://")
	if i <= 0 {
		return "dns:///" + addr, addr
	}
	rest := addr[i+3:]
	if j := strings.Index(rest, "/"); j >= 0 {
		rest = rest[j+1:] // after the authority (dns://8.8.8.8/host:port)
	}
	return addr, rest
}

// resolverServiceConfig balances calls over every resolver address (round_robin) and sends
// them only to resolvers whose health says SERVING (a draining resolver gets none).
func resolverServiceConfig() string {
	return fmt.Sprintf(`{"loadBalancingConfig":[{"round_robin":{}}],"healthCheckConfig":{"serviceName":%q}}`, rulesServiceName)
}

// ResolverResolveEvery is the least time between two resolutions of the resolvers' name
// (grpc's resolver/dns.SetMinResolutionInterval, set by the encounter binary at its start).
const ResolverResolveEvery = 5 * time.Second

// dialResolver opens the connection to the resolver: round_robin over its addresses,
// keepalive within the servers' policy (server.ClientKeepalive), reconnecting within
// 100 ms to 2 s, a connection attempt abandoned after 2 s. extra come last (tests).
func dialResolver(cfg Config) (*grpc.ClientConn, error) {
	target, endpoint := resolverTarget(cfg.ResolverAddr)
	creds, secure, err := server.Transport(endpoint, cfg.ResolverCA, cfg.ResolverTLS)
	if err != nil {
		return nil, err
	}
	opts := append([]grpc.DialOption{
		grpc.WithTransportCredentials(creds),
		grpc.WithPerRPCCredentials(auth.PerRPCToken(cfg.ResolverToken, "", secure)),
		grpc.WithDefaultServiceConfig(resolverServiceConfig()),
		server.WithClientKeepalive(),
		grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: 100 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: 2 * time.Second},
			MinConnectTimeout: 2 * time.Second,
		}),
	}, cfg.ResolverDialOptions...)
	return grpc.NewClient(target, opts...)
}

// rulesClient is the resolver's client as the service uses it: every Resolve fails fast
// (no waiting for a resolver to come back) and within a deadline (the caller's, or timeout
// if sooner); a resolver that cannot be reached or does not answer in time is Unavailable,
// in words a player understands, and has the health check look at once.
type rulesClient struct {
	rulesv1.RulesServiceClient
	timeout     time.Duration
	unreachable func() // a call found no resolver: check the health now
}

func (c *rulesClient) Resolve(ctx context.Context, req *rulesv1.ResolveRequest, opts ...grpc.CallOption) (*rulesv1.ResolveResponse, error) {
	ours := time.Now().Add(c.timeout)
	theirs, bounded := ctx.Deadline()
	callersOwn := bounded && !theirs.After(ours) // the caller's deadline comes first
	callCtx, cancel := context.WithDeadline(ctx, ours)
	defer cancel()
	// Last, so that it wins over a WaitForReady(true) given before it.
	resp, err := c.RulesServiceClient.Resolve(callCtx, req, append(opts, grpc.WaitForReady(false))...)
	if err == nil {
		return resp, nil
	}
	if ctx.Err() != nil {
		return nil, err // the caller's own deadline or cancel
	}
	switch status.Code(err) {
	case codes.Unavailable:
		c.unreachable()
		return nil, status.Error(codes.Unavailable, rulesUnreachable)
	case codes.DeadlineExceeded:
		if callersOwn {
			return nil, err
		}
		c.unreachable()
		return nil, status.Errorf(codes.Unavailable, "the rules service did not answer within %s; nothing was recorded, try again", c.timeout)
	}
	return nil, err
}

// resolverHealth keeps the service's readiness on the resolver: it asks the resolver's
// health service every interval, at once when the connection changes state or a call found
// the resolver unreachable, and marks the dependency ready while one of the resolvers answers
// SERVING.
type resolverHealth struct {
	cc      *grpc.ClientConn
	ready   *server.Readiness
	every   time.Duration
	timeout time.Duration
	log     *slog.Logger
	nudge   chan struct{}
}

func newResolverHealth(cc *grpc.ClientConn, ready *server.Readiness, every time.Duration, log *slog.Logger) *resolverHealth {
	if every <= 0 {
		every = DefaultResolverCheckEvery
	}
	return &resolverHealth{cc: cc, ready: ready, every: every, timeout: max(every, time.Second), log: log, nudge: make(chan struct{}, 1)}
}

// poke has the health checked now.
func (h *resolverHealth) poke() {
	select {
	case h.nudge <- struct{}{}:
	default:
	}
}

// minCheckGap spaces the checks when calls keep finding the resolver unreachable.
const minCheckGap = 50 * time.Millisecond

// run checks until ctx ends.
func (h *resolverHealth) run(ctx context.Context) {
	client := healthpb.NewHealthClient(h.cc)
	for {
		h.check(ctx, client)
		select {
		case <-ctx.Done():
			return
		case <-time.After(minCheckGap):
		}
		h.wait(ctx)
		if ctx.Err() != nil {
			return
		}
	}
}

// wait returns after h.every, a change of the connection's state, a poke, or ctx's end.
func (h *resolverHealth) wait(ctx context.Context) {
	wctx, cancel := context.WithTimeout(ctx, h.every)
	defer cancel()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-h.nudge:
			cancel()
		case <-stop:
		}
	}()
	h.cc.WaitForStateChange(wctx, h.cc.GetState())
}

func (h *resolverHealth) check(ctx context.Context, client healthpb.HealthClient) {
	cctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	resp, err := client.Check(cctx, &healthpb.HealthCheckRequest{Service: rulesServiceName})
	switch {
	case ctx.Err() != nil:
	case err != nil:
		h.ready.NotReady("the rules service is unreachable: " + status.Convert(err).Message())
	case resp.GetStatus() != healthpb.HealthCheckResponse_SERVING:
		h.ready.NotReady("the rules service answers " + resp.GetStatus().String())
	default:
		h.ready.Ready()
	}
}
