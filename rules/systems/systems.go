// Package systems lists every rule system of this build, at every version it keeps.
package systems

import (
	"slices"

	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/fray-rpg/fray/rules/loss"
)

// Registry returns a registry of every rule system: the resolver decides with it, the
// encounter service and the tools fold events with it.
func Registry() *engine.Registry {
	return engine.NewRegistry(slices.Concat(
		loss.Released(),
		feerie.Released(),
		ka.Released(),
		d20seg.Released(),
	)...)
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
