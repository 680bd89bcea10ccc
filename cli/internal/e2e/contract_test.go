package e2e_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// The encounter service's Decider has two adapters: the resolver over gRPC and the rules
// in-process. Both must give the same answers, events and errors alike.
func TestDeciderContract(t *testing.T) {
	decideTour1(t, &encounter.RemoteDecider{HashEvery: 1, Client: rulesv1.NewRulesServiceClient(dial(t, startResolver(t)))})
}

// decideTour1 plays the first Tour of a Loss duel through remote and through the rules
// in-process, command by command, and requires the same answers of both (events and state
// hash, or error code and message).
func decideTour1(t *testing.T, remote encounter.Decider) {
	t.Helper()
	local := encounter.LocalDecider{Registry: systems.Registry()}
	reg := systems.Registry()
	ctx := authtest.As("encounter-service", identity.ScopeResolve) // the resolver answers Resolve to this scope only
	seed := dice.NewSeed()
	st := &encounterv1.EncounterState{EncounterId: "enc-contract"}

	step := func(actor string, cmd *encounterv1.Command) error {
		req := &rulesv1.ResolveRequest{State: st, Command: cmd, Actor: actor, Seed: seed}
		r, rerr := remote.Resolve(ctx, req)
		l, lerr := local.Resolve(ctx, req)
		if rerr != nil || lerr != nil {
			require.Equal(t, status.Convert(lerr).Code(), status.Convert(rerr).Code())
			require.Equal(t, status.Convert(lerr).Message(), status.Convert(rerr).Message())
			return rerr
		}
		require.True(t, proto.Equal(l, r), "same events and state hash")
		for _, ev := range r.GetEvents() {
			require.NoError(t, reg.Evolve(st, ev))
		}
		return nil
	}
	loss := func(a *lossv1.Action) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: a}}
	}
	require.NoError(t, step("gm", &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "Contract", RuleSystem: "loss"}}}))
	for _, c := range []*encounterv1.Combatant{diego(2, 1), ruffian(1)} {
		require.NoError(t, step("gm", &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c}}}))
	}
	require.Error(t, step("gm", &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: diego(0, 0)}}}))
	require.NoError(t, step("gm", &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}))
	require.Error(t, step("mallory", loss(attack("diego", "ruffian", "", 0, nil))))
	// Play until the first Tour ends: whoever is up attacks, defenders dodge.
	for st.GetLoss().GetTour() == 1 {
		if p := st.GetLoss().GetPending(); p != nil {
			require.NoError(t, step("gm", loss(react(p.GetDefenderId(), lossv1.Reaction_REACTION_DODGE, 0, nil))))
			continue
		}
		turns := [][3]string{{"david", "ruffian", "diego"}, {"gm", "diego", "ruffian"}} // actor, target, who
		d, r := st.GetLoss().GetCombatants()["diego"], st.GetLoss().GetCombatants()["ruffian"]
		if r.GetActionPoints() > d.GetActionPoints() && !r.GetPassed() || d.GetPassed() || d.GetOut() {
			turns[0], turns[1] = turns[1], turns[0]
		}
		// The one up attacks, or else passes; one felled with PA left is not up, and the
		// other acts (both answers are compared either way).
		acted := false
		for _, tn := range turns {
			actor, target, who := tn[0], tn[1], tn[2]
			if step(actor, loss(attack(who, target, "", 0, nil))) == nil ||
				step(actor, loss(&lossv1.Action{CombatantId: who, Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}})) == nil {
				acted = true
				break
			}
		}
		require.True(t, acted, "someone may act in Tour 1")
	}
	require.Equal(t, int32(2), st.GetLoss().GetTour())
}
