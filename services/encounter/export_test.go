package encounter

// WatchViews is how many views the watch hub has made of live events (ViewEvent calls).
func (s *Service) WatchViews() uint64 { return s.watches.viewed.Load() }
