package encounter

// WatchEncounter: catch-up from the log, then the live records of the watch hub (watch.go).

import (
	"context"
	"errors"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/refusal"
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
	// With a language, one narrator for this stream, fed the events as this caller sees them.
	tell, err := s.tellerFor(req.GetLanguage())
	if err != nil {
		return err
	}
	id := req.GetEncounterId()
	e, now, who, err := s.read(ctx, req)
	if err != nil {
		return err
	}
	// A watch starts at an event recorded or at the next one: one from further on would hold
	// a watcher's slot for events it skips (issue 23: from 2^64-1, until the client's deadline).
	if next := now.GetSequence() + 1; req.GetFromSequence() > next {
		return status.Errorf(codes.OutOfRange, "encounter %q is at sequence %d; a watch starts at most at %d, the next event", now.GetName(), now.GetSequence(), next)
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
			return watchEnded()
		}
		return err
	}
	defer s.watches.leave(w)
	// Events up to now are seen as the caller may see them now; each later one as the caller
	// could when it was recorded.
	ws := &watchStream{s: s, ctx: ctx, stream: stream, w: w, who: who, tell: tell, now: now, v: viewer(now, who.principal),
		from: max(req.GetFromSequence(), 1)}
	var start uint64
	start, ws.folded = s.watchStart(ctx, id, e, ws.from)
	// The headers tell the client the watch is under way: nothing recorded from now on can
	// be missed, even if no event comes for a while.
	if err := stream.SendHeader(metadata.MD{}); err != nil {
		return err
	}
	after, done, err := ws.catchUp(id, start)
	if done {
		return err
	}
	// Caught up: every event recorded before the watch began is sent; what follows is live.
	if req.GetMarkCaughtUp() {
		if err := stream.Send(&encounterv1.WatchEncounterResponse{CaughtUp: true}); err != nil {
			return err
		}
	}
	return ws.live(after)
}

// watchEnded is the end of a watch whose client left or whose server is shutting down.
func watchEnded() error {
	return status.Error(codes.Canceled, "the watch ended: the client left or the server is shutting down")
}

// watchStream is one watch under way: what it has folded and sent.
type watchStream struct {
	s      *Service
	ctx    context.Context
	stream grpc.ServerStreamingServer[encounterv1.WatchEncounterResponse]
	w      *watcher
	who    caller
	tell   *teller
	now    *encounterv1.EncounterState // the state when the watch began
	folded *encounterv1.EncounterState // the state after the last event folded
	v      engine.Viewer               // what the caller may see
	from   uint64                      // the first sequence sent
}

// send folds the record's events and sends those from `from` on; store.ErrStop: the end.
func (ws *watchStream) send(r store.Record) error {
	for _, ev := range r.Batch.GetEvents() {
		if ev.GetSequence() <= ws.folded.GetSequence() {
			continue // folded already (a snapshot's, or a record read twice)
		}
		if ev.GetSequence() > ws.now.GetSequence() {
			ws.v = viewer(ws.folded, ws.who.principal)
		}
		var seen *encounterv1.Event
		var text string
		wasOver := false
		if ev.GetSequence() >= ws.from {
			seen = ws.s.reg.ViewEvent(ws.folded, ev, ws.v)
			text, wasOver = ws.tell.line(ws.folded, seen, ws.v), ws.tell.over(ws.folded)
		}
		if err := ws.s.reg.Evolve(ws.folded, ev); err != nil {
			return status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
		}
		if seen != nil {
			text += ws.tell.ended(wasOver, ws.folded)
		}
		if seen != nil {
			if err := ws.stream.Send(&encounterv1.WatchEncounterResponse{Event: seen, Narration: text}); err != nil {
				return err
			}
		}
		if err := ws.stop(ev); err != nil {
			return err
		}
	}
	return nil
}

