package encounter

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
)

// RemoveCombatant removes a combatant from the encounter.
func (s *Service) RemoveCombatant(ctx context.Context, req *encounterv1.RemoveCombatantRequest) (*encounterv1.RemoveCombatantResponse, error) {
	events, st, err := s.run(ctx, req, req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: req.GetCombatantId()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.RemoveCombatantResponse{Events: events, State: st}, nil
}
