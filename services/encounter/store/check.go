package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrMisconfigured: an existing stream cannot hold fray's log as it is configured (its
// subjects do not take fray's records, or its retention would remove them). Open changes
// nothing and refuses it; an operator fixes the stream (nats stream edit) or names another.
var ErrMisconfigured = errors.New("the stream cannot hold fray's log as it is configured")

// difference is one way an existing stream or bucket differs from what Open would create.
type difference struct {
	field, have, want string
	// limit: a storage limit, which Retention.Apply sets; fatal: fray cannot work with it.
	limit, fatal bool
}

func (d difference) String() string {
	return fmt.Sprintf("%s %s (these settings: %s)", d.field, d.have, d.want)
}

// streamDifferences lists how have differs from want, in what fray relies on.
func streamDifferences(have, want jetstream.StreamConfig) []difference {
	var ds []difference
	add := func(field string, h, w string, limit, fatal bool) {
		if h != w {
			ds = append(ds, difference{field: field, have: h, want: w, limit: limit, fatal: fatal})
		}
	}
	for _, subj := range want.Subjects {
		if !slices.ContainsFunc(have.Subjects, func(p string) bool { return covers(p, subj) }) {
			add("subjects", strings.Join(have.Subjects, ","), strings.Join(want.Subjects, ","), false, true)
		}
	}
	add("retention", have.Retention.String(), want.Retention.String(), false, true)
	add("storage", have.Storage.String(), want.Storage.String(), false, false)
	add("replicas", fmt.Sprint(max(have.Replicas, 1)), fmt.Sprint(want.Replicas), false, false)
	add("duplicate window", have.Duplicates.String(), want.Duplicates.String(), false, false)
	if want.DenyDelete && !have.DenyDelete {
		add("deny delete", "false", "true", false, false)
	}
	if want.DenyPurge && !have.DenyPurge {
		add("deny purge", "false", "true", false, false)
	}
	if want.AllowDirect && !have.AllowDirect {
		add("direct get", "false", "true", false, false)
	}
	if have.MaxMsgSize > 0 && have.MaxMsgSize < want.MaxMsgSize {
		add("max message size", bytesOf(int64(have.MaxMsgSize)), bytesOf(int64(want.MaxMsgSize)), false, false)
	}
	add("discard", have.Discard.String(), want.Discard.String(), true, false)
	add("discard new per subject", fmt.Sprint(have.DiscardNewPerSubject), fmt.Sprint(want.DiscardNewPerSubject), true, false)
	add("max bytes", bytesOf(have.MaxBytes), bytesOf(want.MaxBytes), true, false)
	add("max age", ageOf(have.MaxAge), ageOf(want.MaxAge), true, false)
	add("max records per encounter", countOf(have.MaxMsgsPerSubject), countOf(want.MaxMsgsPerSubject), true, false)
	return ds
}

// bucketDifferences lists how a bucket's stream (have) differs from want.
func bucketDifferences(have jetstream.StreamConfig, want jetstream.KeyValueConfig) []difference {
	var ds []difference
	add := func(field string, h, w string, limit bool) {
		if h != w {
			ds = append(ds, difference{field: field, have: h, want: w, limit: limit})
		}
	}
	add("storage", have.Storage.String(), want.Storage.String(), false)
	add("replicas", fmt.Sprint(max(have.Replicas, 1)), fmt.Sprint(max(want.Replicas, 1)), false)
	add("max bytes", bytesOf(have.MaxBytes), bytesOf(want.MaxBytes), true)
	add("max age", ageOf(have.MaxAge), ageOf(want.TTL), true)
	return ds
}

// covers reports whether the subject pattern p takes every subject of the pattern subj
// (tokens: * one, > the rest).
func covers(p, subj string) bool {
	pt, st := strings.Split(p, "."), strings.Split(subj, ".")
	for i, t := range pt {
		switch {
		case t == ">":
			return i < len(st)
		case i >= len(st):
			return false
		case t == "*":
			if st[i] == ">" {
				return false
			}
		case t != st[i]:
			return false
		}
	}
	return len(pt) == len(st)
}

func bytesOf(n int64) string {
	switch {
	case n <= 0:
		return "none"
	case n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func ageOf(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	return d.String()
}

func countOf(n int64) string {
	if n <= 0 {
		return "none"
	}
	return fmt.Sprint(n)
}

func joinDifferences(ds []difference) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.String()
	}
	return strings.Join(parts, "; ")
}

