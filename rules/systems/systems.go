// Package systems lists every rule system of this build, at every version it keeps.
package systems

import (
	"fmt"
	"slices"
	"sync"

	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/fray-rpg/fray/rules/loss"
)

// Registry returns a registry of every rule system: the resolver decides with it, the
// encounter service and the tools fold events with it. Those registered (Register) are in it
// too.
func Registry() *engine.Registry {
	pluginsMu.RLock()
	defer pluginsMu.RUnlock()
	return engine.NewRegistry(append(builtIn(), plugins...)...)
}

// builtIn are the systems of this build, each at every version it keeps.
func builtIn() []engine.System {
	return slices.Concat(
		loss.Released(),
		feerie.Released(),
		ka.Released(),
		d20seg.Released(),
	)
}

var (
	pluginsMu sync.RWMutex
	plugins   []engine.System
)

// Register adds the systems, each at its versions, to every Registry made from then on: the
// one registry line of a system whose package this one does not import — a plug-in linked into
// a binary, a test's own system (docs/DESIGN.md, "A rule system that is a plug-in") — called
// from that package's init, as database/sql's drivers register. It panics when a system's id
// and version are already registered: a mistake of the program, found by any test that runs
// it.
func Register(systems ...engine.System) {
	pluginsMu.Lock()
	defer pluginsMu.Unlock()
	for _, s := range systems {
		if slices.Contains(engine.NewRegistry(append(builtIn(), plugins...)...).Versions(s.ID()), s.Version()) {
			panic(fmt.Sprintf("systems.Register: %s version %d is already registered", s.ID(), s.Version()))
		}
		plugins = append(plugins, s)
	}
}

// IDs returns the ids of every rule system of Registry, sorted: the list a test walks to check
// every system, so that a system registered above is tested with no other file edited.
func IDs() []string {
	var ids []string
	for _, rs := range Registry().Rulesets() {
		ids = append(ids, rs.GetId())
	}
	return ids
}
