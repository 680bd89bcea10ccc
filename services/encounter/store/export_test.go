package store

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// SetWalkBack sets how many records Load walks back before it reads forward (for
// benchmarks), and returns a function that restores it.
func SetWalkBack(n int) (restore func()) {
	old := walkBack
	walkBack = n
	return func() { walkBack = old }
}

// StallForwardAfter makes Load's ordered consumer stall after n records, so that the rest is
// read by lookups; stalled is told how many the consumer read. It returns a function that
// restores both.
func StallForwardAfter(n int, stalled func(readByConsumer int)) (restore func()) {
	oldN, oldOn := stallAfter, onStall
	stallAfter, onStall = n, stalled
	return func() { stallAfter, onStall = oldN, oldOn }
}

// SetForwardStall sets how long s's Load awaits its ordered consumer's next record before
// it reads the rest by lookups.
func (s *JetStream) SetForwardStall(d time.Duration) { s.stall = d }

// LagCopies makes s's direct reads answer as a copy of the stream and buckets that holds
// only the records up to position upTo (0: nothing) would: the last record of a subject is
// its last up to upTo, a later one is not there, and no bucket key is there. What s asks of
// the stream's leader is answered by the real server. Every time a copy's answer is not
// taken and the leader is asked, behind is told. It returns a function that restores s.
func (s *JetStream) LagCopies(upTo uint64, behind func(what string)) (restore func()) {
	oldStream, oldOn := s.stream.Stream, onBehind
	oldKV := [3]jetstream.KeyValue{s.seeds, s.snaps, s.index}
	s.stream.Stream = laggingStream{Stream: oldStream, upTo: upTo}
	for _, k := range []*jetstream.KeyValue{&s.seeds, &s.snaps, &s.index} {
		if w, ok := (*k).(kv); ok {
			w.KeyValue = laggingKV{w.KeyValue}
			*k = w
		}
	}
	onBehind = behind
	return func() {
		s.stream.Stream, onBehind = oldStream, oldOn
		s.seeds, s.snaps, s.index = oldKV[0], oldKV[1], oldKV[2]
	}
}

type laggingStream struct {
	jetstream.Stream
	upTo uint64
}

func (l laggingStream) GetMsg(ctx context.Context, seq uint64, opts ...jetstream.GetMsgOpt) (*jetstream.RawStreamMsg, error) {
	m, err := l.Stream.GetMsg(ctx, seq, opts...)
	if err == nil && m.Sequence > l.upTo {
		return nil, jetstream.ErrMsgNotFound
	}
	return m, err
}

func (l laggingStream) GetLastMsgForSubject(ctx context.Context, subject string) (*jetstream.RawStreamMsg, error) {
	m, err := l.Stream.GetLastMsgForSubject(ctx, subject)
	for err == nil && m.Sequence > l.upTo { // back along the links to the copy's last
		prev, perr := strconv.ParseUint(m.Header.Get(PreviousHeader), 10, 64)
		if perr != nil || prev == 0 {
			return nil, jetstream.ErrMsgNotFound
		}
		m, err = l.Stream.GetMsg(ctx, prev)
	}
	return m, err
}

type laggingKV struct{ jetstream.KeyValue }

func (laggingKV) Get(context.Context, string) (jetstream.KeyValueEntry, error) {
	return nil, jetstream.ErrKeyNotFound
}

// FreezeIndexCopy makes s's direct reads of the index bucket answer as a copy that stopped
// applying writes: each key as it was the first time it was read (a key never read: as the
// bucket holds it now). What s asks of the bucket's leader is answered by the real server.
// It returns a function that restores s.
func (s *JetStream) FreezeIndexCopy() (restore func()) {
	old := s.index
	if w, ok := s.index.(kv); ok {
		w.KeyValue = &frozenKV{KeyValue: w.KeyValue}
		s.index = w
	}
	return func() { s.index = old }
}

type frozenKV struct {
	jetstream.KeyValue
	frozen sync.Map // key → jetstream.KeyValueEntry
}

func (f *frozenKV) Get(ctx context.Context, key string) (jetstream.KeyValueEntry, error) {
	if e, ok := f.frozen.Load(key); ok {
		return e.(jetstream.KeyValueEntry), nil
	}
	e, err := f.KeyValue.Get(ctx, key)
	if err == nil {
		actual, _ := f.frozen.LoadOrStore(key, e)
		return actual.(jetstream.KeyValueEntry), nil
	}
	return e, err
}
