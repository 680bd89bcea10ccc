package engine_test

import (
	"crypto/sha256"
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func joining(open bool) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_SetJoining{SetJoining: &encounterv1.SetJoining{Open: open}}}
}

func grant(p string, role engine.Role, ids ...string) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_GrantRole{GrantRole: &encounterv1.GrantRole{Principal: p, Role: role, CombatantIds: ids}}}
}

func revoke(p string, role engine.Role) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_RevokeRole{RevokeRole: &encounterv1.RevokeRole{Principal: p, Role: role}}}
}

func rewindTo(seq uint64) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{ToSequence: seq}}}
}

func endCmd() *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{}}}
}

func lossAction(who string, a *lossv1.Action) *encounterv1.Command {
	a.CombatantId = who
	return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: a}}
}

// table records an encounter of tenant "dev" as the encounter service does: each command
// resolved with the seeded stream (ResolveWith), stamped on its first event, folded.
type table struct {
	t    *testing.T
	reg  *engine.Registry
	seed []byte
	st   *encounterv1.EncounterState
	log  []*encounterv1.Event
}

func newTable(t *testing.T, tenant string) *table {
	sum := sha256.Sum256([]byte("roles"))
	return &table{t: t, reg: engine.NewRegistry(loss.New(1)), seed: sum[:], st: &encounterv1.EncounterState{EncounterId: "e1", Tenant: tenant}}
}

// try resolves cmd for actor and records its events, or returns the refusal (recording
// nothing).
func (tb *table) try(actor string, cmd *encounterv1.Command) ([]*encounterv1.Event, error) {
	var past *encounterv1.EncounterState
	if rw := cmd.GetRewind(); rw != nil && rw.GetToSequence() >= 1 && int(rw.GetToSequence()) <= len(tb.log) {
		var err error
		past, err = tb.reg.Fold(tb.log[:rw.GetToSequence()])
		require.NoError(tb.t, err)
	}
	before := proto.CloneOf(tb.st)
	evs, next, err := tb.reg.ResolveWith(tb.st, cmd, engine.Env{Actor: actor, Tenant: engine.TenantOf(actor), Seed: tb.seed, RewindState: past})
	require.True(tb.t, proto.Equal(before, tb.st), "ResolveWith leaves the state alone")
	if err != nil {
		return nil, err
	}
	for i, ev := range evs {
		ev.CommandId = fmt.Sprint("c", len(tb.log))
		if i == 0 {
			ev.Command = proto.CloneOf(cmd)
		}
	}
	tb.log = append(tb.log, evs...)
	tb.st = next
	return evs, nil
}

func (tb *table) do(actor string, cmd *encounterv1.Command) []*encounterv1.Event {
	tb.t.Helper()
	evs, err := tb.try(actor, cmd)
	require.NoError(tb.t, err, "%s: %v", actor, cmd)
	return evs
}

// duellist is a Loss fighter with a sword.
func duellist(id, name, controller string, initiative int32) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{
		Combatant: &encounterv1.Combatant{Id: id, Name: name, Controller: controller, Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
			Kind:       lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE,
			Traits:     map[string]int32{"Puissance": 6, "Agilité": 5},
			Talents:    map[string]int32{"Arme de mêlée": 6, "Esquive": 5},
			Initiative: initiative,
			Armour:     10,
			Weapons: []*lossv1.Weapon{{Name: "épée", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Vitesse: 4, Damage: 3,
				Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}}},
			Dodge: &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
		}}},
	}}}
}

// ruelle: tenant dev; GM dev/gm, co-GM dev/carol, player dev/david (Diego), observer dev/erin;
// the GM controls the ruffian.
func ruelle(t *testing.T) *table {
	tb := newTable(t, "dev")
	tb.do("dev/gm", create("Ruelle sombre", "loss", 0))
	tb.do("dev/gm", duellist("diego", "Diego", "david", 30)) // always first
	tb.do("dev/gm", duellist("ruffian", "Le malfrat", "", 6))
	tb.do("dev/gm", grant("dev/carol", engine.RoleCoGM))
	tb.do("dev/gm", grant("erin", engine.RoleObserver))
	return tb
}

