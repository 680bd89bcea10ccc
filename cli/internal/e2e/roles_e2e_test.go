package e2e_test

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// caller is one column of the role matrix: who calls, with what token.
type caller struct {
	name    string
	ctx     func() context.Context
	member  bool   // has a role in the fixture encounter
	subject string // the subject its token names, if any
}

// callers are the columns: the roles of the fixture encounter, a stranger of its tenant,
// someone of another tenant, and the three ways of having no valid token.
func callers() []caller {
	a := authtest.Default()
	impostor := auth.Signer{ID: a.Ed.ID, Key: authtest.NewEd25519("impostor").Key} // the right key id, another key
	expired := authtest.Claims(authtest.Tenant, "david")
	expired.IssuedAt = time.Now().Add(-2 * time.Hour)
	return []caller{
		{"GM", func() context.Context { return as("gm") }, true, "gm"},
		{"co-GM", func() context.Context { return as("cogm") }, true, "cogm"},
		{"player, own combatant", func() context.Context { return as("david") }, true, "david"},
		{"player, another's combatant", func() context.Context { return as("florence") }, true, "florence"},
		{"observer", func() context.Context { return as("erin") }, true, "erin"},
		{"stranger of the tenant", func() context.Context { return as("sam") }, false, "sam"},
		{"another tenant", func() context.Context {
			return authtest.WithToken(context.Background(), a.Mint(a.Ed, authtest.Claims("guild", "mallory")))
		}, false, "mallory"},
		{"no token", context.Background, false, ""},
		{"expired token", func() context.Context { return authtest.WithToken(context.Background(), a.Mint(a.Ed, expired)) }, false, "david"},
		{"wrong key", func() context.Context {
			return authtest.WithToken(context.Background(), a.Mint(impostor, authtest.Claims(authtest.Tenant, "david")))
		}, false, "david"},
	}
}

// roleFixture creates the matrix's encounter: the GM's, with Diego (david's, Initiative 30: he
// acts first) and Canahan (florence's, Initiative 0), a co-GM and an observer; started or not.
func roleFixture(t *testing.T, c encounterv1.EncounterServiceClient, started bool) string {
	t.Helper()
	gm := as("gm")
	r, err := c.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "La table", RuleSystem: "loss"}})
	require.NoError(t, err)
	id := r.GetEncounterId()
	d, k := diego(0, 0), canahan()
	d.GetLoss().Initiative, k.GetLoss().Initiative = 30, 0
	for _, cmb := range []*encounterv1.Combatant{d, k} {
		_, err := c.AddCombatant(gm, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: cmb})
		require.NoError(t, err)
	}
	for p, role := range map[string]encounterv1.Role{"cogm": encounterv1.Role_ROLE_CO_GM, "erin": encounterv1.Role_ROLE_OBSERVER} {
		_, err := c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, Command: grant(p, role)})
		require.NoError(t, err)
	}
	if started {
		_, err := c.StartEncounter(gm, &encounterv1.StartEncounterRequest{EncounterId: id})
		require.NoError(t, err)
	}
	return id
}

func grant(p string, role encounterv1.Role) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_GrantRole{GrantRole: &encounterv1.GrantRole{Principal: p, Role: role}}}
}

// first receives the first message of a server stream: a stream's refusal comes with it.
func first[T any](recv func() (T, error)) error {
	_, err := recv()
	return err
}

// matrixOp is one row: an RPC on the fixture encounter (id) as the caller.
type matrixOp struct {
	name    string
	started bool // on a started fixture
	do      func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, w caller) error
	want    []codes.Code // per caller, in the order of callers()
}

const (
	ok  = codes.OK
	pd  = codes.PermissionDenied
	nf  = codes.NotFound
	fp  = codes.FailedPrecondition
	una = codes.Unauthenticated
)

func lossCmd(a *lossv1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: a}}
}

