package encounter

import (
	"context"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/narrate"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// GetEncounter returns the state as the caller may see it, now or as of a sequence, its
// tracker (in the language asked, English without one), and what a combatant the caller may
// command may do now; with a language, the narration of the event that made that state, as
// the caller may see it.
func (s *Service) GetEncounter(ctx context.Context, req *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	tell, err := s.tellerFor(req.GetLanguage())
	if err != nil {
		return nil, err
	}
	e, now, who, err := s.read(ctx, req)
	if err != nil {
		return nil, err
	}
	st := now
	// With a language: the event that made st, and the state before it, to narrate.
	var before *encounterv1.EncounterState
	var last *encounterv1.Event
	at := req.GetAtSequence()
	switch {
	case at > now.GetSequence():
		return nil, status.Errorf(codes.OutOfRange, "encounter %q is at sequence %d; there is no sequence %d yet", now.GetName(), now.GetSequence(), at)
	case tell != nil && now.GetSequence() > 0:
		if at == 0 {
			at = now.GetSequence()
		}
		if before, last, err = s.eventAt(ctx, req.GetEncounterId(), at, e.known()); err != nil {
			return nil, err
		}
		if last != nil && at < now.GetSequence() {
			st = proto.CloneOf(before)
			if err := s.reg.Evolve(st, last); err != nil {
				return nil, status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", last.GetSequence(), err)
			}
		}
	case at != 0 && at < now.GetSequence():
		if st, err = s.stateAt(ctx, req.GetEncounterId(), at, e.known()); err != nil {
			return nil, err
		}
	}
	out := &encounterv1.GetEncounterResponse{}
	if err := s.legal(now, st, who, req, out); err != nil { // legal.go
		return nil, err
	}
	// Who may see what is decided by the caller's standing now.
	v := viewer(now, who.principal)
	out.State = s.reg.View(st, v)
	out.StateSha256 = engine.Hash(out.State)
	lang := narrate.English // a language given is one tellerFor took
	if req.GetLanguage() != "" {
		lang, _ = narrate.Parse(req.GetLanguage())
	}
	out.Tracker = s.reg.Tracker(out.State, v, lang)
	// The actions' names and labels are narrated text: in the language asked (issue 28).
	words := slices.Clone(out.GetLegal())
	for _, ca := range out.GetActions() {
		for _, l := range ca.GetActions() {
			words = append(words, l.GetAction())
		}
	}
	s.reg.WordLegal(st, lang, words...)
	if last != nil {
		out.Narration = tell.line(before, s.reg.ViewEvent(before, last, v), v) + tell.ended(tell.over(before), st)
		out.NarrationSequence = last.GetSequence()
	}
	return out, nil
}
