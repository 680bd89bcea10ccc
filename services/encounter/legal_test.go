package encounter_test

import (
	"context"
	"crypto/sha256"
	"slices"
	"strconv"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// filled is a legal action's pre-filled command with its required choices filled from their
// first option (a number: its least value), as a bot taking the first thing offered sends it.
func filled(t *testing.T, l *encounterv1.LegalCommand) *encounterv1.Command {
	t.Helper()
	cmd := proto.CloneOf(l.GetCommand())
	for _, c := range l.GetAction().GetChoices() {
		if !c.GetRequired() {
			continue
		}
		v := strconv.Itoa(int(c.GetMin()))
		if len(c.GetOptions()) > 0 {
			v = c.GetOptions()[0].GetValue()
		}
		require.NoError(t, engine.Fill(cmd, c.GetField(), v))
	}
	return cmd
}

// without is list without id (nil when nothing is left, as an empty repeated field reads).
func without(list []string, id string) []string {
	var out []string
	for _, x := range list {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}

func actionsOf(r *encounterv1.GetEncounterResponse) map[string][]*encounterv1.LegalCommand {
	out := map[string][]*encounterv1.LegalCommand{}
	for _, a := range r.GetActions() {
		out[a.GetCombatantId()] = a.GetActions()
	}
	return out
}

// A fight played, over JetStream and gRPC, by a bot that only asks legal_for_all and sends
// the pre-filled commands (the first action of the first who may act, its first options), as
// the GM: every command it sends is taken; an attack that hits makes the defender the only one
// who may act, awaiting its reaction. At each step, what each reader is told follows its
// standing: the GM gets the actions of every combatant who may act; david, a player, only his
// Diego's, and is not told whether the ruffian the GM hid may act; an observer no actions;
// legal_for keeps its rule (PermissionDenied for another's combatant) and now also gives the
// commands.
func TestLegalForAllSaysWhoMayActAndGivesCommandsToThoseWhoMayGiveThem(t *testing.T) {
	_, nc := natstest.Start(t)
	js, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	sum := sha256.Sum256([]byte("fray-legal-for-all"))
	c := serve(t, js, encounter.Options{NewSeed: func() []byte { return sum[:] }})
	id := create(t, c)
	ruffian := fighter("ruffian", "gm", 6, sword(3))
	ruffian.Hidden = true
	for _, f := range []*encounterv1.Combatant{fighter("diego", "david", 8, sword(4)), ruffian, fighter("mateo", "erin", 7, sword(4))} {
		_, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: f})
		require.NoError(t, err)
	}
	_, err = c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_GrantRole{
		GrantRole: &encounterv1.GrantRole{Principal: "olga", Role: encounterv1.Role_ROLE_OBSERVER}}}})
	require.NoError(t, err)

	get := func(who string, req *encounterv1.GetEncounterRequest) *encounterv1.GetEncounterResponse {
		t.Helper()
		req.EncounterId = id
		r, err := c.GetEncounter(as(who), req)
		require.NoError(t, err)
		return r
	}
	before := get("gm", &encounterv1.GetEncounterRequest{LegalForAll: true})
	require.Empty(t, before.GetMayAct(), "no one acts before the fight starts")
	require.Empty(t, before.GetActions())
	_, err = c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)

	_, err = c.GetEncounter(as("erin"), &encounterv1.GetEncounterRequest{EncounterId: id, LegalFor: "diego"})
	requireCode(t, err, codes.PermissionDenied)
	_, err = c.GetEncounter(as("olga"), &encounterv1.GetEncounterRequest{EncounterId: id, LegalFor: "ruffian"})
	requireCode(t, err, codes.PermissionDenied)

	reactions, hiddenActs := 0, 0
	for steps := 0; steps < 60 && reactions < 2; steps++ {
		gm := get("gm", &encounterv1.GetEncounterRequest{LegalForAll: true})
		david := get("david", &encounterv1.GetEncounterRequest{LegalForAll: true})
		olga := get("olga", &encounterv1.GetEncounterRequest{LegalForAll: true})
		require.NotEmpty(t, gm.GetMayAct(), "a fight in progress waits for someone")

		// The GM commands everyone: one entry per combatant who may act, in that order.
		var ids []string
		for _, a := range gm.GetActions() {
			ids = append(ids, a.GetCombatantId())
			require.NotEmpty(t, a.GetActions())
		}
		require.Equal(t, gm.GetMayAct(), ids)
		for _, a := range gm.GetAwaitingReaction() {
			require.Contains(t, gm.GetMayAct(), a)
		}
		if slices.Contains(gm.GetMayAct(), "ruffian") {
			hiddenActs++
		}
		// david sees who may act but the hidden ruffian, and gets only Diego's actions.
		want := without(gm.GetMayAct(), "ruffian")
		require.Equal(t, want, david.GetMayAct())
		require.Equal(t, want, olga.GetMayAct())
		require.Equal(t, without(gm.GetAwaitingReaction(), "ruffian"), david.GetAwaitingReaction())
		for _, a := range david.GetActions() {
			require.Equal(t, "diego", a.GetCombatantId())
		}
		require.Equal(t, slices.Contains(gm.GetMayAct(), "diego"), len(david.GetActions()) == 1)
		require.Empty(t, olga.GetActions(), "an observer commands no one")
		// legal_for gives david the same, with the names of legal.
		if slices.Contains(gm.GetMayAct(), "diego") {
			one := get("david", &encounterv1.GetEncounterRequest{LegalFor: "diego"})
			require.Len(t, one.GetActions(), 1)
			require.True(t, proto.Equal(david.GetActions()[0], one.GetActions()[0]))
			require.Len(t, one.GetLegal(), len(one.GetActions()[0].GetActions()))
			for i, l := range one.GetActions()[0].GetActions() {
				require.True(t, proto.Equal(one.GetLegal()[i], l.GetAction()))
				require.Equal(t, "diego", l.GetCommand().GetLoss().GetCombatantId())
			}
		}

		// The bot: the first who may act; an attack if it has one, else its first action.
		who := gm.GetMayAct()[0]
		list := actionsOf(gm)[who]
		pick := list[0]
		for _, l := range list {
			if l.GetAction().GetKey() == "attack" {
				pick = l
				break
			}
		}
		if len(gm.GetAwaitingReaction()) > 0 {
			require.Equal(t, []string{who}, gm.GetMayAct(), "an attack waits for its defender alone")
			require.True(t, pick.GetAction().GetReaction())
			require.Equal(t, "dodge", list[0].GetAction().GetKey()) // sheets with no Parry score: dodge, then take the blow
			reactions++
		}
		_, err := c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: filled(t, pick)})
		require.NoError(t, err, "%s: %s", who, pick.GetAction().GetName())
	}
	require.Equal(t, 2, reactions, "the bot's attacks hit and were answered")
	require.NotZero(t, hiddenActs, "the hidden ruffian acted, unseen by david")
}
