// Command resolver serves fray's RulesService: the stateless rules engine.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/fray-rpg/fray/services/resolver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}

// run serves until ctx is done; its exit code: 2 for bad flags or settings, 1 for a failure.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("resolver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:7071", "gRPC listen address (env FRAY_RESOLVER_LISTEN)")
	serve := server.AddServeFlags(fs, server.ResolverConnectionAge)
	telemetryFlags := telemetry.AddFlags(fs)
	logFormat := fs.String("log-format", "text", "text or json (env FRAY_LOG_FORMAT)")
	logLevel := fs.String("log-level", "info", "debug, info, warn, error (env FRAY_LOG_LEVEL)")
	security := server.AddServerSecurityFlags(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: resolver [flags]\n\nServes fray's RulesService. Every call but gRPC health and reflection needs\n\"authorization: Bearer <JWT>\": a token signed by a key of --jwks, issued by --token-issuer for\n--token-audience, with the claims sub, tenant and exp (no further than --token-max-lifetime).\nResolve answers only tokens with the %q scope (the encounter service's); ListRulesets,\nDescribeRuleset and Roll answer any authenticated caller.\n\n", identity.ScopeResolve)
		fs.PrintDefaults()
	}
	if err := platform.ParseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "resolver: %v\n", err)
		return 2
	}
	log, err := telemetry.NewLoggerTo(stderr, *logFormat, *logLevel)
	if err == nil {
		err = serve.Check(fs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "resolver: %v\n", err)
		return 2
	}

	serverOpts, err := security.ServerOptions(ctx)
	if err != nil {
		log.Error("security", "err", err)
		return 2
	}
	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Error("listen", "addr", *listen, "err", err)
		return 1
	}
	tel, err := telemetryFlags.Start(ctx, "fray-resolver", log)
	if err != nil {
		lis.Close()
		log.Error("telemetry", "err", err)
		return 1
	}
	defer tel.Close()
	srv := server.New(log, append(append(serverOpts, serve.ServerOptions()...), tel.ServerOptions()...)...)
	rulesv1.RegisterRulesServiceServer(srv.GRPC, resolver.New(systems.Registry()))
	if err := serve.Listen(srv); err != nil {
		lis.Close()
		log.Error("listen", "err", err)
		return 1
	}
	tel.Serve(srv)
	log.Info("resolver serving", "addr", lis.Addr().String(), "health", serve.HealthListen, "metrics", tel.Addr())
	if err := srv.Serve(ctx, lis, serve.Grace); err != nil {
		log.Error("serve", "err", err)
		return 1
	}
	log.Info("resolver stopped")
	return 0
}
