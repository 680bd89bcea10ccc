package encounter

import (
	"context"
	"sync/atomic"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// gate is the EncounterService a server registers before the event log is open: it answers
// Unavailable until the Service is set (Start opens the log once NATS can be reached), then
// hands every call to it.
type gate struct {
	encounterv1.UnimplementedEncounterServiceServer
	svc   atomic.Pointer[Service]
	ready chan struct{} // closed once svc is set
}

func newGate() *gate { return &gate{ready: make(chan struct{})} }

func (g *gate) set(s *Service) {
	if g.svc.CompareAndSwap(nil, s) {
		close(g.ready)
	}
}

// notOpen is what a call meets before the event log is open.
const notOpen = "the encounter service is starting: the event log (NATS) is not reachable yet; nothing was recorded, try again"

func (g *gate) service() (*Service, error) {
	if s := g.svc.Load(); s != nil {
		return s, nil
	}
	return nil, status.Error(codes.Unavailable, notOpen)
}

func unary[Req, Resp any](g *gate, ctx context.Context, req Req, f func(*Service, context.Context, Req) (Resp, error)) (Resp, error) {
	s, err := g.service()
	if err != nil {
		var none Resp
		return none, err
	}
	return f(s, ctx, req)
}

func (g *gate) CreateEncounter(ctx context.Context, req *encounterv1.CreateEncounterRequest) (*encounterv1.CreateEncounterResponse, error) {
	return unary(g, ctx, req, (*Service).CreateEncounter)
}

func (g *gate) AddCombatant(ctx context.Context, req *encounterv1.AddCombatantRequest) (*encounterv1.AddCombatantResponse, error) {
	return unary(g, ctx, req, (*Service).AddCombatant)
}

func (g *gate) RemoveCombatant(ctx context.Context, req *encounterv1.RemoveCombatantRequest) (*encounterv1.RemoveCombatantResponse, error) {
	return unary(g, ctx, req, (*Service).RemoveCombatant)
}

func (g *gate) StartEncounter(ctx context.Context, req *encounterv1.StartEncounterRequest) (*encounterv1.StartEncounterResponse, error) {
	return unary(g, ctx, req, (*Service).StartEncounter)
}

func (g *gate) Submit(ctx context.Context, req *encounterv1.SubmitRequest) (*encounterv1.SubmitResponse, error) {
	return unary(g, ctx, req, (*Service).Submit)
}

func (g *gate) GetEncounter(ctx context.Context, req *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	return unary(g, ctx, req, (*Service).GetEncounter)
}

func (g *gate) GetOdds(ctx context.Context, req *encounterv1.GetOddsRequest) (*encounterv1.GetOddsResponse, error) {
	return unary(g, ctx, req, (*Service).GetOdds)
}

func (g *gate) ListEncounters(ctx context.Context, req *encounterv1.ListEncountersRequest) (*encounterv1.ListEncountersResponse, error) {
	return unary(g, ctx, req, (*Service).ListEncounters)
}

func (g *gate) EndEncounter(ctx context.Context, req *encounterv1.EndEncounterRequest) (*encounterv1.EndEncounterResponse, error) {
	return unary(g, ctx, req, (*Service).EndEncounter)
}

func (g *gate) RewindEncounter(ctx context.Context, req *encounterv1.RewindEncounterRequest) (*encounterv1.RewindEncounterResponse, error) {
	return unary(g, ctx, req, (*Service).RewindEncounter)
}

func (g *gate) WatchEncounter(req *encounterv1.WatchEncounterRequest, stream grpc.ServerStreamingServer[encounterv1.WatchEncounterResponse]) error {
	s, err := g.service()
	if err != nil {
		return err
	}
	return s.WatchEncounter(req, stream)
}

func (g *gate) ExportLog(req *encounterv1.ExportLogRequest, stream grpc.ServerStreamingServer[encounterv1.ExportLogResponse]) error {
	s, err := g.service()
	if err != nil {
		return err
	}
	return s.ExportLog(req, stream)
}

func (g *gate) ListIdleEncounters(ctx context.Context, req *encounterv1.ListIdleEncountersRequest) (*encounterv1.ListIdleEncountersResponse, error) {
	return unary(g, ctx, req, (*Service).ListIdleEncounters)
}

func (g *gate) EndIdleEncounters(ctx context.Context, req *encounterv1.EndIdleEncountersRequest) (*encounterv1.EndIdleEncountersResponse, error) {
	return unary(g, ctx, req, (*Service).EndIdleEncounters)
}