var matrixOps = []matrixOp{
	{"CreateEncounter", false, func(ctx context.Context, c encounterv1.EncounterServiceClient, _ string, _ caller) error {
		_, err := c.CreateEncounter(ctx, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Une autre", RuleSystem: "loss"}})
		return err
	}, []codes.Code{ok, ok, ok, ok, ok, ok, ok, una, una, una}},
	// A combatant controlled by the caller itself, while the GM keeps joining closed.
	{"AddCombatant", false, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, w caller) error {
		self := ruffian(0)
		self.Id, self.Controller = "newcomer", w.subject
		_, err := c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: self})
		return err
	}, []codes.Code{ok, ok, fp, fp, fp, fp, nf, una, una, una}},
	{"RemoveCombatant", false, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, _ caller) error {
		_, err := c.RemoveCombatant(ctx, &encounterv1.RemoveCombatantRequest{EncounterId: id, CombatantId: "canahan"})
		return err
	}, []codes.Code{ok, ok, pd, pd, pd, pd, nf, una, una, una}},
	{"StartEncounter", false, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, _ caller) error {
		_, err := c.StartEncounter(ctx, &encounterv1.StartEncounterRequest{EncounterId: id})
		return err
	}, []codes.Code{ok, ok, pd, pd, pd, pd, nf, una, una, una}},
	{"Submit: Diego's action", true, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, _ caller) error {
		_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: lossCmd(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}})})
		return err
	}, []codes.Code{ok, ok, ok, pd, pd, pd, nf, una, una, una}},
	{"Submit: a GM ruling (free raises)", true, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, _ caller) error {
		_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: lossCmd(&lossv1.Action{CombatantId: "canahan",
			Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: &lossv1.GrantFreeRaises{Count: 1, Reason: "bien joué"}}})})
		return err
	}, []codes.Code{ok, ok, pd, pd, pd, pd, nf, una, una, una}},
	{"Submit: grant observer", false, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, _ caller) error {
		_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: grant("zoe", encounterv1.Role_ROLE_OBSERVER)})
		return err
	}, []codes.Code{ok, ok, pd, pd, pd, pd, nf, una, una, una}},
	{"Submit: revoke observer", false, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, _ caller) error {
		_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_RevokeRole{
			RevokeRole: &encounterv1.RevokeRole{Principal: "erin", Role: encounterv1.Role_ROLE_OBSERVER}}}})
		return err
	}, []codes.Code{ok, ok, pd, pd, pd, pd, nf, una, una, una}},
	{"Submit: open joining", false, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, _ caller) error {
		_, err := c.Submit(ctx, &encounterv1.SubmitRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_SetJoining{SetJoining: &encounterv1.SetJoining{Open: true}}}})
		return err
	}, []codes.Code{ok, ok, pd, pd, pd, pd, nf, una, una, una}},
	{"EndEncounter", true, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, _ caller) error {
		_, err := c.EndEncounter(ctx, &encounterv1.EndEncounterRequest{EncounterId: id, Reason: "fin"})
		return err
	}, []codes.Code{ok, pd, pd, pd, pd, pd, nf, una, una, una}},
	{"RewindEncounter", true, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, _ caller) error {
		_, err := c.RewindEncounter(ctx, &encounterv1.RewindEncounterRequest{EncounterId: id, ToSequence: 2, Reason: "oups"})
		return err
	}, []codes.Code{ok, ok, pd, pd, pd, pd, nf, una, una, una}},
	{"GetEncounter", true, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, _ caller) error {
		_, err := c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id})
		return err
	}, []codes.Code{ok, ok, ok, ok, ok, pd, nf, una, una, una}},
	{"GetEncounter legal_for Diego", true, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, _ caller) error {
		r, err := c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id, LegalFor: "diego"})
		if err == nil && len(r.GetLegal()) == 0 {
			return fmt.Errorf("no legal actions for Diego, up first")
		}
		return err
	}, []codes.Code{ok, ok, ok, pd, pd, pd, nf, una, una, una}},
	// Everyone authenticated may list; the encounter is listed to its members only.
	{"ListEncounters", true, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, w caller) error {
		r, err := c.ListEncounters(ctx, &encounterv1.ListEncountersRequest{})
		if err != nil {
			return err
		}
		listed := slices.ContainsFunc(r.GetEncounters(), func(s *encounterv1.EncounterSummary) bool { return s.GetEncounterId() == id })
		if listed != w.member {
			return fmt.Errorf("listed: %v, a member: %v", listed, w.member)
		}
		return nil
	}, []codes.Code{ok, ok, ok, ok, ok, ok, ok, una, una, una}},
	{"WatchEncounter", true, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, _ caller) error {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		s, err := c.WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id})
		if err != nil {
			return err
		}
		return first(s.Recv)
	}, []codes.Code{ok, ok, ok, ok, ok, pd, nf, una, una, una}},
	{"ExportLog", true, func(ctx context.Context, c encounterv1.EncounterServiceClient, id string, _ caller) error {
		s, err := c.ExportLog(ctx, &encounterv1.ExportLogRequest{EncounterId: id})
		if err != nil {
			return err
		}
		for {
			if _, err := s.Recv(); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
		}
	}, []codes.Code{ok, ok, ok, ok, ok, pd, nf, una, una, una}},
}

