package engine_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// unclaimed is Loss v1 claiming none of its events (DiceEnd false), as if each were not its
// own: the engine walks every such event for its rolls itself.
type unclaimed struct{ loss.System }

func (unclaimed) DiceEnd(*encounterv1.Event) (uint64, bool) { return 0, false }

// The dice offset moves past the rolls of an event its system does not claim, to the furthest
// offset + draws: two Initiative d10s, at 0 and 1, leave it at 2. (Written against a mutant of
// advanceDice's walk, offset − draws, that lived in a mutation run of rules/engine, issue 26.)
func TestTheDiceMovePastRollsNoSystemClaims(t *testing.T) {
	reg := engine.NewRegistry(unclaimed{loss.New(1)})
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	for _, cmd := range []*encounterv1.Command{create("Bivouac", "loss", 0), combatant("a", "A", "gm"), combatant("b", "B", "gm")} {
		_, err := apply(t, reg, st, cmd, env("gm"))
		require.NoError(t, err)
	}
	evs, err := apply(t, reg, st, start, engine.Env{Actor: "gm", Dice: dice.NewFixed(3, 4), Seed: seed()})
	require.NoError(t, err)
	require.Len(t, engine.Rolls(evs[1]), 2)
	require.Equal(t, []uint64{2, 2}, []uint64{st.GetDiceOffset(), st.GetDiceHighWater()})
}
