package encounter

// The encounter service's metrics (Prometheus) and its own spans (the append to the log):
// both off, and nothing done for them per command, unless Options.Metrics or Options.Tracing
// is set.

import (
	"slices"
	"sync/atomic"
	"time"

	"github.com/fray-rpg/fray/services/platform/refusal"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The metric families of the encounter service (besides platform's: per-RPC, refusals by
// limit, Go and process). The _seconds ones are histograms.
const (
	// MetricCommands counts the commands decided, by rule system and outcome (the gRPC code
	// answered: OK, FailedPrecondition for a rule refusal…).
	MetricCommands = "fray_encounter_commands_total"
	// MetricAppend is the time of each append to the log, by outcome: recorded, duplicate
	// (the command id was recorded already), conflict (the encounter moved: decided again),
	// error.
	MetricAppend = "fray_encounter_append_seconds"
	// MetricAppendConflicts counts the appends refused because the encounter had moved;
	// MetricRetries the commands decided again after one (the others end Aborted).
	MetricAppendConflicts = "fray_encounter_append_conflicts_total"
	MetricRetries         = "fray_encounter_command_retries_total"
	// The cache of encounters: entries and bytes held, and the bound on the bytes.
	MetricCacheEntries  = "fray_encounter_cache_entries"
	MetricCacheBytes    = "fray_encounter_cache_bytes"
	MetricCacheMaxBytes = "fray_encounter_cache_max_bytes"
	// MetricCacheHits counts the loads of an encounter found in the cache, MetricCacheMisses
	// those that were not (a cold load follows).
	MetricCacheHits   = "fray_encounter_cache_hits_total"
	MetricCacheMisses = "fray_encounter_cache_misses_total"
	// MetricColdLoad is the time of each cold load (snapshot and the records after it, or
	// the whole log), those that succeeded.
	MetricColdLoad = "fray_encounter_cold_load_seconds"
	// MetricSnapshotWrites counts the snapshots written, by result: written, failed.
	MetricSnapshotWrites = "fray_encounter_snapshot_writes_total"
	// MetricWatchers is the watches open on this service, MetricWatched the encounters they
	// follow.
	MetricWatchers = "fray_encounter_watchers_open"
	MetricWatched  = "fray_encounter_watched_encounters"
	// MetricIdleEnded counts the encounters this service ended for idleness: by its sweep,
	// and those a tenant's administrator asked it to end (idle.go).
	MetricIdleEnded = "fray_encounter_idle_ended_total"
)

// The limits of fray_limit_refusals_total{limit} the encounter service refuses by (besides
// platform's rate limits).
const (
	LimitRequestBytes         = refusal.LimitRequestBytes
	LimitRecordBytes          = "record_bytes"
	LimitEncounterBytes       = "encounter_bytes"
	LimitEncounterEvents      = "encounter_events"
	LimitOpenEncounters       = "open_encounters"
	LimitWatchesPerPrincipal  = "watches_per_principal"
	LimitWatchersPerEncounter = "watchers_per_encounter"
	LimitWatchBuffer          = "watch_buffer"
)

// Limits are the limits the service refuses by.
var Limits = []string{LimitRequestBytes, LimitRecordBytes, LimitEncounterBytes, LimitEncounterEvents, LimitOpenEncounters,
	LimitWatchesPerPrincipal, LimitWatchersPerEncounter, LimitWatchBuffer}

// Metrics are the encounter service's metrics, registered in a telemetry.Metrics' registry.
// One Service reports them (the last given them in Options).
type Metrics struct {
	platform *telemetry.Metrics
	commands *prometheus.CounterVec
	// appendOf are the append histogram's series by outcome.
	appendRecorded, appendDuplicate, appendConflict, appendError prometheus.Observer
	conflicts, retries, hits, misses                             prometheus.Counter
	coldLoad                                                     prometheus.Histogram
	snapWritten, snapFailed                                      prometheus.Counter
	idleEnded                                                    prometheus.Counter
	service                                                      atomic.Pointer[Service]
	// bySystem are the commands' series of each rule system the service knows (and
	// "unknown"), by code: made once, so that counting a command neither hashes labels nor
	// allocates.
	bySystem atomic.Pointer[map[string]*commandCounters]
}

// commandCounters are one rule system's series of MetricCommands, by code.
type commandCounters [numCodes]prometheus.Counter

// numCodes is the number of gRPC codes (OK to Unauthenticated).
const numCodes = int(codes.Unauthenticated) + 1

// countersOf makes the series of system for every code, at zero.
func (m *Metrics) countersOf(system string) *commandCounters {
	var c commandCounters
	for code := range c {
		c[code] = m.commands.WithLabelValues(system, codes.Code(code).String())
	}
	return &c
}

// NewMetrics registers the encounter service's metrics with pm's registry; nil when pm is nil
// (metrics off).
func NewMetrics(pm *telemetry.Metrics) *Metrics {
	if pm == nil {
		return nil
	}
	m := &Metrics{platform: pm}
	m.commands = prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricCommands,
		Help: "Commands decided, by rule system and outcome (the gRPC code answered)."}, []string{"system", "code"})
	appends := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: MetricAppend,
		Help:    "Time of each append of a command's record to the log, by outcome: recorded, duplicate, conflict, error.",
		Buckets: telemetry.LatencyBuckets}, []string{"outcome"})
	m.appendRecorded, m.appendDuplicate = appends.WithLabelValues("recorded"), appends.WithLabelValues("duplicate")
	m.appendConflict, m.appendError = appends.WithLabelValues("conflict"), appends.WithLabelValues("error")
	counter := func(name, help string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	}
	m.conflicts = counter(MetricAppendConflicts, "Appends refused because the encounter had moved since it was read.")
	m.retries = counter(MetricRetries, "Commands decided again after their append met a conflict.")
	m.hits = counter(MetricCacheHits, "Loads of an encounter found in the cache.")
	m.misses = counter(MetricCacheMisses, "Loads of an encounter not in the cache: a cold load follows.")
	m.idleEnded = counter(MetricIdleEnded, "Encounters this service ended for idleness (its sweep's, and those a tenant's administrator asked for).")
	m.coldLoad = prometheus.NewHistogram(prometheus.HistogramOpts{Name: MetricColdLoad,
		Help: "Time of each cold load of an encounter (its snapshot and the records after it, or its whole log).", Buckets: telemetry.LatencyBuckets})
	snaps := prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricSnapshotWrites,
		Help: "Snapshots written, by result: written, failed (the command stands; a later load reads more of the log)."}, []string{"result"})
	m.snapWritten, m.snapFailed = snaps.WithLabelValues("written"), snaps.WithLabelValues("failed")
	gauge := func(name, help string, f func(s *Service) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 {
			if s := m.service.Load(); s != nil {
				return f(s)
			}
			return 0
		})
	}
	pm.Registry.MustRegister(m.commands, appends, m.conflicts, m.retries, m.hits, m.misses, m.coldLoad, snaps, m.idleEnded,
		gauge(MetricCacheEntries, "Encounters held in the cache.", func(s *Service) float64 { return float64(s.Cached()) }),
		gauge(MetricCacheBytes, "Bytes the cached encounters hold (states, command ids), as the cache counts them.", func(s *Service) float64 { return float64(s.CachedBytes()) }),
		gauge(MetricCacheMaxBytes, "The bound on the cache's bytes (--cache-bytes): past it the least recently used are dropped.", func(s *Service) float64 { return float64(s.opts.MaxCachedBytes) }),
		gauge(MetricWatchers, "Watches open on this service.", func(s *Service) float64 { _, w := s.Watching(); return float64(w) }),
		gauge(MetricWatched, "Encounters this service follows for its watchers.", func(s *Service) float64 { e, _ := s.Watching(); return float64(e) }),
	)
	pm.KnownLimits(Limits...)
	return m
}

