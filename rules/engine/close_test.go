package engine_test

import (
	"errors"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// closing is Les Chants de Loss whose Close is close: a system breaking the Closer contract.
type closing struct {
	loss.System
	close func(*encounterv1.EncounterState, func(*encounterv1.Event) error) ([]*encounterv1.Event, error)
}

func (c closing) Close(next *encounterv1.EncounterState, _ engine.Env, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	return c.close(next, fold)
}

func passed(id string) *encounterv1.Event {
	return &encounterv1.Event{Payload: &encounterv1.Event_Loss{Loss: &lossv1.Event{Kind: &lossv1.Event_Passed{Passed: &lossv1.Passed{CombatantId: id}}}}}
}

// TestCloseFoldsEveryEvent: the engine closes a system command on the state its events leave,
// numbers the closing events after them, and refuses a Close that returns an event it did not
// fold, one that does not fold, or an error.
func TestCloseFoldsEveryEvent(t *testing.T) {
	sd := make([]byte, dice.SeedSize)
	pass := &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: "a", Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}}}
	started := func(reg *engine.Registry) *encounterv1.EncounterState {
		st := &encounterv1.EncounterState{EncounterId: "e1"}
		for _, cmd := range []*encounterv1.Command{create("Bivouac", "loss", 0), combatant("a", "A", "gm"), combatant("b", "B", "gm"), start} {
			_, next, err := reg.Resolve(st, cmd, "gm", sd, nil)
			require.NoError(t, err)
			st = next
		}
		return st
	}
	var seen *encounterv1.EncounterState
	folds := closing{System: loss.New(1), close: func(next *encounterv1.EncounterState, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
		seen = proto.CloneOf(next)
		ev := passed("b")
		return []*encounterv1.Event{ev}, fold(ev)
	}}
	reg := engine.NewRegistry(folds)
	st := started(reg)
	evs, next, err := reg.Resolve(st, pass, "gm", sd, nil)
	require.NoError(t, err)
	require.Len(t, evs, 2)
	require.True(t, seen.GetLoss().GetCombatants()["a"].GetPassed(), "Close sees the command's events folded")
	require.False(t, seen.GetLoss().GetCombatants()["b"].GetPassed())
	require.Equal(t, st.GetSequence()+1, seen.GetSequence())
	require.Equal(t, []uint64{st.GetSequence() + 1, st.GetSequence() + 2}, []uint64{evs[0].GetSequence(), evs[1].GetSequence()})
	require.Equal(t, "gm", evs[1].GetActor())
	require.Equal(t, "loss", evs[1].GetRuleSystem())
	require.Equal(t, "e1", evs[1].GetEncounterId())
	require.Equal(t, uint32(1), evs[1].GetRulesVersion())
	require.True(t, next.GetLoss().GetCombatants()["b"].GetPassed(), "the closing event is folded")
	require.Equal(t, st.GetSequence()+2, next.GetSequence())
	decided, err := reg.Decide(st, pass, engine.Env{Actor: "gm", Dice: dice.NewFixed(), Seed: sd})
	require.NoError(t, err)
	require.Len(t, decided, 2, "Decide closes too")

	for _, c := range []struct {
		name  string
		close func(*encounterv1.EncounterState, func(*encounterv1.Event) error) ([]*encounterv1.Event, error)
		want  string
	}{
		{"an event not folded", func(*encounterv1.EncounterState, func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
			return []*encounterv1.Event{passed("b")}, nil
		}, "the rules closed Les Chants de Loss with 1 events but folded 0"},
		{"an event that does not fold", func(_ *encounterv1.EncounterState, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
			ev := passed("nobody")
			return []*encounterv1.Event{ev}, fold(ev)
		}, `the rules produced an event they cannot fold: there is no combatant "nobody" in this encounter`},
		{"an error", func(*encounterv1.EncounterState, func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
			return nil, errors.New("no")
		}, "no"},
	} {
		t.Run(c.name, func(t *testing.T) {
			reg := engine.NewRegistry(closing{System: loss.New(1), close: c.close})
			_, _, err := reg.Resolve(started(reg), pass, "gm", sd, nil)
			require.EqualError(t, err, c.want)
		})
	}
}
