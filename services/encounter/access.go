package encounter

// Who is calling, and what the caller may read and see of an encounter.

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// caller is the authenticated caller: its principal "tenant/subject" and its tenant.
type caller struct{ principal, tenant string }

// callerOf is the caller as the authentication interceptor found it in the request's token.
func callerOf(ctx context.Context) (caller, error) {
	id, ok := platform.IdentityFrom(ctx)
	if !ok || id.Principal() == "" {
		return caller{}, status.Error(codes.Unauthenticated, "no identity: send a bearer token (\"authorization: Bearer <JWT>\"); under fray dev, `fray token --as NAME` mints one")
	}
	return caller{principal: id.Principal(), tenant: id.Tenant}, nil
}

// noEncounter is the answer for an encounter that does not exist, and for one of another
// tenant: the same words, so that its existence does not leak.
func noEncounter(id string) error {
	return platform.Refused(codes.NotFound, platform.ReasonEncounterNotFound, nil, "there is no encounter %q", id)
}

// open returns the encounter's cache entry and its state (not to be changed: states.go), if
// it is of the caller's tenant (NotFound otherwise, as for a missing one).
func (s *Service) open(ctx context.Context, id string, fresh bool, who caller) (*entry, *encounterv1.EncounterState, error) {
	e, err := s.entry(ctx, id, fresh)
	if err != nil {
		return nil, nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.state.GetTenant() == "" || e.state.GetTenant() != who.tenant {
		return nil, nil, noEncounter(id)
	}
	return e, e.state, nil
}

// mayRead refuses a caller of the encounter's tenant who has no role in it. The refusal names
// only what the caller gave (the id): nothing of the encounter, not even its name or its GM,
// is told to one who may not read it (issue 23).
func mayRead(st *encounterv1.EncounterState, who caller) error {
	if engine.MayRead(st, who.principal) {
		return nil
	}
	return noRole(st.GetEncounterId(), who, "only its GM, co-GMs, players and observers read it")
}

// noRole is the refusal of a caller with no role in encounter id.
func noRole(id string, who caller, what string) error {
	return platform.Refused(codes.PermissionDenied, platform.ReasonNoRole, nil,
		"%s has no role in encounter %s: %s; ask whoever invited you for a role or an invite link", who.principal, id, what)
}

// viewer is what principal may see of st: everything for a GM or a co-GM, the combatants it
// controls whole, the others as the table sees them.
func viewer(st *encounterv1.EncounterState, principal string) engine.Viewer {
	v := engine.Viewer{SeesAll: engine.IsGameMaster(st, principal), Controls: map[string]bool{}}
	for _, id := range engine.Controls(st, principal) {
		v.Controls[id] = true
	}
	return v
}

// controllerOf makes a combatant's controller a principal of the caller's tenant: a bare name
// ("david", as sheets say) is a subject of that tenant; a principal of another tenant is
// refused.
func controllerOf(ctx context.Context, c *encounterv1.Combatant) (*encounterv1.Combatant, error) {
	if c == nil || c.GetController() == "" {
		return c, nil
	}
	tenant := platform.Tenant(ctx)
	q := platform.Qualify(tenant, c.GetController())
	t, sub, ok := platform.SplitPrincipal(q)
	if !ok || platform.CheckName("subject", sub) != nil {
		return nil, platform.BadRequest("combatant.controller", "controller %q of %s: give a subject of your tenant (\"david\") or a principal \"%s/david\"", c.GetController(), c.GetId(), tenant)
	}
	if t != tenant {
		return nil, platform.BadRequest("combatant.controller", "controller %q of %s is of tenant %q: a combatant is controlled by someone of your tenant %q", c.GetController(), c.GetId(), t, tenant)
	}
	if q == c.GetController() {
		return c, nil
	}
	c = proto.CloneOf(c)
	c.Controller = q
	return c, nil
}

// GetEncounter returns the state as the caller may see it, now or as of a sequence, and what
// a combatant the caller may command may do now; with a language, the narration of the event
// that made that state, as the caller may see it.
func (s *Service) GetEncounter(ctx context.Context, req *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	who, err := callerOf(ctx)
	if err != nil {
		return nil, err
	}
	tell, err := s.tellerFor(req.GetLanguage())
	if err != nil {
		return nil, err
	}
	e, now, err := s.open(ctx, req.GetEncounterId(), true, who)
	if err != nil {
		return nil, err
	}
	if err := mayRead(now, who); err != nil {
		return nil, err
	}
	st := now
	// With a language: the event that made st, and the state before it, to narrate.
	var before *encounterv1.EncounterState
	var last *encounterv1.Event
	at := req.GetAtSequence()
	switch {
	case at > now.GetSequence():
		return nil, status.Errorf(codes.OutOfRange, "encounter %q is at sequence %d; there is no sequence %d yet", now.GetName(), now.GetSequence(), at)
	case tell != nil && now.GetSequence() > 0:
		if at == 0 {
			at = now.GetSequence()
		}
		if before, last, err = s.eventAt(ctx, req.GetEncounterId(), at, e.known()); err != nil {
			return nil, err
		}
		if last != nil && at < now.GetSequence() {
			st = proto.CloneOf(before)
			if err := s.reg.Evolve(st, last); err != nil {
				return nil, status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", last.GetSequence(), err)
			}
		}
	case at != 0 && at < now.GetSequence():
		if st, err = s.stateAt(ctx, req.GetEncounterId(), at, e.known()); err != nil {
			return nil, err
		}
	}
	out := &encounterv1.GetEncounterResponse{}
	if err := s.legal(now, st, who, req, out); err != nil { // legal.go
		return nil, err
	}
	// Who may see what is decided by the caller's standing now.
	v := viewer(now, who.principal)
	out.State = s.reg.View(st, v)
	out.StateSha256 = engine.Hash(out.State)
	if last != nil {
		out.Narration = tell.line(before, s.reg.ViewEvent(before, last, v), v)
		out.NarrationSequence = last.GetSequence()
	}
	return out, nil
}

// ExportLog streams every event of the encounter recorded so far, in order, each as the
// caller may see it (with the state before it, by the caller's standing now), and narrated
// from that view when the caller asks for a language.
func (s *Service) ExportLog(req *encounterv1.ExportLogRequest, stream grpc.ServerStreamingServer[encounterv1.ExportLogResponse]) error {
	ctx := stream.Context()
	who, err := callerOf(ctx)
	if err != nil {
		return err
	}
	tell, err := s.tellerFor(req.GetLanguage())
	if err != nil {
		return err
	}
	e, now, err := s.open(ctx, req.GetEncounterId(), true, who) // roles as of now, other replicas' changes included
	if err != nil {
		return err
	}
	if err := mayRead(now, who); err != nil {
		return err
	}
	recs, err := s.events.Load(ctx, req.GetEncounterId(), 0, store.AtLeast(e.known())) // at least what now was folded from
	if err != nil {
		return unavailable(err)
	}
	v := viewer(now, who.principal)
	st := &encounterv1.EncounterState{EncounterId: req.GetEncounterId()}
	for _, r := range recs {
		for _, ev := range r.Batch.GetEvents() {
			seen := s.reg.ViewEvent(st, ev, v)
			text := tell.line(st, seen, v)
			if err := s.reg.Evolve(st, ev); err != nil {
				return status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
			}
			if err := stream.Send(&encounterv1.ExportLogResponse{Event: seen, Narration: text}); err != nil {
				return err
			}
		}
	}
	return nil
}
