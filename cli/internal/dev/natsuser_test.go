package dev_test

import (
	"context"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// Issue 28, item 13: an encounter service connected to fray dev's NATS without credentials
// (its read-only auditor, as "Running the services separately" once did) says which NATS user
// it needs, serves, and answers NOT_SERVING naming it; before, it logged a bare permission
// error and took no call for the 30 s an attempt at opening the log lasted.
func TestAnEncounterServiceConnectedAsTheAuditorSaysWhichUserItNeeds(t *testing.T) {
	_, natsURL, stop := startNATS(t, t.TempDir())
	defer stop()
	var logs lockedBuffer
	log, err := telemetry.NewLoggerTo(&logs, "text", "info")
	require.NoError(t, err)
	begin := time.Now()
	addr, cancel, done := startRun(t, t.TempDir(), func(c *dev.Config) { c.NATSURL, c.Log = natsURL, log })
	defer func() { cancel(); require.NoError(t, <-done) }()
	t.Logf("serving %s after its start", time.Since(begin))
	require.Contains(t, logs.String(), "the encounter service must connect as the encounter user of deploy/nats/permissions.conf (--nats-user encounter --nats-password P")

	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	ctx, cancelCheck := context.WithTimeout(context.Background(), time.Minute)
	defer cancelCheck()
	resp, err := healthpb.NewHealthClient(cc).Check(ctx, &healthpb.HealthCheckRequest{Service: "fray.encounter.v1.EncounterService"})
	require.NoError(t, err)
	require.Equal(t, healthpb.HealthCheckResponse_NOT_SERVING, resp.GetStatus())
}
