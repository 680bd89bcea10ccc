package resolver_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/ratelimit"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"github.com/fray-rpg/fray/services/platform/validate"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
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

// TestOddsBoundsTheSentState: a state sent for odds holds at most validate.MaxSentCombatants
// combatants and takes at most validate.MaxSentStateBytes; past either, the call is refused
// ResourceExhausted naming the bound (ErrorInfo limit sent_state) before any odds are
// computed. A Resolve from anyone but the encounter service is bounded the same (and refused
// still, for its scope); the encounter service's own Resolve is not: its states are its log's.
func TestOddsBoundsTheSentState(t *testing.T) {
	c := client(t)
	player := authtest.As("florence")
	limitOf := func(err error) string {
		for _, d := range status.Convert(err).Details() {
			if info, ok := d.(*errdetails.ErrorInfo); ok {
				return info.GetMetadata()["limit"]
			}
		}
		return ""
	}

	// The largest battle allowed is answered.
	most := lossAttackRequest(t, validate.MaxSentCombatants)
	_, err := c.Odds(player, &rulesv1.OddsRequest{State: most.GetState(), Command: most.GetCommand(), Actor: most.GetActor()})
	require.NoError(t, err)

	// One combatant more is refused, naming the bound.
	over := lossAttackRequest(t, validate.MaxSentCombatants+1)
	_, err = c.Odds(player, &rulesv1.OddsRequest{State: over.GetState(), Command: over.GetCommand(), Actor: over.GetActor()})
	require.Equal(t, codes.ResourceExhausted, status.Code(err), "%v", err)
	require.Equal(t, "state: 65 combatants; a state sent for odds may hold at most 64", status.Convert(err).Message())
	require.Equal(t, refusal.LimitSentState, limitOf(err))

	// So is a state of few combatants past the bytes: each with five more weapons of the
	// longest name a request may give.
	heavy := proto.Clone(most.GetState()).(*encounterv1.EncounterState)
	for _, cb := range heavy.GetCombatants() {
		for i := range 5 {
			cb.GetLoss().Weapons = append(cb.GetLoss().Weapons, &lossv1.Weapon{Name: fmt.Sprintf("%d%s", i, strings.Repeat("é", validate.MaxNameChars-1)), Vitesse: 4, Damage: 3})
		}
	}
	size := proto.Size(heavy)
	require.Greater(t, size, validate.MaxSentStateBytes)
	_, err = c.Odds(player, &rulesv1.OddsRequest{State: heavy, Command: most.GetCommand(), Actor: most.GetActor()})
	require.Equal(t, codes.ResourceExhausted, status.Code(err), "%v", err)
	require.Equal(t, fmt.Sprintf("state: %d bytes; a state sent for odds may take at most 65536", size), status.Convert(err).Message())

	// Resolve: a player's is bounded (and would be refused for its scope anyway); the
	// encounter service's, of the same state, is decided.
	_, err = c.Resolve(player, over)
	require.Equal(t, codes.ResourceExhausted, status.Code(err), "%v", err)
	require.Equal(t, refusal.LimitSentState, limitOf(err))
	_, err = c.Resolve(player, most)
	require.Equal(t, codes.PermissionDenied, status.Code(err), "%v", err)
	_, err = c.Resolve(authtest.As("encounter-service", identity.ScopeResolve), over)
	require.NoError(t, err)
}

// TestCostlyOddsAreRefusedFirst: a call is charged by its cost (ratelimit.CallCost): odds on
// the largest state one may send cost 10 tokens, on a duel 2. Two principals, each with a
// budget of 105 tokens (one in 1000 s back: what counts is the calls), call in turns, one
// Odds of each at a time: the costly flooder is refused at its 11th call, with a RetryInfo and
// its call's cost named; the cheap caller beside it is served 52 calls, and only then refused.
func TestCostlyOddsAreRefusedFirst(t *testing.T) {
	// 105: the costly call refused finds 5 tokens, so that the limits read it (a bucket with
	// none is refused before its request is read: platform's tap).
	lim := ratelimit.New(ratelimit.Limits{PrincipalRate: 0.001, PrincipalBurst: 105, TenantRate: 1000, TenantBurst: 1000})
	c := client(t, ratelimit.WithLimiter(lim))
	big, duel := lossAttackRequest(t, validate.MaxSentCombatants), lossAttackRequest(t, 2)
	require.Equal(t, 10, ratelimit.CallCost("/fray.rules.v1.RulesService/Odds", &rulesv1.OddsRequest{State: big.GetState()}))
	require.Equal(t, 2, ratelimit.CallCost("/fray.rules.v1.RulesService/Odds", &rulesv1.OddsRequest{State: duel.GetState()}))
	costly, cheap := authtest.As("mallory"), authtest.As("florence")
	var costlyServed, cheapServed int
	var costlyErr, cheapErr error
	for costlyErr == nil || cheapErr == nil {
		if costlyErr == nil {
			if _, costlyErr = c.Odds(costly, &rulesv1.OddsRequest{State: big.GetState(), Command: big.GetCommand(), Actor: big.GetActor()}); costlyErr == nil {
				costlyServed++
			}
		}
		if cheapErr == nil {
			if _, cheapErr = c.Odds(cheap, &rulesv1.OddsRequest{State: duel.GetState(), Command: duel.GetCommand(), Actor: duel.GetActor()}); cheapErr == nil {
				cheapServed++
			}
		}
		require.Less(t, costlyServed+cheapServed, 200, "neither was refused")
	}
	require.Equal(t, 10, costlyServed)
	require.Equal(t, 52, cheapServed)
	st := status.Convert(costlyErr)
	require.Equal(t, codes.ResourceExhausted, st.Code(), "%v", costlyErr)
	require.Regexp(t, `^dev/mallory: more than 0.001 requests/s \(this call counts as 10: odds on a state of 64 combatants\); retry in `, st.Message())
	var retry *errdetails.RetryInfo
	for _, d := range st.Details() {
		if r, ok := d.(*errdetails.RetryInfo); ok {
			retry = r
		}
	}
	require.NotNil(t, retry)
	require.Greater(t, retry.GetRetryDelay().AsDuration(), time.Second)
	require.Equal(t, codes.ResourceExhausted, status.Code(cheapErr), "%v", cheapErr)
}

// TestAStateOverTheBoundIsNotDecoded: an OddsRequest whose state holds more than
// validate.MaxSentCombatants combatants is refused from the count of its wire bytes, before it
// is decoded (issue 23, item 5: decoding a flood's 44 KB states was the largest cost the flood
// left the server). Shown by a state's name that is not UTF-8, which decoding refuses: with
// 64 combatants the request is decoded and refused InvalidArgument, with 65 it is refused
// ResourceExhausted for its combatants, never decoded.
func TestAStateOverTheBoundIsNotDecoded(t *testing.T) {
	c := client(t)
	player := authtest.As("florence")
	badName := protowire.AppendString(protowire.AppendTag(nil, 2, protowire.BytesType), "\xff\xfe") // EncounterState.name
	for n, want := range map[int]codes.Code{validate.MaxSentCombatants: codes.InvalidArgument, validate.MaxSentCombatants + 1: codes.ResourceExhausted} {
		r := lossAttackRequest(t, n)
		st := proto.CloneOf(r.GetState())
		st.ProtoReflect().SetUnknown(badName)
		_, err := c.Odds(player, &rulesv1.OddsRequest{State: st, Command: r.GetCommand(), Actor: r.GetActor()})
		require.Equal(t, want, status.Code(err), "%d combatants: %v", n, err)
		t.Logf("%d combatants: %v", n, err)
	}
}
