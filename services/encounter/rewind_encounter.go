package encounter

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
)

// RewindEncounter takes the fight back to an earlier sequence, recorded as an event.
func (s *Service) RewindEncounter(ctx context.Context, req *encounterv1.RewindEncounterRequest) (*encounterv1.RewindEncounterResponse, error) {
	events, st, err := s.run(ctx, req, req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{ToSequence: req.GetToSequence(), Reason: req.GetReason()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.RewindEncounterResponse{Events: events, State: st}, nil
}
