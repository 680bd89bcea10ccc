// Package encounter serves fray.encounter.v1.EncounterService: it loads an encounter's state
// (cache, else replay from the log), asks the resolver to decide each command, and appends the
// resulting events to the log, conditionally on the position it last saw.
package encounter

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"strings"
	"sync"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/google/uuid"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Decider decides commands: the resolver, over gRPC or in-process.
type Decider interface {
	Resolve(context.Context, *rulesv1.ResolveRequest) (*rulesv1.ResolveResponse, error)
}

// RemoteDecider asks a RulesService over gRPC.
type RemoteDecider struct{ Client rulesv1.RulesServiceClient }

func (d RemoteDecider) Resolve(ctx context.Context, req *rulesv1.ResolveRequest) (*rulesv1.ResolveResponse, error) {
	return d.Client.Resolve(ctx, req, grpc.WaitForReady(true))
}

// LocalDecider decides in-process with a registry.
type LocalDecider struct{ Registry *engine.Registry }

func (d LocalDecider) Resolve(_ context.Context, req *rulesv1.ResolveRequest) (*rulesv1.ResolveResponse, error) {
	events, next, err := d.Registry.Resolve(req.GetState(), req.GetCommand(), req.GetActor(), req.GetSeed(), req.GetRewindState())
	if err != nil {
		return nil, platform.Status(err)
	}
	return &rulesv1.ResolveResponse{Events: events, StateSha256: engine.Hash(next)}, nil
}

// Options tune a Service; zero values take defaults.
type Options struct {
	// MaxAttempts at a command that keeps losing the race for the encounter (default 3).
	MaxAttempts int
	// Now is the clock stamped on events (default time.Now).
	Now func() time.Time
	// NewSeed makes an encounter's dice seed (default dice.NewSeed, from crypto/rand).
	NewSeed func() []byte
	Log     *slog.Logger
	// Snapshots, when set, keeps a snapshot every SnapshotEvery events (default 8), and a
	// cold load starts from it.
	Snapshots     store.Snapshots
	SnapshotEvery uint64
	// MaxEvents an encounter may record (default 100,000): past it, commands are refused and
	// nothing recorded is touched.
	MaxEvents uint64
	// MaxBatchBytes is the largest encoded record of one command's events (default 512 KiB).
	MaxBatchBytes int
	// MaxCached encounters are kept in memory (default 10,000); past it, one is dropped, to be
	// loaded again (snapshot + tail) when next needed.
	MaxCached int
}

// Service implements EncounterService.
type Service struct {
	encounterv1.UnimplementedEncounterServiceServer
	log     *slog.Logger
	events  store.Log
	seeds   store.Seeds
	decider Decider
	reg     *engine.Registry
	opts    Options

	mu    sync.Mutex
	cache map[string]*entry
}

// entry is an encounter's state as of a log position, with the commands recorded so far.
type entry struct {
	mu       sync.Mutex
	loaded   bool
	state    *encounterv1.EncounterState
	position uint64
	commands map[string]uint64 // command id → position of its record
}

// New returns a Service. reg folds events (Evolve); decider decides commands (Decide).
func New(events store.Log, seeds store.Seeds, decider Decider, reg *engine.Registry, opts Options) *Service {
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = 3
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.NewSeed == nil {
		opts.NewSeed = dice.NewSeed
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.SnapshotEvery == 0 {
		opts.SnapshotEvery = 8
	}
	if opts.MaxEvents == 0 {
		opts.MaxEvents = DefaultMaxEvents
	}
	if opts.MaxBatchBytes == 0 {
		opts.MaxBatchBytes = DefaultMaxBatchBytes
	}
	if opts.MaxCached <= 0 {
		opts.MaxCached = 10_000
	}
	return &Service{log: opts.Log, events: events, seeds: seeds, decider: decider, reg: reg, opts: opts, cache: map[string]*entry{}}
}

// Cached is the number of encounters held in memory.
func (s *Service) Cached() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.cache)
}

// Limits on what a client may send and what an encounter may hold.
const (
	MaxCommandIDLength   = 128
	MaxListed            = 1000
	DefaultMaxEvents     = 100_000
	DefaultMaxBatchBytes = 512 << 10
	// MaxRequestBytes bounds a request (a command, a sheet) on the gRPC server.
	MaxRequestBytes = 256 << 10
)

