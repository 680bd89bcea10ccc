package engine

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// fill sets every field of m, down to depth messages deep (for a oneof, its last member), to a
// value that is not its default and differs with k: scalars, the first element of a list, the
// key "k" of a map with string keys.
func fill(m protoreflect.Message, depth int, k int32) {
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		switch {
		case fd.IsMap():
			if fd.MapKey().Kind() != protoreflect.StringKind {
				continue
			}
			key := protoreflect.ValueOfString("k").MapKey()
			if fd.MapValue().Message() != nil {
				if depth > 0 {
					fill(m.Mutable(fd).Map().Mutable(key).Message(), depth-1, k)
				}
			} else if v, ok := scalar(fd.MapValue(), k); ok {
				m.Mutable(fd).Map().Set(key, v)
			}
		case fd.Message() != nil:
			if depth == 0 {
				continue
			}
			if !fd.IsList() {
				fill(m.Mutable(fd).Message(), depth-1, k)
				continue
			}
			l := m.Mutable(fd).List()
			if l.Len() == 0 {
				l.Append(l.NewElement())
			}
			fill(l.Get(0).Message(), depth-1, k)
		default:
			v, ok := scalar(fd, k)
			switch {
			case !ok:
			case !fd.IsList():
				m.Set(fd, v)
			case m.Get(fd).List().Len() == 0:
				m.Mutable(fd).List().Append(v)
			default:
				m.Mutable(fd).List().Set(0, v)
			}
		}
	}
}

// scalar is a value of fd's kind that differs with k.
func scalar(fd protoreflect.FieldDescriptor, k int32) (protoreflect.Value, bool) {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(string(rune('a' + k))), true
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte{byte(k)}), true
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(k%2 == 1), true
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(protoreflect.EnumNumber(k)), true
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(k), true
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(int64(k)), true
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(k)), true
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(uint64(k)), true
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(float32(k)), true
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(float64(k)), true
	}
	return protoreflect.Value{}, false
}

// TestCloneSharingCombatants: the copy equals a deep copy, every field included, shares the
// combatants and the options only, and is changed without changing the original.
func TestCloneSharingCombatants(t *testing.T) {
	st := &encounterv1.EncounterState{}
	fill(st.ProtoReflect(), 3, 1)
	st.ProtoReflect().SetUnknown(protoreflect.RawFields{0xf8, 0x7f, 1}) // field 2047, varint 1
	require.NotEmpty(t, st.GetCombatants())
	require.NotNil(t, st.GetSystem())
	want := proto.CloneOf(st)

	next := cloneSharingCombatants(st)
	require.True(t, proto.Equal(want, next), "the copy is the state: %v", next)
	require.Same(t, st.GetCombatants()[0], next.GetCombatants()[0], "combatants are shared")

	// The engine changes a combatant by replacing it, every other field in place.
	changeCombatant(next, st.GetCombatants()[0].GetId(), func(c *encounterv1.Combatant) { fill(c.ProtoReflect(), 2, 2) })
	require.NotSame(t, st.GetCombatants()[0], next.GetCombatants()[0])
	next.Combatants[0] = &encounterv1.Combatant{}
	require.Same(t, st.GetOptions(), next.GetOptions(), "options are shared")
	next.Options = &encounterv1.RuleOptions{} // set once, at creation
	fill(next.ProtoReflect(), 3, 2)
	require.True(t, proto.Equal(want, st), "the original is unchanged")
}
