// Command resolver serves fray's RulesService: the stateless rules engine.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/resolver"
)

func main() {
	listen := flag.String("listen", platform.Env("FRAY_RESOLVER_LISTEN", "127.0.0.1:7071"), "gRPC listen address (env FRAY_RESOLVER_LISTEN)")
	grace := flag.Duration("grace", platform.EnvDuration("FRAY_GRACE", 10*time.Second), "graceful stop timeout (env FRAY_GRACE)")
	logFormat := flag.String("log-format", platform.Env("FRAY_LOG_FORMAT", "text"), "text or json (env FRAY_LOG_FORMAT)")
	logLevel := flag.String("log-level", platform.Env("FRAY_LOG_LEVEL", "info"), "debug, info, warn, error (env FRAY_LOG_LEVEL)")
	security := platform.AddServerSecurityFlags(flag.CommandLine)
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: resolver [flags]\n\nServes fray's RulesService. Every call but gRPC health and reflection needs\n\"authorization: Bearer <JWT>\": a token signed by a key of --jwks, issued by --token-issuer for\n--token-audience, with the claims sub, tenant and exp. Resolve answers only tokens with the\n%q scope (the encounter service's); ListRulesets, DescribeRuleset and Roll answer any\nauthenticated caller.\n\n", platform.ScopeResolve)
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
	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Error("listen", "addr", *listen, "err", err)
		os.Exit(1)
	}
	srv := platform.NewServer(log, serverOpts...)
	rulesv1.RegisterRulesServiceServer(srv.GRPC, resolver.New(systems.Registry()))
	log.Info("resolver serving", "addr", lis.Addr().String())
	if err := srv.Serve(ctx, lis, *grace); err != nil {
		log.Error("serve", "err", err)
		os.Exit(1)
	}
	log.Info("resolver stopped")
}
