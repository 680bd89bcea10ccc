package encounter

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// EndIdleEncounters ends the tenant's encounters not ended that have recorded no event for
// older_than, each as the service ends one for idleness, the administrator named in its
// reason. One that has recorded an event meanwhile (the log decides) is left open.
func (s *Service) EndIdleEncounters(ctx context.Context, req *encounterv1.EndIdleEncountersRequest) (*encounterv1.EndIdleEncountersResponse, error) {
	who, idle, sums, err := s.idleAsked(ctx, req)
	if err != nil {
		return nil, err
	}
	out := &encounterv1.EndIdleEncountersResponse{}
	for _, sum := range sums {
		end, ok, err := s.endIdle(ctx, sum, idle, "ended by "+who.principal)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		s.logIdleEnd(ctx, end, who.principal)
		ie := idleEncounter(sum)
		ie.Status, ie.Sequence, ie.LastActivity = end.o.after.GetStatus(), end.o.after.GetSequence(), timestamppb.New(end.last)
		out.Ended = append(out.Ended, ie)
	}
	if out.Open, err = s.openOf(ctx, req.GetTenant()); err != nil {
		return nil, err
	}
	return out, nil
}
