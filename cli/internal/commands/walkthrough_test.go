package commands

import (
	"context"
	"encoding/hex"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// ruleServer is a one-encounter, in-memory EncounterService that decides with the real rules
// engine and rolls fixed dice: enough to play the README walkthrough through the CLI.
type ruleServer struct {
	encounterv1.UnimplementedEncounterServiceServer
	reg  *engine.Registry
	seed []byte

	mu   sync.Mutex
	dice *dice.Fixed
	st   *encounterv1.EncounterState
	log  []*encounterv1.Event
}

func (s *ruleServer) apply(ctx context.Context, cmd *encounterv1.Command) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	actor := strings.Join(md.Get(PrincipalHeader), "")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st == nil {
		s.st = &encounterv1.EncounterState{EncounterId: "enc-1"}
	}
	events, err := s.reg.Decide(s.st, cmd, engine.Env{Actor: actor, Dice: s.dice, Seed: s.seed})
	if err != nil {
		code := codes.Unknown
		if re, ok := engine.AsRuleError(err); ok {
			code = map[engine.Code]codes.Code{
				engine.CodeInvalid: codes.InvalidArgument, engine.CodePrecondition: codes.FailedPrecondition,
				engine.CodeNotFound: codes.NotFound, engine.CodePermission: codes.PermissionDenied,
				engine.CodeUnimplemented: codes.Unimplemented,
			}[re.Code]
		}
		return nil, nil, status.Error(code, err.Error())
	}
	for _, ev := range events {
		if err := s.reg.Evolve(s.st, ev); err != nil {
			return nil, nil, status.Error(codes.Internal, err.Error())
		}
	}
	s.log = append(s.log, events...)
	return events, proto.CloneOf(s.st), nil
}

func (s *ruleServer) CreateEncounter(ctx context.Context, req *encounterv1.CreateEncounterRequest) (*encounterv1.CreateEncounterResponse, error) {
	evs, st, err := s.apply(ctx, &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: req.GetEncounter()}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.CreateEncounterResponse{EncounterId: st.GetEncounterId(), Events: evs, State: st}, nil
}

