package encounter

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/nats-io/nats.go"
	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// Config is what the encounter service needs to run.
type Config struct {
	// NATSURL of the NATS server or cluster holding the event log.
	NATSURL string
	// NATS is how it authenticates to NATS (as the encounter user of deploy/nats/permissions.conf).
	NATS platform.NATSAuth
	// ResolverAddr is the RulesService's gRPC address.
	ResolverAddr string
	// ResolverToken authenticates this service to the resolver: a token holding
	// platform.ScopeResolve (from a file in production, minted from the dev key by fray dev).
	ResolverToken platform.TokenSource
	// ResolverCA verifies the resolver's TLS certificate (PEM); ResolverTLS uses the system
	// roots. Without either, a loopback resolver is reached in plaintext and any other over
	// TLS verified against the system roots.
	ResolverCA  string
	ResolverTLS bool
	// ResolveTimeout bounds each call to the resolver, or the caller's deadline if sooner
	// (default DefaultResolveTimeout); ResolverCheckEvery is how often the resolver's health
	// is checked for this service's own (default DefaultResolverCheckEvery).
	ResolveTimeout     time.Duration
	ResolverCheckEvery time.Duration
	// ResolverDialOptions come after the service's own options on the resolver connection
	// (tests: a manual name resolver).
	ResolverDialOptions []grpc.DialOption
	Store               store.Config
	Log                 *slog.Logger
	// Options tune the service (tests inject the seed source).
	Options Options
}

// Running is a started encounter service with its connections.
type Running struct {
	Service *Service
	NATS    *nats.Conn
	rules   *grpc.ClientConn
	// stop ends the goroutines Start began (the resolver's health check); done when they have.
	stop context.CancelFunc
	done chan struct{}
}

// Start connects to NATS (creating the stream and bucket if missing) and to the resolver,
// and registers EncounterService on srv, whose health follows the NATS connection.
func Start(ctx context.Context, cfg Config, srv *platform.Server, reg *engine.Registry) (*Running, error) {
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	name := encounterv1.EncounterService_ServiceDesc.ServiceName
	setHealth := func(ok bool) {
		st := healthpb.HealthCheckResponse_NOT_SERVING
		if ok {
			st = healthpb.HealthCheckResponse_SERVING
		}
		srv.Health.SetServingStatus(name, st)
	}
	auth, err := cfg.NATS.Options()
	if err != nil {
		return nil, err
	}
	// Its own reply inbox (platform.EncounterInboxPrefix), where only it may subscribe: the
	// seeds it reads travel there.
	natsOpts := append(append(platform.EncounterNATSOptions(), auth...),
		nats.Name("fray-encounter"),
		nats.MaxReconnects(-1),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			log.Warn("NATS disconnected", "err", err)
			setHealth(false)
		}),
		nats.ReconnectHandler(func(*nats.Conn) { log.Info("NATS reconnected"); setHealth(true) }),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { log.Error("NATS", "err", err) }),
	)
	nc, err := nats.Connect(cfg.NATSURL, natsOpts...)
	if err != nil {
		return nil, fmt.Errorf("connect to NATS at %s: %w", cfg.NATSURL, err)
	}
	openCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	st, err := store.Open(openCtx, nc, cfg.Store)
	if err != nil {
		nc.Close()
		return nil, err
	}
	if cfg.ResolverToken == nil {
		nc.Close()
		return nil, fmt.Errorf("no token for the resolver at %s: it answers Resolve only to a token holding %q", cfg.ResolverAddr, platform.ScopeResolve)
	}
	// The resolver: every address of its name in turn, each call failing fast and within
	// its deadline; this service is ready only while a resolver answers its health check.
	cc, err := dialResolver(cfg)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("resolver at %s: %w", cfg.ResolverAddr, err)
	}
	rh := newResolverHealth(cc, srv.Health.Readiness(name, "resolver"), cfg.ResolverCheckEvery, log)
	timeout := cfg.ResolveTimeout
	if timeout <= 0 {
		timeout = DefaultResolveTimeout
	}
	rules := &rulesClient{RulesServiceClient: rulesv1.NewRulesServiceClient(cc), timeout: timeout, unreachable: rh.poke}
	opts := cfg.Options
	opts.Log = log
	if opts.Snapshots == nil {
		opts.Snapshots = st
	}
	svc := New(st, st, &RemoteDecider{Client: rules}, reg, opts)
	// An index that holds nothing while the log holds encounters (a first start with an
	// index, a lost bucket) is rebuilt from the log, in the background.
	go svc.ReindexIfEmpty(context.WithoutCancel(ctx))
	encounterv1.RegisterEncounterServiceServer(srv.GRPC, svc)
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	r := &Running{Service: svc, NATS: nc, rules: cc, stop: stop, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		rh.run(bg)
	}()
	return r, nil
}

// Close writes the index summaries due (Options.IndexDelay), drains the NATS connection and
// closes the resolver connection.
func (r *Running) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r.Service.FlushIndex(ctx)
	r.stop()
	<-r.done
	_ = r.rules.Close()
	_ = r.NATS.Drain()
}
