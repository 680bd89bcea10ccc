package dev_test

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// With NATS gone, the encounter service and the server as a whole ("", what a probe naming no
// service asks) answer NOT_SERVING, the resolver still SERVING; with NATS back, SERVING again.
func TestHealthFollowsNATS(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	store := t.TempDir()
	startNATS := func() *server.Server {
		ns, err := natsconn.Embedded("127.0.0.1", port, store)
		require.NoError(t, err)
		return ns
	}
	ns := startNATS()
	defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
	addr, stop := start(t, t.TempDir(), func(c *dev.Config) { c.NATSURL = "nats://127.0.0.1:" + strconv.Itoa(port) })
	defer stop()

	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	hc := healthpb.NewHealthClient(cc)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	whole, err := hc.Watch(ctx, &healthpb.HealthCheckRequest{})
	require.NoError(t, err)
	next := func() healthpb.HealthCheckResponse_ServingStatus {
		m, err := whole.Recv()
		require.NoError(t, err)
		return m.GetStatus()
	}
	check := func(service string) healthpb.HealthCheckResponse_ServingStatus {
		r, err := hc.Check(ctx, &healthpb.HealthCheckRequest{Service: service})
		require.NoError(t, err)
		return r.GetStatus()
	}
	require.Equal(t, healthpb.HealthCheckResponse_SERVING, next())

	ns.Shutdown()
	ns.WaitForShutdown()
	require.Equal(t, healthpb.HealthCheckResponse_NOT_SERVING, next())
	require.Equal(t, healthpb.HealthCheckResponse_NOT_SERVING, check("fray.encounter.v1.EncounterService"))
	require.Equal(t, healthpb.HealthCheckResponse_SERVING, check("fray.rules.v1.RulesService"))

	ns = startNATS()
	require.Equal(t, healthpb.HealthCheckResponse_SERVING, next(), "back once the service reconnects")
	require.Equal(t, healthpb.HealthCheckResponse_SERVING, check("fray.encounter.v1.EncounterService"))
}
