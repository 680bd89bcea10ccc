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
	loss.New(1).CopyState(dst, src)
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
		loss.New(1).CopyState(dst, from)
		require.Nil(t, dst.GetSystem())
	}
	// An empty map of combatants stays a map; a missing combatant's state stays missing.
	dst = &encounterv1.EncounterState{}
	loss.New(1).CopyState(dst, &encounterv1.EncounterState{System: &encounterv1.EncounterState_Loss{Loss: &lossv1.State{
		Combatants: map[string]*lossv1.CombatantState{"a": nil}}}})
	require.Contains(t, dst.GetLoss().GetCombatants(), "a")
	require.Nil(t, dst.GetLoss().GetCombatants()["a"])
}

// TestPendingReactionKept: while an attack awaits its reaction, a fold that leaves the
// reaction as it was keeps the pending reaction the state holds (shared with the state
// before); one that differs in any field, or holds a field this build does not know, is
// written again.
func TestPendingReactionKept(t *testing.T) {
	require.Equal(t, 3, (&encounterv1.PendingReaction{}).ProtoReflect().Descriptor().Fields().Len(),
		"syncPending compares each field of a pending reaction: a new one must be compared too")
	speak := exSimple("malfrat", lossv1.SimpleKind_SIMPLE_KIND_SPEAK)
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	f.do("david", attack("diego", "malfrat", 0, nil), 9) // 20: a hit unless the ruffian defends
	kept := f.St.GetPending()[0]
	want := proto.CloneOf(kept)
	f.do(gm, speak)
	require.Same(t, kept, f.St.GetPending()[0])

	for name, change := range map[string]func(*encounterv1.PendingReaction){
		"combatant":  func(r *encounterv1.PendingReaction) { r.CombatantId = "diego" },
		"controller": func(r *encounterv1.PendingReaction) { r.Controller = "david" },
		"prompt":     func(r *encounterv1.PendingReaction) { r.Prompt += "!" },
		"unknown": func(r *encounterv1.PendingReaction) {
			r.ProtoReflect().SetUnknown(protoreflect.RawFields{0xf8, 0x7f, 1})
		},
	} {
		changed := proto.CloneOf(kept)
		change(changed)
		f.St.Pending = []*encounterv1.PendingReaction{changed}
		f.do(gm, speak)
		require.NotSame(t, changed, f.St.GetPending()[0], name)
		require.True(t, proto.Equal(want, f.St.GetPending()[0]), "%s: %v", name, f.St.GetPending()[0])
	}
}