// stop ends the watch after ev if it ends the encounter (store.ErrStop), or if the caller
// no longer has a role in it.
func (ws *watchStream) stop(ev *encounterv1.Event) error {
	if ev.GetEncounterEnded() != nil {
		return store.ErrStop
	}
	if ev.GetSequence() > ws.now.GetSequence() && !engine.MayRead(ws.folded, ws.who.principal) {
		return refusal.New(codes.PermissionDenied, refusal.ReasonNoRole, nil, "%s no longer has a role in %s: the watch ends", ws.who.principal, ws.folded.GetName())
	}
	return nil
}

// sendLive sends a live record's events from `from` on, with the states before them and
// the views of them the hub made once for every watcher (states shared: never changed).
func (ws *watchStream) sendLive(l *live) error {
	for i, ev := range l.Batch.GetEvents() {
		if ev.GetSequence() <= ws.folded.GetSequence() {
			continue
		}
		if l.states[i].GetSequence() != ws.folded.GetSequence() {
			// Not the state this watch folded to: fold its own copy, as a lone watch would.
			ws.folded = proto.CloneOf(ws.folded)
			if err := ws.send(store.Record{Position: l.Position, Batch: &encounterv1.EventBatch{Events: []*encounterv1.Event{ev}}}); err != nil {
				return err
			}
			continue
		}
		if ev.GetSequence() > ws.now.GetSequence() {
			ws.v = viewer(l.states[i], ws.who.principal)
		}
		ws.folded = l.states[i+1]
		if ev.GetSequence() >= ws.from {
			seen := l.view(i, ws.v)
			if err := ws.stream.Send(&encounterv1.WatchEncounterResponse{Event: seen, Narration: l.narration(i, ws.v, ws.tell, seen)}); err != nil {
				return err
			}
		}
		if err := ws.stop(ev); err != nil {
			return err
		}
	}
	return nil
}

// cutOff is the status of a watcher the hub no longer feeds.
func (ws *watchStream) cutOff() error {
	if ws.w.why != errFellBehind {
		return ws.w.why
	}
	return refusal.OverLimit(LimitWatchBuffer,
		"this watch fell %d records behind the encounter and was cut off so as not to hold up the others: read faster, or watch again with from_sequence %d to resume where it stopped",
		ws.s.opts.WatchBuffer, max(ws.from, ws.folded.GetSequence()+1))
}

// finish is the end of the watch by err.
func (ws *watchStream) finish(err error) error {
	switch {
	case err == nil || errors.Is(err, store.ErrStop):
		return nil
	case ws.ctx.Err() != nil:
		return watchEnded()
	}
	return unavailable(err)
}

// catchUp sends what the log holds after position start, a page at a time; it returns the
// position of the last record read, or done and how the watch ends (the encounter ended:
// nil).
func (ws *watchStream) catchUp(id string, start uint64) (after uint64, done bool, _ error) {
	after = start
	for {
		page, err := ws.s.events.Page(ws.ctx, id, after, catchUpPage)
		if err != nil {
			return 0, true, ws.finish(err)
		}
		if len(page) == 0 {
			return after, false, nil
		}
		for _, r := range page {
			if err := ws.send(r); err != nil {
				return 0, true, ws.finish(err)
			}
			after = r.Position
		}
		select {
		case <-ws.w.cut:
			return 0, true, ws.cutOff()
		default:
		}
	}
}

// live sends the records of the hub after position after, until the watch ends.
func (ws *watchStream) live(after uint64) error {
	for {
		select { // a watcher cut off ends at once, without sending what it had buffered
		case <-ws.w.cut:
			return ws.cutOff()
		default:
		}
		select {
		case <-ws.ctx.Done():
			return watchEnded()
		case <-ws.w.cut:
			return ws.cutOff()
		case l := <-ws.w.records:
			if l.Position <= after {
				continue // read in the catch-up
			}
			if err := ws.sendLive(l); err != nil {
				return ws.finish(err)
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
