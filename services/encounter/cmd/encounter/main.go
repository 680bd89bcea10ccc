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
	lim := encounter.AddLimitFlags(fs)
	ret := store.AddRetentionFlags(fs)
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
		err = errors.Join(err, serve.Check(fs), limits.Check(fs), checkSettings(fs, *replicas, *ret), lim.Check(fs))
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
		Options:             lim.Options(encounter.NewMetrics(tel.Metrics), tel.Tracing),
	}, srv, reg)
	if err != nil {
		log.Error("start", "err", err)
		return 1
	}
	defer run.Close()
	return listenAndServe(ctx, srv, serve, tel, log, *listen, *natsURL, *resolverAddr)
}

// checkSettings refuses values that cannot work, naming the flag and its variable.
func checkSettings(fs *flag.FlagSet, replicas int, ret store.Retention) error {
	var errs []error
	if replicas < 1 || replicas > 5 {
		errs = append(errs, platform.FlagError(fs, "replicas", "JetStream keeps 1 to 5 replicas of a stream"))
	}
	return errors.Join(append(errs, ret.Check(fs))...)
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
