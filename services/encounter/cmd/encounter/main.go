// Command encounter serves fray's EncounterService against a NATS JetStream server or cluster.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/fray-rpg/fray/services/platform/ratelimit"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"google.golang.org/grpc/resolver/dns"
)

func main() {
	// The resolvers' name is resolved again at most this often (gRPC's default: 30 s): with
	// the resolvers' connection age (15 s + 10 s), a resolver the autoscaler adds takes its
	// share within 30 s even right after a resolution (issue 22: 26–29 s with the default).
	dns.SetMinResolutionInterval(encounter.ResolverResolveEvery)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}

// run serves until ctx is done; its exit code: 2 for bad flags or settings, 1 for a failure.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("encounter", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:7072", "gRPC listen address (env FRAY_ENCOUNTER_LISTEN)")
	natsURL := fs.String("nats-url", "nats://127.0.0.1:4222", "NATS server or cluster (env FRAY_NATS_URL)")
	var natsAuth natsconn.Auth // the encounter user of deploy/nats/permissions.conf
	natsAuth.AddFlags(fs)
	resolverAddr := fs.String("resolver", "127.0.0.1:7071", "RulesService address: host:port, resolved by DNS with every address taking calls in turn (as dns:///host:port), or a gRPC target (env FRAY_RESOLVER_ADDR)")
	jsCheck := fs.Duration("jetstream-check-every", encounter.DefaultJetStreamCheckEvery, "how often the event stream's leader is asked whether this service can use the log; NOT_SERVING while it cannot, and after 3 failures in a row the NATS connection moves to another node (env FRAY_JETSTREAM_CHECK_EVERY)")
	replicas := fs.Int("replicas", 1, "replicas of the event stream and seed bucket, 1 to 5 (env FRAY_REPLICAS)")
	streamName := fs.String("stream", "FRAY_ENCOUNTERS", "JetStream stream name (env FRAY_STREAM)")
	serve := server.AddServeFlags(fs, server.EncounterConnectionAge)
	telemetryFlags := telemetry.AddFlags(fs)
	logFormat := fs.String("log-format", "text", "text or json (env FRAY_LOG_FORMAT)")
	logLevel := fs.String("log-level", "info", "debug, info, warn, error (env FRAY_LOG_LEVEL)")
	security := server.AddServerSecurityFlags(fs)
	limits := ratelimit.AddFlags(fs)
	lim := addLimitFlags(fs)
	ret := addRetentionFlags(fs)
	resolverTokenFile := fs.String("resolver-token-file", "", "file holding this service's token for the resolver, with the \""+identity.ScopeResolve+"\" scope, read again when it changes (env FRAY_RESOLVER_TOKEN_FILE; or the token itself in FRAY_RESOLVER_TOKEN)")
	resolverCA := fs.String("resolver-ca", "", "verify the resolver's TLS certificate against this PEM CA (env FRAY_RESOLVER_CA)")
	resolverTLS := fs.Bool("resolver-tls", false, "reach the resolver over TLS verified by the system roots (env FRAY_RESOLVER_TLS: true or false; the default for a resolver not on loopback)")
	fs.Usage = func() { usage(fs) }
	if err := platform.ParseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "encounter: %v\n", err)
		return 2
	}
	log, err := telemetry.NewLoggerTo(stderr, *logFormat, *logLevel)
	if err == nil {
		if *jsCheck <= 0 {
			err = platform.FlagError(fs, "jetstream-check-every", "give a duration such as 1s")
		}
		err = errors.Join(err, serve.Check(fs), limits.Check(fs), checkSettings(fs, *replicas, *ret, lim.counts()),
			checkIdle(fs, *lim.idleEnd, *lim.idleEvery))
	}
	if err != nil {
		fmt.Fprintf(stderr, "encounter: %v\n", err)
		return 2
	}

	serverOpts, err := security.ServerOptions(ctx)
	if err != nil {
		log.Error("security", "err", err)
		return 2
	}
	resolverToken, err := resolverTokenOf(*resolverTokenFile)
	if err != nil {
		log.Error("security", "err", err)
		return 2
	}
	tel, err := telemetryFlags.Start(ctx, "fray-encounter", log)
	if err != nil {
		log.Error("telemetry", "err", err)
		return 1
	}
	defer tel.Close()
	srv := server.New(log, append(append(append(serverOpts, serve.ServerOptions()...), limits.ServerOption()), tel.ServerOptions()...)...)
	// The encounter service folds events itself: it links every rule system's Evolve.
	reg := systems.Registry()
	run, err := encounter.Start(ctx, encounter.Config{
		NATSURL: *natsURL, NATS: natsAuth, ResolverAddr: *resolverAddr, Log: log,
		ResolverToken: resolverToken, ResolverCA: *resolverCA, ResolverTLS: *resolverTLS, ResolverDialOptions: tel.DialOptions(),
		JetStreamCheckEvery: *jsCheck,
		Store:               store.Config{Stream: *streamName, Replicas: *replicas, Retention: *ret},
		Options:             lim.options(encounter.NewMetrics(tel.Metrics), tel.Tracing),
	}, srv, reg)
	if err != nil {
		log.Error("start", "err", err)
		return 1
	}
	defer run.Close()
	return listenAndServe(ctx, srv, serve, tel, log, *listen, *natsURL, *resolverAddr)
}