// observer is what a Service reports to: its metrics and its tracer, each nil when off.
type observer struct {
	*Metrics
	tracer trace.Tracer
}

func newObserver(s *Service) observer {
	o := observer{Metrics: s.opts.Metrics}
	if o.Metrics != nil {
		o.service.Store(s)
		by := map[string]*commandCounters{unknownSystem: o.countersOf(unknownSystem)}
		for _, rs := range s.reg.Rulesets() {
			by[rs.GetId()] = o.countersOf(rs.GetId())
		}
		o.bySystem.Store(&by)
	}
	if s.opts.Tracing != nil {
		o.tracer = s.opts.Tracing.Provider.Tracer("github.com/fray-rpg/fray/services/encounter")
	}
	return o
}

// start is the time now when the metrics are on.
func (m *Metrics) start() time.Time {
	if m == nil {
		return time.Time{}
	}
	return time.Now()
}

// cacheLookup counts a load of an encounter found loaded in the cache, or not.
func (m *Metrics) cacheLookup(hit bool) {
	switch {
	case m == nil:
	case hit:
		m.hits.Inc()
	default:
		m.misses.Inc()
	}
}

// coldLoaded observes a cold load begun at start.
func (m *Metrics) coldLoaded(start time.Time) {
	if m != nil {
		m.coldLoad.Observe(time.Since(start).Seconds())
	}
}

