package encounter

// WatchViews is how many views the watch hub has made of live events (ViewEvent calls).
func (s *Service) WatchViews() uint64 { return s.watches.viewed.Load() }

// WatchNarrations is how many narrations the watch hub has written of live events.
func (s *Service) WatchNarrations() uint64 { return s.watches.told.Load() }

// IndexDue is how many encounters have a sequence and activity due in the index.
func (s *Service) IndexDue() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.indexDue)
}

// SnapshotTTL is how long a principal's list serves the pages after the first.
const SnapshotTTL = snapshotTTL

// CommandIDsHeld is how many command ids the cached entry of the encounter holds in memory
// (-1: not cached).
func (s *Service) CommandIDsHeld(id string) int {
	s.mu.Lock()
	e := s.cache[id]
	s.mu.Unlock()
	if e == nil {
		return -1
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cmds.len()
}