// checkSettings refuses values that cannot work, naming the flag and its variable.
func checkSettings(fs *flag.FlagSet, replicas int, ret store.Retention, counts map[string]int) error {
	var errs []error
	if replicas < 1 || replicas > 5 {
		errs = append(errs, platform.FlagError(fs, "replicas", "JetStream keeps 1 to 5 replicas of a stream"))
	}
	for _, name := range []string{"cache-bytes", "max-open-encounters", "max-open-encounters-per-principal", "max-watches-per-principal", "max-watchers-per-encounter", "watch-buffer", "max-encounter-bytes", "idle-sweep-batch"} {
		if counts[name] < 0 {
			errs = append(errs, platform.FlagError(fs, name, "must be 0 (the default) or more"))
		}
	}
	for _, f := range []struct {
		name string
		v    int64
	}{{"stream-max-bytes", ret.StreamMaxBytes}, {"max-records-per-encounter", ret.MaxRecordsPerEncounter},
		{"seeds-max-bytes", ret.SeedsMaxBytes}, {"snapshots-max-bytes", ret.SnapshotsMaxBytes}, {"index-max-bytes", ret.IndexMaxBytes}} {
		if f.v < -1 {
			errs = append(errs, platform.FlagError(fs, f.name, "must be a size, 0 for the default or -1 for no limit"))
		}
	}
	if ret.MaxAge < 0 {
		errs = append(errs, platform.FlagError(fs, "max-age", "an age of 0 (keep for ever) or more"))
	}
	return errors.Join(errs...)
}

// checkIdle refuses an idle end or a sweep interval that cannot work.
func checkIdle(fs *flag.FlagSet, end, every time.Duration) error {
	var errs []error
	if end < 0 || (end > 0 && end < time.Second) {
		errs = append(errs, platform.FlagError(fs, "idle-end", "a duration of 1s or more (720h: 30 days), or 0 for never"))
	}
	if every < time.Second {
		errs = append(errs, platform.FlagError(fs, "idle-sweep-every", "a duration of 1s or more"))
	}
	return errors.Join(errs...)
}

