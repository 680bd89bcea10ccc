package clienttest

import (
	"context"
	"sync"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/platform/identity"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// RuleServer is a one-encounter, in-memory EncounterService that decides with the real rules
// engine and rolls fixed dice: enough to play the README walkthrough through the CLI.
type RuleServer struct {
	encounterv1.UnimplementedEncounterServiceServer
	Reg  *engine.Registry
	Seed []byte
	Dice *dice.Fixed
	// Roller, when set, rolls instead of Dice: the README's examples play with a seed's stream.
	Roller dice.Roller

	mu  sync.Mutex
	st  *encounterv1.EncounterState
	log []*encounterv1.Event
}

func (s *RuleServer) apply(ctx context.Context, cmd *encounterv1.Command) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	actor := identity.Principal(ctx)
	if add := cmd.GetAddCombatant(); add != nil && add.GetCombatant().GetController() != "" {
		// As the encounter service does: a bare controller is a subject of the caller's tenant.
		c := proto.CloneOf(add.GetCombatant())
		c.Controller = identity.Qualify(identity.Tenant(ctx), c.GetController())
		cmd = &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c, Watched: add.GetWatched()}}}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st == nil {
		s.st = &encounterv1.EncounterState{EncounterId: "enc-1"}
	}
	var roller dice.Roller = s.Dice
	if s.Roller != nil {
		roller = s.Roller
	}
	events, err := s.Reg.Decide(s.st, cmd, engine.Env{Actor: actor, Dice: roller, Seed: s.Seed})
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
		// Fold a copy: Evolve may keep parts of the event in the state (the Pursuit of
		// PursuitStarted) and change them later, and the log must keep what was recorded, as a
		// store that serialises the events does.
		if err := s.Reg.Evolve(s.st, proto.CloneOf(ev)); err != nil {
			return nil, nil, status.Error(codes.Internal, err.Error())
		}
	}
	s.log = append(s.log, events...)
	return events, proto.CloneOf(s.st), nil
}

func (s *RuleServer) CreateEncounter(ctx context.Context, req *encounterv1.CreateEncounterRequest) (*encounterv1.CreateEncounterResponse, error) {
	evs, st, err := s.apply(ctx, &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: req.GetEncounter()}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.CreateEncounterResponse{EncounterId: st.GetEncounterId(), Events: evs, State: st}, nil
}

func (s *RuleServer) AddCombatant(ctx context.Context, req *encounterv1.AddCombatantRequest) (*encounterv1.AddCombatantResponse, error) {
	evs, st, err := s.apply(ctx, &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: req.GetCombatant(), Watched: req.GetWatched()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.AddCombatantResponse{Events: evs, State: st}, nil
}

func (s *RuleServer) StartEncounter(ctx context.Context, req *encounterv1.StartEncounterRequest) (*encounterv1.StartEncounterResponse, error) {
	evs, st, err := s.apply(ctx, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.StartEncounterResponse{Events: evs, State: st}, nil
}

func (s *RuleServer) Submit(ctx context.Context, req *encounterv1.SubmitRequest) (*encounterv1.SubmitResponse, error) {
	evs, st, err := s.apply(ctx, req.GetCommand())
	if err != nil {
		return nil, err
	}
	return &encounterv1.SubmitResponse{Events: evs, State: st}, nil
}

func (s *RuleServer) EndEncounter(ctx context.Context, req *encounterv1.EndEncounterRequest) (*encounterv1.EndEncounterResponse, error) {
	evs, st, err := s.apply(ctx, &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: req.GetReason()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.EndEncounterResponse{Events: evs, State: st}, nil
}

func (s *RuleServer) GetEncounter(ctx context.Context, req *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	resp := &encounterv1.GetEncounterResponse{State: proto.CloneOf(s.st)}
	if req.GetLegalFor() != "" {
		legal, err := s.Reg.Legal(s.st, req.GetLegalFor())
		if err != nil {
			return nil, status.Error(codes.NotFound, err.Error())
		}
		resp.Legal = legal
	}
	return resp, nil
}

func (s *RuleServer) WatchEncounter(req *encounterv1.WatchEncounterRequest, st grpc.ServerStreamingServer[encounterv1.WatchEncounterResponse]) error {
	s.mu.Lock()
	log := append([]*encounterv1.Event(nil), s.log...)
	s.mu.Unlock()
	for _, r := range Narrated(req, log) {
		if err := st.Send(r); err != nil {
			return err
		}
	}
	return nil
}

// ServeRules starts s as EncounterService (ServeWith) and returns its address.
func ServeRules(t *testing.T, s *RuleServer) string {
	t.Helper()
	return ServeWith(t, func(g *grpc.Server) { encounterv1.RegisterEncounterServiceServer(g, s) })
}
