package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/protobuf/proto"
)

// Config names the JetStream stream and bucket fray uses.
type Config struct {
	// Stream holding every encounter's events (default FRAY_ENCOUNTERS).
	Stream string
	// SubjectPrefix: encounter X is on subject <prefix>.X (default fray.enc).
	SubjectPrefix string
	// SeedBucket is the KV bucket of dice seeds (default FRAY_SEEDS).
	SeedBucket string
	// SnapshotBucket is the KV bucket of snapshots (default FRAY_SNAPSHOTS).
	SnapshotBucket string
	// IndexBucket is the KV bucket of encounter summaries and memberships, for
	// ListEncounters (default FRAY_INDEX).
	IndexBucket string
	// Replicas of the stream and bucket (default 1; 3 in a cluster).
	Replicas int
	// Duplicates is the window in which a repeated message id is dropped (default 24h).
	Duplicates time.Duration
	// Retention is what the stream and buckets may hold (see Retention for the defaults).
	Retention Retention
	// CallTimeout bounds each call to JetStream whose caller set no deadline (default
	// DefaultCallTimeout); a caller's deadline bounds its calls alone. Past it, or when the
	// connection is lost during the call, the call fails with an *UnavailableError; while
	// NATS is disconnected, at once.
	CallTimeout time.Duration
	// Log receives what Open finds different in an existing stream or bucket (default
	// slog.Default()).
	Log *slog.Logger
}

func (c Config) withDefaults() Config {
	if c.Stream == "" {
		c.Stream = "FRAY_ENCOUNTERS"
	}
	if c.SubjectPrefix == "" {
		c.SubjectPrefix = "fray.enc"
	}
	if c.SeedBucket == "" {
		c.SeedBucket = "FRAY_SEEDS"
	}
	if c.SnapshotBucket == "" {
		c.SnapshotBucket = "FRAY_SNAPSHOTS"
	}
	if c.IndexBucket == "" {
		c.IndexBucket = "FRAY_INDEX"
	}
	if c.Replicas == 0 {
		c.Replicas = 1
	}
	if c.Duplicates == 0 {
		c.Duplicates = 24 * time.Hour
	}
	c.Retention = c.Retention.withDefaults()
	if c.CallTimeout <= 0 {
		c.CallTimeout = DefaultCallTimeout
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	return c
}

// JetStream is the Log and Seeds on NATS JetStream.
type JetStream struct {
	cfg    Config
	conn   *conn
	js     jetstream.JetStream
	stream stream
	seeds  jetstream.KeyValue
	snaps  jetstream.KeyValue
	index  jetstream.KeyValue
	// stall: how long Load's ordered consumer is awaited for its next record before the
	// rest is read by lookups (forwardStall, or a CallTimeout set longer: the default, a
	// bound for calls with no deadline, is not what a stalled consumer is awaited).
	stall time.Duration

	mu    sync.Mutex
	known map[string]indexed // encounter id → the index summary this store last wrote

	counts counts // the additions to the index's counts being written (tenants.go)
}

// Open creates the stream and the buckets if they are missing (file storage, deletes and
// purges denied, the limits of cfg.Retention, new writes refused at a limit) and returns the
// store. An existing stream or bucket is checked, never rewritten: what differs from what
// Open would create is logged (cfg.Log), and one fray cannot work with (subjects its records
// do not go to, a retention that removes them) is an error wrapping ErrMisconfigured. Only
// cfg.Retention.Apply sets this store's storage limits on existing ones.
func Open(ctx context.Context, nc *nats.Conn, cfg Config) (*JetStream, error) {
	cfg = cfg.withDefaults()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	r := cfg.Retention
	stream, err := ensureStream(ctx, js, eventsStream(cfg), r, cfg.Log)
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", cfg.Stream, err)
	}
	var kvs [3]jetstream.KeyValue
	for i, b := range []jetstream.KeyValueConfig{{
		Bucket:      cfg.SeedBucket,
		Description: "fray dice seeds, secret until their encounter ends (then deleted: the log reveals them)",
		MaxBytes:    r.SeedsMaxBytes,
	}, {
		Bucket:      cfg.SnapshotBucket,
		Description: "fray snapshots: each encounter's state folded up to a log position",
		MaxBytes:    r.SnapshotsMaxBytes,
	}, {
		Bucket:      cfg.IndexBucket,
		Description: "fray encounter index: each encounter's summary and each principal's encounters, derived from the log",
		MaxBytes:    r.IndexMaxBytes,
	}} {
		b.Storage, b.Replicas, b.TTL = jetstream.FileStorage, cfg.Replicas, r.MaxAge
		if kvs[i], err = ensureBucket(ctx, js, b, r, cfg.Log); err != nil {
			return nil, fmt.Errorf("bucket %s: %w", b.Bucket, err)
		}
	}
	s := newJetStream(cfg, nc, js, stream)
	s.seeds, s.snaps, s.index = kv{kvs[0], s.conn, js}, kv{kvs[1], s.conn, js}, kv{kvs[2], s.conn, js}
	return s, nil
}

