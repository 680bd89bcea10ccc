package commands

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// call is one request the fake received.
type call struct {
	method    string
	principal []string
	req       proto.Message
}

// fake is an EncounterService and RulesService that records requests and answers canned
// responses.
type fake struct {
	encounterv1.UnimplementedEncounterServiceServer
	rulesv1.UnimplementedRulesServiceServer

	mu    sync.Mutex
	calls []call

	// Canned answers.
	state  *encounterv1.EncounterState
	legal  *encounterv1.GetEncounterResponse
	events []*encounterv1.Event // the log, for WatchEncounter
	// Events returned by Submit and StartEncounter.
	submitEvents []*encounterv1.Event
	submitErr    error
	// When set, WatchEncounter blocks after sending the events until the client goes away,
	// and closes watching first.
	holdWatch bool
	watching  chan struct{}
}

func (f *fake) record(ctx context.Context, method string, req proto.Message) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call{method: method, principal: []string{platform.Principal(ctx)}, req: proto.Clone(req)})
}

// requests returns the calls received, in order.
func (f *fake) requests() []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]call(nil), f.calls...)
}

func (f *fake) CreateEncounter(ctx context.Context, req *encounterv1.CreateEncounterRequest) (*encounterv1.CreateEncounterResponse, error) {
	f.record(ctx, "CreateEncounter", req)
	return &encounterv1.CreateEncounterResponse{EncounterId: "enc-1", State: f.state}, nil
}

func (f *fake) AddCombatant(ctx context.Context, req *encounterv1.AddCombatantRequest) (*encounterv1.AddCombatantResponse, error) {
	f.record(ctx, "AddCombatant", req)
	f.mu.Lock()
	seq := uint64(len(f.calls))
	f.mu.Unlock()
	ev := &encounterv1.Event{Sequence: seq, Payload: &encounterv1.Event_CombatantAdded{
		CombatantAdded: &encounterv1.CombatantAdded{Combatant: req.GetCombatant(), Watched: req.GetWatched(),
			InProgress: f.state.GetStatus() == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE},
	}}
	return &encounterv1.AddCombatantResponse{Events: []*encounterv1.Event{ev}, State: f.state}, nil
}

func (f *fake) StartEncounter(ctx context.Context, req *encounterv1.StartEncounterRequest) (*encounterv1.StartEncounterResponse, error) {
	f.record(ctx, "StartEncounter", req)
	return &encounterv1.StartEncounterResponse{Events: f.submitEvents, State: f.state}, nil
}

func (f *fake) Submit(ctx context.Context, req *encounterv1.SubmitRequest) (*encounterv1.SubmitResponse, error) {
	f.record(ctx, "Submit", req)
	if f.submitErr != nil {
		return nil, f.submitErr
	}
	return &encounterv1.SubmitResponse{Events: f.submitEvents, State: f.state}, nil
}

func (f *fake) GetEncounter(ctx context.Context, req *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	f.record(ctx, "GetEncounter", req)
	resp := &encounterv1.GetEncounterResponse{State: f.state}
	if f.legal != nil && req.GetLegalFor() != "" {
		resp.Legal = f.legal.GetLegal()
	}
	return resp, nil
}

func (f *fake) ListEncounters(ctx context.Context, req *encounterv1.ListEncountersRequest) (*encounterv1.ListEncountersResponse, error) {
	f.record(ctx, "ListEncounters", req)
	return &encounterv1.ListEncountersResponse{Encounters: []*encounterv1.EncounterSummary{{
		EncounterId: "enc-1", Name: "Ruelle", RuleSystem: "loss",
		Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, Sequence: 9,
	}}}, nil
}

func (f *fake) WatchEncounter(req *encounterv1.WatchEncounterRequest, st grpc.ServerStreamingServer[encounterv1.WatchEncounterResponse]) error {
	f.record(st.Context(), "WatchEncounter", req)
	for _, r := range narrated(req, f.events) {
		if err := st.Send(r); err != nil {
			return err
		}
	}
	if f.holdWatch {
		if f.watching != nil {
			close(f.watching)
		}
		<-st.Context().Done()
	}
	return nil
}

