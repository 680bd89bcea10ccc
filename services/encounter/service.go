// Package encounter serves fray.encounter.v1.EncounterService: it loads an encounter's state
// (cache, else replay from the log), asks the resolver to decide each command, and appends the
// resulting events to the log, conditionally on the position it last saw.
package encounter

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
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

func (d LocalDecider) Resolve(ctx context.Context, req *rulesv1.ResolveRequest) (*rulesv1.ResolveResponse, error) {
	// In-process, the caller's tenant goes into the decision too (over gRPC the resolver
	// takes it from the state, which the service checked against the caller's first).
	events, next, err := d.Registry.ResolveWith(req.GetState(), req.GetCommand(), engine.Env{
		Actor: req.GetActor(), Tenant: platform.Tenant(ctx), Seed: req.GetSeed(), RewindState: req.GetRewindState(),
	})
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
	// MaxWatchesPerPrincipal is how many watches one principal may hold open on this
	// service (default 16); MaxWatchersPerEncounter how many one encounter may have here
	// (default 256). Past either, a watch is refused: ResourceExhausted.
	MaxWatchesPerPrincipal  int
	MaxWatchersPerEncounter int
	// WatchBuffer is how many records a watcher may fall behind the live tail (default 256)
	// before it is cut off (ResourceExhausted, saying the sequence to resume from).
	WatchBuffer int
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

	mu    sync.Mutex
	cache map[string]*entry
	lru   cacheLRU
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
	return &Service{log: opts.Log, events: events, seeds: seeds, decider: decider, reg: reg, opts: opts, index: idx, cache: map[string]*entry{},
		watches: newHub(events, reg, opts.MaxWatchesPerPrincipal, opts.MaxWatchersPerEncounter, opts.WatchBuffer)}
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
	return s.checkEncounterBytes(st, batch)
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
	e := s.cacheEntry(id)
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
		// Read from the start, the entry knows every command id; from a snapshot, those it
		// keeps.
		e.state, e.position, e.cmds, e.seed, e.born = &encounterv1.EncounterState{}, 0, newCommandIDs(s.opts.RecentCommands, true), nil, time.Time{}
		if snap := s.snapshot(ctx, id); snap != nil {
			e.state, e.position, e.cmds = snap.GetState(), snap.GetPosition(), commandIDsOf(snap, s.opts.RecentCommands)
		}
	}
	recs, err := s.events.Load(ctx, id, e.position)
	if errors.Is(err, store.ErrNotFound) {
		return noEncounter(id)
	}
	if err != nil {
		return unavailable(err)
	}
	for _, r := range recs {
		evs := r.Batch.GetEvents()
		for _, ev := range evs {
			if err := s.reg.Evolve(e.state, ev); err != nil {
				e.loaded = false
				return status.Errorf(codes.DataLoss, "encounter %s: event %d cannot be folded: %v", id, ev.GetSequence(), err)
			}
			e.last = ev.GetTime().AsTime()
		}
		if len(evs) > 0 && evs[0].GetCommandId() != "" { // a record's events share its command id
			e.cmds.add(evs[0].GetCommandId(), r.Position, evs[0].GetCommandDigest())
		}
		e.position = r.Position
	}
	e.loaded = true
	s.account(e)
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

// caller is the authenticated caller: its principal "tenant/subject" and its tenant.
type caller struct{ principal, tenant string }

// callerOf is the caller as the authentication interceptor found it in the request's token.
func callerOf(ctx context.Context) (caller, error) {
	id, ok := platform.IdentityFrom(ctx)
	if !ok || id.Principal() == "" {
		return caller{}, status.Error(codes.Unauthenticated, "no identity: send a bearer token (\"authorization: Bearer <JWT>\"); under fray dev, `fray token --as NAME` mints one")
	}
	return caller{principal: id.Principal(), tenant: id.Tenant}, nil
}

// noEncounter is the answer for an encounter that does not exist, and for one of another
// tenant: the same words, so that its existence does not leak.
func noEncounter(id string) error {
	return status.Errorf(codes.NotFound, "there is no encounter %q", id)
}