// report logs what differs in an existing stream or bucket (kind "stream" or "bucket"), and
// returns an error wrapping ErrMisconfigured if fray cannot work with it.
func report(log *slog.Logger, kind, name string, ds []difference, applied bool) error {
	var other, limits, fatal []difference
	for _, d := range ds {
		switch {
		case d.fatal:
			fatal = append(fatal, d)
		case d.limit:
			limits = append(limits, d)
		default:
			other = append(other, d)
		}
	}
	if len(fatal) > 0 {
		return fmt.Errorf("%w: %s %s has %s; nothing was changed: fix it with `nats stream edit` or name another stream",
			ErrMisconfigured, kind, name, joinDifferences(fatal))
	}
	attrs := []any{kind, name}
	if len(other) > 0 {
		attrs = append(attrs, "differs", joinDifferences(other))
	}
	switch {
	case len(limits) > 0 && applied:
		attrs = append(attrs, "limits_set", joinDifferences(limits))
	case len(limits) > 0:
		attrs = append(attrs, "limits_kept", joinDifferences(limits))
	}
	switch {
	case len(other) > 0:
		log.Warn(kind+" differs from these settings and was left as it is (change it with `nats stream edit`)", attrs...)
	case len(limits) > 0 && applied:
		log.Info(kind+": these storage limits set (--apply-storage-limits)", attrs...)
	case len(limits) > 0:
		log.Info(kind+" keeps its own storage limits (--apply-storage-limits would set these)", attrs...)
	}
	return nil
}

// ensureStream creates the stream as want if it is missing; an existing one is checked
// (report), and only its storage limits are set, and only if r.Apply.
func ensureStream(ctx context.Context, js jetstream.JetStream, want jetstream.StreamConfig, r Retention, log *slog.Logger) (jetstream.Stream, error) {
	stream, err := js.Stream(ctx, want.Name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		stream, err = js.CreateStream(ctx, want)
		if err == nil {
			log.Info("created stream", "stream", want.Name, "replicas", want.Replicas, "max_bytes", bytesOf(want.MaxBytes), "max_age", ageOf(want.MaxAge))
			return stream, nil
		}
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) { // created meanwhile (another replica)
			stream, err = js.Stream(ctx, want.Name)
		}
	}
	if err != nil {
		return nil, err
	}
	have := stream.CachedInfo().Config
	ds := streamDifferences(have, want)
	apply := r.Apply && slices.ContainsFunc(ds, func(d difference) bool { return d.limit })
	if err := report(log, "stream", want.Name, ds, apply); err != nil || !apply {
		return stream, err
	}
	next := have
	next.MaxBytes, next.MaxAge, next.MaxMsgsPerSubject = want.MaxBytes, want.MaxAge, want.MaxMsgsPerSubject
	next.Discard, next.DiscardNewPerSubject = want.Discard, want.DiscardNewPerSubject
	if stream, err = js.UpdateStream(ctx, next); err != nil {
		return nil, fmt.Errorf("set the storage limits: %w", err)
	}
	return stream, nil
}

// ensureBucket creates the bucket as want if it is missing; an existing one is checked
// (report), and only its limits are set, and only if r.Apply.
func ensureBucket(ctx context.Context, js jetstream.JetStream, want jetstream.KeyValueConfig, r Retention, log *slog.Logger) (jetstream.KeyValue, error) {
	kv, err := js.KeyValue(ctx, want.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, want)
		if err == nil {
			log.Info("created bucket", "bucket", want.Bucket, "replicas", want.Replicas, "max_bytes", bytesOf(want.MaxBytes))
			return kv, nil
		}
		if errors.Is(err, jetstream.ErrBucketExists) || errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			kv, err = js.KeyValue(ctx, want.Bucket)
		}
	}
	if err != nil {
		return nil, err
	}
	st, err := kv.Status(ctx)
	if err != nil {
		return nil, err
	}
	have := st.(*jetstream.KeyValueBucketStatus).StreamInfo().Config
	ds := bucketDifferences(have, want)
	apply := r.Apply && slices.ContainsFunc(ds, func(d difference) bool { return d.limit })
	if err := report(log, "bucket", want.Bucket, ds, apply); err != nil || !apply {
		return kv, err
	}
	next := have
	next.MaxBytes, next.MaxAge = want.MaxBytes, want.TTL
	if _, err := js.UpdateStream(ctx, next); err != nil {
		return nil, fmt.Errorf("set the limits of bucket %s: %w", want.Bucket, err)
	}
	return js.KeyValue(ctx, want.Bucket)
}