// checkLimits refuses a record that would break an encounter's limits, before anything is
// written.
func (s *Service) checkLimits(st *encounterv1.EncounterState, batch *encounterv1.EventBatch) error {
	if n := st.GetSequence() + uint64(len(batch.GetEvents())); n > s.opts.MaxEvents {
		return status.Errorf(codes.ResourceExhausted,
			"encounter %q has recorded %d events and may hold at most %d: end it and start another; nothing was recorded",
			st.GetName(), st.GetSequence(), s.opts.MaxEvents)
	}
	if size := proto.Size(batch); size > s.opts.MaxBatchBytes {
		return status.Errorf(codes.ResourceExhausted,
			"this command's events take %d bytes, more than the %d one record may hold; nothing was recorded", size, s.opts.MaxBatchBytes)
	}
	return nil
}

func newEncounterID() string {
	b := make([]byte, 10)
	_, _ = rand.Read(b)
	return "enc-" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

func unavailable(err error) error {
	if _, ok := status.FromError(err); ok {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return platform.Status(err)
	}
	return status.Errorf(codes.Unavailable, "the event log is unavailable: %v", err)
}

// entry returns the encounter's cache entry, loading it from the log if needed; its lock is
// not held.
// With fresh, records appended by other replicas since are folded in; commands need not ask
// for it: an append on a stale position conflicts and refreshes (execute).
func (s *Service) entry(ctx context.Context, id string, fresh bool) (*entry, error) {
	if id == "" {
		return nil, status.Error(codes.InvalidArgument, "no encounter id given")
	}
	s.mu.Lock()
	e, ok := s.cache[id]
	if !ok {
		for other := range s.cache { // map order is random: drop any one
			if len(s.cache) < s.opts.MaxCached {
				break
			}
			delete(s.cache, other)
		}
		e = &entry{}
		s.cache[id] = e
	}
	s.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.loaded && !fresh {
		return e, nil
	}
	if err := s.refresh(ctx, id, e); err != nil {
		return nil, err
	}
	return e, nil
}

// refresh folds the records after the entry's position (on a first load, those after the
// latest snapshot, or all of them).
func (s *Service) refresh(ctx context.Context, id string, e *entry) error {
	if !e.loaded {
		e.state, e.position, e.commands = &encounterv1.EncounterState{}, 0, map[string]uint64{}
		if snap := s.snapshot(ctx, id); snap != nil {
			e.state, e.position, e.commands = snap.GetState(), snap.GetPosition(), snap.GetCommands()
			if e.commands == nil {
				e.commands = map[string]uint64{}
			}
		}
	}
	recs, err := s.events.Load(ctx, id, e.position)
	if errors.Is(err, store.ErrNotFound) {
		return status.Errorf(codes.NotFound, "there is no encounter %q", id)
	}
	if err != nil {
		return unavailable(err)
	}
	for _, r := range recs {
		for _, ev := range r.Batch.GetEvents() {
			if err := s.reg.Evolve(e.state, ev); err != nil {
				e.loaded = false
				return status.Errorf(codes.DataLoss, "encounter %s: event %d cannot be folded: %v", id, ev.GetSequence(), err)
			}
			if c := ev.GetCommandId(); c != "" {
				e.commands[c] = r.Position
			}
		}
		e.position = r.Position
	}
	e.loaded = true
	return nil
}

// snapshot returns the encounter's latest snapshot if it can be trusted: folded by the rules
// this service folds with. A snapshot of older rules is ignored, not trusted.
func (s *Service) snapshot(ctx context.Context, id string) *encounterv1.Snapshot {
	if s.opts.Snapshots == nil {
		return nil
	}
	snap, err := s.opts.Snapshots.Snapshot(ctx, id)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.WarnContext(ctx, "snapshot unreadable; loading from the log", "encounter", id, "err", err)
		}
		return nil
	}
	sys, err := s.reg.Lookup(snap.GetRuleSystem(), 0)
	if err != nil || sys.Version() != snap.GetFoldVersion() || snap.GetState().GetEncounterId() != id {
		s.log.InfoContext(ctx, "snapshot folded by other rules; loading from the log", "encounter", id,
			"snapshot_rules", snap.GetRuleSystem(), "snapshot_version", snap.GetFoldVersion())
		return nil
	}
	return snap
}