// eventsStream is the stream of events as Open creates it.
func eventsStream(cfg Config) jetstream.StreamConfig {
	r := cfg.Retention
	return jetstream.StreamConfig{
		Name:        cfg.Stream,
		Description: "fray encounter events: one subject per encounter, one message per command",
		Subjects:    []string{cfg.SubjectPrefix + ".*"},
		Retention:   jetstream.LimitsPolicy,
		Storage:     jetstream.FileStorage,
		Replicas:    cfg.Replicas,
		Duplicates:  cfg.Duplicates,
		DenyDelete:  true,
		DenyPurge:   true,
		MaxMsgSize:  MaxRecordBytes,
		AllowDirect: true,
		// At a limit, an append is refused: no record is ever dropped to make room.
		Discard:              jetstream.DiscardNew,
		DiscardNewPerSubject: r.MaxRecordsPerEncounter > 0,
		MaxBytes:             r.StreamMaxBytes,
		MaxAge:               r.MaxAge,
		MaxMsgsPerSubject:    r.MaxRecordsPerEncounter,
	}
}

func newJetStream(cfg Config, nc *nats.Conn, js jetstream.JetStream, st jetstream.Stream) *JetStream {
	c := newConn(nc, cfg.CallTimeout)
	stall := forwardStall
	if cfg.CallTimeout != DefaultCallTimeout {
		stall = max(cfg.CallTimeout, forwardStall)
	}
	return &JetStream{cfg: cfg, conn: c, js: js, stream: stream{st, c, js}, stall: stall, known: map[string]indexed{}}
}

// OpenLog creates the stream of events if it is missing, as Open does, and otherwise checks
// it the same way, changing nothing unless cfg.Retention.Apply; it opens no bucket (as Attach:
// seeds and snapshots are ErrNoBucket). For tools that write the log (fray import).
func OpenLog(ctx context.Context, nc *nats.Conn, cfg Config) (*JetStream, error) {
	cfg = cfg.withDefaults()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	stream, err := ensureStream(ctx, js, eventsStream(cfg), cfg.Retention, cfg.Log)
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", cfg.Stream, err)
	}
	return newJetStream(cfg, nc, js, stream), nil
}

// MaxRecordBytes is the largest record the stream accepts (the service refuses larger ones
// first, with a clear message).
const MaxRecordBytes = 1 << 20

// Attach opens the existing stream, creating nothing: for tools that read the log. It opens
// neither bucket (the tools' NATS user may not read them): its seeds and snapshots are
// ErrNoBucket.
func Attach(ctx context.Context, nc *nats.Conn, cfg Config) (*JetStream, error) {
	cfg = cfg.withDefaults()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	stream, err := js.Stream(ctx, cfg.Stream)
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", cfg.Stream, err)
	}
	return newJetStream(cfg, nc, js, stream), nil
}

// ErrNoBucket: a store from Attach keeps no seeds, snapshots or index.
var ErrNoBucket = errors.New("this store was attached to read the log: it has no seed or snapshot bucket")

// JetStream is the underlying JetStream context.
func (s *JetStream) JetStream() jetstream.JetStream { return s.js }

// StreamName is the name of the stream of events.
func (s *JetStream) StreamName() string { return s.cfg.Stream }

// Subject is the subject of an encounter's events.
func (s *JetStream) Subject(encounterID string) string {
	return s.cfg.SubjectPrefix + "." + encounterID
}

func isWrongLastSequence(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}

// errCodeDuplicateInProcess: a record with the same message id is being stored (an earlier
// attempt at the same command, not yet acknowledged).
const errCodeDuplicateInProcess jetstream.ErrorCode = 10158

func isDuplicateInProcess(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode == errCodeDuplicateInProcess
}

func (s *JetStream) Append(ctx context.Context, encounterID string, expected uint64, msgID string, batch *encounterv1.EventBatch) (Appended, error) {
	data, err := proto.Marshal(batch)
	if err != nil {
		return Appended{}, err
	}
	opts := []jetstream.PublishOpt{jetstream.WithExpectLastSequencePerSubject(expected)}
	if msgID != "" {
		opts = append(opts, jetstream.WithMsgID(msgID))
	}
	// Each record names the position of the encounter's previous record: a load walks back
	// from the last record (an indexed lookup) by sequence, never scanning the stream.
	msg := &nats.Msg{Subject: s.Subject(encounterID), Data: data, Header: nats.Header{}}
	msg.Header.Set(PreviousHeader, strconv.FormatUint(expected, 10))
	ctx, end, err := s.conn.call(ctx, true)
	if err != nil {
		return Appended{}, err // not sent: NATS is down
	}
	ack, err := s.js.PublishMsg(ctx, msg, opts...)
	if err = end(err); err != nil {
		if isWrongLastSequence(err) {
			return Appended{}, ErrConflict
		}
		if isDuplicateInProcess(err) {
			return Appended{}, &UnavailableError{Why: "an earlier attempt at this command is being recorded", MayHaveWritten: true}
		}
		return Appended{}, fmt.Errorf("append to %s: %w", encounterID, err)
	}
	return Appended{Position: ack.Sequence, Duplicate: ack.Duplicate}, nil
}

