package encounter

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/services/platform/ratelimit"
	"github.com/fray-rpg/fray/services/platform/refusal"
)

// GetOdds returns the exact odds of a command before it is committed, computed on the state
// as the caller sees it (rules/odds): a player gets no odds from the numbers of a combatant
// hidden from it, the GMs see all. The command is the caller's to give (the rules refuse it
// otherwise, as Submit would).
func (s *Service) GetOdds(ctx context.Context, req *encounterv1.GetOddsRequest) (*encounterv1.GetOddsResponse, error) {
	if req.GetCommand() == nil {
		return nil, refusal.BadRequest("command", "odds need the command being prepared: one of an action ListRulesets marks with odds (an attack…)")
	}
	_, now, who, err := s.read(ctx, req)
	if err != nil {
		return nil, err
	}
	// Charged by the combatants, as the resolver's Odds is by those sent: the limits took
	// the odds' least before the state was read.
	if err := ratelimit.ChargeOdds(ctx, len(now.GetCombatants())); err != nil {
		return nil, err
	}
	view := s.reg.View(now, viewer(now, who.principal))
	o, err := odds.Of(s.reg, view, req.GetCommand(), who.principal)
	if err != nil {
		return nil, refusal.Status(err)
	}
	return &encounterv1.GetOddsResponse{Odds: o, Sequence: now.GetSequence()}, nil
}