// maybeSnapshot writes a snapshot when the encounter crosses a multiple of SnapshotEvery.
func (s *Service) maybeSnapshot(ctx context.Context, id string, e *entry, before uint64) {
	n := s.opts.SnapshotEvery
	if s.opts.Snapshots == nil || e.state.GetSequence()/n == before/n {
		return
	}
	sys, err := s.reg.Lookup(e.state.GetRuleSystem(), 0)
	if err != nil {
		return
	}
	snap := &encounterv1.Snapshot{
		Position: e.position, RuleSystem: sys.ID(), FoldVersion: sys.Version(),
		State: proto.CloneOf(e.state), Commands: maps.Clone(e.commands),
	}
	if err := s.opts.Snapshots.PutSnapshot(ctx, id, snap); err != nil {
		s.log.WarnContext(ctx, "snapshot not written", "encounter", id, "err", err)
	}
}

// stamp fills in what the service adds to the decided events: ids, time, the command id, and
// the command on the first event.
func (s *Service) stamp(events []*encounterv1.Event, commandID string, cmd *encounterv1.Command) {
	now := timestamppb.New(s.opts.Now())
	for i, ev := range events {
		ev.EventId = uuid.Must(uuid.NewV7()).String()
		ev.Time = now
		ev.CommandId = commandID
		if i == 0 {
			ev.Command = cmd
		}
	}
}

// principal is the authenticated caller, "tenant/subject", as the authentication
// interceptor found it in the request's token.
func principal(ctx context.Context) (string, error) {
	p := platform.Principal(ctx)
	if p == "" {
		return "", status.Error(codes.Unauthenticated, "no identity: send a bearer token (\"authorization: Bearer <JWT>\"); under fray dev, `fray token --as NAME` mints one")
	}
	return p, nil
}

// controllerOf makes a combatant's controller a principal of the caller's tenant: a bare name
// ("david", as sheets say) is a subject of that tenant; a principal of another tenant is
// refused.
func controllerOf(ctx context.Context, c *encounterv1.Combatant) (*encounterv1.Combatant, error) {
	if c == nil || c.GetController() == "" {
		return c, nil
	}
	tenant := platform.Tenant(ctx)
	q := platform.Qualify(tenant, c.GetController())
	t, sub, ok := platform.SplitPrincipal(q)
	if !ok || platform.CheckName("subject", sub) != nil {
		return nil, status.Errorf(codes.InvalidArgument, "controller %q of %s: give a subject of your tenant (\"david\") or a principal \"%s/david\"", c.GetController(), c.GetId(), tenant)
	}
	if t != tenant {
		return nil, status.Errorf(codes.InvalidArgument, "controller %q of %s is of tenant %q: a combatant is controlled by someone of your tenant %q", c.GetController(), c.GetId(), t, tenant)
	}
	if q == c.GetController() {
		return c, nil
	}
	c = proto.CloneOf(c)
	c.Controller = q
	return c, nil
}

func commandID(id string) (string, error) {
	if len(id) > MaxCommandIDLength {
		return "", status.Errorf(codes.InvalidArgument, "a command id has at most %d characters", MaxCommandIDLength)
	}
	if id == "" {
		return uuid.NewString(), nil
	}
	return id, nil
}

// recorded returns the events a command already recorded at position.
func (s *Service) recorded(ctx context.Context, e *entry, position uint64) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	r, err := s.events.Get(ctx, position)
	if err != nil {
		return nil, nil, unavailable(err)
	}
	return r.Batch.GetEvents(), proto.CloneOf(e.state), nil
}

