package ka_test

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// TestCopyState: the Ka state's hand-written copy equals a deep copy, every field included (a
// field added and not copied fails here; unknown fields too, at every level), shares the
// cards, the awaited attack and its answers only, and is changed without changing the
// original.
func TestCopyState(t *testing.T) {
	unknown := func(m proto.Message, k byte) { m.ProtoReflect().SetUnknown(protoreflect.RawFields{0xf8, 0x7f, k}) }
	s := &kav1.State{}
	enginetest.Fill(s.ProtoReflect(), 4, 1)
	unknown(s, 1)
	unknown(s.GetCombatants()["k"], 1)
	unknown(s.GetPending(), 1)
	require.NotEmpty(t, s.GetDeck())
	require.NotEmpty(t, s.GetDiscard())
	require.NotEmpty(t, s.GetPending().GetAnswers())
	require.NotNil(t, s.GetPending().GetAttack())
	require.NotEmpty(t, s.GetCombatants()["k"].GetWeaponsLost())
	src := &encounterv1.EncounterState{System: &encounterv1.EncounterState_Ka{Ka: s}}
	want := proto.CloneOf(src)

	dst := &encounterv1.EncounterState{}
	ka.New(1).CopyState(dst, src)
	require.True(t, proto.Equal(want, dst), "the copy is the state: %v", dst)
	c := dst.GetKa()
	require.Same(t, s.GetDiscard()[0], c.GetDiscard()[0], "cards are shared")
	require.Same(t, s.GetPending().GetAttack(), c.GetPending().GetAttack(), "the awaited attack is shared")
	require.Same(t, s.GetPending().GetAnswers()[0], c.GetPending().GetAnswers()[0], "its answers are shared")

	// Evolve adds cards and answers, never changes one, nor the awaited attack; everything
	// else it changes in place.
	c.Deck[0], c.Discard[0], c.Pending.Attack, c.Pending.Answers[0] = &kav1.Card{}, &kav1.Card{}, &kav1.Attack{}, &kav1.DefenceAnnounced{}
	enginetest.Fill(c.ProtoReflect(), 4, 2)
	c.UpNext[0] += "!"
	c.Pending.QueuedIds[0] += "!"
	c.Combatants["k"].WeaponsLost[0] += "!"
	c.Combatants["k"].WeaponsLostAtOnce[0] += "!"
	unknown(c, 2)
	unknown(c.GetCombatants()["k"], 2)
	unknown(c.GetPending(), 2)
	require.True(t, proto.Equal(want, src), "the original is unchanged")

	// A state without a Ka part copies to none; another system's part is not copied.
	for _, from := range []*encounterv1.EncounterState{{}, {System: &encounterv1.EncounterState_D20Seg{D20Seg: &d20segv1.State{}}}} {
		dst := &encounterv1.EncounterState{System: &encounterv1.EncounterState_Ka{Ka: &kav1.State{}}}
		ka.New(1).CopyState(dst, from)
		require.Nil(t, dst.GetSystem())
	}
	// A missing combatant's state stays missing.
	dst = &encounterv1.EncounterState{}
	ka.New(1).CopyState(dst, &encounterv1.EncounterState{System: &encounterv1.EncounterState_Ka{Ka: &kav1.State{
		Combatants: map[string]*kav1.CombatantState{"a": nil}}}})
	require.Contains(t, dst.GetKa().GetCombatants(), "a")
	require.Nil(t, dst.GetKa().GetCombatants()["a"])
}
