package encounter_test

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// restartableNATS is an embedded NATS JetStream server with fray's users, on a port and a
// store of its own that stay the same across its restarts.
type restartableNATS struct {
	t     *testing.T
	port  int
	dir   string
	users natsconn.Users
	srv   interface {
		Shutdown()
		WaitForShutdown()
	}
}

func newRestartableNATS(t *testing.T) *restartableNATS {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := lis.Addr().(*net.TCPAddr).Port
	require.NoError(t, lis.Close())
	n := &restartableNATS{t: t, port: port, dir: t.TempDir(), users: natsconn.NewUsers()}
	t.Cleanup(n.stop)
	return n
}

func (n *restartableNATS) url() string { return fmt.Sprintf("nats://127.0.0.1:%d", n.port) }

func (n *restartableNATS) auth() natsconn.Auth {
	return natsconn.Auth{User: natsconn.EncounterUser, Password: n.users.Encounter}
}

func (n *restartableNATS) start() {
	srv, err := natsconn.Embedded("127.0.0.1", n.port, n.dir, natsconn.WithUsers(n.users))
	require.NoError(n.t, err)
	n.srv = srv
}

func (n *restartableNATS) stop() {
	if n.srv != nil {
		n.srv.Shutdown()
		n.srv.WaitForShutdown()
		n.srv = nil
	}
}

func setJoining(id string, open bool) *encounterv1.SubmitRequest {
	return &encounterv1.SubmitRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_SetJoining{SetJoining: &encounterv1.SetJoining{Open: open}}}}
}

// Started before NATS, the service does not exit: it serves NOT_SERVING, its calls fail at
// once with Unavailable (saying the log is not reachable yet, not a deadline), and it opens
// the log and serves once NATS comes. Start does not wait for NATS: were it to, the test would
// never get past it, since NATS starts only after.
func TestServiceStartedBeforeNATSWaitsForIt(t *testing.T) {
	ns := newRestartableNATS(t)
	rs := serveRules(t, "127.0.0.1:0", &countingRules{})
	client, health, run := startService(t, encounter.Config{NATSURL: ns.url(), NATS: ns.auth(), ResolverAddr: rs.addr})
	require.Nil(t, run.Service())
	awaitHealth(t, health, encounterService, healthpb.HealthCheckResponse_NOT_SERVING)
	awaitHealth(t, health, "", healthpb.HealthCheckResponse_NOT_SERVING)

	ctx, cancel := context.WithTimeout(as("gm"), patience) // a patient client
	defer cancel()
	began := time.Now()
	err := createNamed(ctx, client, "Ruelle")
	t.Logf("refused after %v", time.Since(began).Round(time.Millisecond))
	require.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
	require.Contains(t, status.Convert(err).Message(), "the event log (NATS) is not reachable yet; nothing was recorded, try again")

	ns.start()
	select {
	case <-run.Ready():
	case <-time.After(patience):
		t.Fatal("the event log never opened")
	}
	awaitHealth(t, health, encounterService, healthpb.HealthCheckResponse_SERVING)
	awaitHealth(t, health, "", healthpb.HealthCheckResponse_SERVING)
	require.NoError(t, createNamed(as("gm"), client, "Ruelle"))
}

// While NATS is down, commands and reads fail fast with Unavailable saying NATS is
// reconnecting (not DeadlineExceeded at the patient client's deadline, nor the store's "no
// answer within"), and health says NOT_SERVING; when it is back, the service is too.
func TestNATSOutageFailsFastAndRecovers(t *testing.T) {
	ns := newRestartableNATS(t)
	ns.start()
	rs := serveRules(t, "127.0.0.1:0", &countingRules{})
	client, health, _ := startService(t, encounter.Config{NATSURL: ns.url(), NATS: ns.auth(), ResolverAddr: rs.addr})
	awaitHealth(t, health, encounterService, healthpb.HealthCheckResponse_SERVING)
	created, err := client.CreateEncounter(as("gm"), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}})
	require.NoError(t, err)
	id := created.GetEncounterId()
	_, err = client.Submit(as("gm"), setJoining(id, true))
	require.NoError(t, err)

	ns.stop()
	awaitHealth(t, health, encounterService, healthpb.HealthCheckResponse_NOT_SERVING)
	awaitHealth(t, health, "", healthpb.HealthCheckResponse_NOT_SERVING)
	ctx, cancel := context.WithTimeout(as("gm"), patience) // a patient client
	defer cancel()
	for name, call := range map[string]func() error{
		"a command": func() error { _, err := client.Submit(ctx, setJoining(id, false)); return err },
		"a read": func() error {
			_, err := client.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id})
			return err
		},
		"a create": func() error { return createNamed(ctx, client, "Ruelle 2") },
	} {
		began := time.Now()
		err := call()
		t.Logf("%s: refused after %v", name, time.Since(began).Round(time.Millisecond))
		require.Equal(t, codes.Unavailable, status.Code(err), "%s: %v", name, err)
		require.Regexp(t, `^the event log is unreachable \(NATS is (reconnecting|disconnected)\); nothing was recorded, try again$`, status.Convert(err).Message(), name)
	}

	ns.start()
	awaitHealth(t, health, encounterService, healthpb.HealthCheckResponse_SERVING)
	awaitHealth(t, health, "", healthpb.HealthCheckResponse_SERVING)
	resp, err := client.Submit(as("gm"), setJoining(id, false))
	require.NoError(t, err)
	require.Equal(t, uint64(3), resp.GetState().GetSequence(), "nothing was recorded during the outage")
}

// A stream the service cannot use, found at the start, stops it with the reason; the stream
// is left as it is.
func TestStartRefusesAStreamItCannotUse(t *testing.T) {
	ns := newRestartableNATS(t)
	ns.start()
	nc, err := nats.Connect(ns.url(), append(natsconn.EncounterOptions(), nats.UserInfo(natsconn.EncounterUser, ns.users.Encounter))...)
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	_, err = js.CreateStream(context.Background(), jetstream.StreamConfig{Name: "FRAY_ENCOUNTERS", Subjects: []string{"fray.enc.*"}, Retention: jetstream.InterestPolicy})
	require.NoError(t, err)
	rs := serveRules(t, "127.0.0.1:0", &countingRules{})
	srv := server.New(telemetry.NewLogger("text", "error"))
	_, err = encounter.Start(context.Background(), encounter.Config{NATSURL: ns.url(), NATS: ns.auth(), ResolverAddr: rs.addr,
		ResolverToken: auth.StaticToken("unused"), Log: telemetry.NewLogger("text", "error")}, srv, systems.Registry())
	require.ErrorIs(t, err, store.ErrMisconfigured)
	require.Contains(t, err.Error(), "retention Interest (these settings: Limits)")
	stream, err := js.Stream(context.Background(), "FRAY_ENCOUNTERS")
	require.NoError(t, err)
	require.Equal(t, jetstream.InterestPolicy, stream.CachedInfo().Config.Retention)
}
