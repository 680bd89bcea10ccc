package encounter

// WatchViews is how many views the watch hub has made of live events (ViewEvent calls).
func (s *Service) WatchViews() uint64 { return s.watches.viewed.Load() }

// IndexDue is how many encounters have a sequence and activity due in the index.
func (s *Service) IndexDue() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.indexDue)
}
