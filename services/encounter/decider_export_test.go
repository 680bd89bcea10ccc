package encounter

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// KnownCombatants is how many combatants the decider holds a sheet digest for.
func (d *RemoteDecider) KnownCombatants() int { return d.sheets.known() }

// resend and engine.Fork carry every field of what they copy (a field added later
// included): each is set, and the copy is equal.
func TestCopiesCarryEveryField(t *testing.T) {
	fill := func(m protoreflect.Message) {
		fields := m.Descriptor().Fields()
		for i := range fields.Len() {
			fd := fields.Get(i)
			switch {
			case fd.IsList():
				l := m.Mutable(fd).List()
				l.Append(l.NewElement())
			case fd.IsMap():
				mp := m.Mutable(fd).Map()
				mp.Set(protoreflect.ValueOfString("k").MapKey(), mp.NewValue())
			case fd.Message() != nil:
				if fd.ContainingOneof() == nil || m.WhichOneof(fd.ContainingOneof()) == nil {
					m.Set(fd, protoreflect.ValueOfMessage(m.NewField(fd).Message()))
				}
			case fd.Kind() == protoreflect.BoolKind:
				m.Set(fd, protoreflect.ValueOfBool(true))
			case fd.Kind() == protoreflect.StringKind:
				m.Set(fd, protoreflect.ValueOfString("x"))
			case fd.Kind() == protoreflect.BytesKind:
				m.Set(fd, protoreflect.ValueOfBytes([]byte("x")))
			case fd.Kind() == protoreflect.EnumKind:
				m.Set(fd, protoreflect.ValueOfEnum(1))
			case fd.Kind() == protoreflect.Int32Kind, fd.Kind() == protoreflect.Sint32Kind, fd.Kind() == protoreflect.Sfixed32Kind:
				m.Set(fd, protoreflect.ValueOfInt32(1))
			case fd.Kind() == protoreflect.Uint32Kind, fd.Kind() == protoreflect.Fixed32Kind:
				m.Set(fd, protoreflect.ValueOfUint32(1))
			case fd.Kind() == protoreflect.Int64Kind, fd.Kind() == protoreflect.Sint64Kind, fd.Kind() == protoreflect.Sfixed64Kind:
				m.Set(fd, protoreflect.ValueOfInt64(1))
			case fd.Kind() == protoreflect.Uint64Kind, fd.Kind() == protoreflect.Fixed64Kind:
				m.Set(fd, protoreflect.ValueOfUint64(1))
			case fd.Kind() == protoreflect.FloatKind:
				m.Set(fd, protoreflect.ValueOfFloat32(1))
			case fd.Kind() == protoreflect.DoubleKind:
				m.Set(fd, protoreflect.ValueOfFloat64(1))
			}
		}
	}
	req := &rulesv1.ResolveRequest{}
	fill(req.ProtoReflect())
	require.True(t, proto.Equal(req, resend(req)))

	st := &encounterv1.EncounterState{}
	fill(st.ProtoReflect())
	st.ProtoReflect().SetUnknown([]byte{0xf8, 0x3e, 0x01}) // field 999, varint 1
	out := engine.Share(st)                                // the state the decider strips sheets from
	require.True(t, proto.Equal(st, out))
	require.Same(t, st.GetCombatants()[0], out.GetCombatants()[0], "the same combatants")
	require.Same(t, st.GetSystem(), out.GetSystem(), "the system's part is carried (shared)")
	require.True(t, proto.Equal(&encounterv1.EncounterState{}, engine.Share(&encounterv1.EncounterState{})), "none")
}
