package store

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/synadia-io/orbit.go/jetstreamext"
)

// followInactive is how long the server keeps a consumer nobody pulls from: a safety net for
// a service that dies while following (a consumer is deleted as soon as its follower stops).
const followInactive = 30 * time.Second

// deleteConsumer removes a consumer this store created, whatever the caller's context.
func (s *JetStream) deleteConsumer(cons jetstream.Consumer) {
	info := cons.CachedInfo()
	if info == nil {
		return
	}
	// NATS down: left for the server to remove once inactive (followInactive).
	ctx, end, err := s.conn.call(context.Background(), true)
	if err != nil {
		return
	}
	_ = end(s.stream.DeleteConsumer(ctx, info.Name))
}

// Follow passes fn each record of the encounter stored after Follow returns, from the live
// tail of the stream by one ordered consumer, deleted when ctx ends.
func (s *JetStream) Follow(ctx context.Context, encounterID string, fn func(Record)) (<-chan error, error) {
	cons, err := s.stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		FilterSubjects:    []string{s.Subject(encounterID)},
		DeliverPolicy:     jetstream.DeliverNewPolicy,
		InactiveThreshold: followInactive,
	})
	if err != nil {
		return nil, err
	}
	it, err := cons.Messages()
	if err != nil {
		s.deleteConsumer(cons)
		return nil, err
	}
	done := make(chan error, 1)
	go func() {
		stop := context.AfterFunc(ctx, it.Stop)
		defer stop()
		err := func() error {
			for {
				m, err := it.Next()
				if err != nil {
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
				fn(r)
			}
		}()
		it.Stop()
		s.deleteConsumer(cons)
		if ctx.Err() != nil {
			err = nil
		}
		done <- err
		close(done)
	}()
	return done, nil
}

// Page returns up to n of the encounter's records after position after, in order, by one
// batched direct get filtered by subject; when the encounter's last record (an indexed
// lookup) is not past after, by that lookup alone.
func (s *JetStream) Page(ctx context.Context, encounterID string, after uint64, n int) ([]Record, error) {
	if last, err := s.last(ctx, encounterID); err != nil || last <= after {
		return nil, err
	}
	msgs, err := s.conn.getBatch(ctx, s.js, s.cfg.Stream, n,
		jetstreamext.GetBatchSeq(after+1), jetstreamext.GetBatchSubject(s.Subject(encounterID)))
	if err != nil {
		return nil, err
	}
	var out []Record
	for _, m := range msgs {
		r, err := decode(m.Sequence, m.Data)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Follow passes fn each record of the encounter appended after Follow returns.
func (m *Memory) Follow(ctx context.Context, encounterID string, fn func(Record)) (<-chan error, error) {
	m.mu.Lock()
	after := uint64(len(m.records))
	m.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		err := m.Watch(ctx, encounterID, after, func(r Record) error { fn(r); return nil })
		if ctx.Err() != nil {
			err = nil
		}
		done <- err
		close(done)
	}()
	return done, nil
}

// Page returns up to n of the encounter's records after position after.
func (m *Memory) Page(_ context.Context, encounterID string, after uint64, n int) ([]Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Record
	for i := after; i < uint64(len(m.records)) && len(out) < n; i++ {
		if m.records[i].encounter == encounterID {
			r, err := m.record(i + 1)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}
