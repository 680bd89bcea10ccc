package engine

// Released is a rule system at every released version, 1 to latest, oldest first, each made
// by newAt: the registry keeps them all, so that an encounter is decided and folded under the
// version it pinned.
func Released[S System](latest uint32, newAt func(version uint32) S) []System {
	out := make([]System, 0, latest)
	for v := uint32(1); v <= latest; v++ {
		out = append(out, newAt(v))
	}
	return out
}
