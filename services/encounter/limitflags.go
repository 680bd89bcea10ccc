package encounter

import (
	"errors"
	"flag"
	"time"

	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/telemetry"
)

// LimitFlags are the flags of what an encounter service holds and allows: its cache, a
// tenant's and a principal's open encounters, watches, an encounter's bytes, the ends for
// idleness. The encounter binary and `fray dev` both take them, so that a limit an operator
// meets can be tried on a laptop with the same flag.
type LimitFlags struct {
	cacheBytes, maxOpenMine, maxOpen, maxWatches, maxWatchers, watchBuffer, maxEncBytes, idleBatch *int
	idleEnd, idleEvery                                                                             *time.Duration
}

// AddLimitFlags adds the limit flags, each with its environment fallback, to fs.
func AddLimitFlags(fs *flag.FlagSet) *LimitFlags {
	l := &LimitFlags{}
	l.cacheBytes = fs.Int("cache-bytes", DefaultMaxCachedBytes, "bytes the encounters cached in memory may hold; past it the least recently used are dropped, to be loaded again (env FRAY_CACHE_BYTES)")
	l.maxOpenMine = fs.Int("max-open-encounters-per-principal", DefaultMaxOpenPerPrincipal, "encounters not ended one principal may be the GM of in its tenant; past it its CreateEncounter is refused (env FRAY_MAX_OPEN_ENCOUNTERS_PER_PRINCIPAL)")
	l.maxOpen = fs.Int("max-open-encounters", DefaultMaxOpenEncounters, "encounters not ended one tenant may have; past it CreateEncounter is refused (env FRAY_MAX_OPEN_ENCOUNTERS)")
	l.maxWatches = fs.Int("max-watches-per-principal", DefaultMaxWatchesPerPrincipal, "watches one principal may hold open on this instance; past it WatchEncounter is refused until one is closed (env FRAY_MAX_WATCHES_PER_PRINCIPAL)")
	l.maxWatchers = fs.Int("max-watchers-per-encounter", DefaultMaxWatchersPerEncounter, "watchers one encounter may have on this instance; past it WatchEncounter is refused until one is closed (env FRAY_MAX_WATCHERS_PER_ENCOUNTER)")
	l.watchBuffer = fs.Int("watch-buffer", DefaultWatchBuffer, "records a watcher may fall behind before it is cut off with the sequence to resume from (env FRAY_WATCH_BUFFER)")
	l.maxEncBytes = fs.Int("max-encounter-bytes", DefaultMaxEncounterBytes, "bytes one encounter's state may take; a command that would take it past is refused (env FRAY_MAX_ENCOUNTER_BYTES)")
	l.idleEnd = fs.Duration("idle-end", DefaultIdleEnd, "end an encounter that has recorded no event for this long, as its GM's end would (the dice seed revealed), so that it no longer counts toward its tenant's open encounters (env FRAY_IDLE_END; 0: never)")
	l.idleEvery = fs.Duration("idle-sweep-every", DefaultIdleSweepEvery, "how often idle encounters are looked for (env FRAY_IDLE_SWEEP_EVERY)")
	l.idleBatch = fs.Int("idle-sweep-batch", DefaultIdleSweepBatch, "idle encounters ended at most per look (env FRAY_IDLE_SWEEP_BATCH)")
	return l
}

// Check refuses the values that cannot work, naming the flag and its variable.
func (l *LimitFlags) Check(fs *flag.FlagSet) error {
	var errs []error
	for _, f := range []struct {
		name string
		v    int
	}{{"cache-bytes", *l.cacheBytes}, {"max-open-encounters", *l.maxOpen}, {"max-open-encounters-per-principal", *l.maxOpenMine},
		{"max-watches-per-principal", *l.maxWatches}, {"max-watchers-per-encounter", *l.maxWatchers}, {"watch-buffer", *l.watchBuffer},
		{"max-encounter-bytes", *l.maxEncBytes}, {"idle-sweep-batch", *l.idleBatch}} {
		if f.v < 0 {
			errs = append(errs, platform.FlagError(fs, f.name, "must be 0 (the default) or more"))
		}
	}
	if end := *l.idleEnd; end < 0 || (end > 0 && end < time.Second) {
		errs = append(errs, platform.FlagError(fs, "idle-end", "a duration of 1s or more (720h: 30 days), or 0 for never"))
	}
	if *l.idleEvery < time.Second {
		errs = append(errs, platform.FlagError(fs, "idle-sweep-every", "a duration of 1s or more"))
	}
	return errors.Join(errs...)
}

// Options are the service's options the flags set, with its metrics and tracing.
func (l *LimitFlags) Options(m *Metrics, tr *telemetry.Tracing) Options {
	return Options{MaxCachedBytes: *l.cacheBytes, MaxOpenEncounters: *l.maxOpen, MaxOpenPerPrincipal: *l.maxOpenMine, MaxEncounterBytes: *l.maxEncBytes,
		MaxWatchesPerPrincipal: *l.maxWatches, MaxWatchersPerEncounter: *l.maxWatchers, WatchBuffer: *l.watchBuffer,
		IdleEnd: IdleEndOption(*l.idleEnd), IdleSweepEvery: *l.idleEvery, IdleSweepBatch: *l.idleBatch,
		Metrics: m, Tracing: tr}
}
