package resolver_test

import (
	"context"
	"net"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/fray-rpg/fray/services/resolver"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

func client(t testing.TB, opts ...grpc.ServerOption) rulesv1.RulesServiceClient {
	t.Helper()
	srv := server.New(telemetry.NewLogger("text", "error"), append(authtest.ServerOptions(), opts...)...)
	rulesv1.RegisterRulesServiceServer(srv.GRPC, resolver.New(systems.Registry()))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	return rulesv1.NewRulesServiceClient(cc)
}

func TestRulesetsAndDescribe(t *testing.T) {
	c := client(t)
	ctx := authtest.As("florence") // any authenticated caller
	list, err := c.ListRulesets(ctx, &rulesv1.ListRulesetsRequest{})
	require.NoError(t, err)
	var ids []string
	for _, r := range list.GetRulesets() {
		ids = append(ids, r.GetId())
		require.Equal(t, systems.Registry().Versions(r.GetId()), r.GetVersions(), "every released version, oldest first")
		require.NotEmpty(t, r.GetVersions())
	}
	require.Equal(t, systems.IDs(), ids, "every registered system, by id")

	d, err := c.DescribeRuleset(ctx, &rulesv1.DescribeRulesetRequest{Id: "loss"})
	require.NoError(t, err)
	costs := map[string]string{}
	for _, a := range d.GetRuleset().GetActions() {
		costs[a.GetName()] = a.GetCost()
	}
	require.Equal(t, "1 PA", costs["parry"])
	require.Equal(t, "1 PA", costs["dodge"])
	require.NotEmpty(t, d.GetRuleset().GetSheetFields())
	require.NotEmpty(t, d.GetRuleset().GetTables())
	require.EqualValues(t, 2, d.GetRuleset().GetVersion(), "no version asked: the latest")

	// Each version describes itself: version 1 pinned is described as version 1.
	v1, err := c.DescribeRuleset(ctx, &rulesv1.DescribeRulesetRequest{Id: "loss", Version: 1})
	require.NoError(t, err)
	require.EqualValues(t, 1, v1.GetRuleset().GetVersion())
	require.False(t, proto.Equal(v1.GetRuleset(), d.GetRuleset()), "version 2 (LOS-035's trip, LOS-102's Charge) is described otherwise")

	_, err = c.DescribeRuleset(ctx, &rulesv1.DescribeRulesetRequest{Id: "chess"})
	require.Equal(t, codes.NotFound, status.Code(err))
	_, err = c.DescribeRuleset(ctx, &rulesv1.DescribeRulesetRequest{Id: "loss", Version: 99})
	require.Equal(t, codes.FailedPrecondition, status.Code(err))
}

func TestRoll(t *testing.T) {
	c := client(t)
	ctx := authtest.As("florence") // any authenticated caller
	seed := make([]byte, dice.SeedSize)
	seed[0] = 7
	r1, err := c.Roll(ctx, &rulesv1.RollRequest{Expression: "3d10+4", Seed: seed, Offset: 5})
	require.NoError(t, err)
	require.Len(t, r1.GetRoll().GetFaces(), 3)
	require.Equal(t, uint64(5), r1.GetRoll().GetOffset())
	require.Equal(t, r1.GetRoll().GetFaces()[0]+r1.GetRoll().GetFaces()[1]+r1.GetRoll().GetFaces()[2]+4, r1.GetRoll().GetTotal())
	require.NoError(t, dice.Verify(seed, r1.GetRoll()))
	r2, err := c.Roll(ctx, &rulesv1.RollRequest{Expression: "3d10+4", Seed: seed, Offset: 5})
	require.NoError(t, err)
	require.True(t, proto.Equal(r1, r2), "same seed and offset, same roll")

	fresh, err := c.Roll(ctx, &rulesv1.RollRequest{Expression: "d20"})
	require.NoError(t, err)
	require.Len(t, fresh.GetSeed(), dice.SeedSize, "a fresh seed is revealed")
	require.NoError(t, dice.Verify(fresh.GetSeed(), fresh.GetRoll()))

	for _, bad := range []*rulesv1.RollRequest{
		{Expression: "3x10"},
		{Expression: "1000d10"},
		{Expression: "1d10", Seed: []byte("short")},
		{Expression: "1d10", Offset: resolver.MaxRollOffset + 1},
	} {
		_, err := c.Roll(ctx, bad)
		require.Equal(t, codes.InvalidArgument, status.Code(err), bad.String())
	}
}

func TestResolve(t *testing.T) {
	c := client(t)
	ctx := authtest.As("encounter-service", identity.ScopeResolve)
	seed := dice.NewSeed()
	create := &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}}}
	resp, err := c.Resolve(ctx, &rulesv1.ResolveRequest{State: &encounterv1.EncounterState{EncounterId: "e1"}, Command: create, Actor: "gm", Seed: seed})
	require.NoError(t, err)
	require.Len(t, resp.GetEvents(), 1)
	ev := resp.GetEvents()[0]
	require.Equal(t, "e1", ev.GetEncounterId())
	require.Equal(t, uint64(1), ev.GetSequence())
	require.Equal(t, "loss", ev.GetRuleSystem())
	require.Equal(t, uint32(loss.Latest), ev.GetRulesVersion(), "a new encounter gets the latest rules")
	require.Equal(t, dice.Commitment(seed), ev.GetEncounterCreated().GetSeedSha256())
	require.Equal(t, uint32(dice.Latest), ev.GetEncounterCreated().GetDiceScheme(), "a new encounter rolls under the latest dice scheme")
	st, err := systems.Registry().Fold(resp.GetEvents())
	require.NoError(t, err)
	require.Equal(t, engine.Hash(st), resp.GetStateSha256(), "the hash is of the state the events lead to")
	omitted, err := c.Resolve(ctx, &rulesv1.ResolveRequest{State: &encounterv1.EncounterState{EncounterId: "e1"}, Command: create, Actor: "gm", Seed: seed, OmitStateSha256: true})
	require.NoError(t, err)
	require.Empty(t, omitted.GetStateSha256(), "no hash when the request omits it")
	require.True(t, proto.Equal(resp.GetEvents()[0], omitted.GetEvents()[0]), "the same events")

	start := &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}
	for _, tc := range []struct {
		req  *rulesv1.ResolveRequest
		code codes.Code
	}{
		{&rulesv1.ResolveRequest{Command: create, Seed: seed}, codes.InvalidArgument},
		{&rulesv1.ResolveRequest{State: &encounterv1.EncounterState{EncounterId: "e1"}, Seed: seed}, codes.InvalidArgument},
		{&rulesv1.ResolveRequest{State: &encounterv1.EncounterState{EncounterId: "e1"}, Command: create, Seed: []byte("short")}, codes.InvalidArgument},
		// A version this resolver does not know is refused, not decided under other rules.
		{&rulesv1.ResolveRequest{State: &encounterv1.EncounterState{EncounterId: "e1", Sequence: 1, RuleSystem: "loss", RulesVersion: 99}, Command: &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, Actor: "gm", Seed: seed}, codes.FailedPrecondition},
		{&rulesv1.ResolveRequest{State: st, Command: &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, Actor: "gm", Seed: seed}, codes.FailedPrecondition},
		{&rulesv1.ResolveRequest{State: st, Command: &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, Actor: "mallory", Seed: seed}, codes.PermissionDenied},
		// A dice position beyond what an encounter can have used is refused before any work
		// (drawn, scheme 1 at 2^62 would take a core for centuries).
		{&rulesv1.ResolveRequest{State: withDice(st, 0, 1<<62), Command: start, Actor: "gm", Seed: seed}, codes.InvalidArgument},
		{&rulesv1.ResolveRequest{State: withDice(st, 2, 1<<62), Command: start, Actor: "gm", Seed: seed}, codes.InvalidArgument},
		{&rulesv1.ResolveRequest{State: withDice(st, 0, dice.Scheme1.MaxOffset()+1), Command: start, Actor: "gm", Seed: seed}, codes.InvalidArgument},
		{&rulesv1.ResolveRequest{State: withDice(st, 9, 0), Command: start, Actor: "gm", Seed: seed}, codes.InvalidArgument},
	} {
		_, err := c.Resolve(ctx, tc.req)
		require.Equal(t, tc.code, status.Code(err), "%v: %v", tc.req, err)
	}
}