// TestRoleMatrix: every command of the common engine, and a rule system's command, given
// by each role: GM, co-GM, a player on its own combatant, a player on another's, an observer,
// a stranger of the same tenant, and one of another tenant.
func TestRoleMatrix(t *testing.T) {
	const (
		ok    = engine.Code(0)
		perm  = engine.CodePermission
		cond  = engine.CodePrecondition
		gone  = engine.CodeNotFound
		other = "other" // the player's column on another's combatant
		// The rule system's refusal: "only the GM grants free raises".
		ruling = "a GM's ruling (free raises)"
	)
	actors := []struct{ column, actor string }{
		{"GM", "dev/gm"}, {"co-GM", "dev/carol"}, {"player", "dev/david"}, {other, "dev/david"},
		{"observer", "dev/erin"}, {"stranger", "dev/sam"}, {"other tenant", "acme/zoe"},
	}
	type row struct {
		name string
		// cmd gets the combatant the command is about (Diego, the player's own, or the
		// ruffian in the "other" column) and the actor.
		cmd     func(target, actor string) *encounterv1.Command
		started bool
		codes   []engine.Code // by column of actors
	}
	rows := []row{
		{"add own combatant, joining closed", func(_, a string) *encounterv1.Command { return duellist("new", "Nouveau", a, 5) }, false,
			[]engine.Code{ok, ok, cond, cond, cond, cond, gone}},
		{"add another's combatant", func(_, a string) *encounterv1.Command { return duellist("new", "Nouveau", "dev/florence", 5) }, false,
			[]engine.Code{ok, ok, perm, perm, perm, perm, gone}},
		{"remove combatant", func(id, _ string) *encounterv1.Command {
			return &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: id}}}
		}, false, []engine.Code{ok, ok, perm, perm, perm, perm, gone}},
		{"start", func(string, string) *encounterv1.Command { return start }, false,
			[]engine.Code{ok, ok, perm, perm, perm, perm, gone}},
		{"end", func(string, string) *encounterv1.Command { return endCmd() }, false,
			[]engine.Code{ok, perm, perm, perm, perm, perm, gone}},
		{"rewind", func(string, string) *encounterv1.Command { return rewindTo(2) }, false,
			[]engine.Code{ok, ok, perm, perm, perm, perm, gone}},
		{"hide", func(id, _ string) *encounterv1.Command {
			return &encounterv1.Command{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{CombatantId: id, Hidden: true}}}
		}, false, []engine.Code{ok, ok, perm, perm, perm, perm, gone}},
		{"grant player", func(id, _ string) *encounterv1.Command { return grant("dev/florence", engine.RolePlayer, id) }, false,
			[]engine.Code{ok, ok, perm, perm, perm, perm, gone}},
		{"grant observer", func(string, string) *encounterv1.Command { return grant("dev/florence", engine.RoleObserver) }, false,
			[]engine.Code{ok, ok, perm, perm, perm, perm, gone}},
		{"grant co-GM", func(string, string) *encounterv1.Command { return grant("dev/florence", engine.RoleCoGM) }, false,
			[]engine.Code{ok, perm, perm, perm, perm, perm, gone}},
		{"revoke observer", func(string, string) *encounterv1.Command { return revoke("dev/erin", engine.RoleObserver) }, false,
			[]engine.Code{ok, ok, perm, perm, perm, perm, gone}},
		{"revoke player", func(string, string) *encounterv1.Command { return revoke("dev/david", engine.RolePlayer) }, false,
			[]engine.Code{ok, ok, perm, perm, perm, perm, gone}},
		{"revoke co-GM", func(string, string) *encounterv1.Command { return revoke("dev/carol", engine.RoleCoGM) }, false,
			[]engine.Code{ok, perm, perm, perm, perm, perm, gone}},
		{"open joining", func(string, string) *encounterv1.Command { return joining(true) }, false,
			[]engine.Code{ok, ok, perm, perm, perm, perm, gone}},
		{"command a combatant (pass)", func(id, _ string) *encounterv1.Command {
			return lossAction(id, &lossv1.Action{Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}})
		}, true, []engine.Code{ok, ok, ok, perm, perm, perm, gone}},
		{ruling, func(id, _ string) *encounterv1.Command {
			return lossAction(id, &lossv1.Action{Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: &lossv1.GrantFreeRaises{Count: 1}}})
		}, true, []engine.Code{ok, ok, perm, perm, perm, perm, gone}},
	}
	base := ruelle(t)
	started := ruelle(t)
	started.do("dev/gm", start)
	cells := 0
	for _, r := range rows {
		for i, a := range actors {
			t.Run(r.name+"/"+a.column, func(t *testing.T) {
				tb := base
				if r.started {
					tb = started
				}
				target := "diego"
				if a.column == other {
					target = "ruffian"
				}
				st := proto.CloneOf(tb.st)
				cmd := r.cmd(target, a.actor)
				var past *encounterv1.EncounterState
				if cmd.GetRewind() != nil {
					var err error
					past, err = tb.reg.Fold(tb.log[:2])
					require.NoError(t, err)
				}
				evs, err := tb.reg.Decide(st, cmd, engine.Env{Actor: a.actor, Tenant: engine.TenantOf(a.actor), Dice: fixedDice(), Seed: seed(), RewindState: past})
				if r.codes[i] == ok {
					require.NoError(t, err)
					require.NotEmpty(t, evs)
					require.Equal(t, a.actor, evs[0].GetActor())
					return
				}
				re := requireCode(t, err, r.codes[i])
				require.Empty(t, evs, "a refusal records nothing")
				if r.codes[i] == perm && r.name != ruling {
					// The message names the caller and its role.
					require.Contains(t, re.Msg, a.actor)
				}
			})
			cells++
		}
	}
	t.Logf("role matrix: %d commands × %d callers = %d cells", len(rows), len(actors), cells)
}

