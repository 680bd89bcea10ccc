package encounter_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// Issue 22, item 3: a NATS node cut off from its peers but reachable by its clients was a
// silent half-outage — the service on it failed every JetStream call while its health stayed
// SERVING. Now its readiness is JetStream's own answer: cut that node's routes and the
// service turns NOT_SERVING; its connection then moves to another node of its pool, and it
// serves again, the encounter it made before the cut still there.
//
// The NOT_SERVING is read from the health's own log of the change, not from a watch: it may
// last only a moment (three checks, then the move), and a watch opened after the cut, or a
// slow reader of one (grpc's health server keeps only the latest status not yet sent), may
// never see it on a busy machine.
func TestAServiceWhoseNATSNodeIsCutOffStopsServingThenMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("a 3-node NATS cluster: not under -short")
	}
	c := natstest.StartCluster(t, 3)
	rs := serveRules(t, "127.0.0.1:0", &countingRules{})
	var logs logBuffer
	logger, err := telemetry.NewLoggerTo(&logs, "text", "warn")
	require.NoError(t, err)
	client, health, run := startService(t, encounter.Config{NATSURL: c.URLs(), ResolverAddr: rs.addr, Log: logger,
		JetStreamCheckEvery: 250 * time.Millisecond, Store: store.Config{Replicas: 3}})
	service := encounterv1.EncounterService_ServiceDesc.ServiceName
	awaitHealth(t, health, service, healthpb.HealthCheckResponse_SERVING)
	gm := as("gm")
	created, err := client.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}})
	require.NoError(t, err)

	node := run.NATS.ConnectedServerName()
	i, _ := c.Node(node)
	require.GreaterOrEqual(t, i, 0, "connected to %q, a node of the cluster", node)
	began := time.Now()
	c.Partition(i)
	notServing := fmt.Sprintf(`msg="health: not serving" service=%s why="event log: JetStream does not answer through NATS node %s`, service, node)
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), notServing) }, patience, 10*time.Millisecond,
		"the health never said NOT_SERVING for node %s: %s", node, &logs)
	t.Logf("node %s cut off from its peers: the service NOT_SERVING after %s", node, time.Since(began).Round(time.Millisecond))

	awaitHealth(t, health, service, healthpb.HealthCheckResponse_SERVING)
	moved := run.NATS.ConnectedServerName()
	t.Logf("serving again after %s, through node %s", time.Since(began).Round(time.Millisecond), moved)
	require.NotEqual(t, node, moved, "serving again through another node than the one cut off")
	// Serving again, the stream may still be electing its leader: a command can come back
	// Unavailable ("it may have been recorded; send it again with the same command id"), as
	// it did on a machine at load average 10. A client sends it again with the same id, and
	// so does this test, for as long as its patience: recorded once, whatever the tries.
	req := setJoining(created.GetEncounterId(), true)
	req.CommandId = "after-the-cut"
	var got *encounterv1.SubmitResponse
	tries := 0
	for deadline := time.Now().Add(patience); ; time.Sleep(200 * time.Millisecond) {
		tries++
		got, err = client.Submit(gm, req)
		if status.Code(err) != codes.Unavailable || time.Now().After(deadline) {
			break
		}
	}
	t.Logf("the command after the cut recorded at try %d, %s after the cut", tries, time.Since(began).Round(time.Millisecond))
	require.NoError(t, err, "the encounter made before the cut takes a command")
	require.Equal(t, created.GetState().GetSequence()+1, got.GetState().GetSequence())
	c.Heal(i)
}

// logBuffer is a log's text, written by the service's goroutines and read by the test.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
