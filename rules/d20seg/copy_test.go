package d20seg_test

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// TestCopyState: the d20seg state's hand-written copy equals a deep copy, every field included
// (a field added and not copied fails here; unknown fields too, at every level), shares
// nothing Evolve changes, and is changed without changing the original.
func TestCopyState(t *testing.T) {
	unknown := func(m proto.Message, k byte) { m.ProtoReflect().SetUnknown(protoreflect.RawFields{0xf8, 0x7f, k}) }
	s := &d20segv1.State{}
	enginetest.Fill(s.ProtoReflect(), 3, 1)
	unknown(s, 1)
	unknown(s.GetCombatants()["k"], 1)
	require.NotEmpty(t, s.GetDelayedSpells())
	src := &encounterv1.EncounterState{System: &encounterv1.EncounterState_D20Seg{D20Seg: s}}
	want := proto.CloneOf(src)

	dst := &encounterv1.EncounterState{}
	d20seg.New(1).CopyState(dst, src)
	require.True(t, proto.Equal(want, dst), "the copy is the state: %v", dst)
	c := dst.GetD20Seg()
	require.NotSame(t, s, c)
	require.NotSame(t, s.GetCombatants()["k"], c.GetCombatants()["k"])

	enginetest.Fill(c.ProtoReflect(), 3, 2)
	c.DelayedSpells[0] += "!"
	unknown(c, 2)
	unknown(c.GetCombatants()["k"], 2)
	c.Combatants["other"] = &d20segv1.CombatantState{}
	require.True(t, proto.Equal(want, src), "the original is unchanged")

	// A state without a d20seg part copies to none; another system's part is not copied.
	for _, from := range []*encounterv1.EncounterState{{}, {System: &encounterv1.EncounterState_Ka{Ka: &kav1.State{}}}} {
		dst := &encounterv1.EncounterState{System: &encounterv1.EncounterState_D20Seg{D20Seg: &d20segv1.State{}}}
		d20seg.New(1).CopyState(dst, from)
		require.Nil(t, dst.GetSystem())
	}
	// A missing combatant's state stays missing.
	dst = &encounterv1.EncounterState{}
	d20seg.New(1).CopyState(dst, &encounterv1.EncounterState{System: &encounterv1.EncounterState_D20Seg{D20Seg: &d20segv1.State{
		Combatants: map[string]*d20segv1.CombatantState{"a": nil}}}})
	require.Contains(t, dst.GetD20Seg().GetCombatants(), "a")
	require.Nil(t, dst.GetD20Seg().GetCombatants()["a"])
}
