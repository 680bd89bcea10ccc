// Package encounter serves fray.encounter.v1.EncounterService: it loads an encounter's state
// (cache, else replay from the log), asks the resolver to decide each command, and appends the
// resulting events to the log, conditionally on the position it last saw.
package encounter

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"log/slog"
	"strconv"
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
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

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
	// RecentCommands is how many of an encounter's latest command ids a snapshot keeps
	// (default 256), so that a retry is recognised after a load without reading the log; an
	// older id is looked up in the log (read once per load) unless the log's duplicate
	// window covers it.
	RecentCommands int
	// DuplicateWindow is how long the log refuses a message id it has stored (default: the
	// log's own, if it tells it: store.JetStream's stream's Duplicates; negative: none). An
	// encounter younger than it needs no look-up of an older command id: the append of its
	// retry meets the duplicate.
	DuplicateWindow time.Duration
	// MaxEvents an encounter may record (default 100,000): past it, commands are refused and
	// nothing recorded is touched.
	MaxEvents uint64
	// MaxBatchBytes is the largest encoded record of one command's events (default 512 KiB).
	MaxBatchBytes int
	// MaxCached encounters are kept in memory (default 10,000); past it, one is dropped, to be
	// loaded again (snapshot + tail) when next needed.
	MaxCached int
	// MaxCachedBytes bounds the bytes the cached encounters hold, their states and command ids
	// (default 256 MiB); past it, the least recently used are dropped.
	MaxCachedBytes int
	// MaxEncounterBytes bounds an encounter's state and the record that would change it
	// (default 4 MiB); MaxOpenEncounters bounds a tenant's encounters not ended (default
	// 1,000; counted by the Index). Past either, ResourceExhausted.
	MaxEncounterBytes int
	MaxOpenEncounters int
	// Index, when set, keeps each encounter's summary and each principal's encounters for
	// ListEncounters, updated after every append (default: the Log, if it is a store.Index;
	// without one, ListEncounters reads every encounter).
	Index store.Index
	// IndexDelay is how long after a command that changes nothing ListEncounters shows but an
	// encounter's sequence and last activity its summary is written into the Index (default 1
	// s; negative: at once), once for all the commands in between: ListEncounters of this
	// service shows them at once, of another replica after that delay. Every other change
	// (name, status, members and roles) is written at once. FlushIndex writes those due.
	IndexDelay time.Duration
	// MaxWatchesPerPrincipal is how many watches one principal may hold open on this
	// service (default 16); MaxWatchersPerEncounter how many one encounter may have here
	// (default 256). Past either, a watch is refused: ResourceExhausted.
	MaxWatchesPerPrincipal  int
	MaxWatchersPerEncounter int
	// WatchBuffer is how many records a watcher may fall behind the live tail (default 256)
	// before it is cut off (ResourceExhausted, saying the sequence to resume from).
	WatchBuffer int
	// Metrics, when set, count what the service does (metrics.go, NewMetrics); Tracing, when
	// set, traces each append to the log, a child of the call's span. Nil: off.
	Metrics *Metrics
	Tracing *platform.Tracing
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
	index   store.Index
	watches *hub
	obs     observer // metrics and tracer (metrics.go)

	mu       sync.Mutex
	cache    map[string]*entry
	lru      cacheLRU
	indexDue map[*entry]struct{} // entries whose summary is due in the index (list.go)
}

