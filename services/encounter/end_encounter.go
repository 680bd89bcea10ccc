package encounter

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
)

// EndEncounter ends the encounter (the dice seed revealed).
func (s *Service) EndEncounter(ctx context.Context, req *encounterv1.EndEncounterRequest) (*encounterv1.EndEncounterResponse, error) {
	events, st, err := s.run(ctx, req, req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: req.GetReason()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.EndEncounterResponse{Events: events, State: st}, nil
}
