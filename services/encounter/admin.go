package encounter

// A tenant's administration: what a token holding identity.ScopeAdmin may do for its own
// tenant that no role in an encounter allows. The ends it asks for are recorded as the
// service's own (engine.IdleActor), through the same pipeline as every command (idle.go).

import (
	"context"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Bounds of ListIdleEncounters and EndIdleEncounters.
const (
	DefaultIdleListed = 100
	MaxIdleListed     = 1000
)

// administers refuses who the administration of tenant unless its token holds
// identity.ScopeAdmin and tenant is the token's own.
func administers(ctx context.Context, who caller, tenant string) error {
	if id, _ := identity.From(ctx); !id.HasScope(identity.ScopeAdmin) {
		return refusal.New(codes.PermissionDenied, refusal.ReasonNoRole, nil,
			"%s administers no tenant: this call answers a token holding the %q scope (an operator's, for its own tenant)", who.principal, identity.ScopeAdmin)
	}
	if tenant == "" {
		return refusal.BadRequest("tenant", "name the tenant to administer: your token's, %q", who.tenant)
	}
	if tenant != who.tenant {
		return refusal.New(codes.PermissionDenied, refusal.ReasonNoRole, nil,
			"%s administers tenant %q, not %q: use a token of that tenant", who.principal, who.tenant, tenant)
	}
	return nil
}

// idleQuery is what both administration RPCs ask.
type idleQuery interface {
	GetTenant() string
	GetOlderThan() *durationpb.Duration
	GetMax() int32
}

// idleAsked is what an administration RPC of the tenant's idle encounters asks: its
// administrator (admitted by the interceptor), how long idle, and the encounters found.
func (s *Service) idleAsked(ctx context.Context, req idleQuery) (caller, time.Duration, []store.Summary, error) {
	who, err := administrator(ctx)
	if err != nil {
		return caller{}, 0, nil, err
	}
	idle, n, err := s.idleRequest(req.GetOlderThan(), req.GetMax())
	if err != nil {
		return caller{}, 0, nil, err
	}
	sums, err := s.idleOf(ctx, req.GetTenant(), idle, n)
	return who, idle, sums, err
}

// idleRequest is what both administration RPCs take: how long idle, and how many.
func (s *Service) idleRequest(olderThan *durationpb.Duration, limit int32) (time.Duration, int, error) {
	idle := s.opts.IdleEnd
	if olderThan != nil && (olderThan.GetSeconds() != 0 || olderThan.GetNanos() != 0) {
		if err := olderThan.CheckValid(); err != nil {
			return 0, 0, refusal.BadRequest("older_than", "older_than is not a duration: %v", err)
		}
		idle = olderThan.AsDuration()
		if idle < time.Second {
			return 0, 0, refusal.BadRequest("older_than", "older_than %s: give at least 1s", idle)
		}
	} else if idle <= 0 {
		return 0, 0, refusal.BadRequest("older_than", "this service ends no encounter for idleness (--idle-end 0): give older_than")
	}
	n := int(limit)
	switch {
	case n == 0:
		n = DefaultIdleListed
	case n < 0 || n > MaxIdleListed:
		return 0, 0, refusal.BadRequest("max", "max %d: give 1 to %d (0 for %d)", limit, MaxIdleListed, DefaultIdleListed)
	}
	return idle, n, nil
}

// idleOf finds the tenant's encounters not ended idle for at least idle, up to n, the oldest
// activity first, with what this service holds of them later than the index.
func (s *Service) idleOf(ctx context.Context, tenant string, idle time.Duration, n int) ([]store.Summary, error) {
	finder, ok := s.index.(store.IdleFinder)
	if !ok {
		return nil, refusal.New(codes.Unimplemented, "", nil, "this service keeps no index of encounters: it cannot find idle ones")
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
