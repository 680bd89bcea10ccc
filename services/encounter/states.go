package encounter

import (
	"reflect"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// An entry's state is never changed once it is the entry's: a command, or a refresh, folds its
// events into a copy (nextState) that then replaces it. So the state before a command and the
// state after it are both kept as they are, without a copy, for as long as anyone reads them
// (the command's answer, a snapshot written after the lock, a read), and nothing else is
// copied for them.

// nextState is a copy of st to fold events into: a deep copy of every field but the
// combatants (their sheets above all), which it shares with st in a slice of its own, and the
// rule options, which it shares. The engine never changes either in place: it replaces a
// combatant with a changed copy and sets the options once, at creation (the copy
// engine.Registry.Resolve makes relies on the same).
func nextState(st *encounterv1.EncounterState) *encounterv1.EncounterState {
	// A deep copy of a shallow copy without the combatants and options.
	shallow := shallowCopy(st)
	shallow.Combatants, shallow.Options = nil, nil
	next := proto.CloneOf(shallow)
	next.Combatants = slices.Clone(st.GetCombatants())
	next.Options = st.GetOptions()
	return next
}

// shallowCopy is a new EncounterState holding st's fields (reflect, not protoreflect: no
// value boxed), unknown fields included.
func shallowCopy(st *encounterv1.EncounterState) *encounterv1.EncounterState {
	shallow := &encounterv1.EncounterState{}
	src, dst := reflect.ValueOf(st).Elem(), reflect.ValueOf(shallow).Elem()
	for i := range src.NumField() {
		if src.Type().Field(i).IsExported() {
			dst.Field(i).Set(src.Field(i))
		}
	}
	shallow.ProtoReflect().SetUnknown(st.ProtoReflect().GetUnknown())
	return shallow
}

// stateSizes measures states (proto.Size), each combatant once: a combatant is never changed
// in place, so its size is kept, by pointer, for as long as a state measured holds it.
type stateSizes struct {
	combatants map[*encounterv1.Combatant]int
}

// combatantsField is EncounterState.combatants's field number.
const combatantsField = 11

// of is proto.Size(st).
func (z *stateSizes) of(st *encounterv1.EncounterState) int {
	if z.combatants == nil || len(z.combatants) > 2*len(st.GetCombatants())+8 {
		z.combatants = make(map[*encounterv1.Combatant]int, len(st.GetCombatants()))
	}
	rest := shallowCopy(st)
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
