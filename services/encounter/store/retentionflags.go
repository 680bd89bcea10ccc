package store

import (
	"errors"
	"flag"

	"github.com/fray-rpg/fray/services/platform"
)

// AddRetentionFlags adds the flags of the stream's and the buckets' storage limits, each with
// its environment fallback, to fs: the encounter service's and `fray dev`'s (whose embedded
// NATS reserves them on its disk, so a laptop short of space gives smaller ones).
func AddRetentionFlags(fs *flag.FlagSet) *Retention {
	var ret Retention
	fs.Int64Var(&ret.StreamMaxBytes, "stream-max-bytes", DefaultStreamMaxBytes, "bytes the stream of events may hold; when full, every command is refused until an operator raises it (env FRAY_STREAM_MAX_BYTES; -1: no limit)")
	fs.DurationVar(&ret.MaxAge, "max-age", 0, "remove events, seeds and snapshots older than this (env FRAY_MAX_AGE; 0: keep them for ever); an encounter whose first events expired can no longer be loaded")
	fs.Int64Var(&ret.MaxRecordsPerEncounter, "max-records-per-encounter", DefaultMaxRecordsPerEncounter, "records (commands) the stream keeps of one encounter before refusing its appends (env FRAY_MAX_RECORDS_PER_ENCOUNTER; -1: no limit)")
	fs.Int64Var(&ret.SeedsMaxBytes, "seeds-max-bytes", DefaultSeedsMaxBytes, "bytes the dice seed bucket may hold; when full, new encounters are refused (env FRAY_SEEDS_MAX_BYTES)")
	fs.Int64Var(&ret.SnapshotsMaxBytes, "snapshots-max-bytes", DefaultSnapshotsMaxBytes, "bytes the snapshot bucket may hold; when full, loads replay more of the log (env FRAY_SNAPSHOTS_MAX_BYTES)")
	fs.Int64Var(&ret.IndexMaxBytes, "index-max-bytes", DefaultIndexMaxBytes, "bytes the ListEncounters index bucket may hold; when full, the list lags (env FRAY_INDEX_MAX_BYTES)")
	fs.BoolVar(&ret.Apply, "apply-storage-limits", false, "set these storage limits on a stream and buckets that exist already (env FRAY_APPLY_STORAGE_LIMITS: true or false); without it, existing ones keep the limits they have. Nothing else of an existing stream or bucket is ever changed (replicas, subjects…): what differs is logged")
	return &ret
}

// Check refuses the limits that cannot work, naming the flag and its variable.
func (r Retention) Check(fs *flag.FlagSet) error {
	var errs []error
	for _, f := range []struct {
		name string
		v    int64
	}{{"stream-max-bytes", r.StreamMaxBytes}, {"max-records-per-encounter", r.MaxRecordsPerEncounter},
		{"seeds-max-bytes", r.SeedsMaxBytes}, {"snapshots-max-bytes", r.SnapshotsMaxBytes}, {"index-max-bytes", r.IndexMaxBytes}} {
		if f.v < -1 {
			errs = append(errs, platform.FlagError(fs, f.name, "must be a size, 0 for the default or -1 for no limit"))
		}
	}
	if r.MaxAge < 0 {
		errs = append(errs, platform.FlagError(fs, "max-age", "an age of 0 (keep for ever) or more"))
	}
	return errors.Join(errs...)
}