// entry is an encounter's state as of a log position, with the commands recorded so far.
type entry struct {
	cacheSlot      // guarded by Service.mu
	snapshotWrites // guarded by its own snapMu
	mu             sync.Mutex
	loaded         bool
	state          *encounterv1.EncounterState
	position       uint64
	cmds           commandIDs // the command ids recorded: the latest, and older ones if known
	born           time.Time  // when its first record was recorded (zero: not read yet)
	last           time.Time  // when its last event was recorded (zero: not known)
	seed           []byte     // the dice seed, read once per load (nil: not read yet, or ended)
	stateBytes     int        // proto.Size(state), as account last measured it
	sizes          stateSizes // measures it
	idx            indexing   // its summary in the index (list.go)
	idxMu          sync.Mutex // one index write at a time from writeIndex
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
	if opts.RecentCommands <= 0 {
		opts.RecentCommands = DefaultRecentCommands
	}
	if w, ok := events.(interface{ DuplicateWindow() time.Duration }); ok && opts.DuplicateWindow == 0 {
		opts.DuplicateWindow = w.DuplicateWindow()
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
	if opts.MaxCachedBytes <= 0 {
		opts.MaxCachedBytes = DefaultMaxCachedBytes
	}
	if opts.MaxEncounterBytes <= 0 {
		opts.MaxEncounterBytes = DefaultMaxEncounterBytes
	}
	if opts.MaxOpenEncounters <= 0 {
		opts.MaxOpenEncounters = DefaultMaxOpenEncounters
	}
	idx := opts.Index
	if idx == nil {
		idx, _ = events.(store.Index)
	}
	if opts.MaxWatchesPerPrincipal <= 0 {
		opts.MaxWatchesPerPrincipal = DefaultMaxWatchesPerPrincipal
	}
	if opts.MaxWatchersPerEncounter <= 0 {
		opts.MaxWatchersPerEncounter = DefaultMaxWatchersPerEncounter
	}
	if opts.WatchBuffer <= 0 {
		opts.WatchBuffer = DefaultWatchBuffer
	}
	if opts.IndexDelay == 0 {
		opts.IndexDelay = DefaultIndexDelay
	}
	s := &Service{log: opts.Log, events: events, seeds: seeds, decider: decider, reg: reg, opts: opts, index: idx, cache: map[string]*entry{}, indexDue: map[*entry]struct{}{},
		watches: newHub(events, reg, opts.MaxWatchesPerPrincipal, opts.MaxWatchersPerEncounter, opts.WatchBuffer)}
	s.obs = newObserver(s)
	return s
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
// written; stateBytes is proto.Size(st) (an entry's, as account last measured it).
func (s *Service) checkLimits(st *encounterv1.EncounterState, stateBytes int, batch *encounterv1.EventBatch) error {
	if n := st.GetSequence() + uint64(len(batch.GetEvents())); n > s.opts.MaxEvents {
		return platform.Refuse(LimitEncounterEvents,
			"encounter %q has recorded %d events and may hold at most %d: end it and start another; nothing was recorded",
			st.GetName(), st.GetSequence(), s.opts.MaxEvents)
	}
	size := proto.Size(batch)
	if size > s.opts.MaxBatchBytes {
		return platform.Refuse(LimitRecordBytes,
			"this command's events take %d bytes, more than the %d one record may hold; nothing was recorded", size, s.opts.MaxBatchBytes)
	}
	return s.checkEncounterBytes(st, stateBytes+size)
}

// createdID is the id of the encounter that principal's CreateEncounter with command id
// cmdID creates: derived from both, so that the same create sent again, or sent many times
// at once, names one encounter (and one dice seed), whenever it is sent.
func createdID(principal, cmdID string) string {
	h := sha256.Sum256([]byte("fray encounter id\x00" + principal + "\x00" + cmdID))
	return "enc-" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(h[:10]))
}

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
	before, err := s.stateAt(ctx, id, events[0].GetSequence()-1)
	if err != nil {
		return outcome{}, err
	}
	return outcome{events: events, before: before, after: e.state}, nil
}

// execute decides and records one command on an existing encounter.
func (s *Service) execute(ctx context.Context, id, cmdID string, expected *uint64, cmd *encounterv1.Command) (outcome, error) {
	who, err := callerOf(ctx)
	if err != nil {
		return outcome{}, err
	}
	given := cmdID != "" // an id the service draws (a UUID) is new: not looked up
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
	// refusing a command on it, the log is read once, and if it holds more, the command is
	// looked at again on what it holds.
	refreshed := false
	behind := func() (bool, error) {
		if refreshed {
			return false, nil
		}
		refreshed = true
		at := e.position
		if err := s.refresh(ctx, id, e); err != nil {
			return false, err
		}
		return e.position != at, nil
	}
	for attempt := 1; ; {
		// Tenancy first: to another tenant, the encounter does not exist.
		if e.state.GetTenant() == "" || e.state.GetTenant() != who.tenant {
			return outcome{}, noEncounter(id)
		}
		// A stranger of the tenant may only join (if the GM allows it): nothing else of the
		// encounter, not even its sequence, is told.
		if engine.RoleOf(e.state, who.principal) == engine.RoleNone && cmd.GetAddCombatant() == nil {
			if again, err := behind(); err != nil {
				return outcome{}, err
			} else if again {
				continue
			}
			return outcome{}, platform.Refused(codes.PermissionDenied, platform.ReasonNoRole, nil, "%s has no role in %s; only its GM (%s), co-GMs and players give it commands",
				who.principal, e.state.GetName(), e.state.GetGameMaster())
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
			if req.RewindState, err = s.stateAt(ctx, id, rw.GetToSequence()); err != nil {
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
			if err := s.refresh(ctx, id, e); err != nil {
				return outcome{}, err
			}
			s.obs.retried()
			attempt++
			refreshed = true // what follows is decided on the log as it is now
			continue
		case err != nil:
			return outcome{}, unavailable(err)
		case app.Duplicate:
			if err := s.refresh(ctx, id, e); err != nil {
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
	if err := s.checkOpenEncounters(ctx, who.tenant); err != nil {
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
		if _, err := s.entry(ctx, id, true); err != nil {
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
	e, err := s.entry(ctx, id, true)
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
