package encounter

import (
	"bytes"
	"context"
	"errors"
	"strconv"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

func unavailable(err error) error {
	if _, ok := status.FromError(err); ok {
		return err
	}
	if down := (*store.UnavailableError)(nil); errors.As(err, &down) {
		if down.MayHaveWritten {
			return status.Errorf(codes.Unavailable, "the event log did not confirm this command (%s): it may have been recorded; send it again with the same command id, or read the encounter first", down.Why)
		}
		return status.Errorf(codes.Unavailable, "the event log is unreachable (%s); nothing was recorded, try again", down.Why)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return platform.Status(err)
	}
	return status.Errorf(codes.Unavailable, "the event log is unavailable: %v", err)
}

// stamp fills in what the service adds to the decided events: ids, time, the command id, and
// the command and its digest on the first event.
func (s *Service) stamp(events []*encounterv1.Event, commandID string, cmd *encounterv1.Command, digest []byte) {
	now := timestamppb.New(s.opts.Now())
	for i, ev := range events {
		ev.EventId = uuid.Must(uuid.NewV7()).String()
		ev.Time = now
		ev.CommandId = commandID
		if i == 0 {
			ev.Command, ev.CommandDigest = cmd, digest
		}
	}
}

// reused refuses a command id already recorded for another command.
func reused(cmdID string) error {
	return status.Errorf(codes.AlreadyExists, "command id %q was already used for another command; use a new id (or none)", cmdID)
}

// sameCommand reports whether the command recorded with first (the first event of its
// record; recordedDigest, its digest if known) is cmd given by actor: by the digest recorded
// with it, or, for a record without one (recorded before digests were), by the recorded
// command itself.
func sameCommand(first *encounterv1.Event, recordedDigest []byte, cmd *encounterv1.Command, digest []byte) bool {
	if len(recordedDigest) == 0 {
		recordedDigest = first.GetCommandDigest()
	}
	if len(recordedDigest) > 0 {
		return bytes.Equal(recordedDigest, digest)
	}
	return proto.Equal(first.GetCommand(), cmd)
}

func commandID(id string) (string, error) {
	if len(id) > MaxCommandIDLength {
		return "", platform.BadRequest("command_id", "a command id has at most %d characters", MaxCommandIDLength)
	}
	if id == "" {
		return uuid.NewString(), nil
	}
	return id, nil
}

// outcome is what a command recorded: its events, the state before them and the state after.
type outcome struct {
	events        []*encounterv1.Event
	before, after *encounterv1.EncounterState
}

// seen returns the outcome as principal may see it: each event viewed with the state before
// it, and the state after them, by what principal may see now.
// o.before and o.after are not changed.
func (s *Service) seen(o outcome, principal string) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	v := viewer(o.after, principal)
	out := make([]*encounterv1.Event, 0, len(o.events))
	if v.SeesAll && o.before.GetRuleSystem() != "" {
		// Nothing is hidden from a GM: the state before an event tells ViewEvent only who is
		// hidden, and its rule system, which the encounter's events do not change once it is
		// created. So every event is viewed with the state before the first, none folded.
		for _, ev := range o.events {
			out = append(out, s.reg.ViewEvent(o.before, ev, v))
		}
		return out, s.reg.View(o.after, v), nil
	}
	st := o.before
	for i, ev := range o.events {
		out = append(out, s.reg.ViewEvent(st, ev, v))
		if i == len(o.events)-1 {
			break // the state after the last event is o.after
		}
		if i == 0 {
			st = nextState(st) // folded into a copy: o.before is not changed
		}
		if err := s.reg.Evolve(st, ev); err != nil {
			return nil, nil, status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
		}
	}
	return out, s.reg.View(o.after, v), nil
}

// recorded returns what a command already recorded at position, if who gave it and it is
// cmd (by its digest).
func (s *Service) recorded(ctx context.Context, id string, e *entry, position uint64, who caller, cmd *encounterv1.Command, digest []byte) (outcome, error) {
	r, err := s.events.Get(ctx, position)
	if err != nil {
		return outcome{}, unavailable(err)
	}
	events := r.Batch.GetEvents()
	if len(events) == 0 || events[0].GetActor() != who.principal {
		return outcome{}, status.Errorf(codes.AlreadyExists, "command id %q was used by someone else in %s; send this command with a fresh id (or none)",
			events[0].GetCommandId(), e.state.GetName())
	}
	ref, _, _ := e.cmds.lookup(events[0].GetCommandId())
	if !sameCommand(events[0], ref.digest, cmd, digest) {
		return outcome{}, reused(events[0].GetCommandId())
	}
	before, err := s.stateAt(ctx, id, events[0].GetSequence()-1, e.position)
	if err != nil {
		return outcome{}, err
	}
	return outcome{events: events, before: before, after: e.state}, nil
}

