package encounter

import (
	"bytes"
	"context"
	"strconv"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

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

// commandID is the command id given, or a new one (a UUID) when none is. Its length and
// characters were checked by the validation in front of the handlers.
func commandID(id string) string {
	if id == "" {
		return uuid.NewString()
	}
	return id
}

// recall returns what a command already recorded at position, if who gave it and it is
// cmd (by its digest).
func (s *Service) recall(ctx context.Context, id string, e *entry, position uint64, who caller, cmd *encounterv1.Command, digest []byte) (outcome, error) {
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

// own is what the service checks of a command it gives itself (an end for idleness: idle.go),
// on the entry as it is at each attempt (e.mu held): it may refuse the command, and names its
// command id, derived from the entry, so that replicas giving it on the same state give it
// under one id.
type own func(ctx context.Context, e *entry) (cmdID string, err error)

// executeAs decides and records one command of who on an existing encounter; with mine set, a
// command of the service itself, which needs no role in the encounter.
func (s *Service) executeAs(ctx context.Context, who caller, row access, id, cmdID string, expected *uint64, cmd *encounterv1.Command, mine own) (outcome, error) {
	given := cmdID != "" // an id the service draws (a UUID) is new: not looked up
	cmdID = commandID(cmdID)
	if cmd.GetCreate() != nil {
		return outcome{}, refusal.BadRequest("command.create", "create an encounter with CreateEncounter")
	}
	c := &command{s: s, who: who, row: row, id: id, cmdID: cmdID, given: given, expected: expected, cmd: cmd, mine: mine,
		digest: engine.CommandDigest(cmd, who.principal)}
	return s.update(ctx, id, write{decide: c.decide, recall: c.recall})
}

// command is one command given to an existing encounter, as update decides it.
type command struct {
	s         *Service
	who       caller
	row       access // the RPC's access, by which the caller's role is checked
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
	} else if err := c.row.admits(e.state, c.who, c.cmd); err != nil {
		// A stranger of the tenant may only join (if the GM allows it): nothing else of
		// the encounter, not even its sequence, is told.
		return decided{}, stale(err)
	}
	if c.given {
		ref, found, err := s.commandAt(ctx, c.id, e, cmdID)
		if err != nil {
			return decided{}, err
		}
		if found {
			o, err := c.recall(ctx, e, ref.position)
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
	err := refusal.New(codes.FailedPrecondition, refusal.ReasonSequenceMismatch,
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
	if err != nil && refusedByRules(err) {
		return nil, stale(err)
	}
	return resp, err
}

// recall answers the command as the log recorded it at position, if who gave it and it is
// this command (by its digest).
func (c *command) recall(ctx context.Context, e *entry, position uint64) (outcome, error) {
	return c.s.recall(ctx, c.id, e, position, c.who, c.cmd, c.digest)
}

// run executes a command and returns what the caller may see of its events and of the state
// after them.
func (s *Service) run(ctx context.Context, req encounterRequest, cmdID string, expected *uint64, cmd *encounterv1.Command) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	events, st, _, err := s.runTold(ctx, req, cmdID, expected, cmd, nil)
	return events, st, err
}

// runTold is run, with the narration of the events the caller sees by t (none for a nil t).
func (s *Service) runTold(ctx context.Context, req encounterRequest, cmdID string, expected *uint64, cmd *encounterv1.Command, t *teller) ([]*encounterv1.Event, *encounterv1.EncounterState, []string, error) {
	id := req.GetEncounterId()
	who, err := callerOf(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	o, err := s.executeAs(ctx, who, accessOf(req), id, cmdID, expected, cmd, nil)
	s.countCommand(id, o, err)
	if err != nil {
		return nil, nil, nil, err
	}
	events, st, err := s.show(o, who.principal)
	if err != nil {
		return nil, nil, nil, err
	}
	lines, err := s.tell(o, events, who.principal, t)
	return events, st, lines, err
}