// execute decides and records one command on an existing encounter.
func (s *Service) execute(ctx context.Context, id, cmdID string, expected *uint64, cmd *encounterv1.Command) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	actor, err := principal(ctx)
	if err != nil {
		return nil, nil, err
	}
	if cmdID, err = commandID(cmdID); err != nil {
		return nil, nil, err
	}
	if cmd.GetCreate() != nil {
		return nil, nil, status.Error(codes.InvalidArgument, "create an encounter with CreateEncounter")
	}
	if size := proto.Size(cmd); size > MaxRequestBytes {
		return nil, nil, status.Errorf(codes.ResourceExhausted, "this command takes %d bytes; a command may take at most %d", size, MaxRequestBytes)
	}
	e, err := s.entry(ctx, id, false)
	if err != nil {
		return nil, nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for attempt := 1; ; attempt++ {
		if pos, ok := e.commands[cmdID]; ok {
			return s.recorded(ctx, e, pos)
		}
		if expected != nil && *expected != e.state.GetSequence() {
			return nil, nil, status.Errorf(codes.FailedPrecondition,
				"encounter %q is at sequence %d, not at the %d this command expected; reload it and decide again",
				e.state.GetName(), e.state.GetSequence(), *expected)
		}
		seed, err := s.seeds.Seed(ctx, id)
		if err != nil {
			return nil, nil, unavailable(fmt.Errorf("dice seed of %s: %w", id, err))
		}
		req := &rulesv1.ResolveRequest{State: e.state, Command: cmd, Actor: actor, Seed: seed}
		if rw := cmd.GetRewind(); rw != nil && rw.GetToSequence() >= 1 && rw.GetToSequence() < e.state.GetSequence() {
			if req.RewindState, err = s.stateAt(ctx, id, rw.GetToSequence()); err != nil {
				return nil, nil, err
			}
		}
		resp, err := s.decider.Resolve(ctx, req)
		if err != nil {
			return nil, nil, err
		}
		events := resp.GetEvents()
		s.stamp(events, cmdID, cmd)
		batch := &encounterv1.EventBatch{Events: events}
		if err := s.checkLimits(e.state, batch); err != nil {
			return nil, nil, err
		}
		app, err := s.events.Append(ctx, id, e.position, id+"/"+cmdID, batch)
		switch {
		case errors.Is(err, store.ErrConflict):
			if attempt >= s.opts.MaxAttempts {
				return nil, nil, status.Errorf(codes.Aborted,
					"encounter %q changed under this command %d times in a row; nothing was recorded, try again", e.state.GetName(), attempt)
			}
			if err := s.refresh(ctx, id, e); err != nil {
				return nil, nil, err
			}
			continue
		case err != nil:
			return nil, nil, unavailable(err)
		case app.Duplicate:
			if err := s.refresh(ctx, id, e); err != nil {
				return nil, nil, err
			}
			return s.recorded(ctx, e, app.Position)
		}
		before := e.state.GetSequence()
		for _, ev := range events {
			if err := s.reg.Evolve(e.state, ev); err != nil {
				e.loaded = false
				return nil, nil, status.Errorf(codes.Internal, "recorded event %d cannot be folded: %v", ev.GetSequence(), err)
			}
		}
		e.position, e.commands[cmdID] = app.Position, app.Position
		s.maybeSnapshot(ctx, id, e, before)
		if !bytes.Equal(engine.Hash(e.state), resp.GetStateSha256()) {
			s.log.WarnContext(ctx, "the resolver and this service fold to different states; the log is the truth",
				"encounter", id, "sequence", e.state.GetSequence())
		}
		return events, proto.CloneOf(e.state), nil
	}
}

func (s *Service) CreateEncounter(ctx context.Context, req *encounterv1.CreateEncounterRequest) (*encounterv1.CreateEncounterResponse, error) {
	actor, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	cmdID, err := commandID(req.GetCommandId())
	if err != nil {
		return nil, err
	}
	if req.GetEncounter() == nil {
		return nil, status.Error(codes.InvalidArgument, "no encounter given: name it and choose its rule system")
	}
	if size := proto.Size(req); size > MaxRequestBytes {
		return nil, status.Errorf(codes.ResourceExhausted, "this request takes %d bytes; a request may take at most %d", size, MaxRequestBytes)
	}
	id, seed := newEncounterID(), s.opts.NewSeed()
	cmd := &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: req.GetEncounter()}}
	resp, err := s.decider.Resolve(ctx, &rulesv1.ResolveRequest{State: &encounterv1.EncounterState{EncounterId: id}, Command: cmd, Actor: actor, Seed: seed})
	if err != nil {
		return nil, err
	}
	if err := s.seeds.PutSeed(ctx, id, seed); err != nil {
		return nil, unavailable(err)
	}
	events := resp.GetEvents()
	s.stamp(events, cmdID, cmd)
	batch := &encounterv1.EventBatch{Events: events}
	if err := s.checkLimits(&encounterv1.EncounterState{Name: req.GetEncounter().GetName()}, batch); err != nil {
		return nil, err
	}
	app, err := s.events.Append(ctx, id, 0, "create/"+actor+"/"+cmdID, batch)
	if err != nil {
		return nil, unavailable(err)
	}
	if app.Duplicate {
		r, err := s.events.Get(ctx, app.Position)
		if err != nil {
			return nil, unavailable(err)
		}
		events = r.Batch.GetEvents()
		id = events[0].GetEncounterId()
	}
	e, err := s.entry(ctx, id, true)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return &encounterv1.CreateEncounterResponse{EncounterId: id, Events: events, State: proto.CloneOf(e.state)}, nil
}

