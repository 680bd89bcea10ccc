package clienttest

import (
	"context"
	"net"
	"sync"
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// Call is one request the fake received.
type Call struct {
	Method    string
	Principal []string
	Req       proto.Message
}

// Fake is an EncounterService and RulesService that records requests and answers canned
// responses.
type Fake struct {
	encounterv1.UnimplementedEncounterServiceServer
	rulesv1.UnimplementedRulesServiceServer

	mu    sync.Mutex
	calls []Call

	// Canned answers.
	State  *encounterv1.EncounterState
	Legal  *encounterv1.GetEncounterResponse
	Events []*encounterv1.Event // the log, for WatchEncounter
	// Events returned by Submit and StartEncounter.
	SubmitEvents []*encounterv1.Event
	SubmitErr    error
	// When set, WatchEncounter blocks after sending the events until the client goes away,
	// and closes Watching first.
	HoldWatch bool
	Watching  chan struct{}
}

func (f *Fake) record(ctx context.Context, method string, req proto.Message) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, Call{Method: method, Principal: []string{identity.Principal(ctx)}, Req: proto.Clone(req)})
}

// Requests returns the calls received, in order.
func (f *Fake) Requests() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Call(nil), f.calls...)
}

func (f *Fake) CreateEncounter(ctx context.Context, req *encounterv1.CreateEncounterRequest) (*encounterv1.CreateEncounterResponse, error) {
	f.record(ctx, "CreateEncounter", req)
	return &encounterv1.CreateEncounterResponse{EncounterId: "enc-1", State: f.State}, nil
}

func (f *Fake) AddCombatant(ctx context.Context, req *encounterv1.AddCombatantRequest) (*encounterv1.AddCombatantResponse, error) {
	f.record(ctx, "AddCombatant", req)
	f.mu.Lock()
	seq := uint64(len(f.calls))
	f.mu.Unlock()
	ev := &encounterv1.Event{Sequence: seq, Payload: &encounterv1.Event_CombatantAdded{
		CombatantAdded: &encounterv1.CombatantAdded{Combatant: req.GetCombatant(), Watched: req.GetWatched(),
			InProgress: f.State.GetStatus() == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE},
	}}
	return &encounterv1.AddCombatantResponse{Events: []*encounterv1.Event{ev}, State: f.State}, nil
}

func (f *Fake) StartEncounter(ctx context.Context, req *encounterv1.StartEncounterRequest) (*encounterv1.StartEncounterResponse, error) {
	f.record(ctx, "StartEncounter", req)
	return &encounterv1.StartEncounterResponse{Events: f.SubmitEvents, State: f.State}, nil
}

func (f *Fake) Submit(ctx context.Context, req *encounterv1.SubmitRequest) (*encounterv1.SubmitResponse, error) {
	f.record(ctx, "Submit", req)
	if f.SubmitErr != nil {
		return nil, f.SubmitErr
	}
	return &encounterv1.SubmitResponse{Events: f.SubmitEvents, State: f.State}, nil
}

func (f *Fake) GetEncounter(ctx context.Context, req *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	f.record(ctx, "GetEncounter", req)
	resp := &encounterv1.GetEncounterResponse{State: f.State}
	if f.Legal != nil && req.GetLegalFor() != "" {
		resp.Legal = f.Legal.GetLegal()
	}
	return resp, nil
}

func (f *Fake) ListEncounters(ctx context.Context, req *encounterv1.ListEncountersRequest) (*encounterv1.ListEncountersResponse, error) {
	f.record(ctx, "ListEncounters", req)
	return &encounterv1.ListEncountersResponse{Encounters: []*encounterv1.EncounterSummary{{
		EncounterId: "enc-1", Name: "Ruelle", RuleSystem: "loss",
		Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, Sequence: 9,
	}}}, nil
}

func (f *Fake) WatchEncounter(req *encounterv1.WatchEncounterRequest, st grpc.ServerStreamingServer[encounterv1.WatchEncounterResponse]) error {
	f.record(st.Context(), "WatchEncounter", req)
	for _, r := range Narrated(req, f.Events) {
		if err := st.Send(r); err != nil {
			return err
		}
	}
	if f.HoldWatch {
		if f.Watching != nil {
			close(f.Watching)
		}
		<-st.Context().Done()
	}
	return nil
}

func (f *Fake) EndEncounter(ctx context.Context, req *encounterv1.EndEncounterRequest) (*encounterv1.EndEncounterResponse, error) {
	f.record(ctx, "EndEncounter", req)
	ev := &encounterv1.Event{Sequence: 30, Payload: &encounterv1.Event_EncounterEnded{
		EncounterEnded: &encounterv1.EncounterEnded{Reason: req.GetReason(), Seed: []byte{0xde, 0xad, 0xbe, 0xef}},
	}}
	return &encounterv1.EndEncounterResponse{Events: []*encounterv1.Event{ev}}, nil
}

// ListRulesets: both services have one (EncounterService's is not canned).
func (f *Fake) ListRulesets(ctx context.Context, req *encounterv1.ListRulesetsRequest) (*encounterv1.ListRulesetsResponse, error) {
	return f.UnimplementedEncounterServiceServer.ListRulesets(ctx, req)
}

// rulesSide is a Fake as RulesService, whose ListRulesets is RulesService's.
type rulesSide struct{ *Fake }

func (f rulesSide) ListRulesets(ctx context.Context, req *rulesv1.ListRulesetsRequest) (*rulesv1.ListRulesetsResponse, error) {
	f.record(ctx, "ListRulesets", req)
	return &rulesv1.ListRulesetsResponse{Rulesets: []*rulesv1.Ruleset{{Id: "loss", Name: "Les Chants de Loss", Versions: []uint32{1}}}}, nil
}

func (f *Fake) Roll(ctx context.Context, req *rulesv1.RollRequest) (*rulesv1.RollResponse, error) {
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

// Serve starts f, as EncounterService and RulesService, on a loopback listener and returns
// its address.
func Serve(t *testing.T, f *Fake) string {
	t.Helper()
	return ServeWith(t, func(srv *grpc.Server) {
		encounterv1.RegisterEncounterServiceServer(srv, f)
		rulesv1.RegisterRulesServiceServer(srv, rulesSide{f})
	})
}

// ServeWith starts a gRPC server with the services register adds on a loopback listener,
// stopped when the test ends, and returns its address. The server verifies the tokens minted
// from Main's dev key (the test package's TestMain must call Main).
func ServeWith(t *testing.T, register func(*grpc.Server)) string {
	t.Helper()
	require.NotNil(t, devAuth, "clienttest.ServeWith: the test package's TestMain must call clienttest.Main")
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

// SubmittedTo runs `fray ARGS` against f and returns the one Submit request it sent, for
// encounter enc-1.
func SubmittedTo(t *testing.T, f *Fake, args ...string) *encounterv1.SubmitRequest {
	t.Helper()
	addr := Serve(t, f)
	code, _, errOut := Run(t, append(args, "--addr", addr)...)
	require.Equal(t, 0, code, "%v: %s", args, errOut)
	var submits []*encounterv1.SubmitRequest
	for _, c := range f.Requests() {
		if c.Method == "Submit" {
			submits = append(submits, c.Req.(*encounterv1.SubmitRequest))
		}
	}
	require.Len(t, submits, 1, args)
	require.Equal(t, "enc-1", submits[0].GetEncounterId())
	return submits[0]
}
