package encounter

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// An entry's state is never changed once it is the entry's: a command, or a refresh, folds its
// events into a copy (engine.Registry.Fork) that then replaces it. So the state before a
// command and the state after it are both kept as they are, without a copy, for as long as
// anyone reads them (the command's answer, a snapshot written after the lock, a read, a
// watcher), and nothing else is copied for them. The fork shares what the engine never
// changes in place (the combatants: it replaces a changed one in a new slice).

// stateSizes measures states (proto.Size), each combatant once: a combatant is never changed
// in place, so its size is kept, by pointer, for as long as a state measured holds it.
type stateSizes struct {
	combatants map[*encounterv1.Combatant]int
}

// combatantsField is EncounterState.combatants's field number.
const combatantsField = 11

// of is proto.Size(st), a state of reg's rule systems.
func (z *stateSizes) of(reg *engine.Registry, st *encounterv1.EncounterState) int {
	if z.combatants == nil || len(z.combatants) > 2*len(st.GetCombatants())+8 {
		z.combatants = make(map[*encounterv1.Combatant]int, len(st.GetCombatants()))
	}
	rest := engine.Share(st) // measured, not changed: its system's part is st's
	rest.Combatants = nil
	n := proto.Size(rest)
	for _, c := range st.GetCombatants() {
		size, ok := z.combatants[c]
		if !ok {
			size = proto.Size(c)
			z.combatants[c] = size
		}
		n += protowire.SizeTag(combatantsField) + protowire.SizeBytes(size)
	}
	return n
}
