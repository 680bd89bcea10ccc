package engine_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func TestOptionsOfCopiesTheSystemsOwnAndRefusesAnothers(t *testing.T) {
	get := (*encounterv1.RuleOptions).GetKa

	o, err := engine.OptionsOf(nil, get, "Ka")
	require.NoError(t, err)
	require.NotNil(t, o, "no options: new ones to fill in")

	given := &kav1.Options{Deck: "tarot56"}
	o, err = engine.OptionsOf(&encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Ka{Ka: given}}, get, "Ka")
	require.NoError(t, err)
	require.True(t, proto.Equal(given, o))
	o.Deck = "changed"
	require.Equal(t, "tarot56", given.GetDeck(), "filling in the defaults never writes into the caller's options")

	_, err = engine.OptionsOf(&encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: &lossv1.Options{}}}, get, "Ka")
	re, ok := engine.AsRuleError(err)
	require.True(t, ok, "another system's options are a rule error: %v", err)
	require.Equal(t, engine.CodeInvalid, re.Code)
	require.Contains(t, err.Error(), "the options given are not Ka options")
}

func TestDiceEndOfAnswersOnlyTheSystemsOwnEvents(t *testing.T) {
	end := func(*kav1.Event) uint64 { return 7 }
	n, ok := engine.DiceEndOf((&encounterv1.Event{Payload: &encounterv1.Event_Loss{Loss: &lossv1.Event{}}}).GetKa(), end)
	require.False(t, ok, "another system's event is not the system's to answer")
	require.Zero(t, n)
	n, ok = engine.DiceEndOf((&encounterv1.Event{Payload: &encounterv1.Event_Ka{Ka: &kav1.Event{}}}).GetKa(), end)
	require.True(t, ok)
	require.EqualValues(t, 7, n)
}

func TestReleasedIsEveryVersionOldestFirst(t *testing.T) {
	all := engine.Released(loss.Latest, loss.New)
	require.Len(t, all, loss.Latest)
	for i, s := range all {
		require.EqualValues(t, i+1, s.Version())
		require.Equal(t, loss.ID, s.ID())
		require.Equal(t, "Les Chants de Loss", s.Name(), "each version names the system as its players know it")
	}
}

func TestWornIsHalfLostBadlyAnyLostWounded(t *testing.T) {
	for _, c := range []struct {
		left, full int32
		want       encounterv1.Appearance
	}{
		{10, 10, encounterv1.Appearance_APPEARANCE_FIGHTING},
		{9, 10, encounterv1.Appearance_APPEARANCE_WOUNDED},
		{6, 10, encounterv1.Appearance_APPEARANCE_WOUNDED},
		{5, 10, encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED},
		{3, 7, encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED},
		{4, 7, encounterv1.Appearance_APPEARANCE_WOUNDED},
		{0, 0, encounterv1.Appearance_APPEARANCE_FIGHTING}, // no track at all: nothing to see lost
	} {
		require.Equal(t, c.want, engine.Worn(c.left, c.full), "%d of %d", c.left, c.full)
	}
}

func TestSetKindPutsAKindInTheArmOfItsType(t *testing.T) {
	act := &kav1.Action{CombatantId: "a"}
	pass := &kav1.Pass{}
	require.True(t, engine.SetKind(act, pass))
	require.Same(t, pass, act.GetPassTurn(), "a Pass goes into pass_turn, the kind itself")

	attack := &kav1.Attack{}
	require.True(t, engine.SetKind(act, attack))
	require.Same(t, attack, act.GetAttack())
	require.Nil(t, act.GetPassTurn(), "one arm at a time")

	require.False(t, engine.SetKind(act, &lossv1.Attack{}), "another system's Attack has no arm here")
	require.Same(t, attack, act.GetAttack(), "and changes nothing")
}
