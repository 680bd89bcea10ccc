// Package encounter serves fray.encounter.v1.EncounterService: it loads an encounter's state
// (cache, else replay from the log), asks the resolver to decide each command, and appends the
// resulting events to the log, conditionally on the position it last saw.
package encounter

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/telemetry"
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
	// 1,000; counted by the Index), MaxOpenPerPrincipal those one principal is the GM of
	// within its tenant (default 100), so that no member fills the tenant's cap alone. Past
	// any, ResourceExhausted.
	MaxEncounterBytes   int
	MaxOpenEncounters   int
	MaxOpenPerPrincipal int
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
	// FollowWait is how long a watch waits for this service to begin following its encounter
	// (default DefaultFollowWait): past it the watch is refused Unavailable, to be retried,
	// and the encounter is followed afresh for the next watch.
	FollowWait time.Duration
	// IdleEnd ends an encounter not ended that has recorded no event for this long, by an
	// EncounterEnded recorded as the GM's end would be (the seed revealed), its idle field
	// set (default DefaultIdleEnd, 30 days; negative: never). RunIdleSweeps looks for them
	// every IdleSweepEvery (default 5 minutes) and ends at most IdleSweepBatch (default 100)
	// a pass (idle.go).
	IdleEnd        time.Duration
	IdleSweepEvery time.Duration
	IdleSweepBatch int
	// Metrics, when set, count what the service does (metrics.go, NewMetrics); Tracing, when
	// set, traces each append to the log, a child of the call's span. Nil: off.
	Metrics *Metrics
	Tracing *telemetry.Tracing
}

// Service implements EncounterService.
type Service struct {
	// Unsafe: no Unimplemented… to fall back on, so that an RPC without a handler does not
	// compile (intercept.go asserts Service is an EncounterServiceServer).
	encounterv1.UnsafeEncounterServiceServer
	ready   atomic.Bool // the event log is open: calls are served (intercept.go)
	log     *slog.Logger
	events  store.Log
	seeds   store.Seeds
	decider Decider
	reg     *engine.Registry
	opts    Options
	index   store.Index
	watches *hub
	obs     observer // metrics and tracer (metrics.go)
	oldest  oldestOpen

	mu       sync.Mutex
	cache    map[string]*entry
	lru      cacheLRU
	indexDue map[*entry]struct{} // entries whose summary is due in the index (list.go)

	listings snapshots // principals' lists, for the pages after the first (listpage.go)
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

// New returns a Service, ready. reg folds events (Evolve); decider decides commands (Decide).
func New(events store.Log, seeds store.Seeds, decider Decider, reg *engine.Registry, opts Options) *Service {
	s := &Service{}
	s.open(events, seeds, decider, reg, opts)
	return s
}

// open makes s serve, on the event log now open (Start registers s before).
func (s *Service) open(events store.Log, seeds store.Seeds, decider Decider, reg *engine.Registry, opts Options) {
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
	if opts.MaxOpenPerPrincipal <= 0 {
		opts.MaxOpenPerPrincipal = DefaultMaxOpenPerPrincipal
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
	if opts.FollowWait <= 0 {
		opts.FollowWait = DefaultFollowWait
	}
	if opts.IdleEnd == 0 {
		opts.IdleEnd = DefaultIdleEnd
	}
	if opts.IdleSweepEvery <= 0 {
		opts.IdleSweepEvery = DefaultIdleSweepEvery
	}
	if opts.IdleSweepBatch <= 0 {
		opts.IdleSweepBatch = DefaultIdleSweepBatch
	}
	if opts.IndexDelay == 0 {
		opts.IndexDelay = DefaultIndexDelay
	}
	s.log, s.events, s.seeds, s.decider, s.reg, s.opts, s.index = opts.Log, events, seeds, decider, reg, opts, idx
	s.cache, s.indexDue = map[string]*entry{}, map[*entry]struct{}{}
	s.watches = newHub(events, reg, opts.MaxWatchesPerPrincipal, opts.MaxWatchersPerEncounter, opts.WatchBuffer, opts.FollowWait)
	s.obs = newObserver(s)
	s.ready.Store(true) // after every field: a call that sees it ready sees them
}

// Cached is the number of encounters held in memory.
func (s *Service) Cached() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.cache)
}
