package encounter

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
)

// AddCombatant adds a combatant, its controller a principal of the caller's tenant (a
// stranger of the tenant joins so, while the GM keeps the encounter open to joining).
func (s *Service) AddCombatant(ctx context.Context, req *encounterv1.AddCombatantRequest) (*encounterv1.AddCombatantResponse, error) {
	combatant, err := controllerOf(ctx, req.GetCombatant())
	if err != nil {
		return nil, err
	}
	events, st, err := s.run(ctx, req, req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: combatant, Watched: req.GetWatched()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.AddCombatantResponse{Events: events, State: st}, nil
}
