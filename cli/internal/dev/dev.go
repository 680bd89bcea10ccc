// Package dev runs all of fray in one process: an embedded NATS JetStream server keeping its
// data in a local folder, the resolver and the encounter service on one gRPC port.
package dev

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/commands"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
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
	"github.com/fray-rpg/fray/services/resolver"
	"github.com/spf13/cobra"
)

// Config of the all-in-one server.
type Config struct {
	// Listen is the gRPC address serving both RulesService and EncounterService.
	Listen string
	// Data is the folder of the embedded NATS server's JetStream store.
	Data string
	// NATSURL, when set, uses that NATS server instead of an embedded one, and NATS is how the
	// encounter service authenticates to it.
	NATSURL string
	NATS    natsconn.Auth
	// NATSHost and NATSPort of the embedded server (port -1: any free port).
	NATSHost string
	NATSPort int
	Replicas int
	// Retention bounds the stream and the buckets (zero fields: the store's defaults), which
	// the embedded NATS reserves on its disk.
	Retention store.Retention
	Grace     time.Duration
	Log       *slog.Logger
	// Ready, when set, is called with the gRPC address once the server listens.
	Ready func(addr string)
	// NATSReady, when set, is called with the embedded NATS server's URL once it runs.
	NATSReady func(url string)
	// Options tune the encounter service.
	Options encounter.Options
	// Demo gives every new encounter commands.DemoSeed, so the README's walkthrough rolls the
	// dice it shows (`fray dev --demo`).
	Demo bool
	// RateLimits are the token buckets of every caller (zero rates: no limit).
	RateLimits ratelimit.Limits
	// MetricsListen, when set, serves Prometheus metrics at /metrics on that address; then
	// MetricsReady, when set, is called with the address. Traces go to an OTLP collector
	// when the environment names one (OTEL_EXPORTER_OTLP_ENDPOINT).
	MetricsListen string
	MetricsReady  func(addr string)
	// Web, when set, serves the services to browsers (Connect, gRPC-web) and the page at / on
	// that loopback address (gateway); then WebReady, when set, is called with the page's URL.
	// WebOptional: a Web address already in use is noted in the log, not an error (the
	// default address of `fray dev`).
	Web         string
	WebOrigins  []string
	WebOptional bool
	WebReady    func(url string)
}

// NATSUsersFile, in the data folder, keeps the embedded NATS server's passwords (the
// encounter and auditor users of deploy/nats/permissions.conf), made on the first run.
const NATSUsersFile = "nats-users.json"

