package encounter

// A tenant's administration: what a token holding platform.ScopeAdmin may do for its own
// tenant that no role in an encounter allows. The ends it asks for are recorded as the
// service's own (engine.IdleActor), through the same pipeline as every command (idle.go).

import (
	"context"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// adminAccess is the scope each administration RPC needs, declared once.
var adminAccess = map[string]string{
	encounterv1.EncounterService_ListIdleEncounters_FullMethodName: platform.ScopeAdmin,
	encounterv1.EncounterService_EndIdleEncounters_FullMethodName:  platform.ScopeAdmin,
}

// Bounds of ListIdleEncounters and EndIdleEncounters.
const (
	DefaultIdleListed = 100
	MaxIdleListed     = 1000
)

// administrator is the caller of method if its token holds the scope adminAccess names for it
// and tenant is the token's own; PermissionDenied otherwise.
func administrator(ctx context.Context, method, tenant string) (caller, error) {
	who, err := callerOf(ctx)
	if err != nil {
		return caller{}, err
	}
	scope := adminAccess[method]
	id, _ := platform.IdentityFrom(ctx)
	if scope == "" || !id.HasScope(scope) {
		return caller{}, platform.Refused(codes.PermissionDenied, platform.ReasonNoRole, nil,
			"%s administers no tenant: this call answers a token holding the %q scope (an operator's, for its own tenant)", who.principal, scope)
	}
	if tenant == "" {
		return caller{}, platform.BadRequest("tenant", "name the tenant to administer: your token's, %q", who.tenant)
	}
	if tenant != who.tenant {
		return caller{}, platform.Refused(codes.PermissionDenied, platform.ReasonNoRole, nil,
			"%s administers tenant %q, not %q: use a token of that tenant", who.principal, who.tenant, tenant)
	}
	return who, nil
}

// idleRequest is what both administration RPCs take: how long idle, and how many.
func (s *Service) idleRequest(olderThan *durationpb.Duration, limit int32) (time.Duration, int, error) {
	idle := s.opts.IdleEnd
	if olderThan != nil && (olderThan.GetSeconds() != 0 || olderThan.GetNanos() != 0) {
		if err := olderThan.CheckValid(); err != nil {
			return 0, 0, platform.BadRequest("older_than", "older_than is not a duration: %v", err)
		}
		idle = olderThan.AsDuration()
		if idle < time.Second {
			return 0, 0, platform.BadRequest("older_than", "older_than %s: give at least 1s", idle)
		}
	} else if idle <= 0 {
		return 0, 0, platform.BadRequest("older_than", "this service ends no encounter for idleness (--idle-end 0): give older_than")
	}
	n := int(limit)
	switch {
	case n == 0:
		n = DefaultIdleListed
	case n < 0 || n > MaxIdleListed:
		return 0, 0, platform.BadRequest("max", "max %d: give 1 to %d (0 for %d)", limit, MaxIdleListed, DefaultIdleListed)
	}
	return idle, n, nil
}

// idleOf finds the tenant's encounters not ended idle for at least idle, up to n, the oldest
// activity first, with what this service holds of them later than the index.
func (s *Service) idleOf(ctx context.Context, tenant string, idle time.Duration, n int) ([]store.Summary, error) {
	finder, ok := s.index.(store.IdleFinder)
	if !ok {
		return nil, platform.Refused(codes.Unimplemented, "", nil, "this service keeps no index of encounters: it cannot find idle ones")
	}
	before := s.opts.Now().Add(-idle)
	sums, err := finder.IdleEncounters(ctx, tenant, before, n)
	if err != nil {
		return nil, unavailable(err)
	}
	sums = s.latest(sums)
	out := sums[:0]
	for _, sum := range sums {
		if sum.LastActivity.Before(before) {
			out = append(out, sum)
		}
	}
	return out, nil
}

func (s *Service) openOf(ctx context.Context, tenant string) (int32, error) {
	c, ok := s.index.(store.OpenCounter)
	if !ok {
		return 0, nil
	}
	n, err := c.OpenEncounters(ctx, tenant)
	if err != nil {
		return 0, unavailable(err)
	}
	return int32(n), nil
}

func idleEncounter(sum store.Summary) *encounterv1.IdleEncounter {
	gm := ""
	for p, r := range sum.Members {
		if r == encounterv1.Role_ROLE_GM {
			gm = p
		}
	}
	return &encounterv1.IdleEncounter{EncounterId: sum.EncounterID, Name: sum.Name, RuleSystem: sum.RuleSystem, Status: sum.Status,
		Sequence: sum.Sequence, LastActivity: timestamppb.New(sum.LastActivity), GameMaster: gm}
}

// ListIdleEncounters lists the tenant's encounters not ended that have recorded no event for
// older_than, the oldest activity first.
func (s *Service) ListIdleEncounters(ctx context.Context, req *encounterv1.ListIdleEncountersRequest) (*encounterv1.ListIdleEncountersResponse, error) {
	if _, err := administrator(ctx, encounterv1.EncounterService_ListIdleEncounters_FullMethodName, req.GetTenant()); err != nil {
		return nil, err
	}
	idle, n, err := s.idleRequest(req.GetOlderThan(), req.GetMax())
	if err != nil {
		return nil, err
	}
	sums, err := s.idleOf(ctx, req.GetTenant(), idle, n)
	if err != nil {
		return nil, err
	}
	out := &encounterv1.ListIdleEncountersResponse{}
	for _, sum := range sums {
		out.Encounters = append(out.Encounters, idleEncounter(sum))
	}
	if out.Open, err = s.openOf(ctx, req.GetTenant()); err != nil {
		return nil, err
	}
	return out, nil
}

// EndIdleEncounters ends the tenant's encounters not ended that have recorded no event for
// older_than, each as the service ends one for idleness, the administrator named in its
// reason. One that has recorded an event meanwhile (the log decides) is left open.
func (s *Service) EndIdleEncounters(ctx context.Context, req *encounterv1.EndIdleEncountersRequest) (*encounterv1.EndIdleEncountersResponse, error) {
	who, err := administrator(ctx, encounterv1.EncounterService_EndIdleEncounters_FullMethodName, req.GetTenant())
	if err != nil {
		return nil, err
	}
	idle, n, err := s.idleRequest(req.GetOlderThan(), req.GetMax())
	if err != nil {
		return nil, err
	}
	sums, err := s.idleOf(ctx, req.GetTenant(), idle, n)
	if err != nil {
		return nil, err
	}
	out := &encounterv1.EndIdleEncountersResponse{}
	for _, sum := range sums {
		end, ok, err := s.endIdle(ctx, sum, idle, "ended by "+who.principal)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		s.logIdleEnd(ctx, end, who.principal)
		ie := idleEncounter(sum)
		ie.Status, ie.Sequence, ie.LastActivity = end.o.after.GetStatus(), end.o.after.GetSequence(), timestamppb.New(end.last)
		out.Ended = append(out.Ended, ie)
	}
	if out.Open, err = s.openOf(ctx, req.GetTenant()); err != nil {
		return nil, err
	}
	return out, nil
}
