package encounter

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform"
	"google.golang.org/protobuf/proto"
)

// createdID is the id of the encounter that principal's CreateEncounter with command id
// cmdID creates: derived from both, so that the same create sent again, or sent many times
// at once, names one encounter (and one dice seed), whenever it is sent.
func createdID(principal, cmdID string) string {
	h := sha256.Sum256([]byte("fray encounter id\x00" + principal + "\x00" + cmdID))
	return "enc-" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(h[:10]))
}

func (s *Service) CreateEncounter(ctx context.Context, req *encounterv1.CreateEncounterRequest) (_ *encounterv1.CreateEncounterResponse, err error) {
	defer func() { s.commandDone(req.GetEncounter().GetRuleSystem(), err) }()
	who, err := callerOf(ctx)
	if err != nil {
		return nil, err
	}
	cmdID, err := commandID(req.GetCommandId())
	if err != nil {
		return nil, err
	}
	if req.GetEncounter() == nil {
		return nil, platform.BadRequest("encounter", "no encounter given: name it and choose its rule system")
	}
	if size := proto.Size(req); size > MaxRequestBytes {
		return nil, platform.Refuse(LimitRequestBytes, "this request takes %d bytes; a request may take at most %d", size, MaxRequestBytes)
	}
	// The same create sent again, or many times at once, names one encounter: its id comes
	// from the caller and the command id.
	id := createdID(who.principal, cmdID)
	if err := s.checkOpenEncounters(ctx, who); err != nil {
		return nil, err
	}
	cmd := &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: req.GetEncounter()}}
	digest := engine.CommandDigest(cmd, who.principal)
	decide := func(seed []byte) (*encounterv1.EventBatch, error) {
		// The encounter belongs to the creator's tenant: the state it is decided against says so.
		resp, err := s.decider.Resolve(ctx, &rulesv1.ResolveRequest{State: &encounterv1.EncounterState{EncounterId: id, Tenant: who.tenant}, Command: cmd, Actor: who.principal, Seed: seed})
		if err != nil {
			return nil, err
		}
		s.stamp(resp.GetEvents(), cmdID, cmd, digest)
		batch := &encounterv1.EventBatch{Events: resp.GetEvents()}
		st := &encounterv1.EncounterState{Name: req.GetEncounter().GetName()}
		return batch, s.checkLimits(st, proto.Size(st), batch)
	}
	seed := s.opts.NewSeed()
	batch, err := decide(seed)
	if err != nil {
		return nil, err
	}
	// Only a create the rules accept stores a seed, and only one: the first stored for this
	// id is the encounter's, and a create that finds one decides again with it.
	stored, err := s.seeds.SeedOnce(ctx, id, seed)
	if err != nil {
		return nil, unavailable(err)
	}
	if !bytes.Equal(stored, seed) {
		if batch, err = decide(stored); err != nil {
			return nil, err
		}
	}
	events := batch.GetEvents()
	var existing uint64 // the position of this command's record, if it was recorded before
	app, err := s.appendRecord(ctx, id, 0, "create/"+who.principal+"/"+cmdID, batch)
	switch {
	case errors.Is(err, store.ErrConflict): // created already, by this command sent before or at the same time
		if _, err := s.entry(ctx, id, true); err != nil { // fresh: as the log's leader holds it
			return nil, err
		}
		// The create is the encounter's first record: this command, if it has this id.
		first, err := s.events.Page(ctx, id, 0, 1)
		if err != nil {
			return nil, unavailable(err)
		}
		if len(first) == 0 || len(first[0].Batch.GetEvents()) == 0 || first[0].Batch.GetEvents()[0].GetCommandId() != cmdID {
			return nil, reused(cmdID)
		}
		existing = first[0].Position
	case err != nil:
		return nil, unavailable(err)
	case app.Duplicate: // recorded within the log's duplicate window (under an id drawn at random, before ids were derived)
		existing = app.Position
	}
	if existing != 0 {
		r, err := s.events.Get(ctx, existing)
		if err != nil {
			return nil, unavailable(err)
		}
		events = r.Batch.GetEvents()
		if len(events) == 0 || events[0].GetEncounterCreated() == nil || events[0].GetActor() != who.principal || !sameCommand(events[0], nil, cmd, digest) {
			return nil, reused(cmdID)
		}
		id = events[0].GetEncounterId()
	}
	// Read back at least the record just appended (or found): a copy of the log that has
	// not applied it yet is not taken for the truth (store.AtLeast).
	e, err := s.entry(ctx, id, true, store.AtLeast(max(app.Position, existing)))
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	after := e.state // never changed: a command replaces it (states.go)
	if existing == 0 {
		s.indexed(ctx, e)
	}
	e.mu.Unlock()
	seen, st, err := s.seen(outcome{events: events, before: &encounterv1.EncounterState{EncounterId: id}, after: after}, who.principal)
	if err != nil {
		return nil, err
	}
	return &encounterv1.CreateEncounterResponse{EncounterId: id, Events: seen, State: st}, nil
}

func (s *Service) AddCombatant(ctx context.Context, req *encounterv1.AddCombatantRequest) (*encounterv1.AddCombatantResponse, error) {
	combatant, err := controllerOf(ctx, req.GetCombatant())
	if err != nil {
		return nil, err
	}
	events, st, err := s.run(ctx, req.GetEncounterId(), req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: combatant, Watched: req.GetWatched()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.AddCombatantResponse{Events: events, State: st}, nil
}

func (s *Service) RemoveCombatant(ctx context.Context, req *encounterv1.RemoveCombatantRequest) (*encounterv1.RemoveCombatantResponse, error) {
	events, st, err := s.run(ctx, req.GetEncounterId(), req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: req.GetCombatantId()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.RemoveCombatantResponse{Events: events, State: st}, nil
}

func (s *Service) StartEncounter(ctx context.Context, req *encounterv1.StartEncounterRequest) (*encounterv1.StartEncounterResponse, error) {
	events, st, err := s.run(ctx, req.GetEncounterId(), req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.StartEncounterResponse{Events: events, State: st}, nil
}

func (s *Service) Submit(ctx context.Context, req *encounterv1.SubmitRequest) (*encounterv1.SubmitResponse, error) {
	if req.GetCommand().GetKind() == nil {
		return nil, platform.BadRequest("command", "no command given")
	}
	cmd := req.GetCommand()
	if add := cmd.GetAddCombatant(); add != nil {
		combatant, err := controllerOf(ctx, add.GetCombatant())
		if err != nil {
			return nil, err
		}
		cmd = &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: combatant, Watched: add.GetWatched()}}}
	}
	events, st, err := s.run(ctx, req.GetEncounterId(), req.GetCommandId(), req.ExpectedSequence, cmd)
	if err != nil {
		return nil, err
	}
	return &encounterv1.SubmitResponse{Events: events, State: st}, nil
}

func (s *Service) EndEncounter(ctx context.Context, req *encounterv1.EndEncounterRequest) (*encounterv1.EndEncounterResponse, error) {
	events, st, err := s.run(ctx, req.GetEncounterId(), req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: req.GetReason()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.EndEncounterResponse{Events: events, State: st}, nil
}

// Paging of ListEncounters.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

func (s *Service) RewindEncounter(ctx context.Context, req *encounterv1.RewindEncounterRequest) (*encounterv1.RewindEncounterResponse, error) {
	events, st, err := s.run(ctx, req.GetEncounterId(), req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{ToSequence: req.GetToSequence(), Reason: req.GetReason()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.RewindEncounterResponse{Events: events, State: st}, nil
}
