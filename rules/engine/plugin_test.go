package engine_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/types/known/structpb"
)

// A plug-in's Go values go into its plugin arm and back, a key its type has not refused with
// the key named; a roll it records under "roll" is found by Rolls (the audit's and the dice
// offset's walk) wherever it lies, and its position is withheld from a reader who does not see
// everything, as a typed roll's is.
func TestAPluginsJSONCarriesItsValuesAndItsRolls(t *testing.T) {
	type hit struct {
		Target string            `json:"target_id"`
		Roll   engine.PluginRoll `json:"roll"`
		Extra  []engine.PluginRoll
	}
	stream, err := dice.NewStream(make([]byte, dice.SeedSize), 7)
	require.NoError(t, err)
	first, second := stream.Roll(dice.Expr{Count: 1, Sides: 6}), stream.Roll(dice.Expr{Count: 2, Sides: 10})
	s, err := engine.PluginStruct(map[string]any{"hit": hit{Target: "b", Roll: engine.PluginRoll{Roll: first}}, "more": []any{map[string]any{"roll": engine.PluginRoll{Roll: second}}}})
	require.NoError(t, err)
	ev := &encounterv1.Event{Payload: &encounterv1.Event_Plugin{Plugin: s}}

	var back struct {
		Hit  hit              `json:"hit"`
		More []map[string]any `json:"more"`
	}
	require.NoError(t, engine.PluginOf(ev.GetPlugin(), &back))
	require.Equal(t, "b", back.Hit.Target)
	require.Equal(t, first.GetFaces(), back.Hit.Roll.GetFaces())
	require.Equal(t, first.GetOffset(), back.Hit.Roll.GetOffset(), "a 64-bit position comes back exact")
	var wrong struct{ Other string }
	require.ErrorContains(t, engine.PluginOf(s, &wrong), `unknown field "hit"`)

	rolls := engine.Rolls(ev)
	require.Len(t, rolls, 2, "both rolls, at any depth")
	require.Equal(t, first.GetFaces(), rolls[0].GetFaces(), "in the keys' order: hit before more")
	require.Equal(t, second.GetFaces(), rolls[1].GetFaces())
	require.EqualValues(t, 7, rolls[0].GetOffset())
	require.Equal(t, second.GetOffset()+second.GetDraws(), engine.DiceEnd(rolls...))

	engine.WithholdDicePositions(ev)
	for _, r := range engine.Rolls(ev) {
		require.Zero(t, r.GetOffset(), "the position is the GM's")
		require.Zero(t, r.GetDraws())
		require.NotEmpty(t, r.GetFaces(), "the faces are everyone's")
	}
}

// Fill in a plugin arm: the path's names are keys, and what the pre-filled command holds there
// says how the value is written.
func TestFillWritesAPluginsJSONAsThePrefilledCommandHoldsIt(t *testing.T) {
	s, err := structpb.NewStruct(map[string]any{"poke": map[string]any{"combatant_id": "a", "target_id": "", "force": 0, "aimed": false, "tags": []any{}}})
	require.NoError(t, err)
	cmd := &encounterv1.Command{Kind: &encounterv1.Command_Plugin{Plugin: s}}
	require.NoError(t, engine.Fill(cmd, "plugin.poke.target_id", "b"))
	require.NoError(t, engine.Fill(cmd, "plugin.poke.force", "3"))
	require.NoError(t, engine.Fill(cmd, "plugin.poke.aimed", "true"))
	require.NoError(t, engine.Fill(cmd, "plugin.poke.tags", "x"))
	require.NoError(t, engine.Fill(cmd, "plugin.poke.tags", "y"))
	require.NoError(t, engine.Fill(cmd, "plugin.poke.note.text", "made on the way"))
	require.Equal(t, map[string]any{"poke": map[string]any{"combatant_id": "a", "target_id": "b", "force": 3.0, "aimed": true,
		"tags": []any{"x", "y"}, "note": map[string]any{"text": "made on the way"}}}, cmd.GetPlugin().AsMap())

	require.ErrorContains(t, engine.Fill(cmd, "plugin.poke.force", "hard"), `plugin.poke.force: "hard" is not a number`)
	require.ErrorContains(t, engine.Fill(cmd, "plugin.poke.aimed", "yes"), `plugin.poke.aimed: "yes" is not true or false`)
	require.ErrorContains(t, engine.Fill(cmd, "plugin.poke.target_id.deeper", "z"), "plugin.poke.target_id.deeper: target_id is not an object")
}
