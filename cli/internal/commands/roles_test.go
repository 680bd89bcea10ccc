package commands_test

import (
	"path/filepath"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/cli/internal/commands"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// submittedCommand runs the CLI against a fake and returns the one command it submitted.
func submittedCommand(t *testing.T, args ...string) *encounterv1.Command {
	t.Helper()
	f := &clienttest.Fake{}
	addr := clienttest.Serve(t, f)
	code, _, errOut := clienttest.Run(t, append([]string{args[0], "--addr", addr}, args[1:]...)...)
	require.Equal(t, 0, code, "%v: %s", args, errOut)
	calls := f.Requests()
	require.Len(t, calls, 1, args)
	require.Equal(t, "Submit", calls[0].Method)
	req := calls[0].Req.(*encounterv1.SubmitRequest)
	require.Equal(t, "enc-1", req.GetEncounterId())
	return req.GetCommand()
}

func TestRoleSubcommandsSendTheirCommands(t *testing.T) {
	clienttest.ClearEnv(t)
	grant := func(p string, r encounterv1.Role, ids ...string) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_GrantRole{GrantRole: &encounterv1.GrantRole{Principal: p, Role: r, CombatantIds: ids}}}
	}
	revoke := func(p string, r encounterv1.Role) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_RevokeRole{RevokeRole: &encounterv1.RevokeRole{Principal: p, Role: r}}}
	}
	joining := func(open bool) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_SetJoining{SetJoining: &encounterv1.SetJoining{Open: open}}}
	}
	for _, tc := range []struct {
		args []string
		want *encounterv1.Command
	}{
		{[]string{"grant", "enc-1", "dev/david", "player", "--combatants", "diego, canahan"},
			grant("dev/david", encounterv1.Role_ROLE_PLAYER, "diego", "canahan")},
		{[]string{"grant", "--combatants", "diego", "enc-1", "david", "Player", "--as", "gm"},
			grant("david", encounterv1.Role_ROLE_PLAYER, "diego")},
		{[]string{"grant", "enc-1", "erin", "observer"}, grant("erin", encounterv1.Role_ROLE_OBSERVER)},
		{[]string{"grant", "enc-1", "carol", "co-gm"}, grant("carol", encounterv1.Role_ROLE_CO_GM)},
		{[]string{"grant", "enc-1", "carol", "co_GM"}, grant("carol", encounterv1.Role_ROLE_CO_GM)},
		// The free raises of Les Chants de Loss keep their form: the third argument is a number.
		{[]string{"grant", "enc-1", "diego", "2", "--reason", "player"},
			clienttest.LossCommand(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: &lossv1.GrantFreeRaises{Count: 2, Reason: "player"}}})},
		{[]string{"grant", "enc-1", "diego", "-1"},
			clienttest.LossCommand(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: &lossv1.GrantFreeRaises{Count: -1}}})},
		{[]string{"revoke", "enc-1", "dev/david", "player"}, revoke("dev/david", encounterv1.Role_ROLE_PLAYER)},
		{[]string{"revoke", "enc-1", "carol", "co-gm"}, revoke("carol", encounterv1.Role_ROLE_CO_GM)},
		{[]string{"joining", "enc-1", "open"}, joining(true)},
		{[]string{"joining", "enc-1", "closed"}, joining(false)},
		{[]string{"hide", "enc-1", "ogre"}, &encounterv1.Command{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{CombatantId: "ogre", Hidden: true}}}},
		{[]string{"show", "enc-1", "ogre", "--as", "gm"}, &encounterv1.Command{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{CombatantId: "ogre"}}}},
	} {
		got := submittedCommand(t, tc.args...)
		require.True(t, proto.Equal(tc.want, got), "%v:\nwant %v\ngot  %v", tc.args, tc.want, got)
	}
}

func TestRoleSubcommandUsageErrors(t *testing.T) {
	clienttest.ClearEnv(t)
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"grant", "enc-1", "david", "gm"}, `"gm": grant player, observer or co-gm (the GM is the encounter's creator)`},
		{[]string{"grant", "enc-1", "erin", "observer", "--combatants", "diego"}, "--combatants: only a player is granted combatants"},
		{[]string{"grant", "enc-1", "david", "captain"}, `"captain": give a number of free raises`},
		{[]string{"revoke", "enc-1", "david"}, "missing arguments"},
		{[]string{"revoke", "enc-1", "david", "gm"}, `"gm": revoke player, observer or co-gm`},
		{[]string{"joining", "enc-1", "maybe"}, `"maybe": say open or closed`},
	} {
		code, _, errOut := clienttest.Run(t, tc.args...)
		require.Equal(t, 2, code, "%v: %s", tc.args, errOut)
		require.Contains(t, errOut, tc.says, tc.args)
	}
	// fray help grant shows both forms.
	code, out, _ := clienttest.Run(t, "help", "grant")
	require.Equal(t, 0, code)
	require.Contains(t, out, "usage: fray grant "+commands.GrantRoleSynopsis)
	require.Contains(t, out, "usage: fray grant ENCOUNTER COMBATANT N")
}

// The roles played through the CLI against the rules engine: the GM opens joining, a player
// adds its own combatant, the GM grants a co-GM and an observer, the co-GM revokes the player.
func TestRolesThroughTheCLI(t *testing.T) {
	clienttest.ClearEnv(t)
	srv := &clienttest.RuleServer{Reg: engine.NewRegistry(loss.New(loss.Latest)), Seed: dice.NewSeed(), Dice: dice.NewFixed()}
	lis := clienttest.ServeRules(t, srv)
	sheet := func(name string) string { return filepath.Join(clienttest.Sheets, name) }
	step := func(args ...string) string {
		t.Helper()
		code, out, errOut := clienttest.Run(t, append(args, "--addr", lis)...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}
	refused := func(args ...string) string {
		t.Helper()
		code, out, errOut := clienttest.Run(t, append(args, "--addr", lis)...)
		require.Equal(t, 1, code, "%v: %s", args, out)
		return errOut
	}

	require.Equal(t, "enc-1\n", step("create", "--name", "Ruelle"))
	step("add", "enc-1", sheet("ruffian.yaml"))
	require.Contains(t, refused("add", "enc-1", sheet("diego.yaml"), "--as", "david"),
		"FailedPrecondition: the GM (dev/gm) has not opened Ruelle to joining")
	require.Equal(t, "#3 The encounter is open to joining: anyone of its tenant may add the combatants it will control\n",
		step("joining", "enc-1", "open"))
	require.Contains(t, step("add", "enc-1", sheet("diego.yaml"), "--as", "david"), "added Diego (diego)")
	require.Equal(t, "#5 dev/carol is a co-GM from now on\n", step("grant", "enc-1", "dev/carol", "co-gm"))
	require.Equal(t, "#6 dev/erin is an observer from now on\n", step("grant", "enc-1", "dev/erin", "observer", "--as", "carol"))
	require.Contains(t, refused("grant", "enc-1", "dev/erin", "co-gm", "--as", "carol"),
		"fray grant: PermissionDenied: dev/carol is a co-GM of Ruelle; only the GM (dev/gm) may grant co-GM")
	require.Equal(t, "#7 dev/david is no longer a player; Diego goes back to the GM\n",
		step("revoke", "enc-1", "dev/david", "player", "--as", "carol"))
	require.Equal(t, "#8 dev/florence is a player from now on, controlling Diego\n",
		step("grant", "enc-1", "dev/florence", "player", "--combatants", "diego"))
	require.Equal(t, "#9 The encounter is closed to joining: only the GM and co-GMs add combatants\n",
		step("joining", "enc-1", "closed", "--as", "carol"))
}
