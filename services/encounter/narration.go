package encounter

// Narration: the read calls (GetEncounter, WatchEncounter, ExportLog) narrate the events they
// send when the caller asks for a language, each from the event as that caller receives it.

import (
	"context"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// teller narrates the events one stream sends, in order, in one language. A nil teller (no
// language asked) narrates nothing and costs nothing.
type teller struct {
	reg     *engine.Registry
	n       *narrate.Narrator
	started bool
}

// tellerFor is the teller of a request's language field: nil for "", InvalidArgument with a
// BadRequest on "language" for a language narration is not written in.
func (s *Service) tellerFor(lang string) (*teller, error) {
	if lang == "" {
		return nil, nil
	}
	tag, err := narrate.Parse(lang)
	if err != nil {
		return nil, refusal.BadRequest("language", "%v", err)
	}
	return &teller{reg: s.reg, n: s.reg.Narrator(tag)}, nil
}

// line narrates seen, the event as the caller receives it, whose state before is before (the
// full state: the teller sees it only through v). A stream that starts after the first event
// first learns the state before its first one, as v sees it: names, who is hidden, what each
// rule system keeps.
func (t *teller) line(before *encounterv1.EncounterState, seen *encounterv1.Event, v engine.Viewer) string {
	if t == nil {
		return ""
	}
	t.start(before, seen, v)
	return t.n.Narrate(seen)
}

// learn learns from seen what line would, without writing its text (written by another
// watcher of the same view: watch.go).
func (t *teller) learn(before *encounterv1.EncounterState, seen *encounterv1.Event, v engine.Viewer) {
	t.start(before, seen, v)
	t.n.Learn(seen)
}

// over reports whether the fight is over in before, the state before an event the teller
// narrates: the event's line then does not say it again (ended). False for a nil teller, which
// spends nothing on it.
func (t *teller) over(before *encounterv1.EncounterState) bool {
	return t != nil && t.reg.Standing(before).Over
}

// ended is what closes the line of an event that ends the fight ("; the fight is over: only
// side pcs still stands"): wasOver is over of the state before it, after the state it leads
// to. Empty for any other event, and for a nil teller.
func (t *teller) ended(wasOver bool, after *encounterv1.EncounterState) string {
	if t == nil {
		return ""
	}
	return t.reg.OverLine(t.n, wasOver, after)
}

func (t *teller) start(before *encounterv1.EncounterState, seen *encounterv1.Event, v engine.Viewer) {
	if !t.started {
		t.started = true
		if seen.GetSequence() > 1 {
			t.n.LearnState(t.reg.View(before, v))
		}
	}
}

// eventAt returns the encounter's event of sequence at with the state before it, folded from
// the latest snapshot before it, or from the start; a nil event when the log has none.
// known is a position the log holds (the caller's entry's): the read includes it.
func (s *Service) eventAt(ctx context.Context, id string, at, known uint64) (*encounterv1.EncounterState, *encounterv1.Event, error) {
	st, pos := &encounterv1.EncounterState{EncounterId: id}, uint64(0)
	if snap := s.snapshot(ctx, id); snap != nil && snap.GetState().GetSequence() < at {
		st, pos = proto.CloneOf(snap.GetState()), snap.GetPosition()
	}
	recs, err := s.events.Load(ctx, id, pos, store.AtLeast(known))
	if err != nil {
		return nil, nil, unavailable(err)
	}
	for _, r := range recs {
		for _, ev := range r.Batch.GetEvents() {
			switch {
			case ev.GetSequence() <= st.GetSequence():
				continue
			case ev.GetSequence() == at:
				return st, ev, nil
			}
			if err := s.reg.Evolve(st, ev); err != nil {
				return nil, nil, status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
			}
		}
	}
	return st, nil, nil
}
