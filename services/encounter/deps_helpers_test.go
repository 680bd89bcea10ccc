package encounter_test

import (
	"context"
	"net"
	"sync/atomic"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// countingRules is a RulesService deciding in-process, counting its calls; while block is set,
// Resolve waits for the caller to give up.
type countingRules struct {
	rulesv1.UnimplementedRulesServiceServer
	calls atomic.Int64
	block atomic.Bool
}

func (f *countingRules) Resolve(ctx context.Context, req *rulesv1.ResolveRequest) (*rulesv1.ResolveResponse, error) {
	f.calls.Add(1)
	if f.block.Load() {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return encounter.LocalDecider{Registry: systems.Registry()}.Resolve(ctx, req)
}

// rulesServer serves a countingRules on addr ("127.0.0.1:0": a free port) until stop; it
// returns the address it listens on.
type rulesServer struct {
	addr string
	stop func()
}

func serveRules(t *testing.T, addr string, rules *countingRules) *rulesServer {
	t.Helper()
	lis, err := net.Listen("tcp", addr)
	require.NoError(t, err)
	srv := server.New(telemetry.NewLogger("text", "error"))
	rulesv1.RegisterRulesServiceServer(srv.GRPC, rules)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, time.Second) }()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			require.NoError(t, <-done)
		}
	}
	t.Cleanup(stop)
	return &rulesServer{addr: lis.Addr().String(), stop: stop}
}

// startService runs encounter.Start on a server of its own over loopback gRPC; it returns
// the client and a health client of that server.
func startService(t *testing.T, cfg encounter.Config) (encounterv1.EncounterServiceClient, healthpb.HealthClient, *encounter.Running) {
	t.Helper()
	if cfg.Log == nil {
		cfg.Log = telemetry.NewLogger("text", "error")
	}
	if cfg.ResolverToken == nil {
		cfg.ResolverToken = auth.StaticToken(authtest.Default().Token("encounter-service", identity.ScopeResolve))
	}
	srv := server.New(cfg.Log, authtest.ServerOptions()...)
	run, err := encounter.Start(context.Background(), cfg, srv, systems.Registry())
	require.NoError(t, err)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
		run.Close()
	})
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	return encounterv1.NewEncounterServiceClient(cc), healthpb.NewHealthClient(cc), run
}

// patience is how long a test waits for a condition before it fails: generous, so that a
// machine busy with other work slows a test down but does not fail it (see the README's
// "Testing"). What a test shows is the condition, never how soon it came.
const patience = 2 * time.Minute

// awaitHealth waits, by the health service's Watch, until service reports want (at most
// patience), and logs how long that took.
func awaitHealth(t *testing.T, h healthpb.HealthClient, service string, want healthpb.HealthCheckResponse_ServingStatus) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	began := time.Now()
	w, err := h.Watch(ctx, &healthpb.HealthCheckRequest{Service: service}, grpc.WaitForReady(true))
	require.NoError(t, err)
	var last healthpb.HealthCheckResponse_ServingStatus
	for {
		r, err := w.Recv()
		require.NoError(t, err, "%q never became %v within %s (last %v)", service, want, patience, last)
		if last = r.GetStatus(); last == want {
			t.Logf("%q %v after %v", service, want, time.Since(began).Round(time.Millisecond))
			return
		}
	}
}

const encounterService = "fray.encounter.v1.EncounterService"
