package encounter_test

import (
	"context"
	"crypto/sha256"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// GetOdds over JetStream and gRPC: david asks the odds of his Diego's attack on the ruffian
// the GM hid: he gets the chance to reach each Difficulty (his own numbers, LOS-010) and no
// odds of the defence or of the damage, which need the ruffian's numbers (hidden from him);
// the GM, who sees all, gets them. A player may not ask the odds of another's combatant, an
// observer of none; a request without a command is InvalidArgument with a BadRequest.
func TestGetOddsUseOnlyWhatTheCallerSees(t *testing.T) {
	_, nc := natstest.Start(t)
	js, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	sum := sha256.Sum256([]byte("fray-odds"))
	c := serve(t, js, encounter.Options{NewSeed: func() []byte { return sum[:] }})
	id := create(t, c)
	ruffian := fighter("ruffian", "gm", 6, sword(3))
	ruffian.Hidden = true
	for _, f := range []*encounterv1.Combatant{fighter("diego", "david", 20, sword(4)), ruffian, fighter("mateo", "erin", 7, sword(4))} {
		_, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: f})
		require.NoError(t, err)
	}
	_, err = c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_GrantRole{
		GrantRole: &encounterv1.GrantRole{Principal: "olga", Role: encounterv1.Role_ROLE_OBSERVER}}}})
	require.NoError(t, err)
	_, err = c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)

	swing := &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
		TargetId: "ruffian", Weapon: "épée", Exploits: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE}}}}}}
	ask := func(who string) (*encounterv1.GetOddsResponse, error) {
		return c.GetOdds(as(who), &encounterv1.GetOddsRequest{EncounterId: id, Command: swing})
	}
	sectionOf := func(o *oddsv1.Odds, key string) *oddsv1.OddsSection {
		for _, s := range o.GetSections() {
			if s.GetKey() == key {
				return s
			}
		}
		require.Failf(t, "no section", "%q", key)
		return nil
	}

	david, err := ask("david")
	require.NoError(t, err)
	require.Positive(t, david.GetSequence())
	require.Len(t, sectionOf(david.GetOdds(), "attack").GetChances(), 6, "reach for 0 to 5 Exploits")
	require.Contains(t, sectionOf(david.GetOdds(), "dodge").GetUnavailable(), "hidden from you")
	require.Empty(t, sectionOf(david.GetOdds(), "dodge").GetChances())
	for _, s := range david.GetOdds().GetSections() {
		require.Empty(t, s.GetDistributions(), "no NS lost computed from the ruffian's hidden numbers")
	}

	gm, err := ask("gm")
	require.NoError(t, err)
	require.Empty(t, sectionOf(gm.GetOdds(), "dodge").GetUnavailable())
	require.NotEmpty(t, sectionOf(gm.GetOdds(), "dodge").GetChances())
	require.NotEmpty(t, sectionOf(gm.GetOdds(), "none").GetDistributions())
	require.True(t, proto.Equal(sectionOf(david.GetOdds(), "attack"), sectionOf(gm.GetOdds(), "attack")), "the attacker's own numbers are the same to both")

	_, err = ask("erin")
	requireCode(t, err, codes.PermissionDenied)
	_, err = ask("olga")
	requireCode(t, err, codes.PermissionDenied)
	_, err = c.GetOdds(as("david"), &encounterv1.GetOddsRequest{EncounterId: id})
	requireCode(t, err, codes.InvalidArgument, "command")
	_, err = c.GetOdds(as("david"), &encounterv1.GetOddsRequest{EncounterId: "nope", Command: swing})
	requireCode(t, err, codes.NotFound)
}
