package encounter

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// outcome is what a command recorded: its events, the state before them and the state after.
type outcome struct {
	events        []*encounterv1.Event
	before, after *encounterv1.EncounterState
}

// show returns the outcome as principal may see it: each event viewed with the state before
// it, and the state after them, by what principal may see now.
// o.before and o.after are not changed, nor ever are (states.go): the state's view shares them
// (engine.Registry.ViewShared).
func (s *Service) show(o outcome, principal string) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	v := viewer(o.after, principal)
	out := make([]*encounterv1.Event, 0, len(o.events))
	if v.SeesAll && o.before.GetRuleSystem() != "" {
		// Nothing is hidden from a GM: the state before an event tells ViewEvent only who is
		// hidden, and its rule system, which the encounter's events do not change once it is
		// created. So every event is viewed with the state before the first, none folded.
		for _, ev := range o.events {
			out = append(out, s.reg.ViewEvent(o.before, ev, v))
		}
		return out, s.reg.ViewShared(o.after, v), nil
	}
	st := o.before
	for i, ev := range o.events {
		out = append(out, s.reg.ViewEvent(st, ev, v))
		if i == len(o.events)-1 {
			break // the state after the last event is o.after
		}
		if i == 0 {
			st = s.reg.Fork(st) // folded into a copy: o.before is not changed
		}
		if err := s.reg.Evolve(st, ev); err != nil {
			return nil, nil, status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
		}
	}
	return out, s.reg.ViewShared(o.after, v), nil
}

// tell narrates the outcome's events as principal sees them (seen: show's views of them), one
// line each, as a watch from the first of them would: the narrator learns the state before it
// as principal sees it, and the line of the event that ends the fight says so. Nothing for a
// nil teller, which costs nothing.
func (s *Service) tell(o outcome, seen []*encounterv1.Event, principal string, t *teller) ([]string, error) {
	if t == nil || len(seen) == 0 {
		return nil, nil
	}
	v := viewer(o.after, principal)
	lines := make([]string, len(seen))
	st := o.before
	for i, ev := range o.events {
		next := o.after
		if i < len(o.events)-1 {
			next = s.reg.Fork(st) // folded into a copy: o.before is not changed
			if err := s.reg.Evolve(next, ev); err != nil {
				return nil, status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
			}
		}
		lines[i] = t.line(st, seen[i], v) + t.ended(t.over(st), next)
		st = next
	}
	return lines, nil
}
