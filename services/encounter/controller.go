package encounter

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"google.golang.org/protobuf/proto"
)

// controllerOf makes a combatant's controller a principal of the caller's tenant: a bare name
// ("david", as sheets say) is a subject of that tenant; a principal of another tenant is
// refused.
func controllerOf(ctx context.Context, c *encounterv1.Combatant) (*encounterv1.Combatant, error) {
	if c == nil || c.GetController() == "" {
		return c, nil
	}
	tenant := identity.Tenant(ctx)
	q := identity.Qualify(tenant, c.GetController())
	t, sub, ok := identity.SplitPrincipal(q)
	if !ok || identity.CheckName("subject", sub) != nil {
		return nil, refusal.BadRequest("combatant.controller", "controller %q of %s: give a subject of your tenant (\"david\") or a principal \"%s/david\"", c.GetController(), c.GetId(), tenant)
	}
	if t != tenant {
		return nil, refusal.BadRequest("combatant.controller", "controller %q of %s is of tenant %q: a combatant is controlled by someone of your tenant %q", c.GetController(), c.GetId(), t, tenant)
	}
	if q == c.GetController() {
		return c, nil
	}
	c = proto.CloneOf(c)
	c.Controller = q
	return c, nil
}
