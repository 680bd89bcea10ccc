package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Load and what it reads with: the walk back along PreviousHeader links, the ordered consumer
// forward, and the lookups when that consumer stalls.

// walkBack is how many records Load follows back from the last one, each by an indexed
// lookup, before it reads the rest forward with an ordered consumer. Measured by
// BenchmarkLoadTail (2 cores, embedded NATS): a lookup costs about 55 µs a record; a consumer
// about 600 µs to create and delete, then 11 µs a record; they cross between 8 and 16
// records. 16 keeps a tail behind a snapshot (written every few records) to lookups alone
// and costs a long tail under 1 ms more than a consumer alone.
var walkBack = 16

// Load reads the records after `after`: back from the last record along their
// PreviousHeader links (one lookup by sequence each, whatever else the stream holds), and,
// for a long stretch, forward from after by an ordered consumer filtered on the encounter's
// subject, deleted when done.
// Where the copy of the stream that answers first may be behind (leader.go), the last record
// is asked of the leader: with Latest, or when that copy's last is before AtLeast or it has
// none.
func (s *JetStream) Load(ctx context.Context, encounterID string, after uint64, opts ...LoadOption) ([]Record, error) {
	o := loadOptionsOf(opts)
	var m *jetstream.RawStreamMsg
	var err error
	if o.latest {
		m, err = s.stream.latestMsg(ctx, s.Subject(encounterID))
	} else {
		m, err = s.stream.lastMsg(ctx, s.Subject(encounterID), o.atLeast)
	}
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	var back []Record
	upTo := m.Sequence // read forward up to this position when the walk stops short of after
	for m.Sequence > after {
		r, err := decode(m.Sequence, m.Data)
		if err != nil {
			return nil, err
		}
		prev, err := strconv.ParseUint(m.Header.Get(PreviousHeader), 10, 64)
		if err != nil { // a record without the link: read it and the rest forward
			break
		}
		back = append(back, r)
		upTo = prev
		if prev <= after {
			break
		}
		if len(back) >= walkBack { // a long tail: the rest forward
			break
		}
		if m, err = s.stream.msg(ctx, prev); err != nil {
			return nil, err
		}
	}
	slices.Reverse(back)
	if upTo <= after {
		return back, nil
	}
	fwd, err := s.forward(ctx, encounterID, after, upTo)
	if err != nil {
		return nil, err
	}
	return append(fwd, back...), nil
}

// forward reads the encounter's records in (after, upTo]: with one ordered consumer, deleted
// before it returns, the fast way for a long stretch; and, if that consumer stalls (no record
// within forwardStall), the rest by lookups. An ordered consumer is one replica placed on
// any of the stream's NATS nodes; after a node's restart it was seen to deliver nothing,
// heartbeats and all, until the read gave up (the faults test's `fray audit verify`, once in
// CI), while every lookup was answered.
func (s *JetStream) forward(ctx context.Context, encounterID string, after, upTo uint64) ([]Record, error) {
	out, err := s.forwardByConsumer(ctx, encounterID, after, upTo)
	if !errors.Is(err, errStalled) {
		return out, err
	}
	from := after
	if len(out) > 0 {
		from = out[len(out)-1].Position
	}
	rest, err := s.forwardByLookup(ctx, encounterID, from, upTo)
	if err != nil {
		return nil, err
	}
	if onStall != nil {
		onStall(len(out))
	}
	return append(out, rest...), nil
}

// errStalled ends forwardByConsumer: its consumer delivered nothing for forwardStall.
var errStalled = errors.New("the ordered consumer stalled")

// onStall, set by tests, is told how many records the consumer read before it stalled and
// the rest was read by lookups.
var onStall func(readByConsumer int)

// stallAfter, set by tests (>= 0), makes forwardByConsumer stall after that many records.
var stallAfter = -1

// forwardByConsumer reads (after, upTo] with one ordered consumer, deleted before it returns.
// When the consumer stalls it returns what it read and errStalled.
func (s *JetStream) forwardByConsumer(ctx context.Context, encounterID string, after, upTo uint64) ([]Record, error) {
	cons, err := s.consumer(ctx, encounterID, after)
	if err != nil {
		return nil, err
	}
	defer s.deleteConsumer(cons) // nothing left behind
	it, err := cons.Messages(jetstream.PullMaxMessages(int(min(upTo-after, forwardPull))))
	if err != nil {
		return nil, err
	}
	// Each record is awaited at most forwardStall, and not past the connection's loss.
	up := s.conn.current()
	if up == nil {
		it.Stop()
		return nil, s.conn.down()
	}
	readCtx, stopReading := context.WithCancelCause(ctx)
	defer stopReading(nil)
	lost := context.AfterFunc(up, func() { stopReading(errLost) })
	defer lost()
	idle := time.AfterFunc(s.stall, func() { stopReading(errStalled) })
	defer idle.Stop()
	stop := context.AfterFunc(readCtx, it.Stop)
	defer stop()
	defer it.Stop()
	var out []Record
	for {
		if len(out) == stallAfter {
			return out, errStalled
		}
		m, err := it.Next()
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			switch cause := context.Cause(readCtx); {
			case errors.Is(cause, errLost):
				return nil, &UnavailableError{Why: errLost.Error()}
			case errors.Is(cause, errStalled):
				return out, errStalled
			}
			return nil, err
		}
		idle.Reset(s.stall)
		meta, err := m.Metadata()
		if err != nil {
			return nil, err
		}
		seq := meta.Sequence.Stream
		if seq > upTo {
			return out, nil
		}
		r, err := decode(seq, m.Data())
		if err != nil {
			return nil, err
		}
		out = append(out, r)
		if seq == upTo || meta.NumPending == 0 {
			return out, nil
		}
	}
}

// forwardByLookup reads (after, upTo] one record at a time: each lookup asks the stream for
// the encounter's first record at or after a position (as Get does: by any replica that holds it, else by the leader).
func (s *JetStream) forwardByLookup(ctx context.Context, encounterID string, after, upTo uint64) ([]Record, error) {
	subject := s.Subject(encounterID)
	var out []Record
	for next := after + 1; next <= upTo; {
		m, err := s.stream.nextMsg(ctx, next, subject)
		if errors.Is(err, jetstream.ErrMsgNotFound) { // upTo exists, but not even on the leader now
			return nil, &UnavailableError{Why: fmt.Sprintf("the stream's leader does not hold record %d of the encounter", upTo)}
		}
		if err != nil {
			return nil, err
		}
		if m.Sequence > upTo {
			break
		}
		r, err := decode(m.Sequence, m.Data)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
		next = m.Sequence + 1
	}
	return out, nil
}

// forwardPull is the most messages one pull of forward asks for.
const forwardPull = 1024

// forwardStall is the longest forward's consumer is awaited for the next record (or the
// call timeout, if longer) before the rest is read by lookups: each lookup is bounded by the
// call timeout, so a NATS that stopped answering still fails the read (Unavailable) rather
// than hang it.
const forwardStall = 5 * time.Second