func TestRefusalsNameTheRoles(t *testing.T) {
	tb := ruelle(t)
	tb.do("dev/gm", start)
	pass := func(id string) *encounterv1.Command {
		return lossAction(id, &lossv1.Action{Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}})
	}
	for _, c := range []struct {
		actor string
		cmd   *encounterv1.Command
		says  string
	}{
		{"dev/erin", pass("diego"), "dev/erin is an observer of Ruelle sombre; only the GM, a co-GM or Diego's player may command Diego"},
		{"dev/sam", pass("diego"), "dev/sam has no role in Ruelle sombre; only the GM, a co-GM or Diego's player may command Diego"},
		{"dev/david", pass("ruffian"), "dev/david does not control Le malfrat (controller: dev/gm; the GM is dev/gm)"},
		{"dev/david", rewindTo(2), "dev/david is a player of Ruelle sombre; only the GM (dev/gm) or a co-GM may rewind the encounter"},
		{"dev/carol", endCmd(), "dev/carol is a co-GM of Ruelle sombre; only the GM (dev/gm) may end it, which no rewind undoes"},
		{"dev/carol", grant("dev/florence", engine.RoleCoGM), "dev/carol is a co-GM of Ruelle sombre; only the GM (dev/gm) may grant co-GM"},
		{"dev/erin", grant("dev/florence", engine.RoleObserver), "dev/erin is an observer of Ruelle sombre; only the GM (dev/gm) or a co-GM may grant roles"},
	} {
		_, err := tb.try(c.actor, c.cmd)
		require.Equal(t, c.says, requireCode(t, err, engine.CodePermission).Msg)
	}
}