func withDice(st *encounterv1.EncounterState, scheme uint32, offset uint64) *encounterv1.EncounterState {
	st = proto.CloneOf(st)
	st.DiceScheme, st.DiceOffset = scheme, offset
	return st
}

// Every call needs a token; Resolve answers only the encounter service's scope.
func TestResolverAuthentication(t *testing.T) {
	c := client(t)
	req := &rulesv1.ResolveRequest{State: &encounterv1.EncounterState{EncounterId: "e1"}, Actor: "dev/gm", Seed: dice.NewSeed(),
		Command: &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "x", RuleSystem: "loss"}}}}
	_, err := c.Resolve(context.Background(), req)
	require.Equal(t, codes.Unauthenticated, status.Code(err))
	_, err = c.ListRulesets(context.Background(), &rulesv1.ListRulesetsRequest{})
	require.Equal(t, codes.Unauthenticated, status.Code(err))
	_, err = c.Resolve(authtest.As("gm"), req)
	require.Equal(t, codes.PermissionDenied, status.Code(err))
	require.Contains(t, status.Convert(err).Message(), `Resolve answers only the encounter service (a token with the "fray:resolve" scope), not dev/gm`)
	_, err = c.Resolve(authtest.As("encounter", identity.ScopeResolve), req)
	require.NoError(t, err)
}
