package loss_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// TestCopyState: the Loss state's hand-written copy equals a deep copy, every field included
// (unknown fields too, at every level), shares the attacks awaiting a reaction only, and is
// changed without changing the original.
func TestCopyState(t *testing.T) {
	unknown := func(m proto.Message, k byte) { m.ProtoReflect().SetUnknown(protoreflect.RawFields{0xf8, 0x7f, k}) }
	s := &lossv1.State{}
	enginetest.Fill(s.ProtoReflect(), 3, 1)
	unknown(s, 1)
	unknown(s.GetCombatants()["k"], 1)
	unknown(s.GetPursuit(), 1)
	require.NotEmpty(t, s.GetQueued())
	require.NotEmpty(t, s.GetCombatants()["k"].GetInspiration())
	require.NotEmpty(t, s.GetCombatants()["k"].GetMeleeAttackers())
	src := &encounterv1.EncounterState{System: &encounterv1.EncounterState_Loss{Loss: s}}
	want := proto.CloneOf(src)

	dst := &encounterv1.EncounterState{}
	loss.New().CopyState(dst, src)
	require.True(t, proto.Equal(want, dst), "the copy is the state: %v", dst)
	c := dst.GetLoss()
	require.Same(t, s.GetPending(), c.GetPending(), "the pending attack is shared")
	require.Same(t, s.GetQueued()[0], c.GetQueued()[0], "queued attacks are shared")

	// Evolve replaces the attacks awaiting a reaction, and changes everything else in place.
	c.Pending, c.Queued[0] = &lossv1.PendingAttack{}, &lossv1.PendingAttack{}
	enginetest.Fill(c.ProtoReflect(), 3, 2)
	unknown(c, 2)
	unknown(c.GetCombatants()["k"], 2)
	unknown(c.GetPursuit(), 2)
	require.True(t, proto.Equal(want, src), "the original is unchanged")

	// A state without a Loss part copies to none; another system's part is not copied.
	for _, from := range []*encounterv1.EncounterState{{}, {System: &encounterv1.EncounterState_Ka{Ka: &kav1.State{}}}} {
		dst := &encounterv1.EncounterState{System: &encounterv1.EncounterState_Loss{Loss: &lossv1.State{}}}
		loss.New().CopyState(dst, from)
		require.Nil(t, dst.GetSystem())
	}
	// An empty map of combatants stays a map; a missing combatant's state stays missing.
	dst = &encounterv1.EncounterState{}
	loss.New().CopyState(dst, &encounterv1.EncounterState{System: &encounterv1.EncounterState_Loss{Loss: &lossv1.State{
		Combatants: map[string]*lossv1.CombatantState{"a": nil}}}})
	require.Contains(t, dst.GetLoss().GetCombatants(), "a")
	require.Nil(t, dst.GetLoss().GetCombatants()["a"])
}