func TestGrantAndRevoke(t *testing.T) {
	tb := ruelle(t)
	st := func() *encounterv1.EncounterState { return tb.st }
	require.Equal(t, "dev", st().GetTenant())
	require.Equal(t, "dev", tb.log[0].GetEncounterCreated().GetTenant())
	for p, want := range map[string]engine.Role{
		"dev/gm": engine.RoleGM, "dev/carol": engine.RoleCoGM, "dev/david": engine.RolePlayer,
		"dev/erin": engine.RoleObserver, "dev/sam": engine.RoleNone, "": engine.RoleNone, "acme/gm": engine.RoleNone,
	} {
		require.Equal(t, want, engine.RoleOf(st(), p), p)
		require.Equal(t, want != engine.RoleNone, engine.MayRead(st(), p), p)
		require.Equal(t, want == engine.RoleGM || want == engine.RoleCoGM, engine.IsGameMaster(st(), p), p)
	}
	require.Equal(t, "dev/david", engine.FindCombatant(st(), "diego").GetController(), "a bare subject is one of the tenant")
	require.Equal(t, "dev/gm", engine.FindCombatant(st(), "ruffian").GetController())
	require.Equal(t, []string{"diego"}, engine.Controls(st(), "dev/david"))
	require.Empty(t, engine.Controls(st(), "dev/erin"))

	// The co-GM grants a player the ruffian; the grant is recorded and folded.
	evs := tb.do("dev/carol", grant("florence", engine.RolePlayer, "ruffian", "ruffian"))
	require.True(t, proto.Equal(&encounterv1.RoleGranted{Principal: "dev/florence", Role: engine.RolePlayer, CombatantIds: []string{"ruffian"}}, evs[0].GetRoleGranted()))
	require.Equal(t, engine.RolePlayer, engine.RoleOf(st(), "dev/florence"))
	require.Equal(t, []string{"ruffian"}, engine.Controls(st(), "dev/florence"))
	require.Equal(t, engine.RoleGM, engine.RoleOf(st(), "dev/gm"), "the GM controls nothing and stays the GM")

	for _, c := range []struct {
		actor string
		cmd   *encounterv1.Command
		code  engine.Code
		says  string
	}{
		{"dev/gm", grant("dev/florence", engine.RolePlayer), engine.CodePrecondition, "dev/florence is a player of Ruelle sombre already"},
		{"dev/gm", grant("dev/florence", engine.RolePlayer, "ruffian"), engine.CodePrecondition, "already"},
		{"dev/gm", grant("dev/florence", engine.RolePlayer, "nobody"), engine.CodeNotFound, "nobody"},
		{"dev/gm", grant("dev/florence", engine.RoleObserver), engine.CodePrecondition, "dev/florence controls Le malfrat: revoke dev/florence's player role first"},
		{"dev/gm", grant("dev/erin", engine.RoleObserver, "diego"), engine.CodeInvalid, "only a player is granted combatants"},
		{"dev/gm", grant("dev/sam", engine.RoleGM), engine.CodeInvalid, "the GM of Ruelle sombre is its creator (dev/gm)"},
		{"dev/gm", grant("dev/sam", engine.RoleNone), engine.CodeInvalid, "player, observer or co-GM"},
		{"dev/gm", grant("dev/gm", engine.RoleCoGM), engine.CodeInvalid, "dev/gm is the GM of Ruelle sombre"},
		{"dev/gm", grant("acme/zoe", engine.RolePlayer), engine.CodeInvalid, "accepts principals dev/SUBJECT only"},
		{"dev/gm", grant("dev/", engine.RolePlayer), engine.CodeInvalid, "dev/SUBJECT"},
		{"dev/gm", grant("dev/a b", engine.RolePlayer), engine.CodeInvalid, "without spaces"},
		{"dev/gm", grant("", engine.RolePlayer), engine.CodeInvalid, "tenant/subject"},
		{"dev/carol", grant("dev/carol", engine.RoleObserver), engine.CodePermission, "only the GM (dev/gm) may change the role of a co-GM"},
		{"dev/gm", revoke("dev/erin", engine.RolePlayer), engine.CodePrecondition, "dev/erin is not a player of Ruelle sombre: dev/erin is an observer of Ruelle sombre"},
		{"dev/gm", revoke("dev/sam", engine.RoleObserver), engine.CodePrecondition, "dev/sam has no role"},
		{"dev/gm", revoke("dev/gm", engine.RoleGM), engine.CodeInvalid, "creator, for good"},
		{"dev/gm", revoke("acme/zoe", engine.RoleObserver), engine.CodeInvalid, "dev/SUBJECT"},
	} {
		_, err := tb.try(c.actor, c.cmd)
		require.Contains(t, requireCode(t, err, c.code).Msg, c.says, "%s: %v", c.actor, c.cmd)
	}

	// A grant replaces the earlier role: the observer becomes a player of Diego, whose
	// controller changes.
	tb.do("dev/gm", grant("dev/erin", engine.RolePlayer, "diego"))
	require.Equal(t, "dev/erin", engine.FindCombatant(st(), "diego").GetController())
	require.Equal(t, engine.RolePlayer, engine.RoleOf(st(), "dev/erin"))
	require.Equal(t, engine.RoleNone, engine.RoleOf(st(), "dev/david"), "david controlled Diego only, and was never granted")
	require.Len(t, st().GetRoles(), 3, "one grant per principal: carol, florence, erin")

	// Revoking a player gives its combatants back to the GM, and any pending reaction with them.
	tb.do("dev/gm", start)
	for len(st().GetPending()) == 0 || st().GetPending()[0].GetCombatantId() != "ruffian" {
		tb.do("dev/gm", nextDuel(st()))
	}
	require.Equal(t, "dev/florence", st().GetPending()[0].GetController())
	evs = tb.do("dev/carol", revoke("dev/florence", engine.RolePlayer))
	require.Equal(t, []string{"ruffian"}, evs[0].GetRoleRevoked().GetCombatantIds())
	require.Equal(t, "dev/gm", engine.FindCombatant(st(), "ruffian").GetController())
	require.Equal(t, "dev/gm", st().GetPending()[0].GetController())
	require.Equal(t, engine.RoleNone, engine.RoleOf(st(), "dev/florence"))
	tb.do("dev/gm", revoke("dev/carol", engine.RoleCoGM))
	require.False(t, engine.IsGameMaster(st(), "dev/carol"))
	_, err := tb.try("dev/carol", rewindTo(2))
	requireCode(t, err, engine.CodePermission)

	// A fresh fold of the log, grants and revokes included, gives the same state.
	folded, err := tb.reg.Fold(tb.log)
	require.NoError(t, err)
	require.Equal(t, engine.Hash(st()), engine.Hash(folded))
	tb.do("dev/gm", endCmd())
	_, err = tb.reg.Audit(tb.log)
	require.NoError(t, err)
}