func decode(seq uint64, data []byte) (Record, error) {
	b := &encounterv1.EventBatch{}
	if err := proto.Unmarshal(data, b); err != nil {
		return Record{}, fmt.Errorf("record %d is not an event batch: %w", seq, err)
	}
	return Record{Position: seq, Batch: b}, nil
}

func (s *JetStream) Get(ctx context.Context, position uint64) (Record, error) {
	m, err := s.stream.msg(ctx, position)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return Record{}, ErrNotFound
	}
	if err != nil {
		return Record{}, err
	}
	return decode(m.Sequence, m.Data)
}

// last is the position of the encounter's last record (an indexed lookup), 0 if none.
func (s *JetStream) last(ctx context.Context, encounterID string) (uint64, error) {
	m, err := s.stream.lastMsg(ctx, s.Subject(encounterID), 0)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return m.Sequence, nil
}

func (s *JetStream) consumer(ctx context.Context, encounterID string, after uint64) (jetstream.Consumer, error) {
	cfg := jetstream.OrderedConsumerConfig{FilterSubjects: []string{s.Subject(encounterID)}, InactiveThreshold: followInactive}
	if after > 0 {
		cfg.DeliverPolicy = jetstream.DeliverByStartSequencePolicy
		cfg.OptStartSeq = after + 1
	}
	return s.stream.OrderedConsumer(ctx, cfg)
}

// PreviousHeader names, on each record, the position of the encounter's previous record.
const PreviousHeader = "Fray-Previous"

// listTimeout bounds List, which reads every subject of the stream.
const listTimeout = time.Minute

func (s *JetStream) Watch(ctx context.Context, encounterID string, after uint64, fn func(Record) error) error {
	cons, err := s.consumer(ctx, encounterID, after)
	if err != nil {
		return err
	}
	defer s.deleteConsumer(cons) // not left for the server to expire
	it, err := cons.Messages()
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, it.Stop)
	defer stop()
	defer it.Stop()
	for {
		m, err := it.Next()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		meta, err := m.Metadata()
		if err != nil {
			return err
		}
		r, err := decode(meta.Sequence.Stream, m.Data())
		if err != nil {
			return err
		}
		if err := fn(r); err != nil {
			if errors.Is(err, ErrStop) {
				return nil
			}
			return err
		}
	}
}

// DuplicateWindow is how long the stream remembers a message id (Append's Duplicate): its
// duplicate window as the stream was found or made.
func (s *JetStream) DuplicateWindow() time.Duration {
	if info := s.stream.CachedInfo(); info != nil {
		return info.Config.Duplicates
	}
	return 0
}

func (s *JetStream) List(ctx context.Context) ([]string, error) {
	// Every subject of the stream, in pages: longer than one call.
	ctx, end, err := s.conn.callWithin(ctx, false, listTimeout)
	if err != nil {
		return nil, err
	}
	info, err := s.stream.Stream.Info(ctx, jetstream.WithSubjectFilter(s.cfg.SubjectPrefix+".*"))
	if err = end(err); err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(info.State.Subjects))
	for subj := range info.State.Subjects {
		ids = append(ids, strings.TrimPrefix(subj, s.cfg.SubjectPrefix+"."))
	}
	sort.Strings(ids)
	return ids, nil
}

func (s *JetStream) PutSeed(ctx context.Context, encounterID string, seed []byte) error {
	if s.seeds == nil {
		return ErrNoBucket
	}
	_, err := s.seeds.Put(ctx, encounterID, seed)
	return err
}

// SeedOnce creates the seed's key only if it does not exist (a conditional write): of
// concurrent writers, one creates it and every other reads that one.
func (s *JetStream) SeedOnce(ctx context.Context, encounterID string, seed []byte) ([]byte, error) {
	if s.seeds == nil {
		return nil, ErrNoBucket
	}
	if _, err := s.seeds.Create(ctx, encounterID, seed); err == nil {
		return seed, nil
	} else if !errors.Is(err, jetstream.ErrKeyExists) {
		return nil, err
	}
	e, err := s.seeds.Get(ctx, encounterID)
	if err != nil {
		return nil, err
	}
	return e.Value(), nil
}

func (s *JetStream) Seed(ctx context.Context, encounterID string) ([]byte, error) {
	if s.seeds == nil {
		return nil, ErrNoBucket
	}
	e, err := s.seeds.Get(ctx, encounterID)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return e.Value(), nil
}

func (s *JetStream) PutSnapshot(ctx context.Context, encounterID string, snap *encounterv1.Snapshot) error {
	if s.snaps == nil {
		return ErrNoBucket
	}
	b, err := proto.Marshal(snap)
	if err != nil {
		return err
	}
	_, err = s.snaps.Put(ctx, encounterID, b)
	return err
}

func (s *JetStream) Snapshot(ctx context.Context, encounterID string) (*encounterv1.Snapshot, error) {
	if s.snaps == nil {
		return nil, ErrNoBucket
	}
	e, err := s.snaps.Get(ctx, encounterID)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	snap := &encounterv1.Snapshot{}
	return snap, proto.Unmarshal(e.Value(), snap)
}
