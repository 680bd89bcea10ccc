package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/synadia-io/orbit.go/jetstreamext"
)

// DefaultCallTimeout bounds each call to JetStream (a lookup, an append, a bucket's read or
// write) whose caller set no deadline: a watch's reads, the service's own writes. A call whose
// caller has a deadline is bounded by it alone (issue 31: an internal 2 s turned a call starved
// of CPU into Unavailable while its caller would have waited 30 s; 3,827 of 5,000 watches were
// cut so under load). A NATS that is down still fails a call at once, and one under way when
// it goes down ends then (conn), whatever the deadline.
const DefaultCallTimeout = 30 * time.Second

// ErrUnavailable: the event log cannot be reached now, or did not answer within the call's
// deadline. Every such error is an *UnavailableError.
var ErrUnavailable = errors.New("the event log is unreachable")

// UnavailableError says why the event log could not be used.
type UnavailableError struct {
	// Why, in a few words: "NATS is reconnecting", "no answer within 2s".
	Why string
	// MayHaveWritten: the call was a write that was sent and not confirmed; it may have been
	// recorded.
	MayHaveWritten bool
	// Closed: the connection to NATS was closed (by this service, stopping): no later call
	// on it will succeed, so nothing should be tried again on it.
	Closed bool
}

func (e *UnavailableError) Error() string { return ErrUnavailable.Error() + ": " + e.Why }

func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// conn follows a NATS connection's state for the store's calls: a call made while it is down
// fails at once, and one under way when it goes down ends then, instead of waiting for its
// deadline.
type conn struct {
	nc      *nats.Conn
	timeout time.Duration

	mu   sync.Mutex
	up   context.Context // ends when the connection is lost
	lost context.CancelCauseFunc
}

// errLost and errNoAnswer are the causes of a call's end that make it Unavailable.
var (
	errLost     = errors.New("the connection to NATS was lost during the call")
	errNoAnswer = errors.New("no answer")
)

func newConn(nc *nats.Conn, timeout time.Duration) *conn {
	if timeout <= 0 {
		timeout = DefaultCallTimeout
	}
	c := &conn{nc: nc, timeout: timeout}
	c.up, c.lost = context.WithCancelCause(context.Background())
	ch := nc.StatusChanged(nats.CONNECTED, nats.DISCONNECTED, nats.RECONNECTING, nats.CLOSED)
	go func() {
		for range ch {
			c.sync()
			if nc.IsClosed() {
				nc.RemoveStatusListener(ch) // closes ch
			}
		}
	}()
	c.sync()
	return c
}

// sync follows the connection's status: while it is down, the current calls end and new
// ones fail at once.
func (c *conn) sync() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nc.IsConnected() {
		if c.up.Err() != nil {
			c.up, c.lost = context.WithCancelCause(context.Background())
		}
		return
	}
	c.lost(errLost)
}

// current is the context of the connection while it is up, nil while it is down.
func (c *conn) current() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.up.Err() != nil || !c.nc.IsConnected() {
		return nil
	}
	return c.up
}

func (c *conn) down() error {
	return &UnavailableError{Why: "NATS is " + strings.ToLower(c.nc.Status().String()), Closed: c.nc.IsClosed()}
}

// call prepares one call to JetStream: ctx bounded by the caller's deadline, or the call
// timeout when the caller has none, and ended if the connection is lost; and end, which maps
// the call's error (a write's with write set): a call that got no answer within the call
// timeout, or lost its connection, is an *UnavailableError; the caller's own deadline or
// cancel, and any other error, as it is. While the connection is down, call fails at once.
func (c *conn) call(ctx context.Context, write bool) (context.Context, func(error) error, error) {
	if _, ok := ctx.Deadline(); ok {
		return c.callWithin(ctx, write, 0)
	}
	return c.callWithin(ctx, write, c.timeout)
}