func TestTenants(t *testing.T) {
	// The creator must be of the tenant it creates in; the creation records the tenant.
	tb := newTable(t, "dev")
	_, err := tb.reg.Decide(tb.st, create("x", "loss", 0), engine.Env{Actor: "acme/zoe", Tenant: "dev", Seed: seed()})
	require.Contains(t, requireCode(t, err, engine.CodeInvalid).Msg, "the creator acme/zoe is not of tenant dev")
	_, err = tb.reg.Decide(tb.st, create("x", "loss", 0), engine.Env{Actor: "dev/gm", Seed: seed()})
	require.NoError(t, err, "a creation takes the tenant of the state it is decided against")

	tb = ruelle(t)
	// Another tenant's encounter does not exist for its callers.
	_, err = tb.reg.Decide(tb.st, start, engine.Env{Actor: "acme/gm", Tenant: "acme", Seed: seed()})
	require.Contains(t, requireCode(t, err, engine.CodeNotFound).Msg, "does not exist")
	// A controller of another tenant is refused, saying which tenant is accepted.
	_, err = tb.try("dev/gm", duellist("spy", "L'espion", "acme/zoe", 5))
	require.Contains(t, requireCode(t, err, engine.CodeInvalid).Msg, `controller "acme/zoe" is not of this encounter's tenant: Ruelle sombre accepts principals dev/SUBJECT only`)
}

func TestJoining(t *testing.T) {
	tb := ruelle(t)
	_, err := tb.try("dev/sam", duellist("sam", "Sam", "", 5))
	require.Contains(t, requireCode(t, err, engine.CodePrecondition).Msg, "the GM (dev/gm) has not opened Ruelle sombre to joining")
	_, err = tb.try("dev/gm", joining(false))
	require.Contains(t, requireCode(t, err, engine.CodePrecondition).Msg, "closed to joining already")
	tb.do("dev/carol", joining(true))
	require.True(t, tb.st.GetJoiningOpen())
	_, err = tb.try("dev/gm", joining(true))
	requireCode(t, err, engine.CodePrecondition)

	// Open: a stranger of the tenant joins with a combatant of its own, and is a player.
	_, err = tb.try("dev/sam", duellist("sam", "Sam", "dev/david", 5))
	requireCode(t, err, engine.CodePermission)
	tb.do("dev/sam", duellist("sam", "Sam", "", 5))
	require.Equal(t, engine.RolePlayer, engine.RoleOf(tb.st, "dev/sam"))
	tb.do("dev/erin", duellist("erin", "Erin", "erin", 5))
	require.Equal(t, engine.RolePlayer, engine.RoleOf(tb.st, "dev/erin"), "an observer with a combatant is a player")

	tb.do("dev/gm", joining(false))
	_, err = tb.try("dev/david", duellist("bis", "Bis", "", 5))
	requireCode(t, err, engine.CodePrecondition)
}