func (s *Service) AddCombatant(ctx context.Context, req *encounterv1.AddCombatantRequest) (*encounterv1.AddCombatantResponse, error) {
	combatant, err := controllerOf(ctx, req.GetCombatant())
	if err != nil {
		return nil, err
	}
	events, st, err := s.execute(ctx, req.GetEncounterId(), req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: combatant, Watched: req.GetWatched()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.AddCombatantResponse{Events: events, State: st}, nil
}

func (s *Service) RemoveCombatant(ctx context.Context, req *encounterv1.RemoveCombatantRequest) (*encounterv1.RemoveCombatantResponse, error) {
	events, st, err := s.execute(ctx, req.GetEncounterId(), req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: req.GetCombatantId()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.RemoveCombatantResponse{Events: events, State: st}, nil
}

func (s *Service) StartEncounter(ctx context.Context, req *encounterv1.StartEncounterRequest) (*encounterv1.StartEncounterResponse, error) {
	events, st, err := s.execute(ctx, req.GetEncounterId(), req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.StartEncounterResponse{Events: events, State: st}, nil
}

func (s *Service) Submit(ctx context.Context, req *encounterv1.SubmitRequest) (*encounterv1.SubmitResponse, error) {
	if req.GetCommand().GetKind() == nil {
		return nil, status.Error(codes.InvalidArgument, "no command given")
	}
	cmd := req.GetCommand()
	if add := cmd.GetAddCombatant(); add != nil {
		combatant, err := controllerOf(ctx, add.GetCombatant())
		if err != nil {
			return nil, err
		}
		cmd = &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: combatant, Watched: add.GetWatched()}}}
	}
	events, st, err := s.execute(ctx, req.GetEncounterId(), req.GetCommandId(), req.ExpectedSequence, cmd)
	if err != nil {
		return nil, err
	}
	return &encounterv1.SubmitResponse{Events: events, State: st}, nil
}

