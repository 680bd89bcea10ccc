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
	next = engine.Fork(loss.New(1), st)
	require.True(t, proto.Equal(st, next))
	require.NotSame(t, st.GetLoss(), next.GetLoss())
}

// TestForkSharesTheCombatantsSlice: a state resolved from another shares its slice of
// combatants until a command adds, removes or changes one, which the engine does in a slice of
// its own: two commands resolved from the same state do not see each other's combatants.
func TestForkSharesTheCombatantsSlice(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	sd := make([]byte, 32)
	resolve := func(st *encounterv1.EncounterState, cmd *encounterv1.Command) *encounterv1.EncounterState {
		t.Helper()
		_, next, err := reg.Resolve(st, cmd, "gm", sd, nil)
		require.NoError(t, err)
		return next
	}
	ids := func(st *encounterv1.EncounterState) []string {
		var out []string
		for _, c := range st.GetCombatants() {
			out = append(out, c.GetId())
		}
		return out
	}
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	for _, cmd := range []*encounterv1.Command{create("Bivouac", "loss", 0), combatant("a", "A", "gm"), combatant("b", "B", "gm"), combatant("c", "C", "gm")} {
		st = resolve(st, cmd)
	}
	require.Greater(t, cap(st.GetCombatants()), len(st.GetCombatants()), "room for one more in the slice")
	joined := resolve(st, &encounterv1.Command{Kind: &encounterv1.Command_SetJoining{SetJoining: &encounterv1.SetJoining{Open: true}}})
	require.Same(t, &st.GetCombatants()[0], &joined.GetCombatants()[0], "a command that changes no combatant shares the slice")

	d := resolve(st, combatant("d", "D", "gm"))
	e := resolve(st, combatant("e", "E", "gm"))
	require.Equal(t, []string{"a", "b", "c", "d"}, ids(d))
	require.Equal(t, []string{"a", "b", "c", "e"}, ids(e))
	rm := resolve(st, &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "a"}}})
	require.Equal(t, []string{"b", "c"}, ids(rm))
	hidden := resolve(st, &encounterv1.Command{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{CombatantId: "b", Hidden: true}}})
	require.True(t, hidden.GetCombatants()[1].GetHidden())
	require.Equal(t, []string{"a", "b", "c"}, ids(st))
	require.False(t, st.GetCombatants()[1].GetHidden())
	require.Equal(t, []string{"a", "b", "c", "d"}, ids(d))
}

// TestShare: Share's copy equals the state, every field included, and shares its system's
// part besides what Fork shares; replacing its fields and combatants leaves the state as it is.
func TestShare(t *testing.T) {
	st := &encounterv1.EncounterState{}
	enginetest.Fill(st.ProtoReflect(), 3, 1)
	st.ProtoReflect().SetUnknown(protoreflect.RawFields{0xf8, 0x7f, 1})
	require.NotNil(t, st.GetSystem())
	want := proto.CloneOf(st)
	next := engine.Share(st)
	require.True(t, proto.Equal(want, next), "the copy is the state: %v", next)
	require.Same(t, st.GetCombatants()[0], next.GetCombatants()[0], "combatants are shared")
	require.Same(t, st.GetSystem(), next.GetSystem(), "the system's part is shared")
	next.Combatants = []*encounterv1.Combatant{{}}
	next.Seed = nil
	next.Sequence++
	require.True(t, proto.Equal(want, st), "the original is unchanged")
}

// TestShareCombatant: the copy of a combatant a view changes equals it, every field included
// (a field added to Combatant and not copied fails here), and shares its sheet.
func TestShareCombatant(t *testing.T) {
	c := &encounterv1.Combatant{}
	enginetest.Fill(c.ProtoReflect(), 3, 1)
	c.ProtoReflect().SetUnknown(protoreflect.RawFields{0xf8, 0x7f, 1})
	require.NotNil(t, c.GetSheet())
	want := proto.CloneOf(c)
	out := engine.ShareCombatant(c)
	require.True(t, proto.Equal(want, out), "the copy is the combatant: %v", out)
	require.Same(t, c.GetSheet(), out.GetSheet(), "the sheet is shared")
	out.Appearance = encounterv1.Appearance_APPEARANCE_WOUNDED + c.GetAppearance()
	out.Name += "!"
	require.True(t, proto.Equal(want, c), "the original is unchanged")
}