// TestRewindKeepsTheTable: a rewind undoes the fight, not the roles granted or revoked since.
func TestRewindKeepsTheTable(t *testing.T) {
	tb := ruelle(t)
	mark := tb.st.GetSequence()
	tb.do("dev/gm", grant("dev/florence", engine.RoleObserver))
	tb.do("dev/gm", revoke("dev/david", engine.RolePlayer)) // Diego back to the GM
	tb.do("dev/gm", duellist("bis", "Bis", "dev/sam", 5))
	tb.do("dev/gm", revoke("dev/sam", engine.RolePlayer))
	tb.do("dev/gm", &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "ruffian"}}})
	tb.do("dev/gm", joining(true))
	now := proto.CloneOf(tb.st)

	tb.do("dev/gm", rewindTo(mark))
	st := tb.st
	require.Len(t, st.GetCombatants(), 2, "the fight is as it was: the ruffian back, Bis gone")
	require.True(t, proto.Equal(&encounterv1.EncounterState{Roles: now.GetRoles()}, &encounterv1.EncounterState{Roles: st.GetRoles()}))
	require.Equal(t, engine.RoleObserver, engine.RoleOf(st, "dev/florence"))
	require.Equal(t, engine.RoleNone, engine.RoleOf(st, "dev/david"), "a revoked player stays revoked")
	require.Equal(t, "dev/gm", engine.FindCombatant(st, "diego").GetController())
	require.Equal(t, "dev/gm", engine.FindCombatant(st, "ruffian").GetController())
	require.True(t, st.GetJoiningOpen())
	require.Equal(t, "dev", st.GetTenant())
}

func fixedDice() dice.Roller {
	faces := make([]int32, 200)
	for i := range faces {
		faces[i] = 5
	}
	return dice.NewFixed(faces...)
}

// nextDuel: a pending attack is dodged, otherwise whoever has the most PA attacks the other,
// or passes when too few are left.
func nextDuel(st *encounterv1.EncounterState) *encounterv1.Command {
	if p := st.GetPending(); len(p) > 0 {
		return lossAction(p[0].GetCombatantId(), &lossv1.Action{Kind: &lossv1.Action_React{React: &lossv1.React{Reaction: lossv1.Reaction_REACTION_DODGE}}})
	}
	var who string
	var top int32
	for _, c := range st.GetCombatants() {
		cs := st.GetLoss().GetCombatants()[c.GetId()]
		if cs.GetActionPoints() > top && !cs.GetPassed() {
			who, top = c.GetId(), cs.GetActionPoints()
		}
	}
	if top < 4 {
		return lossAction(who, &lossv1.Action{Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}})
	}
	target := "ruffian"
	if who == "ruffian" {
		target = "diego"
	}
	return lossAction(who, &lossv1.Action{Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: target}}})
}

// A combatant removed since the point a rewind goes back to comes back with its controller of
// then if that one still sits at the table as co-GM or player, else with the GM (keepTable).
func TestRewindGivesARemovedCombatantBackToWhoStillSits(t *testing.T) {
	tb := ruelle(t)
	tb.do("dev/carol", duellist("bis", "Bis", "dev/carol", 5)) // the co-GM's own
	tb.do("dev/gm", duellist("ter", "Ter", "dev/sam", 5))      // a player's
	mark := tb.st.GetSequence()
	tb.do("dev/gm", revoke("dev/sam", engine.RolePlayer)) // Ter to the GM, sam no longer sits
	for _, id := range []string{"bis", "ter"} {
		tb.do("dev/gm", &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: id}}})
	}
	tb.do("dev/gm", rewindTo(mark))
	require.Equal(t, engine.RoleCoGM, engine.RoleOf(tb.st, "dev/carol"))
	require.Equal(t, "dev/carol", engine.FindCombatant(tb.st, "bis").GetController(), "the co-GM still sits: Bis is its again")
	require.Equal(t, "dev/gm", engine.FindCombatant(tb.st, "ter").GetController(), "sam's role was revoked: Ter goes to the GM")
}