// open returns the encounter's cache entry and a copy of its state, if it is of the caller's
// tenant (NotFound otherwise, as for a missing one).
func (s *Service) open(ctx context.Context, id string, fresh bool, who caller) (*entry, *encounterv1.EncounterState, error) {
	e, err := s.entry(ctx, id, fresh)
	if err != nil {
		return nil, nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.state.GetTenant() == "" || e.state.GetTenant() != who.tenant {
		return nil, nil, noEncounter(id)
	}
	return e, proto.CloneOf(e.state), nil
}

// mayRead refuses a caller of the encounter's tenant who has no role in it.
func mayRead(st *encounterv1.EncounterState, who caller) error {
	if engine.MayRead(st, who.principal) {
		return nil
	}
	return status.Errorf(codes.PermissionDenied, "%s has no role in %s: only its GM (%s), co-GMs, players and observers read it; ask the GM to grant you one",
		who.principal, st.GetName(), st.GetGameMaster())
}

// viewer is what principal may see of st: everything for a GM or a co-GM, the combatants it
// controls whole, the others as the table sees them.
func viewer(st *encounterv1.EncounterState, principal string) engine.Viewer {
	v := engine.Viewer{SeesAll: engine.IsGameMaster(st, principal), Controls: map[string]bool{}}
	for _, id := range engine.Controls(st, principal) {
		v.Controls[id] = true
	}
	return v
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

// outcome is what a command recorded: its events, the state before them and the state after.
type outcome struct {
	events        []*encounterv1.Event
	before, after *encounterv1.EncounterState
}

// seen returns the outcome as principal may see it: each event viewed with the state before
// it, and the state after them, by what principal may see now.
func (s *Service) seen(o outcome, principal string) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	v := viewer(o.after, principal)
	st := proto.CloneOf(o.before)
	out := make([]*encounterv1.Event, 0, len(o.events))
	for _, ev := range o.events {
		out = append(out, s.reg.ViewEvent(st, ev, v))
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
	return outcome{events: events, before: before, after: proto.CloneOf(e.state)}, nil
}

// summary is the encounter's entry in the index.
func summary(st *encounterv1.EncounterState, last time.Time) store.Summary {
	members := map[string]encounterv1.Role{}
	candidates := []string{st.GetGameMaster()}
	for _, g := range st.GetRoles() {
		candidates = append(candidates, g.GetPrincipal())
	}
	for _, c := range st.GetCombatants() {
		candidates = append(candidates, c.GetController())
	}
	for _, p := range candidates {
		if r := engine.RoleOf(st, p); r != engine.RoleNone {
			members[p] = r
		}
	}
	return store.Summary{
		EncounterID: st.GetEncounterId(), Tenant: st.GetTenant(), Name: st.GetName(), RuleSystem: st.GetRuleSystem(),
		Status: st.GetStatus(), Sequence: st.GetSequence(), LastActivity: last, Members: members,
	}
}

// indexed updates the index after an append, best effort: the log is the truth, the index
// can be rebuilt from it (Reindex).
func (s *Service) indexed(ctx context.Context, st *encounterv1.EncounterState, last time.Time) {
	if s.index == nil {
		return
	}
	if err := s.index.PutSummary(ctx, summary(st, last)); err != nil {
		s.log.WarnContext(ctx, "index not updated; ListEncounters may be behind until the next command", "encounter", st.GetEncounterId(), "err", err)
	}
}

// Reindex writes every encounter's summary into the index, from the log.
func (s *Service) Reindex(ctx context.Context) (int, error) {
	if s.index == nil {
		return 0, nil
	}
	ids, err := s.events.List(ctx)
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		e, err := s.entry(ctx, id, true)
		if err != nil {
			return 0, err
		}
		e.mu.Lock()
		st, last, pos := proto.CloneOf(e.state), e.last, e.position
		e.mu.Unlock()
		if last.IsZero() { // loaded from a snapshot: the time is on its last record
			if r, err := s.events.Get(ctx, pos); err == nil && len(r.Batch.GetEvents()) > 0 {
				last = r.Batch.GetEvents()[len(r.Batch.GetEvents())-1].GetTime().AsTime()
			}
		}
		if err := s.index.PutSummary(ctx, summary(st, last)); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}

// ReindexIfEmpty rebuilds the index when it holds nothing but the log holds encounters (a
// first start with an index, or a lost bucket).
func (s *Service) ReindexIfEmpty(ctx context.Context) {
	if s.index == nil {
		return
	}
	if ok, err := s.index.Indexed(ctx); err != nil || ok {
		return
	}
	n, err := s.Reindex(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "index not rebuilt", "err", err)
		return
	}
	if n > 0 {
		s.log.InfoContext(ctx, "index rebuilt from the log", "encounters", n)
	}
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
		return outcome{}, status.Error(codes.InvalidArgument, "create an encounter with CreateEncounter")
	}
	if size := proto.Size(cmd); size > MaxRequestBytes {
		return outcome{}, status.Errorf(codes.ResourceExhausted, "this command takes %d bytes; a command may take at most %d", size, MaxRequestBytes)
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
	for attempt := 1; ; attempt++ {
		// Tenancy first: to another tenant, the encounter does not exist.
		if e.state.GetTenant() == "" || e.state.GetTenant() != who.tenant {
			return outcome{}, noEncounter(id)
		}
		// A stranger of the tenant may only join (if the GM allows it): nothing else of the
		// encounter, not even its sequence, is told.
		if engine.RoleOf(e.state, who.principal) == engine.RoleNone && cmd.GetAddCombatant() == nil {
			return outcome{}, status.Errorf(codes.PermissionDenied, "%s has no role in %s; only its GM (%s), co-GMs and players give it commands",
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
			return outcome{}, status.Errorf(codes.FailedPrecondition,
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
			return outcome{}, err
		}
		events := resp.GetEvents()
		s.stamp(events, cmdID, cmd, digest)
		batch := &encounterv1.EventBatch{Events: events}
		if err := s.checkLimits(e.state, batch); err != nil {
			return outcome{}, err
		}
		app, err := s.events.Append(ctx, id, e.position, id+"/"+cmdID, batch)
		switch {
		case errors.Is(err, store.ErrConflict):
			if attempt >= s.opts.MaxAttempts {
				return outcome{}, status.Errorf(codes.Aborted,
					"encounter %q changed under this command %d times in a row; nothing was recorded, try again", e.state.GetName(), attempt)
			}
			if err := s.refresh(ctx, id, e); err != nil {
				return outcome{}, err
			}
			continue
		case err != nil:
			return outcome{}, unavailable(err)
		case app.Duplicate:
			if err := s.refresh(ctx, id, e); err != nil {
				return outcome{}, err
			}
			return s.recorded(ctx, id, e, app.Position, who, cmd, digest)
		}
		before := proto.CloneOf(e.state)
		for _, ev := range events {
			if err := s.reg.Evolve(e.state, ev); err != nil {
				e.loaded = false
				return outcome{}, status.Errorf(codes.Internal, "recorded event %d cannot be folded: %v", ev.GetSequence(), err)
			}
		}
		e.position = app.Position
		e.cmds.add(cmdID, app.Position, digest)
		e.last = events[len(events)-1].GetTime().AsTime()
		s.account(e)
		snap = s.snapshotDue(e, before.GetSequence())
		s.indexed(ctx, e.state, e.last)
		s.forgetSeed(ctx, id, e, events)
		if !bytes.Equal(engine.Hash(e.state), resp.GetStateSha256()) {
			s.log.WarnContext(ctx, "the resolver and this service fold to different states; the log is the truth",
				"encounter", id, "sequence", e.state.GetSequence())
		}
		return outcome{events: events, before: before, after: proto.CloneOf(e.state)}, nil
	}
}

// run executes a command and returns what the caller may see of its events and of the state
// after them.
func (s *Service) run(ctx context.Context, id, cmdID string, expected *uint64, cmd *encounterv1.Command) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	o, err := s.execute(ctx, id, cmdID, expected, cmd)
	if err != nil {
		return nil, nil, err
	}
	return s.seen(o, platform.Principal(ctx))
}

func (s *Service) CreateEncounter(ctx context.Context, req *encounterv1.CreateEncounterRequest) (*encounterv1.CreateEncounterResponse, error) {
	who, err := callerOf(ctx)
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
		return batch, s.checkLimits(&encounterv1.EncounterState{Name: req.GetEncounter().GetName()}, batch)
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
	app, err := s.events.Append(ctx, id, 0, "create/"+who.principal+"/"+cmdID, batch)
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
	after := proto.CloneOf(e.state)
	if existing == 0 {
		s.indexed(ctx, after, e.last)
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

// stateAt folds the encounter's events up to sequence at.
func (s *Service) stateAt(ctx context.Context, id string, at uint64) (*encounterv1.EncounterState, error) {
	st := &encounterv1.EncounterState{EncounterId: id}
	if at == 0 {
		return st, nil
	}
	recs, err := s.events.Load(ctx, id, 0)
	if err != nil {
		return nil, unavailable(err)
	}
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

// GetEncounter returns the state as the caller may see it, now or as of a sequence, and what
// a combatant the caller may command may do now.
func (s *Service) GetEncounter(ctx context.Context, req *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	who, err := callerOf(ctx)
	if err != nil {
		return nil, err
	}
	_, now, err := s.open(ctx, req.GetEncounterId(), true, who)
	if err != nil {
		return nil, err
	}
	if err := mayRead(now, who); err != nil {
		return nil, err
	}
	st := now
	if at := req.GetAtSequence(); at != 0 && at < now.GetSequence() {
		if st, err = s.stateAt(ctx, req.GetEncounterId(), at); err != nil {
			return nil, err
		}
	} else if at > now.GetSequence() {
		return nil, status.Errorf(codes.OutOfRange, "encounter %q is at sequence %d; there is no sequence %d yet", now.GetName(), now.GetSequence(), at)
	}
	out := &encounterv1.GetEncounterResponse{}
	if c := req.GetLegalFor(); c != "" {
		// What a combatant may do is for those who may command it: its player, the GMs.
		if err := engine.MayCommand(now, who.principal, c); err != nil {
			return nil, platform.Status(err)
		}
		if out.Legal, err = s.reg.Legal(st, c); err != nil {
			return nil, platform.Status(err)
		}
	}
	// Who may see what is decided by the caller's standing now.
	out.State = s.reg.View(st, viewer(now, who.principal))
	out.StateSha256 = engine.Hash(out.State)
	return out, nil
}

// Paging of ListEncounters.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

// pageToken is where a page of ListEncounters ends: the last encounter it listed, in the
// order of the list (the most recent activity first, then by id).
type pageToken struct {
	Last int64  `json:"t"`
	ID   string `json:"id"`
}

func (p pageToken) String() string {
	b, _ := json.Marshal(p)
	return base64.RawURLEncoding.EncodeToString(b)
}

func parsePageToken(s string) (pageToken, error) {
	var p pageToken
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &p)
	}
	if err != nil || p.ID == "" {
		return pageToken{}, status.Errorf(codes.InvalidArgument, "page_token %q is not one this service gave: send the next_page_token of the previous page, or none for the first", s)
	}
	return p, nil
}

// before reports whether a comes before b in the list: more recent activity first, then by id.
func listedBefore(aLast int64, aID string, bLast int64, bID string) bool {
	if aLast != bLast {
		return aLast > bLast
	}
	return aID < bID
}

// ListEncounters lists the encounters of the caller's tenant in which the caller has a role,
// the most recently active first, a page at a time.
func (s *Service) ListEncounters(ctx context.Context, req *encounterv1.ListEncountersRequest) (*encounterv1.ListEncountersResponse, error) {
	who, err := callerOf(ctx)
	if err != nil {
		return nil, err
	}
	size := int(req.GetPageSize())
	switch {
	case size == 0:
		size = DefaultPageSize
	case size < 0 || size > MaxPageSize:
		return nil, status.Errorf(codes.InvalidArgument, "page_size %d: give 1 to %d (0 for %d)", req.GetPageSize(), MaxPageSize, DefaultPageSize)
	}
	var after *pageToken
	if t := req.GetPageToken(); t != "" {
		p, err := parsePageToken(t)
		if err != nil {
			return nil, err
		}
		after = &p
	}
	sums, err := s.summaries(ctx, who)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(sums, func(a, b store.Summary) int {
		if listedBefore(a.LastActivity.UnixNano(), a.EncounterID, b.LastActivity.UnixNano(), b.EncounterID) {
			return -1
		}
		return 1
	})
	out := &encounterv1.ListEncountersResponse{}
	for _, sum := range sums {
		if after != nil && !listedBefore(after.Last, after.ID, sum.LastActivity.UnixNano(), sum.EncounterID) {
			continue
		}
		if len(out.Encounters) == size {
			last := out.Encounters[size-1]
			out.NextPageToken = pageToken{Last: last.GetLastActivity().AsTime().UnixNano(), ID: last.GetEncounterId()}.String()
			break
		}
		out.Encounters = append(out.Encounters, &encounterv1.EncounterSummary{
			EncounterId: sum.EncounterID, Name: sum.Name, RuleSystem: sum.RuleSystem, Status: sum.Status, Sequence: sum.Sequence,
			LastActivity: timestamppb.New(sum.LastActivity), Role: sum.Members[who.principal],
		})
	}
	return out, nil
}

// summaries are the summaries of the encounters of the caller's tenant it has a role in: from
// the index, or, without one, from every encounter of the log.
func (s *Service) summaries(ctx context.Context, who caller) ([]store.Summary, error) {
	var sums []store.Summary
	if s.index != nil {
		all, err := s.index.Summaries(ctx, who.principal)
		if err != nil {
			return nil, unavailable(err)
		}
		sums = all
	} else {
		ids, err := s.events.List(ctx)
		if err != nil {
			return nil, unavailable(err)
		}
		for _, id := range ids {
			e, err := s.entry(ctx, id, false)
			if err != nil {
				return nil, err
			}
			e.mu.Lock()
			sums = append(sums, summary(e.state, e.last))
			e.mu.Unlock()
		}
	}
	return slices.DeleteFunc(sums, func(sum store.Summary) bool {
		_, member := sum.Members[who.principal]
		return sum.Tenant != who.tenant || !member
	}), nil
}

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
	id := req.GetEncounterId()
	e, now, err := s.open(ctx, id, true, who)
	if err != nil {
		return err
	}
	if err := mayRead(now, who); err != nil {
		return err
	}
	ended := func() error {
		return status.Error(codes.Canceled, "the watch ended: the client left or the server is shutting down")
	}
	w, err := s.watches.join(ctx, id, who.principal, func() (uint64, *encounterv1.EncounterState) {
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
			if ev.GetSequence() >= from {
				seen = s.reg.ViewEvent(folded, ev, v)
			}
			if err := s.reg.Evolve(folded, ev); err != nil {
				return status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
			}
			if seen != nil {
				if err := stream.Send(&encounterv1.WatchEncounterResponse{Event: seen}); err != nil {
					return err
				}
			}
			if ev.GetEncounterEnded() != nil {
				return store.ErrStop
			}
			if ev.GetSequence() > now.GetSequence() && !engine.MayRead(folded, who.principal) {
				return status.Errorf(codes.PermissionDenied, "%s no longer has a role in %s: the watch ends", who.principal, folded.GetName())
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
				if err := stream.Send(&encounterv1.WatchEncounterResponse{Event: l.view(i, v)}); err != nil {
					return err
				}
			}
			if ev.GetEncounterEnded() != nil {
				return store.ErrStop
			}
			if ev.GetSequence() > now.GetSequence() && !engine.MayRead(folded, who.principal) {
				return status.Errorf(codes.PermissionDenied, "%s no longer has a role in %s: the watch ends", who.principal, folded.GetName())
			}
		}
		return nil
	}
	// cutOff is the status of a watcher the hub no longer feeds.
	cutOff := func() error {
		if w.why != errFellBehind {
			return w.why
		}
		return status.Errorf(codes.ResourceExhausted,
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

func (s *Service) RewindEncounter(ctx context.Context, req *encounterv1.RewindEncounterRequest) (*encounterv1.RewindEncounterResponse, error) {
	events, st, err := s.run(ctx, req.GetEncounterId(), req.GetCommandId(), req.ExpectedSequence,
		&encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{ToSequence: req.GetToSequence(), Reason: req.GetReason()}}})
	if err != nil {
		return nil, err
	}
	return &encounterv1.RewindEncounterResponse{Events: events, State: st}, nil
}

// ExportLog streams every event of the encounter recorded so far, in order, each as the
// caller may see it (with the state before it, by the caller's standing now).
func (s *Service) ExportLog(req *encounterv1.ExportLogRequest, stream grpc.ServerStreamingServer[encounterv1.ExportLogResponse]) error {
	ctx := stream.Context()
	who, err := callerOf(ctx)
	if err != nil {
		return err
	}
	_, now, err := s.open(ctx, req.GetEncounterId(), true, who) // roles as of now, other replicas' changes included
	if err != nil {
		return err
	}
	if err := mayRead(now, who); err != nil {
		return err
	}
	recs, err := s.events.Load(ctx, req.GetEncounterId(), 0)
	if err != nil {
		return unavailable(err)
	}
	v := viewer(now, who.principal)
	st := &encounterv1.EncounterState{EncounterId: req.GetEncounterId()}
	for _, r := range recs {
		for _, ev := range r.Batch.GetEvents() {
			seen := s.reg.ViewEvent(st, ev, v)
			if err := s.reg.Evolve(st, ev); err != nil {
				return status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
			}
			if err := stream.Send(&encounterv1.ExportLogResponse{Event: seen}); err != nil {
				return err
			}
		}
	}
	return nil
}