func (s *ruleServer) AddCombatant(ctx context.Context, req *encounterv1.AddCombatantRequest) (*encounterv1.AddCombatantResponse, error) {
	evs, st, err := s.apply(ctx, &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: req.GetCombatant()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.AddCombatantResponse{Events: evs, State: st}, nil
}

func (s *ruleServer) StartEncounter(ctx context.Context, req *encounterv1.StartEncounterRequest) (*encounterv1.StartEncounterResponse, error) {
	evs, st, err := s.apply(ctx, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.StartEncounterResponse{Events: evs, State: st}, nil
}

func (s *ruleServer) Submit(ctx context.Context, req *encounterv1.SubmitRequest) (*encounterv1.SubmitResponse, error) {
	evs, st, err := s.apply(ctx, req.GetCommand())
	if err != nil {
		return nil, err
	}
	return &encounterv1.SubmitResponse{Events: evs, State: st}, nil
}

func (s *ruleServer) EndEncounter(ctx context.Context, req *encounterv1.EndEncounterRequest) (*encounterv1.EndEncounterResponse, error) {
	evs, st, err := s.apply(ctx, &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: req.GetReason()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.EndEncounterResponse{Events: evs, State: st}, nil
}

func (s *ruleServer) GetEncounter(ctx context.Context, req *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	resp := &encounterv1.GetEncounterResponse{State: proto.CloneOf(s.st)}
	if req.GetLegalFor() != "" {
		legal, err := s.reg.Legal(s.st, req.GetLegalFor())
		if err != nil {
			return nil, status.Error(codes.NotFound, err.Error())
		}
		resp.Legal = legal
	}
	return resp, nil
}

func (s *ruleServer) WatchEncounter(req *encounterv1.WatchEncounterRequest, st grpc.ServerStreamingServer[encounterv1.WatchEncounterResponse]) error {
	s.mu.Lock()
	log := append([]*encounterv1.Event(nil), s.log...)
	s.mu.Unlock()
	for _, ev := range log {
		if ev.GetSequence() >= req.GetFromSequence() {
			if err := st.Send(&encounterv1.WatchEncounterResponse{Event: ev}); err != nil {
				return err
			}
		}
	}
	return nil
}

// LOS-T01 played through the CLI: Diego (8 + d10 7 = 15 PA) attacks the ruffian with 6 + 6 + 8
// = 20 against 15; the ruffian dodges with 1 Exploit, 5 + 7 + 9 = 21 against 20: a miss, and
// +5 on the ruffian's next action.
func TestWalkthroughWithTheRulesEngine(t *testing.T) {
	clearEnv(t)
	srv := &ruleServer{reg: engine.NewRegistry(loss.New()), seed: dice.NewSeed(), dice: dice.NewFixed(7, 6, 8, 9)}
	lis := serveRules(t, srv)
	sheet := func(name string) string { return filepath.Join(sheets, name) }
	step := func(args ...string) string {
		t.Helper()
		code, out, errOut := run(t, append(args, "--addr", lis)...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}

	require.Equal(t, "enc-1\n", step("create", "--name", "Ruelle"))
	require.Equal(t, "added Diego (diego): player character, side pcs, controller david (#2)\n"+
		"added Le malfrat (ruffian): adversaire, side foes, controller gm (#3)\n",
		step("add", "enc-1", sheet("diego.yaml"), sheet("ruffian.yaml")))
	require.Equal(t, "#4 The fight starts\n#5 Tour 1 (Séquence 1): Diego 8+d10[7] = 15 PA; Le malfrat 6+d10[6] = 12 PA\n",
		step("start", "enc-1"))
	require.Equal(t, "#6 Diego attacks Le malfrat with épée (4 PA): 6+6+d10[8] = 20 vs 15 — success; Le malfrat may parry or dodge\n"+
		"waiting for ruffian (gm): Diego attacks Le malfrat with épée (total 20 against 15): parry, dodge or take the blow\n"+
		"  fray react enc-1 ruffian parry|dodge|none --as gm\n",
		step("attack", "enc-1", "diego", "ruffian", "--as", "david"))

	// Only Diego's controller and the GM command him.
	code, _, errOut := run(t, "pass", "enc-1", "diego", "--as", "florence", "--addr", lis)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "fray pass: ")
	require.NotContains(t, errOut, "rpc error")

	require.Equal(t, "#7 Le malfrat dodges (1 PA, 1 Exploit): 5+7+d10[9] = 21 vs 20 — success\n"+
		"#8 Diego's attack on Le malfrat misses\n",
		step("react", "enc-1", "ruffian", "dodge", "--exploits", "1"))

	state := step("state", "enc-1", "--for", "diego")
	require.Contains(t, state, "Tour 1 (Séquence 1)")
	require.Regexp(t, `ruffian\s+Le malfrat\s+foes\s+gm\s+11\s+light 5/5, grave 5/5, fatal 5/5\s+\+5 on next action`, state)
	// Both at phase 11 may act (LOS-110).
	require.Contains(t, state, "Diego may:\n  attack with épée: 4 PA, targets ruffian (LOS-035)\n  pass (LOS-033)\n")

	log := step("log", "enc-1")
	t.Logf("fray log:\n%s", log)
	t.Logf("fray state:\n%s", state)
	t.Logf("fray pass as florence:\n%s", errOut)
	require.Len(t, strings.Split(strings.TrimSpace(log), "\n"), 8)
	require.True(t, strings.HasPrefix(log, `#1 Encounter "Ruelle" created by gm, loss v1; rules: action d10s explode`), log)

	require.Equal(t, hex.EncodeToString(srv.seed)+"\n", step("end", "enc-1", "--reason", "the ruffian flees"))
}

func serveRules(t *testing.T, s *ruleServer) string {
	t.Helper()
	return serveWith(t, func(g *grpc.Server) { encounterv1.RegisterEncounterServiceServer(g, s) })
}
