package encounter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/nats-io/nats.go"
	"google.golang.org/grpc"
)

// Config is what the encounter service needs to run.
type Config struct {
	// NATSURL of the NATS server or cluster holding the event log.
	NATSURL string
	// NATS is how it authenticates to NATS (as the encounter user of deploy/nats/permissions.conf).
	NATS natsconn.Auth
	// ResolverAddr is the RulesService's gRPC address.
	ResolverAddr string
	// ResolverToken authenticates this service to the resolver: a token holding
	// identity.ScopeResolve (from a file in production, minted from the dev key by fray dev).
	ResolverToken auth.TokenSource
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
	// JetStreamCheckEvery is how often the event stream's leader is asked whether this
	// service can use the log (default DefaultJetStreamCheckEvery): the service is
	// NOT_SERVING while it cannot (jetstream_health.go).
	JetStreamCheckEvery time.Duration
	Store               store.Config
	Log                 *slog.Logger
	// Options tune the service (tests inject the seed source).
	Options Options
}

// Running is a started encounter service with its connections.
type Running struct {
	NATS  *nats.Conn
	rules *grpc.ClientConn
	svc   *Service // registered at once, serving once the event log is open
	ready chan struct{}
	// stop ends the goroutines Start began (the resolver's health check, opening the event
	// log); wg waits for them.
	stop context.CancelFunc
	wg   sync.WaitGroup
	// denied receives NATS's refusal of a permission this service needs (connected as
	// another user than encounter): an attempt at opening the log ends at once, saying so.
	denied chan error
}

// Service is the service once the event log is open, nil before (Ready is closed then).
func (r *Running) Service() *Service {
	if r.svc.ready.Load() {
		return r.svc
	}
	return nil
}

// Ready is closed once the event log is open and the service takes calls.
func (r *Running) Ready() <-chan struct{} { return r.ready }

// NATS connection defaults: reconnect within ReconnectWait (plus up to a quarter of it, at
// random), for ever, from the first connection on; nothing buffered while disconnected (a
// write then fails at once: store.UnavailableError); a server that stops answering pings is
// left after about PingInterval × MaxPingsOut.
const (
	natsReconnectWait = 500 * time.Millisecond
	natsPingInterval  = 10 * time.Second
	natsMaxPingsOut   = 3
	// openTimeout bounds one attempt at opening (creating or checking) the stream and buckets.
	openTimeout = 30 * time.Second
)