// addRetentionFlags defines the flags of the stream's and buckets' storage limits.
func addRetentionFlags(fs *flag.FlagSet) *store.Retention {
	var ret store.Retention
	fs.Int64Var(&ret.StreamMaxBytes, "stream-max-bytes", store.DefaultStreamMaxBytes, "bytes the stream of events may hold; when full, every command is refused until an operator raises it (env FRAY_STREAM_MAX_BYTES; -1: no limit)")
	fs.DurationVar(&ret.MaxAge, "max-age", 0, "remove events, seeds and snapshots older than this (env FRAY_MAX_AGE; 0: keep them for ever); an encounter whose first events expired can no longer be loaded")
	fs.Int64Var(&ret.MaxRecordsPerEncounter, "max-records-per-encounter", store.DefaultMaxRecordsPerEncounter, "records (commands) the stream keeps of one encounter before refusing its appends (env FRAY_MAX_RECORDS_PER_ENCOUNTER; -1: no limit)")
	fs.Int64Var(&ret.SeedsMaxBytes, "seeds-max-bytes", store.DefaultSeedsMaxBytes, "bytes the dice seed bucket may hold; when full, new encounters are refused (env FRAY_SEEDS_MAX_BYTES)")
	fs.Int64Var(&ret.SnapshotsMaxBytes, "snapshots-max-bytes", store.DefaultSnapshotsMaxBytes, "bytes the snapshot bucket may hold; when full, loads replay more of the log (env FRAY_SNAPSHOTS_MAX_BYTES)")
	fs.Int64Var(&ret.IndexMaxBytes, "index-max-bytes", store.DefaultIndexMaxBytes, "bytes the ListEncounters index bucket may hold; when full, the list lags (env FRAY_INDEX_MAX_BYTES)")
	fs.BoolVar(&ret.Apply, "apply-storage-limits", false, "set these storage limits on a stream and buckets that exist already (env FRAY_APPLY_STORAGE_LIMITS: true or false); without it, existing ones keep the limits they have. Nothing else of an existing stream or bucket is ever changed (replicas, subjects…): what differs is logged")
	return &ret
}

// resolverTokenOf is this service's token for the resolver: read from file (again when it
// changes), or FRAY_RESOLVER_TOKEN.
func resolverTokenOf(file string) (auth.TokenSource, error) {
	switch {
	case file != "":
		return &auth.FileToken{Path: file}, nil
	case os.Getenv("FRAY_RESOLVER_TOKEN") != "":
		return auth.StaticToken(os.Getenv("FRAY_RESOLVER_TOKEN")), nil
	}
	return nil, errors.New("no token for the resolver: give --resolver-token-file or FRAY_RESOLVER_TOKEN (a token with the \"" + identity.ScopeResolve + "\" scope)")
}

// usage says what the service serves and the token every call needs, then the flags.
func usage(fs *flag.FlagSet) {
	fmt.Fprintf(fs.Output(), "Usage: encounter [flags]\n\nServes fray's EncounterService. Every call but gRPC health and reflection needs\n\"authorization: Bearer <JWT>\": a token signed by a key of --jwks, issued by --token-issuer for\n--token-audience, with the claims sub, tenant and exp (no further than --token-max-lifetime).\n\n")
	fs.PrintDefaults()
}

// listenAndServe serves srv on listen (and its health and metrics ports) until ctx ends;
// its exit code. natsURL and resolverAddr are logged with the address it serves on.
func listenAndServe(ctx context.Context, srv *server.Server, serve *server.ServeFlags, tel *telemetry.Telemetry, log *slog.Logger, listen, natsURL, resolverAddr string) int {
	lis, err := net.Listen("tcp", listen)
	if err != nil {
		log.Error("listen", "addr", listen, "err", err)
		return 1
	}
	if err := serve.Listen(srv); err != nil {
		lis.Close()
		log.Error("listen", "err", err)
		return 1
	}
	tel.Serve(srv)
	log.Info("encounter service serving", "addr", lis.Addr().String(), "health", serve.HealthListen, "metrics", tel.Addr(), "nats", natsURL, "resolver", resolverAddr)
	if err := srv.Serve(ctx, lis, serve.Grace); err != nil {
		log.Error("serve", "err", err)
		return 1
	}
	log.Info("encounter service stopped")
	return 0
}

// limitFlags are the flags of what the service holds and allows: its cache, a tenant's and a
// principal's open encounters, watches, an encounter's bytes, the ends for idleness.
type limitFlags struct {
	cacheBytes, maxOpenMine, maxOpen, maxWatches, maxWatchers, watchBuffer, maxEncBytes, idleBatch *int
	idleEnd, idleEvery                                                                             *time.Duration
}