// retried counts a command decided again after a conflict.
func (m *Metrics) retried() {
	if m != nil {
		m.retries.Inc()
	}
}

// snapshotWritten counts a snapshot write, failed when err is not nil.
func (m *Metrics) snapshotWritten(err error) {
	switch {
	case m == nil:
	case err != nil:
		m.snapFailed.Inc()
	default:
		m.snapWritten.Inc()
	}
}

// unknownSystem is the system label of a command whose rule system the service does not
// know (a create naming none it has, a command on no encounter).
const unknownSystem = "unknown"

// commandDone counts a command of the rule system system (one the service knows, else
// "unknown") ending with err.
func (s *Service) commandDone(system string, err error) {
	m := s.obs.Metrics
	if m == nil {
		return
	}
	by := *m.bySystem.Load()
	c, ok := by[system]
	if !ok {
		c = by[unknownSystem]
	}
	if code := status.Code(err); int(code) < numCodes {
		c[code].Inc()
	}
}

// countCommand counts a command given to encounter id that ended with o and err: its rule system is
// the encounter's, from the state after it, or else the cache's.
func (s *Service) countCommand(id string, o outcome, err error) {
	if s.obs.Metrics == nil {
		return
	}
	system := o.after.GetRuleSystem()
	if system == "" {
		system = s.cachedSystem(id)
	}
	s.commandDone(system, err)
}

// cachedSystem is the rule system of the cached encounter id, or "".
func (s *Service) cachedSystem(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.cache[id]; ok {
		return e.system
	}
	return ""
}

// MetricNames are the names of the series the encounter service exports, as queries name
// them (a histogram's with _bucket, _sum and _count): its own, platform's per-RPC and refusal
// series, and those of the Go runtime and the process a dashboard shows (of the many go_* and
// process_* series): the names a dashboard may use (deploy/grafana/fray.json; the resolver
// exports the grpc_server_* and runtime ones). TestEncounterMetricsOverARealListener keeps it
// true: every name listed is scraped, every fray_ and grpc_ name scraped is listed.
func MetricNames() []string {
	names := []string{"go_goroutines", "process_cpu_seconds_total", "process_resident_memory_bytes", MetricCommands, MetricAppendConflicts, MetricRetries, MetricCacheEntries, MetricCacheBytes, MetricCacheMaxBytes,
		MetricCacheHits, MetricCacheMisses, MetricSnapshotWrites, MetricWatchers, MetricWatched, MetricIdleEnded,
		telemetry.MetricServerStarted, telemetry.MetricServerHandled, telemetry.MetricServerMsgReceived, telemetry.MetricServerMsgSent,
		telemetry.MetricClientStarted, telemetry.MetricClientHandled, telemetry.MetricClientMsgReceived, telemetry.MetricClientMsgSent,
		telemetry.MetricLimitRefusals}
	for _, h := range []string{MetricAppend, MetricColdLoad, telemetry.MetricServerHandling, telemetry.MetricClientHandling} {
		names = append(names, h+"_bucket", h+"_sum", h+"_count")
	}
	slices.Sort(names)
	return names
}