// callWithin is call bounded by timeout as well as the caller's deadline (0: by the
// caller's deadline alone).
func (c *conn) callWithin(ctx context.Context, write bool, timeout time.Duration) (context.Context, func(error) error, error) {
	up := c.current()
	if up == nil {
		return ctx, nil, c.down()
	}
	callCtx, cancel := context.WithCancel(ctx)
	if timeout > 0 {
		callCtx, cancel = context.WithTimeoutCause(ctx, timeout, errNoAnswer)
	}
	stop := context.AfterFunc(up, cancel) // the connection lost: the call ends
	end := func(err error) error {
		stop()
		noAnswer := errors.Is(context.Cause(callCtx), errNoAnswer)
		cancel()
		if err == nil || ctx.Err() != nil { // done, or the caller's own deadline or cancel
			return err
		}
		// Ended by this call's deadline or by the connection's loss, not an answer.
		ended := errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout)
		why := ""
		switch {
		case ended && noAnswer:
			why = fmt.Sprintf("no answer within %s", timeout)
		case ended && up.Err() != nil, errors.Is(err, nats.ErrReconnectBufExceeded), errors.Is(err, nats.ErrConnectionClosed):
			why = errLost.Error()
		case errors.Is(err, jetstream.ErrNoStreamResponse), errors.Is(err, nats.ErrNoResponders):
			// Nobody received it: nothing was written.
			return &UnavailableError{Why: "JetStream does not answer (no stream leader, or a NATS node restarting)"}
		default:
			return err
		}
		return &UnavailableError{Why: why, MayHaveWritten: write}
	}
	return callCtx, end, nil
}

// stream is a jetstream.Stream whose calls go through conn.call. Its GetMsg and
// GetLastMsgForSubject are direct gets, answered by any replica: a record they return is
// the record, but "none" or "the last" may be a replica's stale view. msg, nextMsg, lastMsg
// and latestMsg settle those with the leader (leader.go).
type stream struct {
	jetstream.Stream
	c  *conn
	js jetstream.JetStream
}

func (s stream) GetMsg(ctx context.Context, seq uint64, opts ...jetstream.GetMsgOpt) (*jetstream.RawStreamMsg, error) {
	ctx, end, err := s.c.call(ctx, false)
	if err != nil {
		return nil, err
	}
	m, err := s.Stream.GetMsg(ctx, seq, opts...)
	return m, end(err)
}

func (s stream) GetLastMsgForSubject(ctx context.Context, subject string) (*jetstream.RawStreamMsg, error) {
	ctx, end, err := s.c.call(ctx, false)
	if err != nil {
		return nil, err
	}
	m, err := s.Stream.GetLastMsgForSubject(ctx, subject)
	return m, end(err)
}

// fromLeader asks the stream's leader. A record it returns is the record; its "there is
// none" and its "this is the last" stand only once the leader is shown to still lead
// (confirmLeader): a leader cut off from its peers answers as the leader until it steps
// down, about 10 s later, while the others may have elected a new one and recorded more.
func (s stream) fromLeader(ctx context.Context, req msgGetRequest) (*jetstream.RawStreamMsg, error) {
	m, err := s.c.leaderGet(ctx, s.js, s.CachedInfo().Config.Name, req)
	if err == nil && req.LastFor == "" {
		return m, nil
	}
	if err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, err
	}
	if cerr := s.confirmLeader(ctx); cerr != nil {
		return nil, cerr
	}
	return m, err
}

// msg is the record at seq: from any replica, or from the leader if the replica has none.
func (s stream) msg(ctx context.Context, seq uint64) (*jetstream.RawStreamMsg, error) {
	m, err := s.GetMsg(ctx, seq)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return s.fromLeader(ctx, msgGetRequest{Seq: seq})
	}
	return m, err
}

// nextMsg is the first record on subject at or after seq: from any replica, or from the
// leader if the replica has none.
func (s stream) nextMsg(ctx context.Context, seq uint64, subject string) (*jetstream.RawStreamMsg, error) {
	m, err := s.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subject))
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return s.fromLeader(ctx, msgGetRequest{Seq: seq, NextFor: subject})
	}
	return m, err
}

// lastMsg is the last record on subject, at least at position atLeast (what the caller
// knows is recorded: 0 if nothing): from any replica that holds it, else from the leader; a
// replica's "none" is never taken.
func (s stream) lastMsg(ctx context.Context, subject string, atLeast uint64) (*jetstream.RawStreamMsg, error) {
	m, err := s.GetLastMsgForSubject(ctx, subject)
	if errors.Is(err, jetstream.ErrMsgNotFound) || (err == nil && m.Sequence < atLeast) {
		if onBehind != nil {
			onBehind(subject)
		}
		return s.latestMsg(ctx, subject)
	}
	return m, err
}

