package encounter

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base32"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/refusal"
)

// CreateEncounter creates an encounter of the caller's tenant, its GM the caller, under an id
// derived from the caller and the command id: sent again, it answers with the same one.
func (s *Service) CreateEncounter(ctx context.Context, req *encounterv1.CreateEncounterRequest) (_ *encounterv1.CreateEncounterResponse, err error) {
	defer func() { s.commandDone(req.GetEncounter().GetRuleSystem(), err) }()
	who, err := callerOf(ctx)
	if err != nil {
		return nil, err
	}
	cmdID := commandID(req.GetCommandId())
	if req.GetEncounter() == nil {
		return nil, refusal.BadRequest("encounter", "no encounter given: name it and choose its rule system")
	}
	// The same create sent again, or many times at once, names one encounter: its id comes
	// from the caller and the command id.
	id := createdID(who.principal, cmdID)
	if err := s.checkOpenEncounters(ctx, who); err != nil {
		return nil, err
	}
	cmd := &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: req.GetEncounter()}}
	c := &creation{s: s, who: who, id: id, cmdID: cmdID, cmd: cmd, digest: engine.CommandDigest(cmd, who.principal)}
	o, err := s.update(ctx, id, write{creates: true, decide: c.decide, recall: c.recall})
	if err != nil {
		return nil, err
	}
	seen, st, err := s.show(o, who.principal)
	if err != nil {
		return nil, err
	}
	return &encounterv1.CreateEncounterResponse{EncounterId: o.after.GetEncounterId(), Events: seen, State: st}, nil
}

// creation is one CreateEncounter, as update decides it.
type creation struct {
	s         *Service
	who       caller
	id, cmdID string
	cmd       *encounterv1.Command
	digest    []byte
}

// decide has the rules decide the creation with a new dice seed; or, if the encounter exists
// already (this command sent before, or at the same time), answers with its first record,
// if that is this command.
func (c *creation) decide(ctx context.Context, e *entry) (decided, error) {
	s := c.s
	if e.position != 0 {
		first, err := s.events.Page(ctx, c.id, 0, 1)
		if err != nil {
			return decided{}, unavailable(err)
		}
		if len(first) == 0 || len(first[0].Batch.GetEvents()) == 0 || first[0].Batch.GetEvents()[0].GetCommandId() != c.cmdID {
			return decided{}, reused(c.cmdID)
		}
		o, err := c.recall(ctx, e, first[0].Position)
		return decided{done: &o}, err
	}
	seed := s.opts.NewSeed()
	events, err := c.resolve(ctx, seed)
	if err != nil {
		return decided{}, err
	}
	// Only a create the rules accept stores a seed, and only one: the first stored for this
	// id is the encounter's, and a create that finds one decides again with it.
	stored, err := s.seeds.SeedOnce(ctx, c.id, seed)
	if err != nil {
		return decided{}, unavailable(err)
	}
	if !bytes.Equal(stored, seed) {
		if events, err = c.resolve(ctx, stored); err != nil {
			return decided{}, err
		}
	}
	return decided{events: events, msgID: "create/" + c.who.principal + "/" + c.cmdID, cmdID: c.cmdID, digest: c.digest}, nil
}

// resolve decides the creation with seed, on a state of the creator's tenant: the encounter
// belongs to it.
func (c *creation) resolve(ctx context.Context, seed []byte) ([]*encounterv1.Event, error) {
	resp, err := c.s.decider.Resolve(ctx, &rulesv1.ResolveRequest{State: &encounterv1.EncounterState{EncounterId: c.id, Tenant: c.who.tenant},
		Command: c.cmd, Actor: c.who.principal, Seed: seed})
	if err != nil {
		return nil, err
	}
	c.s.stamp(resp.GetEvents(), c.cmdID, c.cmd, c.digest)
	return resp.GetEvents(), nil
}

// recall answers the creation the log holds at position, if it is this command of this
// caller. A record found by its de-duplication id may be of another encounter (created
// under an id drawn at random, before ids were derived): that one is answered.
func (c *creation) recall(ctx context.Context, e *entry, position uint64) (outcome, error) {
	r, err := c.s.events.Get(ctx, position)
	if err != nil {
		return outcome{}, unavailable(err)
	}
	events := r.Batch.GetEvents()
	if len(events) == 0 || events[0].GetEncounterCreated() == nil || events[0].GetActor() != c.who.principal || !sameCommand(events[0], nil, c.cmd, c.digest) {
		return outcome{}, reused(c.cmdID)
	}
	after := e.state
	if id := events[0].GetEncounterId(); id != c.id {
		other, err := c.s.entry(ctx, id, true, store.AtLeast(position))
		if err != nil {
			return outcome{}, err
		}
		other.mu.Lock()
		after = other.state // never changed: a command replaces it (states.go)
		other.mu.Unlock()
	}
	return outcome{events: events, before: &encounterv1.EncounterState{EncounterId: events[0].GetEncounterId()}, after: after}, nil
}

// createdID is the id of the encounter that principal's CreateEncounter with command id
// cmdID creates: derived from both, so that the same create sent again, or sent many times
// at once, names one encounter (and one dice seed), whenever it is sent.
func createdID(principal, cmdID string) string {
	h := sha256.Sum256([]byte("fray encounter id\x00" + principal + "\x00" + cmdID))
	return "enc-" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(h[:10]))
}