func addLimitFlags(fs *flag.FlagSet) *limitFlags {
	l := &limitFlags{}
	l.cacheBytes = fs.Int("cache-bytes", encounter.DefaultMaxCachedBytes, "bytes the encounters cached in memory may hold; past it the least recently used are dropped, to be loaded again (env FRAY_CACHE_BYTES)")
	l.maxOpenMine = fs.Int("max-open-encounters-per-principal", encounter.DefaultMaxOpenPerPrincipal, "encounters not ended one principal may be the GM of in its tenant; past it its CreateEncounter is refused (env FRAY_MAX_OPEN_ENCOUNTERS_PER_PRINCIPAL)")
	l.maxOpen = fs.Int("max-open-encounters", encounter.DefaultMaxOpenEncounters, "encounters not ended one tenant may have; past it CreateEncounter is refused (env FRAY_MAX_OPEN_ENCOUNTERS)")
	l.maxWatches = fs.Int("max-watches-per-principal", encounter.DefaultMaxWatchesPerPrincipal, "watches one principal may hold open on this instance; past it WatchEncounter is refused until one is closed (env FRAY_MAX_WATCHES_PER_PRINCIPAL)")
	l.maxWatchers = fs.Int("max-watchers-per-encounter", encounter.DefaultMaxWatchersPerEncounter, "watchers one encounter may have on this instance; past it WatchEncounter is refused until one is closed (env FRAY_MAX_WATCHERS_PER_ENCOUNTER)")
	l.watchBuffer = fs.Int("watch-buffer", encounter.DefaultWatchBuffer, "records a watcher may fall behind before it is cut off with the sequence to resume from (env FRAY_WATCH_BUFFER)")
	l.maxEncBytes = fs.Int("max-encounter-bytes", encounter.DefaultMaxEncounterBytes, "bytes one encounter's state may take; a command that would take it past is refused (env FRAY_MAX_ENCOUNTER_BYTES)")
	l.idleEnd = fs.Duration("idle-end", encounter.DefaultIdleEnd, "end an encounter that has recorded no event for this long, as its GM's end would (the dice seed revealed), so that it no longer counts toward its tenant's open encounters (env FRAY_IDLE_END; 0: never)")
	l.idleEvery = fs.Duration("idle-sweep-every", encounter.DefaultIdleSweepEvery, "how often idle encounters are looked for (env FRAY_IDLE_SWEEP_EVERY)")
	l.idleBatch = fs.Int("idle-sweep-batch", encounter.DefaultIdleSweepBatch, "idle encounters ended at most per look (env FRAY_IDLE_SWEEP_BATCH)")
	return l
}

// counts are the limits that must be positive, by flag.
func (l *limitFlags) counts() map[string]int {
	return map[string]int{"cache-bytes": *l.cacheBytes, "max-open-encounters": *l.maxOpen, "max-open-encounters-per-principal": *l.maxOpenMine, "max-watches-per-principal": *l.maxWatches,
		"max-watchers-per-encounter": *l.maxWatchers, "watch-buffer": *l.watchBuffer, "max-encounter-bytes": *l.maxEncBytes, "idle-sweep-batch": *l.idleBatch}
}

// options are the service's options the flags set, with its metrics and tracing.
func (l *limitFlags) options(m *encounter.Metrics, tr *telemetry.Tracing) encounter.Options {
	return encounter.Options{MaxCachedBytes: *l.cacheBytes, MaxOpenEncounters: *l.maxOpen, MaxOpenPerPrincipal: *l.maxOpenMine, MaxEncounterBytes: *l.maxEncBytes,
		MaxWatchesPerPrincipal: *l.maxWatches, MaxWatchersPerEncounter: *l.maxWatchers, WatchBuffer: *l.watchBuffer,
		IdleEnd: encounter.IdleEndOption(*l.idleEnd), IdleSweepEvery: *l.idleEvery, IdleSweepBatch: *l.idleBatch,
		Metrics: m, Tracing: tr}
}