// latestMsg is the last record on subject as the leader holds it: every record acknowledged
// before the call included.
func (s stream) latestMsg(ctx context.Context, subject string) (*jetstream.RawStreamMsg, error) {
	return s.fromLeader(ctx, msgGetRequest{LastFor: subject})
}

// onBehind, set by tests, is told when a replica's answer was not taken and the leader asked.
var onBehind func(subject string)

func (s stream) Info(ctx context.Context, opts ...jetstream.StreamInfoOpt) (*jetstream.StreamInfo, error) {
	ctx, end, err := s.c.call(ctx, false)
	if err != nil {
		return nil, err
	}
	i, err := s.Stream.Info(ctx, opts...)
	return i, end(err)
}

func (s stream) OrderedConsumer(ctx context.Context, cfg jetstream.OrderedConsumerConfig) (jetstream.Consumer, error) {
	ctx, end, err := s.c.call(ctx, false)
	if err != nil {
		return nil, err
	}
	cons, err := s.Stream.OrderedConsumer(ctx, cfg)
	return cons, end(err)
}

// kv is a jetstream.KeyValue whose calls go through conn.call; a key a replica says is not
// there is looked up again with the bucket's leader (leader.go).
type kv struct {
	jetstream.KeyValue
	c  *conn
	js jetstream.JetStream
}

func (k kv) Get(ctx context.Context, key string) (jetstream.KeyValueEntry, error) {
	cctx, end, err := k.c.call(ctx, false)
	if err != nil {
		return nil, err
	}
	e, err := k.KeyValue.Get(cctx, key)
	if err = end(err); errors.Is(err, jetstream.ErrKeyNotFound) {
		if onBehind != nil {
			onBehind(key)
		}
		return k.latest(ctx, key)
	}
	return e, err
}

func (k kv) Put(ctx context.Context, key string, value []byte) (uint64, error) {
	ctx, end, err := k.c.call(ctx, true)
	if err != nil {
		return 0, err
	}
	rev, err := k.KeyValue.Put(ctx, key, value)
	return rev, end(err)
}

func (k kv) Create(ctx context.Context, key string, value []byte, opts ...jetstream.KVCreateOpt) (uint64, error) {
	ctx, end, err := k.c.call(ctx, true)
	if err != nil {
		return 0, err
	}
	rev, err := k.KeyValue.Create(ctx, key, value, opts...)
	return rev, end(err)
}

func (k kv) Update(ctx context.Context, key string, value []byte, revision uint64) (uint64, error) {
	ctx, end, err := k.c.call(ctx, true)
	if err != nil {
		return 0, err
	}
	rev, err := k.KeyValue.Update(ctx, key, value, revision)
	return rev, end(err)
}

func (k kv) Delete(ctx context.Context, key string, opts ...jetstream.KVDeleteOpt) error {
	ctx, end, err := k.c.call(ctx, true)
	if err != nil {
		return err
	}
	return end(k.KeyValue.Delete(ctx, key, opts...))
}

func (k kv) Purge(ctx context.Context, key string, opts ...jetstream.KVDeleteOpt) error {
	ctx, end, err := k.c.call(ctx, true)
	if err != nil {
		return err
	}
	return end(k.KeyValue.Purge(ctx, key, opts...))
}

func (k kv) Status(ctx context.Context) (jetstream.KeyValueStatus, error) {
	ctx, end, err := k.c.call(ctx, false)
	if err != nil {
		return nil, err
	}
	st, err := k.KeyValue.Status(ctx)
	return st, end(err)
}

// getBatch is jetstreamext.GetBatch through conn.call; the messages are read before it
// returns.
func (c *conn) getBatch(ctx context.Context, js jetstream.JetStream, streamName string, n int, opts ...jetstreamext.GetBatchOpt) ([]*jetstream.RawStreamMsg, error) {
	ctx, end, err := c.call(ctx, false)
	if err != nil {
		return nil, err
	}
	msgs, err := jetstreamext.GetBatch(ctx, js, streamName, n, opts...)
	if err != nil {
		return nil, end(err)
	}
	var out []*jetstream.RawStreamMsg
	for m, err := range msgs {
		if errors.Is(err, jetstreamext.ErrNoMessages) {
			break
		}
		if err != nil {
			return nil, end(err)
		}
		out = append(out, m)
	}
	return out, end(nil)
}
