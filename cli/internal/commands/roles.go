package commands

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Roles per encounter: `fray grant ENC PRINCIPAL player|observer|co-gm`, `fray revoke ENC
// PRINCIPAL ROLE`, `fray joining ENC open|closed`. `fray grant` also grants free raises in
// Les Chants de Loss (`fray grant ENC COMBATANT N`): the third argument, a role or a number,
// tells which.

const grantRoleSynopsis = "ENCOUNTER PRINCIPAL player|observer|co-gm [--combatants a,b] [flags]"

const rolesHelp = "PRINCIPAL is tenant/subject, or a bare subject of the encounter's tenant (david for\ndev/david). A player commands the combatants it controls; an observer only reads; a co-GM does\neverything the GM does in play except grant or revoke co-GM and end the encounter. The GM and\nco-GMs grant and revoke player and observer; only the GM grants and revokes co-GM."

// roleArg parses a role as the command line gives it.
func roleArg(s string) (encounterv1.Role, bool) {
	switch strings.ToLower(strings.ReplaceAll(s, "_", "-")) {
	case "player":
		return encounterv1.Role_ROLE_PLAYER, true
	case "observer":
		return encounterv1.Role_ROLE_OBSERVER, true
	case "co-gm", "cogm":
		return encounterv1.Role_ROLE_CO_GM, true
	case "gm":
		return encounterv1.Role_ROLE_GM, true
	}
	return encounterv1.Role_ROLE_UNSPECIFIED, false
}

// grantAnyCmd is `fray grant`: a role when the third argument is one, else free raises
// (grantCmd). Its flags are both forms'.
func grantAnyCmd() *cobra.Command {
	role, raises := grantRoleCmd(), client.FlatAction("grant")
	if raises == nil {
		return role
	}
	command := &cobra.Command{
		Use:  role.Use,
		Long: role.Long + "\n\nusage: fray grant " + client.Synopsis(raises) + "\n\n" + raises.Long,
		Args: client.Positional(3, 3),
	}
	command.Flags().AddFlagSet(role.Flags())
	command.Flags().AddFlagSet(raises.Flags()) // --reason; the others are role's
	command.RunE = func(cmd *cobra.Command, pos []string) error {
		if _, ok := roleArg(pos[2]); ok {
			return role.RunE(cmd, pos)
		}
		// The flags both forms have were parsed into role's: the free raises take their values.
		var err error
		raises.Flags().VisitAll(func(f *pflag.Flag) {
			if g := command.Flags().Lookup(f.Name); g != f && g.Value.String() != g.DefValue {
				err = errors.Join(err, f.Value.Set(g.Value.String()))
			}
		})
		if err != nil {
			return err
		}
		return raises.RunE(cmd, pos)
	}
	return command
}

func grantRoleCmd() *cobra.Command {
	command, fs := client.NewCommand("grant", grantRoleSynopsis,
		"Grants PRINCIPAL a role in the encounter (GM and co-GMs), replacing any role it had; with\n--combatants, a player controls those combatants from now on.\n"+rolesHelp+"\n\n(fray grant ENCOUNTER COMBATANT N grants free raises in Les Chants de Loss.)", 3, 3)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	combatants := fs.String("combatants", "", "for a player: the combatants it controls, by id, comma-separated")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		role, ok := roleArg(pos[2])
		if !ok || role == encounterv1.Role_ROLE_GM {
			return client.ShortUsagef("%q: grant player, observer or co-gm (the GM is the encounter's creator)", pos[2])
		}
		g := &encounterv1.GrantRole{Principal: pos[1], Role: role}
		for _, id := range strings.Split(*combatants, ",") {
			if id = strings.TrimSpace(id); id != "" {
				g.CombatantIds = append(g.CombatantIds, id)
			}
		}
		if len(g.CombatantIds) > 0 && role != encounterv1.Role_ROLE_PLAYER {
			return client.ShortUsagef("--combatants: only a player is granted combatants")
		}
		return client.Submit(ctx, c, pos[0], &encounterv1.Command{Kind: &encounterv1.Command_GrantRole{GrantRole: g}}, stdout)
	})
	return command
}

func revokeCmd() *cobra.Command {
	command, fs := client.NewCommand("revoke", "ENCOUNTER PRINCIPAL player|observer|co-gm [flags]",
		"Takes PRINCIPAL's role away (GM and co-GMs; only the GM revokes co-GM): it no longer\nreads or commands anything in the encounter, and the combatants it controlled go back to the\nGM.\n"+rolesHelp, 3, 3)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		role, ok := roleArg(pos[2])
		if !ok || role == encounterv1.Role_ROLE_GM {
			return client.ShortUsagef("%q: revoke player, observer or co-gm (the GM is the encounter's creator, for good)", pos[2])
		}
		return client.Submit(ctx, c, pos[0], &encounterv1.Command{Kind: &encounterv1.Command_RevokeRole{RevokeRole: &encounterv1.RevokeRole{
			Principal: pos[1], Role: role,
		}}}, stdout)
	})
	return command
}

func joiningCmd() *cobra.Command {
	command, fs := client.NewCommand("joining", "ENCOUNTER open|closed [flags]",
		"Opens the encounter to joining (GM and co-GMs): anyone of its tenant may then add the\ncombatants it controls itself (fray add ENCOUNTER SHEET --as NAME), and so becomes a player.\nClosed when the encounter is created, and again with closed.", 2, 2)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		var open bool
		switch strings.ToLower(pos[1]) {
		case "open":
			open = true
		case "closed", "close":
		default:
			return client.ShortUsagef("%q: say open or closed", pos[1])
		}
		return client.Submit(ctx, c, pos[0], &encounterv1.Command{Kind: &encounterv1.Command_SetJoining{SetJoining: &encounterv1.SetJoining{Open: open}}}, stdout)
	})
	return command
}

func hideCmd() *cobra.Command { return setHiddenCmd("hide", true) }

func showCmd() *cobra.Command { return setHiddenCmd("show", false) }

func setHiddenCmd(name string, hidden bool) *cobra.Command {
	about := "Hides a combatant (GM and co-GMs): everyone but the GMs and its controller sees its name,\nside and appearance (unhurt, wounded, badly wounded, out of the fight), never its sheet or\nits numbers, in every read and every event. `fray show` shows it again."
	if !hidden {
		about = "Shows a hidden combatant again (GM and co-GMs): from now on its sheet and numbers are\nseen by everyone who reads the encounter; what happened while it was hidden stays hidden."
	}
	command, fs := client.NewCommand(name, "ENCOUNTER COMBATANT [flags]", about, 2, 2)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		return client.Submit(ctx, c, pos[0], &encounterv1.Command{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{
			CombatantId: pos[1], Hidden: hidden,
		}}}, stdout)
	})
	return command
}