func (s *Service) EndEncounter(ctx context.Context, req *encounterv1.EndEncounterRequest) (*encounterv1.EndEncounterResponse, error) {
	events, st, err := s.execute(ctx, req.GetEncounterId(), req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{Reason: req.GetReason()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.EndEncounterResponse{Events: events, State: st}, nil
}

// stateAt folds the encounter's events up to sequence at.
func (s *Service) stateAt(ctx context.Context, id string, at uint64) (*encounterv1.EncounterState, error) {
	recs, err := s.events.Load(ctx, id, 0)
	if err != nil {
		return nil, unavailable(err)
	}
	st := &encounterv1.EncounterState{}
	for _, r := range recs {
		for _, ev := range r.Batch.GetEvents() {
			if ev.GetSequence() > at {
				return st, nil
			}
			if err := s.reg.Evolve(st, ev); err != nil {
				return nil, status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
			}
		}
	}
	return st, nil
}

func (s *Service) GetEncounter(ctx context.Context, req *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	e, err := s.entry(ctx, req.GetEncounterId(), true)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	st := proto.CloneOf(e.state)
	e.mu.Unlock()
	if at := req.GetAtSequence(); at != 0 && at < st.GetSequence() {
		if st, err = s.stateAt(ctx, req.GetEncounterId(), at); err != nil {
			return nil, err
		}
	} else if at > st.GetSequence() {
		return nil, status.Errorf(codes.OutOfRange, "encounter %q is at sequence %d; there is no sequence %d yet", st.GetName(), st.GetSequence(), at)
	}
	out := &encounterv1.GetEncounterResponse{State: st, StateSha256: engine.Hash(st)}
	if c := req.GetLegalFor(); c != "" {
		if out.Legal, err = s.reg.Legal(st, c); err != nil {
			return nil, platform.Status(err)
		}
	}
	return out, nil
}

func (s *Service) ListEncounters(ctx context.Context, _ *encounterv1.ListEncountersRequest) (*encounterv1.ListEncountersResponse, error) {
	ids, err := s.events.List(ctx)
	if err != nil {
		return nil, unavailable(err)
	}
	if len(ids) > MaxListed {
		ids = ids[:MaxListed]
	}
	out := &encounterv1.ListEncountersResponse{}
	for _, id := range ids {
		e, err := s.entry(ctx, id, false)
		if err != nil {
			return nil, err
		}
		e.mu.Lock()
		out.Encounters = append(out.Encounters, &encounterv1.EncounterSummary{
			EncounterId: id, Name: e.state.GetName(), RuleSystem: e.state.GetRuleSystem(),
			Status: e.state.GetStatus(), Sequence: e.state.GetSequence(),
		})
		e.mu.Unlock()
	}
	return out, nil
}

// WatchEncounter sends the encounter's events from a sequence on, then each new one as it is
// recorded, until the encounter ends, the client goes away or the server shuts down.
func (s *Service) WatchEncounter(req *encounterv1.WatchEncounterRequest, stream grpc.ServerStreamingServer[encounterv1.WatchEncounterResponse]) error {
	ctx := stream.Context()
	e, err := s.entry(ctx, req.GetEncounterId(), true)
	if err != nil {
		return err
	}
	from := max(req.GetFromSequence(), 1)
	start := s.watchStart(ctx, req.GetEncounterId(), e, from)
	// The headers tell the client the watch is under way: nothing recorded from now on can
	// be missed, even if no event comes for a while.
	if err := stream.SendHeader(metadata.MD{}); err != nil {
		return err
	}
	err = s.events.Watch(ctx, req.GetEncounterId(), start, func(r store.Record) error {
		for _, ev := range r.Batch.GetEvents() {
			if ev.GetSequence() < from {
				continue
			}
			if err := stream.Send(&encounterv1.WatchEncounterResponse{Event: ev}); err != nil {
				return err
			}
			if ev.GetEncounterEnded() != nil {
				return store.ErrStop
			}
		}
		return nil
	})
	if err != nil && ctx.Err() != nil {
		return status.Error(codes.Canceled, "the watch ended: the client left or the server is shutting down")
	}
	if err != nil {
		return unavailable(err)
	}
	return nil
}

// watchStart is the log position after which a watch from event sequence from must read:
// the encounter's last record for a watch of what comes next, the latest snapshot's record
// when from is past it, otherwise the start. Events before from in the first records read
// are skipped.
func (s *Service) watchStart(ctx context.Context, id string, e *entry, from uint64) uint64 {
	e.mu.Lock()
	seq, pos := e.state.GetSequence(), e.position
	e.mu.Unlock()
	if from > seq {
		return pos
	}
	if snap := s.snapshot(ctx, id); snap != nil && from > snap.GetState().GetSequence() {
		return snap.GetPosition()
	}
	return 0
}

func (s *Service) RewindEncounter(ctx context.Context, req *encounterv1.RewindEncounterRequest) (*encounterv1.RewindEncounterResponse, error) {
	events, st, err := s.execute(ctx, req.GetEncounterId(), req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{ToSequence: req.GetToSequence(), Reason: req.GetReason()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.RewindEncounterResponse{Events: events, State: st}, nil
}

// ExportLog streams every event of the encounter recorded so far, in order.
func (s *Service) ExportLog(req *encounterv1.ExportLogRequest, stream grpc.ServerStreamingServer[encounterv1.ExportLogResponse]) error {
	ctx := stream.Context()
	if _, err := s.entry(ctx, req.GetEncounterId(), false); err != nil {
		return err
	}
	recs, err := s.events.Load(ctx, req.GetEncounterId(), 0)
	if err != nil {
		return unavailable(err)
	}
	for _, r := range recs {
		for _, ev := range r.Batch.GetEvents() {
			if err := stream.Send(&encounterv1.ExportLogResponse{Event: ev}); err != nil {
				return err
			}
		}
	}
	return nil
}