// Start connects to NATS and to the resolver, and registers EncounterService on srv. Its
// health follows the NATS connection, the event log's opening, then JetStream's answers to a
// check on an interval (jetstream_health.go), and the resolver's health. If
// NATS cannot be reached yet, Start does not wait: the service answers NOT_SERVING (and its
// calls Unavailable) until NATS comes and the stream and buckets are open. An existing stream
// fray cannot use (store.ErrMisconfigured) found at the start is an error.
func Start(ctx context.Context, cfg Config, srv *server.Server, reg *engine.Registry) (*Running, error) {
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	name := encounterv1.EncounterService_ServiceDesc.ServiceName
	if cfg.ResolverToken == nil {
		return nil, fmt.Errorf("no token for the resolver at %s: it answers Resolve only to a token holding %q", cfg.ResolverAddr, identity.ScopeResolve)
	}
	auth, err := cfg.NATS.Options()
	if err != nil {
		return nil, err
	}
	natsReady := srv.Health.Readiness(name, "nats")
	logReady := srv.Health.Readiness(name, "event log")
	logReady.NotReady("not open yet")
	denied := make(chan error, 1)
	nc, err := connectNATS(cfg, auth, natsReady, denied, log)
	if err != nil {
		return nil, err
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
	decider := &RemoteDecider{Client: &rulesClient{RulesServiceClient: rulesv1.NewRulesServiceClient(cc), timeout: timeout, unreachable: rh.poke}}
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	r := &Running{NATS: nc, rules: cc, svc: &Service{}, ready: make(chan struct{}), stop: stop, denied: denied}
	// Registered now, it answers Unavailable until the event log is open (intercept.go).
	Register(srv.GRPC, r.svc)
	open := func(ctx context.Context) error { return r.openLog(ctx, bg, cfg, decider, reg, logReady, log) }
	err = errors.New("NATS is not reachable yet")
	if nc.IsConnected() {
		err = open(ctx)
	}
	if errors.Is(err, store.ErrMisconfigured) {
		stop()
		_ = cc.Close()
		nc.Close()
		return nil, err
	}
	if err != nil {
		log.Warn("the event log is not open yet: not serving, and trying again until it opens", "nats", cfg.NATSURL, "err", err)
		r.wg.Go(func() { r.openWhenReachable(bg, open, log) })
	}
	r.wg.Go(func() { rh.run(bg) })
	return r, nil
}

// openLog opens the event log (its stream and buckets), and the service on it: serving from
// then on, its readiness JetStream's own answer, the index rebuilt if it holds nothing, the
// idle encounters swept (bg bounds what runs in the background).
func (r *Running) openLog(ctx, bg context.Context, cfg Config, decider Decider, reg *engine.Registry, logReady *server.Readiness, log *slog.Logger) error {
	ctx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	ctx, refuse := context.WithCancelCause(ctx)
	defer refuse(nil)
	go func() {
		select {
		case err := <-r.denied:
			refuse(err)
		case <-ctx.Done():
		}
	}()
	storeCfg := cfg.Store
	if storeCfg.Log == nil {
		storeCfg.Log = log
	}
	st, err := store.Open(ctx, r.NATS, storeCfg)
	if cause := context.Cause(ctx); err != nil && errors.Is(cause, nats.ErrPermissionViolation) {
		err = fmt.Errorf("%w: %s", cause, natsUserNeeded)
	}
	if err != nil {
		logReady.NotReady(err.Error())
		return err
	}
	opts := cfg.Options
	opts.Log = log
	if opts.Snapshots == nil {
		opts.Snapshots = st
	}
	svc := r.svc
	svc.open(st, st, decider, reg, opts)
	close(r.ready)
	logReady.Ready()
	// From now on the log's readiness is JetStream's own answer.
	lh := newLogHealth(st, r.NATS, logReady, cfg.JetStreamCheckEvery, log)
	r.wg.Go(func() { lh.run(bg) })
	// An index that holds nothing while the log holds encounters (a first start with an
	// index, a lost bucket) is rebuilt from the log, in the background.
	r.wg.Go(func() { svc.ReindexIfEmpty(bg) })
	// Every replica sweeps for idle encounters; each end is recorded once (idle.go).
	r.wg.Go(func() { svc.RunIdleSweeps(bg) })
	return nil
}

// natsUserNeeded says which NATS user the service must connect as, for a permission refused.
const natsUserNeeded = "the encounter service must connect as the encounter user of deploy/nats/permissions.conf " +
	"(--nats-user encounter --nats-password P, or --nats-creds, --nats-nkey; fray dev keeps that password in .fray/nats-users.json, " +
	"and a client without credentials is its read-only auditor); not serving until it does"

// connectNATS connects to the NATS holding the event log, for ever trying again (nothing
// buffered while disconnected), its readiness following the connection.
func connectNATS(cfg Config, auth []nats.Option, natsReady *server.Readiness, denied chan<- error, log *slog.Logger) (*nats.Conn, error) {
	var natsMu sync.Mutex
	syncNATS := func(nc *nats.Conn) {
		natsMu.Lock()
		defer natsMu.Unlock()
		if nc.IsConnected() {
			natsReady.Ready()
			return
		}
		natsReady.NotReady(fmt.Sprintf("NATS at %s is %s", cfg.NATSURL, strings.ToLower(nc.Status().String())))
	}
	natsReady.NotReady("connecting to NATS at " + cfg.NATSURL)
	// Its own reply inbox (natsconn.EncounterInboxPrefix), where only it may subscribe: the
	// seeds it reads travel there.
	natsOpts := append(append(natsconn.EncounterOptions(), auth...),
		nats.Name("fray-encounter"),
		nats.RetryOnFailedConnect(true),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(natsReconnectWait),
		nats.ReconnectJitter(natsReconnectWait/4, natsReconnectWait/4),
		nats.ReconnectBufSize(-1),
		nats.PingInterval(natsPingInterval),
		nats.MaxPingsOutstanding(natsMaxPingsOut),
		nats.ConnectHandler(func(nc *nats.Conn) { log.Info("NATS connected", "url", nc.ConnectedUrlRedacted()); syncNATS(nc) }),
		nats.DisconnectErrHandler(func(nc *nats.Conn, err error) {
			if err != nil { // nil: closed by this service
				log.Warn("NATS disconnected", "err", err)
			}
			syncNATS(nc)
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) { log.Info("NATS reconnected", "url", nc.ConnectedUrlRedacted()); syncNATS(nc) }),
		nats.ClosedHandler(syncNATS),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			if errors.Is(err, nats.ErrPermissionViolation) {
				log.Error("NATS refused this service a permission: "+natsUserNeeded, "err", err)
				select {
				case denied <- err:
				default:
				}
				return
			}
			log.Error("NATS", "err", err)
		}),
	)
	nc, err := nats.Connect(cfg.NATSURL, natsOpts...)
	if err != nil {
		return nil, fmt.Errorf("connect to NATS at %s: %w", cfg.NATSURL, err)
	}
	syncNATS(nc)
	return nc, nil
}

// openWhenReachable opens the event log once NATS is connected, trying again (0.25 s, then
// up to every 5 s) until it is open or ctx ends.
func (r *Running) openWhenReachable(ctx context.Context, open func(context.Context) error, log *slog.Logger) {
	up := r.NATS.StatusChanged(nats.CONNECTED)
	defer r.NATS.RemoveStatusListener(up)
	wait := 250 * time.Millisecond
	for {
		for !r.NATS.IsConnected() {
			select {
			case <-up:
			case <-ctx.Done():
				return
			}
		}
		err := open(ctx)
		if err == nil {
			log.Info("the event log is open: serving")
			return
		}
		if ctx.Err() != nil {
			return
		}
		level := slog.LevelWarn
		if errors.Is(err, store.ErrMisconfigured) {
			level = slog.LevelError
		}
		log.Log(ctx, level, "the event log could not be opened; trying again", "in", wait, "err", err)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// Close writes the index summaries due (Options.IndexDelay), drains the NATS connection and
// closes the resolver connection.
func (r *Running) Close() {
	r.stop()
	r.wg.Wait()
	if svc := r.Service(); svc != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		svc.FlushIndex(ctx)
	}
	_ = r.rules.Close()
	if err := r.NATS.Drain(); err != nil {
		r.NATS.Close()
	}
}
