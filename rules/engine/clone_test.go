package engine_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// plain is a system that does not copy its state itself (no engine.StateCopier).
type plain struct{ engine.System }

// TestFork: the copy equals a deep copy, every field included (unknown fields too), shares
// the combatants, the options, the pending reactions, the roles' grants and the bytes only,
// and is changed without changing the original. A system that does not copy its own state
// has it deep-copied; one that does (Loss) is asked to.
func TestFork(t *testing.T) {
	st := &encounterv1.EncounterState{}
	enginetest.Fill(st.ProtoReflect(), 3, 1)
	st.ProtoReflect().SetUnknown(protoreflect.RawFields{0xf8, 0x7f, 1}) // field 2047, varint 1
	require.NotEmpty(t, st.GetCombatants())
	require.NotEmpty(t, st.GetPending())
	require.NotEmpty(t, st.GetRoles())
	require.NotNil(t, st.GetSystem())
	want := proto.CloneOf(st)

	next := engine.Fork(plain{}, st)
	require.True(t, proto.Equal(want, next), "the copy is the state: %v", next)
	require.Same(t, st.GetCombatants()[0], next.GetCombatants()[0], "combatants are shared")
	require.Same(t, st.GetPending()[0], next.GetPending()[0], "pending reactions are shared")
	require.Same(t, st.GetRoles()[0], next.GetRoles()[0], "grants are shared")
	require.Same(t, st.GetOptions(), next.GetOptions(), "options are shared")

	// The engine changes a combatant by replacing it, every other field in place; it replaces
	// the pending reactions and the grants whole, and the options are set once, at creation.
	engine.ChangeCombatant(next, st.GetCombatants()[0].GetId(), func(c *encounterv1.Combatant) { enginetest.Fill(c.ProtoReflect(), 2, 2) })
	require.NotSame(t, st.GetCombatants()[0], next.GetCombatants()[0])
	next.Combatants[0] = &encounterv1.Combatant{}
	next.Pending = []*encounterv1.PendingReaction{{}}
	next.Roles[0] = &encounterv1.RoleGrant{}
	next.Options = &encounterv1.RuleOptions{}
	enginetest.Fill(next.ProtoReflect(), 3, 2)
	next.ProtoReflect().SetUnknown(protoreflect.RawFields{0xf8, 0x7f, 2})
	require.True(t, proto.Equal(want, st), "the original is unchanged")
	require.False(t, proto.Equal(want, next))

	// A system that copies its own part (Loss) is asked to.
	st = &encounterv1.EncounterState{System: &encounterv1.EncounterState_Loss{Loss: &lossv1.State{Tour: 3}}}
	next = engine.Fork(loss.New(), st)
	require.True(t, proto.Equal(st, next))
	require.NotSame(t, st.GetLoss(), next.GetLoss())
}
