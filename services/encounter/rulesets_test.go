package encounter_test

import (
	"context"
	"crypto/sha256"
	"slices"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ListRulesets over JetStream and gRPC, to any caller of the tenant: every rule system the
// service folds, sorted, with its versions and its latest descriptor, whose actions marked
// with odds are those GetOdds computes: an attack gets odds, a pass is refused with the
// actions that have them; GetEncounter marks the legal commands that have odds.
func TestListRulesetsSaysWhatToCreateAndWhatHasOdds(t *testing.T) {
	_, nc := natstest.Start(t)
	js, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	sum := sha256.Sum256([]byte("fray-rulesets"))
	c := serve(t, js, encounter.Options{NewSeed: func() []byte { return sum[:] }})

	resp, err := c.ListRulesets(as("olga"), &encounterv1.ListRulesetsRequest{})
	require.NoError(t, err)
	var ids []string
	for _, rs := range resp.GetRulesets() {
		ids = append(ids, rs.GetLatest().GetId())
		require.Equal(t, systems.Registry().Versions(rs.GetLatest().GetId()), rs.GetVersions(), rs.GetLatest().GetId())
		require.Equal(t, rs.GetVersions()[len(rs.GetVersions())-1], rs.GetLatest().GetVersion(), "the latest version's descriptor")
		withOdds := 0
		for _, a := range rs.GetLatest().GetActions() {
			if a.GetOdds() {
				withOdds++
			}
		}
		require.Positive(t, withOdds, "%s: some action has odds", rs.GetLatest().GetId())
	}
	require.Equal(t, systems.IDs(), ids)

	_, err = c.ListRulesets(context.Background(), &encounterv1.ListRulesetsRequest{})
	require.Equal(t, codes.Unauthenticated, status.Code(err), "a caller without a token: %v", err)

	id := create(t, c)
	for _, f := range []*encounterv1.Combatant{fighter("diego", "david", 20, sword(4)), fighter("ruffian", "gm", 6, sword(3))} {
		_, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: f})
		require.NoError(t, err)
	}
	_, err = c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	// GetEncounter says which legal commands have odds: those of the actions marked.
	legal, err := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id, LegalForAll: true})
	require.NoError(t, err)
	sys, err := systems.Registry().Lookup("loss", 0)
	require.NoError(t, err)
	withOdds := 0
	for _, ca := range legal.GetActions() {
		for _, lc := range ca.GetActions() {
			require.Equal(t, slices.Contains(sys.WithOdds(), lc.GetAction().GetKey()), lc.GetOdds(), "%s: %s", ca.GetCombatantId(), lc.GetAction().GetKey())
			if lc.GetOdds() {
				withOdds++
			}
		}
	}
	require.Positive(t, withOdds)
	o, err := c.GetOdds(as("david"), &encounterv1.GetOddsRequest{EncounterId: id, Command: attack("diego", "ruffian")})
	require.NoError(t, err, "an action marked with odds has them")
	require.NotEmpty(t, o.GetOdds().GetSections())
	pass := &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}}}
	_, err = c.GetOdds(as("david"), &encounterv1.GetOddsRequest{EncounterId: id, Command: pass})
	require.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
	require.Contains(t, status.Convert(err).Message(), "odds are computed for: attack")
}