// Run serves until ctx is done, then shuts down: health NOT_SERVING, open streams cancelled,
// graceful stop, NATS drained, embedded server stopped.
func Run(ctx context.Context, cfg Config) error {
	log := cfg.Log
	if !server.IsLoopback(cfg.Listen) {
		return fmt.Errorf("fray dev listens on loopback only (not %s): it serves plaintext, and anyone holding its data folder mints tokens; run the services with TLS and a JWKS to serve a network", cfg.Listen)
	}
	natsURL, natsAuth := cfg.NATSURL, cfg.NATS
	if natsURL == "" {
		dir := filepath.Join(cfg.Data, "jetstream")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("data folder: %w", err)
		}
		// The embedded server enforces deploy/nats/permissions.conf: the encounter service
		// alone reads the seeds; an anonymous client (the log tools) is the auditor.
		usersFile := filepath.Join(cfg.Data, NATSUsersFile)
		users, err := natsconn.LoadUsers(usersFile)
		if err != nil {
			return err
		}
		ns, err := natsconn.Embedded(cfg.NATSHost, cfg.NATSPort, dir, natsconn.WithUsers(users))
		if errors.Is(err, natsconn.ErrPortInUse) {
			return fmt.Errorf("%w: give fray dev another port with --nats-port N (FRAY_NATS_PORT), or -1 for any free one (the log tools then need --nats-url)", err)
		}
		if err != nil {
			return err
		}
		defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
		natsURL = ns.ClientURL()
		natsAuth = natsconn.Auth{User: natsconn.EncounterUser, Password: users.Encounter}
		log.Info("embedded NATS JetStream", "url", natsURL, "data", dir, "users", usersFile)
		if cfg.NATSReady != nil {
			cfg.NATSReady(natsURL)
		}
	}
	// Tokens: fray dev verifies them against its own signing key, made on the first run and
	// kept in the data folder; `fray token` and the CLI's --as mint from it.
	key, created, err := auth.LoadOrCreateDevKey(cfg.Data)
	if err != nil {
		return err
	}
	keyPath := filepath.Join(cfg.Data, auth.DevKeyFile)
	if created {
		log.Info("created the dev signing key", "file", keyPath)
	}
	authn, err := auth.NewAuthenticator(auth.DevConfig(key))
	if err != nil {
		return err
	}
	lis, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Listen, err)
	}
	tel, err := (&telemetry.Flags{MetricsListen: cfg.MetricsListen}).Start(ctx, "fray-dev", log)
	if err != nil {
		lis.Close()
		return err
	}
	defer tel.Close()
	srv := server.New(log, append(append(authn.ServerOptions(), cfg.RateLimits.ServerOption()), tel.ServerOptions()...)...)
	// The encounter service's token for the resolver, minted afresh before it expires.
	resolverToken := &auth.MintedToken{Signer: key, Claims: auth.DevClaims(auth.DevTenant, "encounter-service", time.Hour, identity.ScopeResolve)}
	reg := systems.Registry()
	rulesv1.RegisterRulesServiceServer(srv.GRPC, resolver.New(reg))
	// The encounter service asks the resolver over gRPC, here on the same port.
	opts := cfg.Options
	if cfg.Demo {
		opts.NewSeed = commands.DemoSeed
	}
	opts.Metrics, opts.Tracing = encounter.NewMetrics(tel.Metrics), tel.Tracing
	run, err := encounter.Start(ctx, encounter.Config{
		NATSURL: natsURL, NATS: natsAuth, ResolverAddr: lis.Addr().String(), Log: log,
		Store: store.Config{Replicas: cfg.Replicas, Retention: cfg.Retention}, Options: opts,
		ResolverToken: resolverToken, ResolverDialOptions: tel.DialOptions(),
	}, srv, reg)
	if err != nil {
		lis.Close()
		return err
	}
	defer run.Close()
	// Invites (minted with the dev key) and the browser listener, before serving.
	web, err := listenWeb(ctx, cfg, srv, key, lis.Addr().String())
	if err != nil {
		lis.Close()
		return err
	}
	defer web.close()
	// Note where the key is, so that the CLI run from any folder finds it for this address,
	// and the page's address (fray invite --gm).
	forget, err := auth.RecordDevServer(lis.Addr().String(), keyPath, web.url)
	if err != nil {
		log.Warn("the CLI will not find the dev key from other folders", "err", err)
		forget = func() {}
	}
	defer forget()
	tel.Serve(srv)
	log.Info("fray serving RulesService and EncounterService", "addr", lis.Addr().String(), "metrics", tel.Addr())
	if cfg.Ready != nil {
		cfg.Ready(lis.Addr().String())
	}
	if cfg.MetricsReady != nil && tel.Addr() != "" {
		cfg.MetricsReady(tel.Addr())
	}
	if cfg.WebReady != nil && web.url != "" {
		cfg.WebReady(web.url)
	}
	return srv.Serve(ctx, lis, cfg.Grace)
}

