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
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// Config is what the encounter service needs to run.
type Config struct {
	// NATSURL of the NATS server or cluster holding the event log.
	NATSURL string
	// ResolverAddr is the RulesService's gRPC address.
	ResolverAddr string
	Store        store.Config
	Log          *slog.Logger
	// Options tune the service (tests inject the seed source).
	Options Options
}

// Running is a started encounter service with its connections.
type Running struct {
	Service *Service
	NATS    *nats.Conn
	rules   *grpc.ClientConn
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
	nc, err := nats.Connect(cfg.NATSURL,
		nats.Name("fray-encounter"),
		nats.MaxReconnects(-1),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			log.Warn("NATS disconnected", "err", err)
			setHealth(false)
		}),
		nats.ReconnectHandler(func(*nats.Conn) { log.Info("NATS reconnected"); setHealth(true) }),
	)
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
	cc, err := grpc.NewClient(cfg.ResolverAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("resolver at %s: %w", cfg.ResolverAddr, err)
	}
	opts := cfg.Options
	opts.Log = log
	if opts.Snapshots == nil {
		opts.Snapshots = st
	}
	svc := New(st, st, RemoteDecider{Client: rulesv1.NewRulesServiceClient(cc)}, reg, opts)
	encounterv1.RegisterEncounterServiceServer(srv.GRPC, svc)
	return &Running{Service: svc, NATS: nc, rules: cc}, nil
}

// Close drains the NATS connection and closes the resolver connection.
func (r *Running) Close() {
	_ = r.rules.Close()
	_ = r.NATS.Drain()
}
