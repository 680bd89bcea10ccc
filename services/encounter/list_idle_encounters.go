package encounter

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
)

// ListIdleEncounters lists the tenant's encounters not ended that have recorded no event for
// older_than, the oldest activity first.
func (s *Service) ListIdleEncounters(ctx context.Context, req *encounterv1.ListIdleEncountersRequest) (*encounterv1.ListIdleEncountersResponse, error) {
	_, _, sums, err := s.idleAsked(ctx, req)
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
