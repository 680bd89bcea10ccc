package encounter

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
)

// StartEncounter starts the fight (the GM's command): the rules roll the first initiative.
func (s *Service) StartEncounter(ctx context.Context, req *encounterv1.StartEncounterRequest) (*encounterv1.StartEncounterResponse, error) {
	events, st, err := s.run(ctx, req, req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.StartEncounterResponse{Events: events, State: st}, nil
}
