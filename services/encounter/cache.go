package encounter

import (
	"container/list"
)

// DefaultMaxCachedBytes bounds the memory the cache of encounters holds (Options.MaxCachedBytes).
const DefaultMaxCachedBytes = 256 << 20

// cacheLRU orders the cached encounters from the most recently used to the least, with the
// bytes they hold: past Options.MaxCached encounters or Options.MaxCachedBytes bytes, the least
// recently used are dropped, to be loaded again (snapshot + tail) when next needed.
type cacheLRU struct {
	order *list.List // of *entry, the most recently used first
	bytes int
}

// cacheEntry is s.cache's entry of id, made if missing, now the most recently used; s.mu is
// held.
func (s *Service) cacheEntry(id string) *entry {
	if s.lru.order == nil {
		s.lru.order = list.New()
	}
	if e, ok := s.cache[id]; ok {
		if e.elem != nil {
			s.lru.order.MoveToFront(e.elem)
		}
		return e
	}
	e := &entry{}
	e.id = id
	e.elem = s.lru.order.PushFront(e)
	s.cache[id] = e
	s.evict(e)
	return e
}

// evict drops the least recently used encounters but keep while the cache is over its bounds;
// s.mu is held.
func (s *Service) evict(keep *entry) {
	for back := s.lru.order.Back(); back != nil && (len(s.cache) > s.opts.MaxCached || s.lru.bytes > s.opts.MaxCachedBytes); {
		e := back.Value.(*entry)
		back = back.Prev()
		if e == keep {
			continue
		}
		s.lru.order.Remove(e.elem)
		e.elem = nil
		s.lru.bytes -= e.size
		if s.cache[e.id] == e {
			delete(s.cache, e.id)
		}
	}
}

// cacheSlot is an entry's place in the cache; s.mu guards it.
type cacheSlot struct {
	id     string
	elem   *list.Element
	size   int
	system string // its rule system, for the metrics of a command refused before its state is read
}

// account records the bytes e holds now (its state, its command ids and digests) and drops
// others if the cache is over its bounds; e.mu is held, not s.mu.
func (s *Service) account(e *entry) {
	e.stateBytes = e.sizes.of(s.reg, e.state)
	size := e.stateBytes + e.cmds.len()*commandBytes + len(e.cmds.order)*recentCommandBytes
	system := e.state.GetRuleSystem()
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.elem == nil { // dropped already: it holds nothing of the cache's
		return
	}
	e.system = system
	s.lru.bytes += size - e.size
	e.size = size
	s.evict(e)
}

// commandBytes is about what a command costs in an entry's maps: its id (a UUID), its
// position, its digest, the maps' own overhead.
const commandBytes = 160

// recentCommandBytes is what one of the latest commands costs besides: its
// Snapshot_RecentCommand, made once and shared by the snapshots.
const recentCommandBytes = 96

// CachedBytes is the bytes the cached encounters hold, as the cache counts them.
func (s *Service) CachedBytes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lru.bytes
}
