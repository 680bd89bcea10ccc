package encounter

// Who is calling, and what the caller may read and see of an encounter.

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/platform"
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

// mayRead refuses a caller of the encounter's tenant who has no role in it.
func mayRead(st *encounterv1.EncounterState, who caller) error {
	if engine.MayRead(st, who.principal) {
		return nil
	}
	return platform.Refused(codes.PermissionDenied, platform.ReasonNoRole, nil, "%s has no role in %s: only its GM (%s), co-GMs, players and observers read it; ask the GM to grant you one",
		who.principal, st.GetName(), st.GetGameMaster())
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
