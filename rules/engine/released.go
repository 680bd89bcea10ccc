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

// Release names a rule system at one version: the ID, Name and Version its System answers. A
// system's System embeds the one its New makes, so that each package says them once.
type Release struct {
	id, name string
	version  uint32
}

// NewRelease is the Release of the system id, called name by its players, at version.
func NewRelease(id, name string, version uint32) Release { return Release{id, name, version} }

// ID is the system's id, as an encounter names it (RuleSystem).
func (r Release) ID() string { return r.id }

// Name is the system's name, as its players know it.
func (r Release) Name() string { return r.name }

// Version is the version of the rules, as an encounter pins it (RulesVersion).
func (r Release) Version() uint32 { return r.version }