func (f *fake) EndEncounter(ctx context.Context, req *encounterv1.EndEncounterRequest) (*encounterv1.EndEncounterResponse, error) {
	f.record(ctx, "EndEncounter", req)
	ev := &encounterv1.Event{Sequence: 30, Payload: &encounterv1.Event_EncounterEnded{
		EncounterEnded: &encounterv1.EncounterEnded{Reason: req.GetReason(), Seed: []byte{0xde, 0xad, 0xbe, 0xef}},
	}}
	return &encounterv1.EndEncounterResponse{Events: []*encounterv1.Event{ev}}, nil
}

func (f *fake) ListRulesets(ctx context.Context, req *rulesv1.ListRulesetsRequest) (*rulesv1.ListRulesetsResponse, error) {
	f.record(ctx, "ListRulesets", req)
	return &rulesv1.ListRulesetsResponse{Rulesets: []*rulesv1.Ruleset{{Id: "loss", Name: "Les Chants de Loss", Versions: []uint32{1}}}}, nil
}

// serve starts f, as EncounterService and RulesService, on a loopback listener and returns
// its address.
func serve(t *testing.T, f *fake) string {
	t.Helper()
	return serveWith(t, func(srv *grpc.Server) {
		encounterv1.RegisterEncounterServiceServer(srv, f)
		rulesv1.RegisterRulesServiceServer(srv, f)
	})
}

// serveWith starts a gRPC server with the services register adds on a loopback listener,
// stopped when the test ends, and returns its address.
func serveWith(t *testing.T, register func(*grpc.Server)) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := grpc.NewServer(devAuth.ServerOptions()...)
	register(srv)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(lis)
	}()
	t.Cleanup(func() {
		srv.Stop()
		<-done
	})
	return lis.Addr().String()
}

// run runs the CLI with args and returns its exit code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runCtx(t.Context(), args...)
}

func runCtx(ctx context.Context, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := Run(ctx, args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// clearEnv keeps the caller's FRAY_* variables out of a test.
// devAuth verifies the tokens the CLI mints from the test's dev key for --as.
var devAuth *platform.Authenticator

// TestMain makes a dev signing key that the CLI under test finds through FRAY_DEV_KEY, as it
// would find fray dev's, and that the test servers verify.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fray-commands-test")
	if err != nil {
		panic(err)
	}
	key, _, err := platform.LoadOrCreateDevKey(dir)
	if err != nil {
		panic(err)
	}
	if devAuth, err = platform.NewAuthenticator(platform.DevAuthConfig(key)); err != nil {
		panic(err)
	}
	os.Setenv("FRAY_DEV_KEY", filepath.Join(dir, platform.DevKeyFile))
	os.Unsetenv("FRAY_TOKEN")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func clearEnv(t *testing.T) {
	for _, k := range []string{"FRAY_ADDR", "FRAY_PRINCIPAL", "FRAY_RULES_ADDR", "FRAY_TOKEN", "FRAY_ON_BEHALF_OF", "FRAY_TLS", "FRAY_TLS_CA"} {
		t.Setenv(k, "")
	}
}

func (f *fake) Roll(ctx context.Context, req *rulesv1.RollRequest) (*rulesv1.RollResponse, error) {
	f.record(ctx, "Roll", req)
	seed := req.GetSeed()
	if len(seed) == 0 {
		seed = []byte{0x01, 0x02}
	}
	return &rulesv1.RollResponse{
		Roll: &dicev1.Roll{Expression: req.GetExpression(), Faces: []int32{3, 7, 9}, Modifier: 4, Total: 23, Offset: req.GetOffset(), Draws: 3},
		Seed: seed,
	}, nil
}
