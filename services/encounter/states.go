package encounter

import (
	"reflect"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
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
	// A shallow copy of every exported field (reflect, not protoreflect: no value boxed), then
	// a deep copy of it without the combatants and options.
	shallow := &encounterv1.EncounterState{}
	src, dst := reflect.ValueOf(st).Elem(), reflect.ValueOf(shallow).Elem()
	for i := range src.NumField() {
		if src.Type().Field(i).IsExported() {
			dst.Field(i).Set(src.Field(i))
		}
	}
	shallow.Combatants, shallow.Options = nil, nil
	shallow.ProtoReflect().SetUnknown(st.ProtoReflect().GetUnknown())
	next := proto.CloneOf(shallow)
	next.Combatants = slices.Clone(st.GetCombatants())
	next.Options = st.GetOptions()
	return next
}