// NewCommand is the `fray dev` subcommand.
func NewCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dev [flags]",
		Short: "run resolver, encounter service and an embedded NATS JetStream in one process",
		Long: "Runs the resolver, the encounter service and an embedded NATS JetStream in one process, for\n" +
			"development and trying fray out: gRPC on --listen (loopback), the page in the browser and the\n" +
			"services for browsers on --web (loopback), tokens signed by a dev key kept in --data, which the\n" +
			"CLI's --as NAME and `fray invite` use to mint theirs. Ctrl-C stops it gracefully.",
		Args: client.NoArgs,
	}
	// The flags are the services' (platform's helpers take a flag.FlagSet), parsed by cobra.
	fs := flag.NewFlagSet("dev", flag.ContinueOnError)
	cfg := Config{}
	fs.StringVar(&cfg.Listen, "listen", platform.Env("FRAY_LISTEN", "127.0.0.1:7070"), "gRPC address of both services, on loopback (env FRAY_LISTEN)")
	fs.StringVar(&cfg.Data, "data", platform.Env("FRAY_DATA", ".fray"), "folder keeping the embedded NATS data and the dev signing key ("+auth.DevKeyFile+") across restarts (env FRAY_DATA)")
	fs.StringVar(&cfg.NATSURL, "nats-url", platform.Env("FRAY_NATS_URL", ""), "use this NATS server instead of an embedded one (env FRAY_NATS_URL)")
	cfg.NATS.AddFlags(fs)
	fs.StringVar(&cfg.NATSHost, "nats-host", platform.Env("FRAY_NATS_HOST", "127.0.0.1"), "embedded NATS host (env FRAY_NATS_HOST)")
	fs.IntVar(&cfg.NATSPort, "nats-port", platform.EnvInt("FRAY_NATS_PORT", 4222), "embedded NATS port, -1 for any (env FRAY_NATS_PORT)")
	fs.IntVar(&cfg.Replicas, "replicas", platform.EnvInt("FRAY_REPLICAS", 1), "replicas of the stream and bucket (env FRAY_REPLICAS)")
	fs.DurationVar(&cfg.Grace, "grace", platform.EnvDuration("FRAY_GRACE", 10*time.Second), "graceful stop timeout (env FRAY_GRACE)")
	// The limits the flags parse into: copied into cfg once they are parsed (RunE). No rate
	// limit unless asked (a bot tried against fray dev is not refused); every other limit as
	// the encounter service's, with the same flags.
	rateLimits := ratelimit.AddFlagsWith(fs, ratelimit.Limits{PrincipalBurst: ratelimit.DefaultPrincipalBurst, TenantBurst: ratelimit.DefaultTenantBurst})
	limits := encounter.AddLimitFlags(fs)
	retention := store.AddRetentionFlags(fs)
	fs.StringVar(&cfg.MetricsListen, "metrics-listen", "", "serve Prometheus metrics at /metrics, plain HTTP, on this address, such as 127.0.0.1:9090 (env FRAY_METRICS_LISTEN; default: none). Traces go to an OTLP collector when OTEL_EXPORTER_OTLP_ENDPOINT is set")
	fs.StringVar(&cfg.Web, "web", platform.Env("FRAY_WEB", DefaultWeb), "serve the page and the services to browsers (Connect, gRPC-web) on this loopback address; off: none (env FRAY_WEB)")
	webOrigins := fs.String("web-origins", platform.Env("FRAY_WEB_ORIGINS", ""), "other origins whose pages may call the browser API (CORS), comma-separated, such as http://localhost:5173; default: the page's own only (env FRAY_WEB_ORIGINS)")
	demo := fs.Bool("demo", false, "give every new encounter the same published dice seed, so the README's walkthrough rolls the dice it shows; never for a real game: anyone can predict its rolls")
	logFormat := fs.String("log-format", platform.Env("FRAY_LOG_FORMAT", "text"), "text or json (env FRAY_LOG_FORMAT)")
	logLevel := fs.String("log-level", platform.Env("FRAY_LOG_LEVEL", "info"), "debug, info, warn, error (env FRAY_LOG_LEVEL)")
	cmd.Flags().AddGoFlagSet(fs)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		ctx, stdout := cmd.Context(), cmd.OutOrStdout()
		cfg.RateLimits = *rateLimits
		if err := checkFlags(fs, &cfg); err != nil {
			return &client.UsageError{Msg: err.Error()}
		}
		log, err := telemetry.NewLoggerTo(os.Stderr, *logFormat, *logLevel)
		if err != nil {
			return &client.UsageError{Msg: err.Error()}
		}
		cfg.Log = log
		cfg.Demo = *demo
		if err := errors.Join(limits.Check(fs), retention.Check(fs)); err != nil {
			return &client.UsageError{Msg: err.Error()}
		}
		cfg.Retention = *retention
		cfg.Options = limits.Options(nil, nil) // Run adds the metrics and tracing
		if err := webFlags(fs, &cfg, *webOrigins); err != nil {
			return &client.UsageError{Msg: err.Error()}
		}
		cfg.WebReady = func(url string) {
			fmt.Fprintf(stdout, "fray dev: the page is on %s (`fray invite ENCOUNTER --player COMBATANT` makes a link to it)\n", url)
		}
		cfg.Ready = func(addr string) {
			fmt.Fprintf(stdout, "fray dev: serving on %s (data in %s); Ctrl-C to stop\n", addr, cfg.Data)
			if *demo {
				fmt.Fprintf(stdout, "fray dev: --demo: every new encounter rolls the README's dice (a published seed): not for real games\n")
			}
			fmt.Fprintf(stdout, "fray dev: tokens are signed by %s (tenant %q): the CLI's --as NAME mints its own, `fray token --as NAME` prints one\n",
				filepath.Join(cfg.Data, auth.DevKeyFile), auth.DevTenant)
		}
		cfg.MetricsReady = func(addr string) {
			fmt.Fprintf(stdout, "fray dev: metrics on http://%s/metrics\n", addr)
		}
		return Run(ctx, cfg)
	}
	return cmd
}

// checkFlags refuses the flags that cannot work, naming the flag and its variable (the
// environment's values of the flags not given are taken before: commands.Execute).
func checkFlags(fs *flag.FlagSet, cfg *Config) error {
	if cfg.Replicas < 1 || cfg.Replicas > 5 {
		return platform.FlagError(fs, "replicas", "JetStream keeps 1 to 5 replicas of a stream")
	}
	if cfg.Grace <= 0 {
		return platform.FlagError(fs, "grace", "the graceful stop needs some time (such as 10s)")
	}
	return cfg.RateLimits.Check(fs)
}
