// Command encounter serves fray's EncounterService against a NATS JetStream server or cluster.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform"
)

func main() {
	listen := flag.String("listen", platform.Env("FRAY_ENCOUNTER_LISTEN", "127.0.0.1:7072"), "gRPC listen address (env FRAY_ENCOUNTER_LISTEN)")
	natsURL := flag.String("nats-url", platform.Env("FRAY_NATS_URL", "nats://127.0.0.1:4222"), "NATS server or cluster (env FRAY_NATS_URL)")
	var natsAuth platform.NATSAuth // the encounter user of deploy/nats/permissions.conf
	natsAuth.AddFlags(flag.CommandLine)
	resolverAddr := flag.String("resolver", platform.Env("FRAY_RESOLVER_ADDR", "127.0.0.1:7071"), "RulesService address (env FRAY_RESOLVER_ADDR)")
	replicas := flag.Int("replicas", platform.EnvInt("FRAY_REPLICAS", 1), "replicas of the event stream and seed bucket (env FRAY_REPLICAS)")
	streamName := flag.String("stream", platform.Env("FRAY_STREAM", "FRAY_ENCOUNTERS"), "JetStream stream name (env FRAY_STREAM)")
	grace := flag.Duration("grace", platform.EnvDuration("FRAY_GRACE", 10*time.Second), "graceful stop timeout (env FRAY_GRACE)")
	logFormat := flag.String("log-format", platform.Env("FRAY_LOG_FORMAT", "text"), "text or json (env FRAY_LOG_FORMAT)")
	logLevel := flag.String("log-level", platform.Env("FRAY_LOG_LEVEL", "info"), "debug, info, warn, error (env FRAY_LOG_LEVEL)")
	security := platform.AddServerSecurityFlags(flag.CommandLine)
	limits := platform.AddRateLimitFlags(flag.CommandLine)
	cacheBytes := flag.Int("cache-bytes", platform.EnvInt("FRAY_CACHE_BYTES", encounter.DefaultMaxCachedBytes), "bytes the encounters cached in memory may hold; past it the least recently used are dropped, to be loaded again (env FRAY_CACHE_BYTES)")
	maxOpen := flag.Int("max-open-encounters", platform.EnvInt("FRAY_MAX_OPEN_ENCOUNTERS", encounter.DefaultMaxOpenEncounters), "encounters not ended one tenant may have; past it CreateEncounter is refused (env FRAY_MAX_OPEN_ENCOUNTERS)")
	maxWatches := flag.Int("max-watches-per-principal", platform.EnvInt("FRAY_MAX_WATCHES_PER_PRINCIPAL", encounter.DefaultMaxWatchesPerPrincipal), "watches one principal may hold open on this instance; past it WatchEncounter is refused until one is closed (env FRAY_MAX_WATCHES_PER_PRINCIPAL)")
	maxWatchers := flag.Int("max-watchers-per-encounter", platform.EnvInt("FRAY_MAX_WATCHERS_PER_ENCOUNTER", encounter.DefaultMaxWatchersPerEncounter), "watchers one encounter may have on this instance; past it WatchEncounter is refused until one is closed (env FRAY_MAX_WATCHERS_PER_ENCOUNTER)")
	watchBuffer := flag.Int("watch-buffer", platform.EnvInt("FRAY_WATCH_BUFFER", encounter.DefaultWatchBuffer), "records a watcher may fall behind before it is cut off with the sequence to resume from (env FRAY_WATCH_BUFFER)")
	maxEncBytes := flag.Int("max-encounter-bytes", platform.EnvInt("FRAY_MAX_ENCOUNTER_BYTES", encounter.DefaultMaxEncounterBytes), "bytes one encounter's state may take; a command that would take it past is refused (env FRAY_MAX_ENCOUNTER_BYTES)")
	var ret store.Retention
	flag.Int64Var(&ret.StreamMaxBytes, "stream-max-bytes", envInt64("FRAY_STREAM_MAX_BYTES", store.DefaultStreamMaxBytes), "bytes the stream of events may hold; when full, every command is refused until an operator raises it (env FRAY_STREAM_MAX_BYTES; -1: no limit)")
	flag.DurationVar(&ret.MaxAge, "max-age", platform.EnvDuration("FRAY_MAX_AGE", 0), "remove events, seeds and snapshots older than this (env FRAY_MAX_AGE; 0: keep them for ever); an encounter whose first events expired can no longer be loaded")
	flag.Int64Var(&ret.MaxRecordsPerEncounter, "max-records-per-encounter", envInt64("FRAY_MAX_RECORDS_PER_ENCOUNTER", store.DefaultMaxRecordsPerEncounter), "records (commands) the stream keeps of one encounter before refusing its appends (env FRAY_MAX_RECORDS_PER_ENCOUNTER; -1: no limit)")
	flag.Int64Var(&ret.SeedsMaxBytes, "seeds-max-bytes", envInt64("FRAY_SEEDS_MAX_BYTES", store.DefaultSeedsMaxBytes), "bytes the dice seed bucket may hold; when full, new encounters are refused (env FRAY_SEEDS_MAX_BYTES)")
	flag.Int64Var(&ret.SnapshotsMaxBytes, "snapshots-max-bytes", envInt64("FRAY_SNAPSHOTS_MAX_BYTES", store.DefaultSnapshotsMaxBytes), "bytes the snapshot bucket may hold; when full, loads replay more of the log (env FRAY_SNAPSHOTS_MAX_BYTES)")
	flag.Int64Var(&ret.IndexMaxBytes, "index-max-bytes", envInt64("FRAY_INDEX_MAX_BYTES", store.DefaultIndexMaxBytes), "bytes the ListEncounters index bucket may hold; when full, the list lags (env FRAY_INDEX_MAX_BYTES)")
	flag.BoolVar(&ret.Apply, "apply-storage-limits", platform.Env("FRAY_APPLY_STORAGE_LIMITS", "") != "", "set these storage limits on a stream and buckets that exist already (env FRAY_APPLY_STORAGE_LIMITS); without it, existing ones keep the limits they have")
	resolverTokenFile := flag.String("resolver-token-file", platform.Env("FRAY_RESOLVER_TOKEN_FILE", ""), "file holding this service's token for the resolver, with the \""+platform.ScopeResolve+"\" scope, read again when it changes (env FRAY_RESOLVER_TOKEN_FILE; or the token itself in FRAY_RESOLVER_TOKEN)")
	resolverCA := flag.String("resolver-ca", platform.Env("FRAY_RESOLVER_CA", ""), "verify the resolver's TLS certificate against this PEM CA (env FRAY_RESOLVER_CA)")
	resolverTLS := flag.Bool("resolver-tls", platform.Env("FRAY_RESOLVER_TLS", "") != "", "reach the resolver over TLS verified by the system roots (env FRAY_RESOLVER_TLS; the default for a resolver not on loopback)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: encounter [flags]\n\nServes fray's EncounterService. Every call but gRPC health and reflection needs\n\"authorization: Bearer <JWT>\": a token signed by a key of --jwks, issued by --token-issuer for\n--token-audience, with the claims sub, tenant and exp.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	log := platform.NewLogger(*logFormat, *logLevel)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	serverOpts, err := security.ServerOptions(ctx)
	if err != nil {
		log.Error("security", "err", err)
		os.Exit(2)
	}
	var resolverToken platform.TokenSource
	switch {
	case *resolverTokenFile != "":
		resolverToken = &platform.FileToken{Path: *resolverTokenFile}
	case os.Getenv("FRAY_RESOLVER_TOKEN") != "":
		resolverToken = platform.StaticToken(os.Getenv("FRAY_RESOLVER_TOKEN"))
	default:
		log.Error("security", "err", "no token for the resolver: give --resolver-token-file or FRAY_RESOLVER_TOKEN (a token with the \""+platform.ScopeResolve+"\" scope)")
		os.Exit(2)
	}
	srv := platform.NewServer(log, append(serverOpts, limits.ServerOption())...)
	// The encounter service folds events itself: it links every rule system's Evolve.
	reg := systems.Registry()
	run, err := encounter.Start(ctx, encounter.Config{
		NATSURL: *natsURL, NATS: natsAuth, ResolverAddr: *resolverAddr, Log: log,
		ResolverToken: resolverToken, ResolverCA: *resolverCA, ResolverTLS: *resolverTLS,
		Store: store.Config{Stream: *streamName, Replicas: *replicas, Retention: ret},
		Options: encounter.Options{MaxCachedBytes: *cacheBytes, MaxOpenEncounters: *maxOpen, MaxEncounterBytes: *maxEncBytes,
			MaxWatchesPerPrincipal: *maxWatches, MaxWatchersPerEncounter: *maxWatchers, WatchBuffer: *watchBuffer},
	}, srv, reg)
	if err != nil {
		log.Error("start", "err", err)
		os.Exit(1)
	}
	defer run.Close()
	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Error("listen", "addr", *listen, "err", err)
		os.Exit(1)
	}
	log.Info("encounter service serving", "addr", lis.Addr().String(), "nats", *natsURL, "resolver", *resolverAddr)
	if err := srv.Serve(ctx, lis, *grace); err != nil {
		log.Error("serve", "err", err)
		os.Exit(1)
	}
	log.Info("encounter service stopped")
}

func envInt64(key string, def int64) int64 {
	if v, err := strconv.ParseInt(os.Getenv(key), 10, 64); err == nil {
		return v
	}
	return def
}
