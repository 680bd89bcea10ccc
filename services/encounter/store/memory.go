package store

import (
	"context"
	"errors"
	"math"
	"slices"
	"sort"
	"sync"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/protobuf/proto"
)

// Memory is an in-memory Log and Seeds, with the same semantics as JetStream.
type Memory struct {
	mu      sync.Mutex
	records []memRecord // index = position - 1
	msgIDs  map[string]uint64
	seeds   map[string][]byte
	snaps   map[string][]byte
	changed chan struct{} // closed and replaced on every append
	index   memIndex
}

type memRecord struct {
	encounter string
	data      []byte
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{msgIDs: map[string]uint64{}, seeds: map[string][]byte{}, snaps: map[string][]byte{}, changed: make(chan struct{})}
}

func (m *Memory) last(encounterID string) uint64 {
	for i := len(m.records) - 1; i >= 0; i-- {
		if m.records[i].encounter == encounterID {
			return uint64(i + 1)
		}
	}
	return 0
}

func (m *Memory) Append(_ context.Context, encounterID string, expected uint64, msgID string, batch *encounterv1.EventBatch) (Appended, error) {
	data, err := proto.Marshal(batch)
	if err != nil {
		return Appended{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	// Like JetStream: the expected position is checked before the message id.
	if m.last(encounterID) != expected {
		return Appended{}, ErrConflict
	}
	if pos, ok := m.msgIDs[msgID]; ok && msgID != "" {
		return Appended{Position: pos, Duplicate: true}, nil
	}
	m.records = append(m.records, memRecord{encounter: encounterID, data: data})
	pos := uint64(len(m.records))
	if msgID != "" {
		m.msgIDs[msgID] = pos
	}
	close(m.changed)
	m.changed = make(chan struct{})
	return Appended{Position: pos}, nil
}

func (m *Memory) record(pos uint64) (Record, error) {
	b := &encounterv1.EventBatch{}
	if err := proto.Unmarshal(m.records[pos-1].data, b); err != nil {
		return Record{}, err
	}
	return Record{Position: pos, Batch: b}, nil
}

func (m *Memory) after(encounterID string, after uint64) ([]Record, error) {
	var out []Record
	for i := after; i < uint64(len(m.records)); i++ {
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

// Load: the memory log has one copy, always the latest; opts change nothing.
func (m *Memory) Load(_ context.Context, encounterID string, after uint64, _ ...LoadOption) ([]Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last(encounterID) == 0 {
		return nil, ErrNotFound
	}
	return m.after(encounterID, after)
}

func (m *Memory) Get(_ context.Context, position uint64) (Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if position == 0 || position > uint64(len(m.records)) {
		return Record{}, ErrNotFound
	}
	return m.record(position)
}

func (m *Memory) Watch(ctx context.Context, encounterID string, after uint64, fn func(Record) error) error {
	for {
		m.mu.Lock()
		recs, err := m.after(encounterID, after)
		changed := m.changed
		m.mu.Unlock()
		if err != nil {
			return err
		}
		for _, r := range recs {
			if err := fn(r); err != nil {
				if errors.Is(err, ErrStop) {
					return nil
				}
				return err
			}
			after = r.Position
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		}
	}
}

// DuplicateWindow is how long a message id is remembered (Append's Duplicate): for ever.
func (m *Memory) DuplicateWindow() time.Duration { return math.MaxInt64 }

func (m *Memory) List(context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var ids []string
	for _, r := range m.records {
		if !slices.Contains(ids, r.encounter) {
			ids = append(ids, r.encounter)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

func (m *Memory) PutSeed(_ context.Context, encounterID string, seed []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seeds[encounterID] = slices.Clone(seed)
	return nil
}

func (m *Memory) SeedOnce(_ context.Context, encounterID string, seed []byte) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.seeds[encounterID]; ok {
		return slices.Clone(s), nil
	}
	m.seeds[encounterID] = slices.Clone(seed)
	return slices.Clone(seed), nil
}

func (m *Memory) Seed(_ context.Context, encounterID string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.seeds[encounterID]
	if !ok {
		return nil, ErrNotFound
	}
	return slices.Clone(s), nil
}

func (m *Memory) PutSnapshot(_ context.Context, encounterID string, s *encounterv1.Snapshot) error {
	b, err := proto.Marshal(s)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.snaps[encounterID] = b
	return nil
}

func (m *Memory) Snapshot(_ context.Context, encounterID string) (*encounterv1.Snapshot, error) {
	m.mu.Lock()
	b, ok := m.snaps[encounterID]
	m.mu.Unlock()
	if !ok {
		return nil, ErrNotFound
	}
	s := &encounterv1.Snapshot{}
	return s, proto.Unmarshal(b, s)
}
