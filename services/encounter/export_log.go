package encounter

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ExportLog streams every event of the encounter recorded so far, in order, each as the
// caller may see it (with the state before it, by the caller's standing now), and narrated
// from that view when the caller asks for a language.
func (s *Service) ExportLog(req *encounterv1.ExportLogRequest, stream grpc.ServerStreamingServer[encounterv1.ExportLogResponse]) error {
	ctx := stream.Context()
	tell, err := s.tellerFor(req.GetLanguage())
	if err != nil {
		return err
	}
	e, now, who, err := s.read(ctx, req) // roles as of now, other replicas' changes included
	if err != nil {
		return err
	}
	recs, err := s.events.Load(ctx, req.GetEncounterId(), 0, store.AtLeast(e.known())) // at least what now was folded from
	if err != nil {
		return unavailable(err)
	}
	v := viewer(now, who.principal)
	st := &encounterv1.EncounterState{EncounterId: req.GetEncounterId()}
	for _, r := range recs {
		for _, ev := range r.Batch.GetEvents() {
			seen := s.reg.ViewEvent(st, ev, v)
			text, wasOver := tell.line(st, seen, v), tell.over(st)
			if err := s.reg.Evolve(st, ev); err != nil {
				return status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
			}
			text += tell.ended(wasOver, st)
			if err := stream.Send(&encounterv1.ExportLogResponse{Event: seen, Narration: text}); err != nil {
				return err
			}
		}
	}
	return nil
}
