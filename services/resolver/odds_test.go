package resolver_test

import (
	"context"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// lossDuel is a started Les Chants de Loss fight where diego (david's) acts first against the
// malfrat (LOS-T01's numbers).
func lossDuel(t *testing.T) *encounterv1.EncounterState {
	reg := systems.Registry()
	fighter := func(id, controller string, init, p, m, a, e int32) *encounterv1.Combatant {
		return &encounterv1.Combatant{Id: id, Name: id, Controller: controller, Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
			Kind: lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE, Initiative: init,
			Traits: map[string]int32{"Puissance": p, "Agilité": a}, Talents: map[string]int32{"Arme de mêlée": m, "Esquive": e},
			Weapons: []*lossv1.Weapon{{Name: "sabre", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Vitesse: 4, Damage: 3,
				Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}}},
			Dodge: &lossv1.Score{Trait: "Agilité", Talent: "Esquive"}, Parry: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"},
		}}}
	}
	st := &encounterv1.EncounterState{EncounterId: "e1"}
	for _, s := range []struct {
		cmd   *encounterv1.Command
		faces []int32
	}{
		{cmd: &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "ruelle", RuleSystem: "loss"}}}},
		{cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: fighter("diego", "david", 8, 6, 6, 5, 5)}}}},
		{cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: fighter("malfrat", "gm", 5, 5, 5, 5, 7)}}}},
		{cmd: &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, faces: []int32{7, 1}},
	} {
		evs, err := reg.Decide(st, s.cmd, engine.Env{Actor: "gm", Dice: dice.NewFixed(s.faces...), Seed: make([]byte, dice.SeedSize)})
		require.NoError(t, err)
		for _, ev := range evs {
			require.NoError(t, reg.Evolve(st, ev))
		}
	}
	return st
}

func lossSwing(who, target string) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
		TargetId: target, Weapon: "sabre", Exploits: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE}}}}}}
}

// TestOdds: RulesService.Odds answers any authenticated caller the odds rules/odds computes
// on the state it sends (LOS-010, LOS-014); a request without a state or a command is
// InvalidArgument, a command that is no attack too, one the rules refuse FailedPrecondition.
func TestOdds(t *testing.T) {
	c := client(t)
	ctx := authtest.As("florence")
	st := lossDuel(t)
	resp, err := c.Odds(ctx, &rulesv1.OddsRequest{State: st, Command: lossSwing("diego", "malfrat"), Actor: "david"})
	require.NoError(t, err)
	want, err := odds.Of(systems.Registry(), st, lossSwing("diego", "malfrat"), "david")
	require.NoError(t, err)
	require.True(t, proto.Equal(want, resp.GetOdds()))
	require.Equal(t, "loss", resp.GetOdds().GetRuleSystem())
	var keys []string
	for _, s := range resp.GetOdds().GetSections() {
		keys = append(keys, s.GetKey())
	}
	require.Equal(t, []string{"attack", "none", "parry", "dodge"}, keys)

	start := &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}
	for _, tc := range []struct {
		req  *rulesv1.OddsRequest
		code codes.Code
	}{
		{&rulesv1.OddsRequest{Command: lossSwing("diego", "malfrat"), Actor: "david"}, codes.InvalidArgument},
		{&rulesv1.OddsRequest{State: st, Actor: "david"}, codes.InvalidArgument},
		{&rulesv1.OddsRequest{State: st, Command: start, Actor: "gm"}, codes.InvalidArgument},
		{&rulesv1.OddsRequest{State: st, Command: lossSwing("malfrat", "diego"), Actor: "gm"}, codes.FailedPrecondition}, // not its phase (LOS-031)
		{&rulesv1.OddsRequest{State: st, Command: lossSwing("diego", "malfrat"), Actor: "mallory"}, codes.PermissionDenied},
	} {
		_, err := c.Odds(ctx, tc.req)
		require.Equal(t, tc.code, status.Code(err), "%v", err)
	}
	_, err = c.Odds(context.Background(), &rulesv1.OddsRequest{State: st, Command: lossSwing("diego", "malfrat"), Actor: "david"})
	require.Equal(t, codes.Unauthenticated, status.Code(err))
}
