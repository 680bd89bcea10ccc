package encounter_test

import (
	"context"
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/platform/ratelimit"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// GetOdds and WatchEncounter are charged what they cost (issue 23, item 5), over gRPC on
// JetStream: each principal has 102 tokens, none coming back while the test runs (one in
// 1000 s). On an encounter of 40 combatants a GetOdds counts as 7 (ratelimit.OddsCost): the
// player whose turn it is, asking its odds again and again, is served 14 times, then refused
// ResourceExhausted saying what the call counts as and why; opening a watch counts as 5:
// another player opening watches again and again is served 20, then refused the same way. A
// third player, beside them, still gets its watch, and the GM its odds.
func TestCostlyOddsAndWatchesAreRefusedByTheirCost(t *testing.T) {
	// 102: each refused call finds a token or two, so that the limits read it and say what it
	// counts as (a bucket with none is refused before its request is read: platform's tap).
	lim := ratelimit.New(ratelimit.Limits{PrincipalRate: 0.001, PrincipalBurst: 102, TenantRate: 1000, TenantBurst: 1000})
	s := serveWatches(t, jetStream(t), encounter.Options{MaxWatchesPerPrincipal: 64}, ratelimit.WithLimiter(lim))
	id := create(t, s.c)
	players := [][2]string{{"diego", "mallory"}, {"mateo", "wally"}, {"lucia", "florence"}}
	for n, p := range players {
		_, err := s.c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter(p[0], p[1], int32(20-n), sword(4))})
		require.NoError(t, err)
	}
	for n := len(players); n < 40; n++ {
		_, err := s.c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter(fmt.Sprintf("sbire-%d", n), "gm", 5, sword(3))})
		require.NoError(t, err)
	}
	_, err := s.c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	require.Equal(t, 7, ratelimit.OddsCost(40))

	odds := func(who, combatant string) error {
		_, err := s.c.GetOdds(as(who), &encounterv1.GetOddsRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{
			CombatantId: combatant, Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: "sbire-3", Weapon: "épée"}}}}}})
		return err
	}
	watch := func(who string) error {
		ctx, cancel := context.WithCancel(as(who))
		defer cancel()
		w, err := s.c.WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id, FromSequence: 1})
		if err == nil {
			_, err = w.Recv()
		}
		return err
	}
	// flood calls until the first refusal, and says how many were served.
	flood := func(call func() error) (served int, refusal error) {
		for {
			if err := call(); err != nil {
				return served, err
			}
			served++
			require.Less(t, served, 200, "never refused")
		}
	}

	// The odds may be asked of the combatant whose turn it is (Initiative is rolled): found
	// by the GM's asking; its player floods the odds, another the watches.
	var actor int
	for actor = range players {
		if odds("gm", players[actor][0]) == nil {
			break
		}
	}
	flooder, watcher, bystander := players[actor], players[(actor+1)%3], players[(actor+2)%3]

	served, err := flood(func() error { return odds(flooder[1], flooder[0]) })
	require.Equal(t, 14, served, "102 tokens at 7 a call: %v", err)
	requireCode(t, err, codes.ResourceExhausted, "dev/"+flooder[1]+": more than 0.001 requests/s (this call counts as 7: odds on a state of 40 combatants); retry in ")
	t.Logf("refused: %v", status.Convert(err).Message())

	served, err = flood(func() error { return watch(watcher[1]) })
	require.Equal(t, 20, served, "102 tokens at 5 a watch: %v", err)
	requireCode(t, err, codes.ResourceExhausted, "dev/"+watcher[1]+": more than 0.001 requests/s (this call counts as 5: a watch first replays the encounter's events you ask for); retry in ")
	t.Logf("refused: %v", status.Convert(err).Message())

	require.NoError(t, watch(bystander[1]), "another player's watch beside the floods")
	require.NoError(t, odds("gm", flooder[0]), "the GM's odds beside the floods")
}
