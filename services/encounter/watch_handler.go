package encounter

// WatchEncounter: catch-up from the log, then the live records of the watch hub (watch.go).

import (
	"context"
	"errors"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// WatchEncounter sends the encounter's events from a sequence on, then each new one as it is
// recorded, until the encounter ends, the client goes away, the server shuts down or the
// caller loses its role. Each event is the caller's view of it, with the state before it.
// The watcher joins this service's hub first (one subscription per encounter, shared), then
// catches up from the log in pages; live records it already read are skipped, so none is
// missed or sent twice across the boundary. A watcher that falls a buffer behind is cut off.
func (s *Service) WatchEncounter(req *encounterv1.WatchEncounterRequest, stream grpc.ServerStreamingServer[encounterv1.WatchEncounterResponse]) error {
	ctx := stream.Context()
	who, err := callerOf(ctx)
	if err != nil {
		return err
	}
	// With a language, one narrator for this stream, fed the events as this caller sees them.
	tell, err := s.tellerFor(req.GetLanguage())
	if err != nil {
		return err
	}
	id := req.GetEncounterId()
	e, now, err := s.open(ctx, id, true, who)
	if err != nil {
		return err
	}
	if err := mayRead(now, who); err != nil {
		return err
	}
	// A watch starts at an event recorded or at the next one: one from further on would hold
	// a watcher's slot for events it skips (issue 23: from 2^64-1, until the client's deadline).
	if next := now.GetSequence() + 1; req.GetFromSequence() > next {
		return status.Errorf(codes.OutOfRange, "encounter %q is at sequence %d; a watch starts at most at %d, the next event", now.GetName(), now.GetSequence(), next)
	}
	ended := func() error {
		return status.Error(codes.Canceled, "the watch ended: the client left or the server is shutting down")
	}
	role := engine.RoleOf(now, who.principal)
	table := role == engine.RoleGM || role == engine.RoleCoGM || role == engine.RolePlayer
	w, err := s.watches.join(ctx, id, who.principal, table, func() (uint64, *encounterv1.EncounterState) {
		e.mu.Lock()
		defer e.mu.Unlock()
		return e.position, proto.CloneOf(e.state)
	})
	if err != nil {
		if ctx.Err() != nil {
			return ended()
		}
		return err
	}
	defer s.watches.leave(w)
	from := max(req.GetFromSequence(), 1)
	start, folded := s.watchStart(ctx, id, e, from)
	// Events up to now are seen as the caller may see them now; each later one as the caller
	// could when it was recorded.
	v := viewer(now, who.principal)
	// The headers tell the client the watch is under way: nothing recorded from now on can
	// be missed, even if no event comes for a while.
	if err := stream.SendHeader(metadata.MD{}); err != nil {
		return err
	}
	// send folds the record's events and sends those from `from` on; errStop: the end.
	send := func(r store.Record) error {
		for _, ev := range r.Batch.GetEvents() {
			if ev.GetSequence() <= folded.GetSequence() {
				continue // folded already (a snapshot's, or a record read twice)
			}
			if ev.GetSequence() > now.GetSequence() {
				v = viewer(folded, who.principal)
			}
			var seen *encounterv1.Event
			var text string
			if ev.GetSequence() >= from {
				seen = s.reg.ViewEvent(folded, ev, v)
				text = tell.line(folded, seen, v)
			}
			if err := s.reg.Evolve(folded, ev); err != nil {
				return status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
			}
			if seen != nil {
				if err := stream.Send(&encounterv1.WatchEncounterResponse{Event: seen, Narration: text}); err != nil {
					return err
				}
			}
			if ev.GetEncounterEnded() != nil {
				return store.ErrStop
			}
			if ev.GetSequence() > now.GetSequence() && !engine.MayRead(folded, who.principal) {
				return platform.Refused(codes.PermissionDenied, platform.ReasonNoRole, nil, "%s no longer has a role in %s: the watch ends", who.principal, folded.GetName())
			}
		}
		return nil
	}
	// sendLive sends a live record's events from `from` on, with the states before them and
	// the views of them the hub made once for every watcher (states shared: never changed).
	sendLive := func(l *live) error {
		for i, ev := range l.Batch.GetEvents() {
			if ev.GetSequence() <= folded.GetSequence() {
				continue
			}
			if l.states[i].GetSequence() != folded.GetSequence() {
				// Not the state this watch folded to: fold its own copy, as a lone watch would.
				folded = proto.CloneOf(folded)
				if err := send(store.Record{Position: l.Position, Batch: &encounterv1.EventBatch{Events: []*encounterv1.Event{ev}}}); err != nil {
					return err
				}
				continue
			}
			if ev.GetSequence() > now.GetSequence() {
				v = viewer(l.states[i], who.principal)
			}
			folded = l.states[i+1]
			if ev.GetSequence() >= from {
				seen := l.view(i, v)
				if err := stream.Send(&encounterv1.WatchEncounterResponse{Event: seen, Narration: l.narration(i, v, tell, seen)}); err != nil {
					return err
				}
			}
			if ev.GetEncounterEnded() != nil {
				return store.ErrStop
			}
			if ev.GetSequence() > now.GetSequence() && !engine.MayRead(folded, who.principal) {
				return platform.Refused(codes.PermissionDenied, platform.ReasonNoRole, nil, "%s no longer has a role in %s: the watch ends", who.principal, folded.GetName())
			}
		}
		return nil
	}
	// cutOff is the status of a watcher the hub no longer feeds.
	cutOff := func() error {
		if w.why != errFellBehind {
			return w.why
		}
		return platform.Refuse(LimitWatchBuffer,
			"this watch fell %d records behind the encounter and was cut off so as not to hold up the others: read faster, or watch again with from_sequence %d to resume where it stopped",
			s.opts.WatchBuffer, max(from, folded.GetSequence()+1))
	}
	finish := func(err error) error {
		switch {
		case err == nil || errors.Is(err, store.ErrStop):
			return nil
		case ctx.Err() != nil:
			return ended()
		}
		return unavailable(err)
	}
	// Catch up from the log, a page at a time.
	after := start
	for {
		page, err := s.events.Page(ctx, id, after, catchUpPage)
		if err != nil {
			return finish(err)
		}
		if len(page) == 0 {
			break
		}
		for _, r := range page {
			if err := send(r); err != nil {
				return finish(err)
			}
			after = r.Position
		}
		select {
		case <-w.cut:
			return cutOff()
		default:
		}
	}
	// Then live, from the hub.
	for {
		select { // a watcher cut off ends at once, without sending what it had buffered
		case <-w.cut:
			return cutOff()
		default:
		}
		select {
		case <-ctx.Done():
			return ended()
		case <-w.cut:
			return cutOff()
		case l := <-w.records:
			if l.Position <= after {
				continue // read in the catch-up
			}
			if err := sendLive(l); err != nil {
				return finish(err)
			}
			after = l.Position
		}
	}
}

// watchStart is the log position after which a watch from event sequence from must read,
// with the state at that position: the encounter's last record for a watch of what comes
// next, the latest snapshot's record when from is past it, otherwise the start. Events
// before from in the records read are folded, not sent.
func (s *Service) watchStart(ctx context.Context, id string, e *entry, from uint64) (uint64, *encounterv1.EncounterState) {
	e.mu.Lock()
	seq, pos, st := e.state.GetSequence(), e.position, proto.CloneOf(e.state)
	e.mu.Unlock()
	if from > seq {
		return pos, st
	}
	if snap := s.snapshot(ctx, id); snap != nil && from > snap.GetState().GetSequence() {
		return snap.GetPosition(), snap.GetState()
	}
	return 0, &encounterv1.EncounterState{EncounterId: id}
}