// Every RPC of EncounterService × every kind of caller, each on a fresh encounter: the
// expected code, nothing recorded by a refusal, and another tenant's encounter NotFound in
// the very words of a missing one.
func TestRoleMatrix(t *testing.T) {
	ns, nc := natstest.Start(t)
	c := startEncounter(t, ns.ClientURL(), startResolver(t), nil)
	log, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	records := func(id string) int {
		recs, err := log.Load(context.Background(), id, 0)
		require.NoError(t, err)
		return len(recs)
	}
	const missing = "enc-nosuchencounter"
	cells := 0
	for _, op := range matrixOps {
		for i, who := range callers() {
			t.Run(op.name+"/"+who.name, func(t *testing.T) {
				id := roleFixture(t, c, op.started)
				before := records(id)
				err := op.do(who.ctx(), c, id, who)
				require.Equal(t, op.want[i], status.Code(err), "%s as %s: %v", op.name, who.name, err)
				if op.want[i] != ok {
					require.Equal(t, before, records(id), "a refusal records nothing")
				}
				if op.want[i] == nf {
					// The same answer as for an encounter that does not exist.
					gone := op.do(who.ctx(), c, missing, who)
					require.Equal(t, codes.NotFound, status.Code(gone))
					require.Equal(t, strings.ReplaceAll(status.Convert(gone).Message(), missing, "ID"),
						strings.ReplaceAll(status.Convert(err).Message(), id, "ID"))
				}
			})
			cells++
		}
	}
	t.Logf("EncounterService role matrix: %d RPCs × %d callers = %d cells", len(matrixOps), len(callers()), cells)
}

// RulesService × the same callers and the encounter service's own token: the reference RPCs
// answer anyone authenticated, Resolve only the fray:resolve scope.
func TestRulesServiceMatrix(t *testing.T) {
	rc := rulesv1.NewRulesServiceClient(dial(t, startResolver(t)))
	seed := dice.NewSeed()
	ops := []struct {
		name string
		do   func(ctx context.Context) error
	}{
		{"ListRulesets", func(ctx context.Context) error {
			_, err := rc.ListRulesets(ctx, &rulesv1.ListRulesetsRequest{})
			return err
		}},
		{"DescribeRuleset", func(ctx context.Context) error {
			_, err := rc.DescribeRuleset(ctx, &rulesv1.DescribeRulesetRequest{Id: "loss"})
			return err
		}},
		{"Roll", func(ctx context.Context) error {
			_, err := rc.Roll(ctx, &rulesv1.RollRequest{Expression: "d10"})
			return err
		}},
		{"Resolve", func(ctx context.Context) error {
			_, err := rc.Resolve(ctx, &rulesv1.ResolveRequest{State: &encounterv1.EncounterState{EncounterId: "enc-x", Tenant: "dev"},
				Command: &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "x", RuleSystem: "loss"}}},
				Actor:   "dev/gm", Seed: seed})
			return err
		}},
	}
	who := append(callers(), caller{name: "the encounter service", ctx: func() context.Context { return authtest.As("encounter-service", identity.ScopeResolve) }})
	cells := 0
	for _, op := range ops {
		for _, w := range who {
			want := ok
			switch {
			case slices.Contains([]string{"no token", "expired token", "wrong key"}, w.name):
				want = una
			case op.name == "Resolve" && w.name != "the encounter service":
				want = pd
			}
			require.Equal(t, want, status.Code(op.do(w.ctx())), "%s as %s", op.name, w.name)
			cells++
		}
	}
	t.Logf("RulesService matrix: %d RPCs × %d callers = %d cells", len(ops), len(who), cells)
}
