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
	c := &command{s: s, who: who, id: id, cmdID: cmdID, given: given, expected: expected, cmd: cmd, mine: mine,
		digest: engine.CommandDigest(cmd, who.principal)}
	return s.update(ctx, id, write{decide: c.decide, recorded: c.recorded})
}

// command is one command given to an existing encounter, as update decides it.
type command struct {
	s         *Service
	who       caller
	id, cmdID string
	given     bool // the caller named its command id: it may have been recorded already
	expected  *uint64
	cmd       *encounterv1.Command
	digest    []byte
	mine      own
}

// decide checks the command on the entry as it is (e.mu held) and has the rules decide it.
func (c *command) decide(ctx context.Context, e *entry) (decided, error) {
	s, cmdID := c.s, c.cmdID
	// Tenancy first: to another tenant, the encounter does not exist.
	if e.state.GetTenant() == "" || e.state.GetTenant() != c.who.tenant {
		return decided{}, noEncounter(c.id)
	}
	if c.mine != nil {
		var err error
		if cmdID, err = c.mine(ctx, e); err != nil {
			return decided{}, err
		}
	} else if engine.RoleOf(e.state, c.who.principal) == engine.RoleNone && c.cmd.GetAddCombatant() == nil {
		// A stranger of the tenant may only join (if the GM allows it): nothing else of
		// the encounter, not even its sequence, is told.
		return decided{}, stale(noRole(c.id, c.who, "only its GM, co-GMs and players give it commands"))
	}
	if c.given {
		ref, found, err := s.commandAt(ctx, c.id, e, cmdID)
		if err != nil {
			return decided{}, err
		}
		if found {
			o, err := c.recorded(ctx, e, ref.position)
			return decided{done: &o}, err
		}
	}
	if err := c.expect(e.state); err != nil {
		return decided{}, err
	}
	resp, err := c.resolve(ctx, e)
	if err != nil {
		return decided{}, err
	}
	events := resp.GetEvents()
	s.stamp(events, cmdID, c.cmd, c.digest)
	return decided{events: events, msgID: c.id + "/" + cmdID, cmdID: cmdID, digest: c.digest, hash: resp.GetStateSha256()}, nil
}

// expect refuses a command that expected another sequence than st's; one that expected a
// later one comes from a client that read what another replica recorded (stale).
func (c *command) expect(st *encounterv1.EncounterState) error {
	if c.expected == nil || *c.expected == st.GetSequence() {
		return nil
	}
	err := platform.Refused(codes.FailedPrecondition, platform.ReasonSequenceMismatch,
		map[string]string{"sequence": strconv.FormatUint(st.GetSequence(), 10), "expected": strconv.FormatUint(*c.expected, 10)},
		"encounter %q is at sequence %d, not at the %d this command expected; reload it and decide again",
		st.GetName(), st.GetSequence(), *c.expected)
	if *c.expected > st.GetSequence() {
		return stale(err)
	}
	return err
}

// resolve has the decider decide the command on the entry's state (e.mu held); a refusal
// by the rules may come from a state behind the log (stale).
func (c *command) resolve(ctx context.Context, e *entry) (*rulesv1.ResolveResponse, error) {
	s := c.s
	seed, err := s.seedOf(ctx, c.id, e)
	if err != nil {
		return nil, err
	}
	req := &rulesv1.ResolveRequest{State: e.state, Command: c.cmd, Actor: c.who.principal, Seed: seed}
	if rw := c.cmd.GetRewind(); rw != nil && rw.GetToSequence() >= 1 && rw.GetToSequence() < e.state.GetSequence() {
		if req.RewindState, err = s.stateAt(ctx, c.id, rw.GetToSequence(), e.position); err != nil {
			return nil, err
		}
	}
	resp, err := s.decider.Resolve(ctx, req)
	if err != nil && refusal(err) {
		return nil, stale(err)
	}
	return resp, err
}

// recorded answers the command as the log recorded it at position, if who gave it and it is
// this command (by its digest).
func (c *command) recorded(ctx context.Context, e *entry, position uint64) (outcome, error) {
	return c.s.recorded(ctx, c.id, e, position, c.who, c.cmd, c.digest)
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