// execute decides and records one command of the caller on an existing encounter.
func (s *Service) execute(ctx context.Context, id, cmdID string, expected *uint64, cmd *encounterv1.Command) (outcome, error) {
	who, err := callerOf(ctx)
	if err != nil {
		return outcome{}, err
	}
	return s.executeAs(ctx, who, id, cmdID, expected, cmd, nil)
}

// own is what the service checks of a command it gives itself (an end for idleness: idle.go),
// on the entry as it is at each attempt (e.mu held): it may refuse the command, and names its
// command id, derived from the entry, so that replicas giving it on the same state give it
// under one id.
type own func(ctx context.Context, e *entry) (cmdID string, err error)

// executeAs decides and records one command of who on an existing encounter; with mine set, a
// command of the service itself, which needs no role in the encounter.
func (s *Service) executeAs(ctx context.Context, who caller, id, cmdID string, expected *uint64, cmd *encounterv1.Command, mine own) (outcome, error) {
	given := cmdID != "" // an id the service draws (a UUID) is new: not looked up
	var err error
	if cmdID, err = commandID(cmdID); err != nil {
		return outcome{}, err
	}
	if cmd.GetCreate() != nil {
		return outcome{}, platform.BadRequest("command.create", "create an encounter with CreateEncounter")
	}
	if size := proto.Size(cmd); size > MaxRequestBytes {
		return outcome{}, platform.Refuse(LimitRequestBytes, "this command takes %d bytes; a command may take at most %d", size, MaxRequestBytes)
	}
	digest := engine.CommandDigest(cmd, who.principal)
	e, err := s.entry(ctx, id, false)
	if err != nil {
		return outcome{}, err
	}
	// A snapshot taken under the entry's lock is written after it is released (deferred
	// calls run last first).
	var snap *pendingSnapshot
	defer func() { s.writeSnapshot(ctx, id, e, snap) }()
	e.mu.Lock()
	defer e.mu.Unlock()
	// What this service holds may be behind the log (another replica recorded since): before
	// refusing a command on it, the log is read once, as its leader holds it (a lagging copy
	// would refuse on the same stale state), and if it holds more, the command is looked at
	// again on what it holds.
	refreshed := false
	behind := func() (bool, error) {
		if refreshed {
			return false, nil
		}
		refreshed = true
		at := e.position
		if err := s.refresh(ctx, id, e, store.Latest()); err != nil {
			return false, err
		}
		return e.position != at, nil
	}
	for attempt := 1; ; {
		// Tenancy first: to another tenant, the encounter does not exist.
		if e.state.GetTenant() == "" || e.state.GetTenant() != who.tenant {
			return outcome{}, noEncounter(id)
		}
		if mine != nil {
			if cmdID, err = mine(ctx, e); err != nil {
				return outcome{}, err
			}
		} else if engine.RoleOf(e.state, who.principal) == engine.RoleNone && cmd.GetAddCombatant() == nil {
			// A stranger of the tenant may only join (if the GM allows it): nothing else of
			// the encounter, not even its sequence, is told.
			if again, err := behind(); err != nil {
				return outcome{}, err
			} else if again {
				continue
			}
			return outcome{}, noRole(id, who, "only its GM, co-GMs and players give it commands")
		}
		if given {
			ref, found, err := s.commandAt(ctx, id, e, cmdID)
			if err != nil {
				return outcome{}, err
			}
			if found {
				return s.recorded(ctx, id, e, ref.position, who, cmd, digest)
			}
		}
		if expected != nil && *expected != e.state.GetSequence() {
			// A client ahead of this service read what another replica recorded.
			if *expected > e.state.GetSequence() {
				if again, err := behind(); err != nil {
					return outcome{}, err
				} else if again {
					continue
				}
			}
			return outcome{}, platform.Refused(codes.FailedPrecondition, platform.ReasonSequenceMismatch,
				map[string]string{"sequence": strconv.FormatUint(e.state.GetSequence(), 10), "expected": strconv.FormatUint(*expected, 10)},
				"encounter %q is at sequence %d, not at the %d this command expected; reload it and decide again",
				e.state.GetName(), e.state.GetSequence(), *expected)
		}
		seed, err := s.seedOf(ctx, id, e)
		if err != nil {
			return outcome{}, err
		}
		req := &rulesv1.ResolveRequest{State: e.state, Command: cmd, Actor: who.principal, Seed: seed}
		if rw := cmd.GetRewind(); rw != nil && rw.GetToSequence() >= 1 && rw.GetToSequence() < e.state.GetSequence() {
			if req.RewindState, err = s.stateAt(ctx, id, rw.GetToSequence(), e.position); err != nil {
				return outcome{}, err
			}
		}
		resp, err := s.decider.Resolve(ctx, req)
		if err != nil {
			// A refusal by the rules may come from a state behind the log.
			if refusal(err) {
				if again, err := behind(); err != nil {
					return outcome{}, err
				} else if again {
					continue
				}
			}
			return outcome{}, err
		}
		events := resp.GetEvents()
		s.stamp(events, cmdID, cmd, digest)
		batch := &encounterv1.EventBatch{Events: events}
		if err := s.checkLimits(e.state, e.stateBytes, batch); err != nil {
			return outcome{}, err
		}
		app, err := s.appendRecord(ctx, id, e.position, id+"/"+cmdID, batch)
		switch {
		case errors.Is(err, store.ErrConflict):
			if attempt >= s.opts.MaxAttempts {
				return outcome{}, status.Errorf(codes.Aborted,
					"encounter %q changed under this command %d times in a row; nothing was recorded, try again", e.state.GetName(), attempt)
			}
			// The log moved past e.position: read it as its leader holds it, not from a copy
			// that may not hold the record this append collided with.
			if err := s.refresh(ctx, id, e, store.Latest()); err != nil {
				return outcome{}, err
			}
			s.obs.retried()
			attempt++
			refreshed = true // what follows is decided on the log as it is now
			continue
		case err != nil:
			return outcome{}, unavailable(err)
		case app.Duplicate:
			if err := s.refresh(ctx, id, e, store.AtLeast(app.Position)); err != nil {
				return outcome{}, err
			}
			return s.recorded(ctx, id, e, app.Position, who, cmd, digest)
		}
		// The events are folded into a copy that replaces the state: the state before them
		// stays as it is, for the answer (states.go).
		before, next := e.state, nextState(e.state)
		for _, ev := range events {
			if err := s.reg.Evolve(next, ev); err != nil {
				e.loaded = false
				return outcome{}, status.Errorf(codes.Internal, "recorded event %d cannot be folded: %v", ev.GetSequence(), err)
			}
		}
		e.state = next
		e.position = app.Position
		e.cmds.add(cmdID, app.Position, digest)
		e.last = events[len(events)-1].GetTime().AsTime()
		s.account(e)
		snap = s.snapshotDue(e, before.GetSequence())
		s.indexed(ctx, e)
		s.forgetSeed(ctx, id, e, events)
		// Only when the decider sent the hash (a sample of the commands: RemoteDecider) is the
		// state hashed here too: two hashes of the whole state per command are what the check
		// costs, and a resolver that folds otherwise shows within a sample.
		if want := resp.GetStateSha256(); want != nil && !bytes.Equal(engine.Hash(e.state), want) {
			s.log.WarnContext(ctx, "the resolver and this service fold to different states; the log is the truth",
				"encounter", id, "sequence", e.state.GetSequence())
		}
		return outcome{events: events, before: before, after: e.state}, nil
	}
}

// refusal reports whether err is the rules' refusal of a command (one that a fresher state
// may not refuse), not a failure to decide it.
func refusal(err error) bool {
	switch status.Code(err) {
	case codes.FailedPrecondition, codes.InvalidArgument, codes.PermissionDenied, codes.NotFound, codes.OutOfRange, codes.AlreadyExists:
		return true
	}
	return false
}

// run executes a command and returns what the caller may see of its events and of the state
// after them.
func (s *Service) run(ctx context.Context, id, cmdID string, expected *uint64, cmd *encounterv1.Command) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	o, err := s.execute(ctx, id, cmdID, expected, cmd)
	s.ran(id, o, err)
	if err != nil {
		return nil, nil, err
	}
	return s.seen(o, platform.Principal(ctx))
}
