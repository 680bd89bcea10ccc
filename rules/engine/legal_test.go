package engine_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// Fill sets the field a choice names from the text of an option: a string, an enum value by
// its name, a bool, a number, an entry appended to a repeated field, a map entry key=number,
// through the messages on the path (created as needed); a path or a value it cannot take is
// an error naming the path.
func TestFillSetsTheFieldAChoiceNames(t *testing.T) {
	cmd := &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: "diego",
		Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{Weapon: "épée"}}}}}
	for _, f := range []struct{ path, value string }{
		{"loss.attack.target_id", "ruffian"},
		{"loss.attack.exploits", "EXPLOIT_EFFECT_EXTRA_DAMAGE"},
		{"loss.attack.exploits", "EXPLOIT_EFFECT_FEINT"},
		{"loss.attack.unseen", "true"},
		{"loss.attack.spend.fursa", "2"},
		{"loss.attack.spend.inspiration", "Courage=1"},
		{"loss.attack.more_target_ids", "mateo"},
	} {
		require.NoError(t, engine.Fill(cmd, f.path, f.value), f.path)
	}
	want := &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: "diego",
		Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{Weapon: "épée", TargetId: "ruffian", Unseen: true, MoreTargetIds: []string{"mateo"},
			Exploits: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE, lossv1.ExploitEffect_EXPLOIT_EFFECT_FEINT},
			Spend:    &lossv1.Spend{Fursa: 2, Inspiration: map[string]int32{"Courage": 1}}}}}}}
	require.True(t, proto.Equal(want, cmd), "%v", cmd)

	for _, bad := range []struct{ path, value, says string }{
		{"loss.attack.target", "x", `has no field "target"`},
		{"loss.attack.target_id.name", "x", "target_id is not a message"},
		{"loss.attack.exploits.x", "x", "exploits is not a message"},
		{"loss.attack.spend.inspiration.x", "x", "inspiration is not a message"},
		{"loss.attack.exploits", "EXTRA_DAMAGE", `"EXTRA_DAMAGE" is not a value of fray.loss.v1.ExploitEffect`},
		{"loss.attack.unseen", "yes", "invalid syntax"},
		{"loss.attack.spend.fursa", "two", "invalid syntax"},
		{"loss.attack.spend.inspiration", "Courage", `"Courage" is not key=number`},
		{"loss.attack.spend.inspiration", "Courage=one", "invalid syntax"},
		{"rewind.to_sequence", "3", "cannot be filled"},
	} {
		err := engine.Fill(proto.CloneOf(want), bad.path, bad.value)
		require.ErrorContains(t, err, bad.says, bad.path)
		require.ErrorContains(t, err, bad.path+": ")
	}
}

// LegalCommands is Legal with the commands: nothing before the fight starts, NotFound for a
// combatant who is not there, an error for an encounter of no rule system it knows; every
// action with its command (the engine's Legal is LegalCommands without them).
func TestLegalCommandsAreLegalWithTheirCommands(t *testing.T) {
	reg := engine.NewRegistry(loss.New(1))
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	for _, cmd := range []*encounterv1.Command{create("Ruelle", "loss", 0), combatant("diego", "Diego", "david"), combatant("ruffian", "Le malfrat", "gm")} {
		_, err := apply(t, reg, st, cmd, env("gm"))
		require.NoError(t, err)
	}
	list, err := reg.LegalCommands(st, "diego")
	require.NoError(t, err)
	require.Empty(t, list, "nothing before the fight starts")
	_, err = apply(t, reg, st, start, env("gm"))
	require.NoError(t, err)

	_, err = reg.LegalCommands(st, "nobody")
	requireCode(t, err, engine.CodeNotFound)
	_, err = reg.LegalCommands(&encounterv1.EncounterState{RuleSystem: "chess"}, "diego")
	require.Error(t, err)

	listed := 0
	for _, id := range []string{"diego", "ruffian"} {
		list, err := reg.LegalCommands(st, id)
		require.NoError(t, err)
		plain, err := reg.Legal(st, id)
		require.NoError(t, err)
		require.Len(t, list, len(plain))
		require.Equal(t, plain, engine.Actions(list))
		for _, l := range list {
			require.NotNil(t, l.Command, "%s: %s", id, l.Action.GetName())
			listed++
		}
	}
	require.NotZero(t, listed, "someone may act once the fight starts")
	require.Empty(t, engine.Actions(nil))
}
