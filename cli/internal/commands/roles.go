package commands

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
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

// roleText names a role in narration.
func roleText(r encounterv1.Role) string {
	switch r {
	case encounterv1.Role_ROLE_GM:
		return "the GM"
	case encounterv1.Role_ROLE_CO_GM:
		return "a co-GM"
	case encounterv1.Role_ROLE_PLAYER:
		return "a player"
	case encounterv1.Role_ROLE_OBSERVER:
		return "an observer"
	}
	return "no role"
}

// runGrantAny runs `fray grant`: a role when the third argument is one, else free raises.
func runGrantAny(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	probe := flag.NewFlagSet("grant", flag.ContinueOnError)
	probe.SetOutput(io.Discard)
	c := addConnFlags(probe)
	c.addCommandFlags(probe, true)
	probe.String("reason", "", "")
	probe.String("combatants", "", "")
	pos, err := ParseArgs(probe, args, 0, -1)
	if errors.Is(err, flag.ErrHelp) {
		// Both forms: the role's usage, then the free raises'.
		if err := runGrantRole(ctx, []string{"-h"}, stdout, stderr); !errors.Is(err, flag.ErrHelp) {
			return err
		}
		fmt.Fprintln(stderr)
		return runGrant(ctx, args, stdout, stderr)
	}
	if err == nil && len(pos) >= 3 {
		if _, ok := roleArg(pos[2]); ok {
			return runGrantRole(ctx, args, stdout, stderr)
		}
	}
	return runGrant(ctx, args, stdout, stderr)
}

func runGrantRole(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("grant", grantRoleSynopsis,
		"Grants PRINCIPAL a role in the encounter (GM and co-GMs), replacing any role it had; with\n--combatants, a player controls those combatants from now on.\n"+rolesHelp+"\n\n(fray grant ENCOUNTER COMBATANT N grants free raises in Les Chants de Loss.)", stderr)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	combatants := fs.String("combatants", "", "for a player: the combatants it controls, by id, comma-separated")
	pos, err := ParseArgs(fs, args, 3, 3)
	if err != nil {
		return err
	}
	role, ok := roleArg(pos[2])
	if !ok || role == encounterv1.Role_ROLE_GM {
		return usageFor(fs)("%q: grant player, observer or co-gm (the GM is the encounter's creator)", pos[2])
	}
	g := &encounterv1.GrantRole{Principal: pos[1], Role: role}
	for _, id := range strings.Split(*combatants, ",") {
		if id = strings.TrimSpace(id); id != "" {
			g.CombatantIds = append(g.CombatantIds, id)
		}
	}
	if len(g.CombatantIds) > 0 && role != encounterv1.Role_ROLE_PLAYER {
		return usageFor(fs)("--combatants: only a player is granted combatants")
	}
	return submit(ctx, c, pos[0], &encounterv1.Command{Kind: &encounterv1.Command_GrantRole{GrantRole: g}}, stdout)
}

func runRevoke(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("revoke", "ENCOUNTER PRINCIPAL player|observer|co-gm [flags]",
		"Takes PRINCIPAL's role away (GM and co-GMs; only the GM revokes co-GM): it no longer\nreads or commands anything in the encounter, and the combatants it controlled go back to the\nGM.\n"+rolesHelp, stderr)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	pos, err := ParseArgs(fs, args, 3, 3)
	if err != nil {
		return err
	}
	role, ok := roleArg(pos[2])
	if !ok || role == encounterv1.Role_ROLE_GM {
		return usageFor(fs)("%q: revoke player, observer or co-gm (the GM is the encounter's creator, for good)", pos[2])
	}
	return submit(ctx, c, pos[0], &encounterv1.Command{Kind: &encounterv1.Command_RevokeRole{RevokeRole: &encounterv1.RevokeRole{
		Principal: pos[1], Role: role,
	}}}, stdout)
}

func runJoining(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("joining", "ENCOUNTER open|closed [flags]",
		"Opens the encounter to joining (GM and co-GMs): anyone of its tenant may then add the\ncombatants it controls itself (fray add ENCOUNTER SHEET --as NAME), and so becomes a player.\nClosed when the encounter is created, and again with closed.", stderr)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	pos, err := ParseArgs(fs, args, 2, 2)
	if err != nil {
		return err
	}
	var open bool
	switch strings.ToLower(pos[1]) {
	case "open":
		open = true
	case "closed", "close":
	default:
		return usageFor(fs)("%q: say open or closed", pos[1])
	}
	return submit(ctx, c, pos[0], &encounterv1.Command{Kind: &encounterv1.Command_SetJoining{SetJoining: &encounterv1.SetJoining{Open: open}}}, stdout)
}

// roleEventText narrates the role events: "dev/david is a player from now on, controlling
// Diego", "dev/florence is no longer a player; Le malfrat goes back to the GM", "The encounter
// is open to joining: …".
func (n *Names) roleEventText(ev *encounterv1.Event) string {
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_RoleGranted:
		g := p.RoleGranted
		s := fmt.Sprintf("%s is %s from now on", orUnknown(g.GetPrincipal()), roleText(g.GetRole()))
		if ids := g.GetCombatantIds(); len(ids) > 0 {
			s += ", controlling " + n.list(ids)
		}
		return s
	case *encounterv1.Event_RoleRevoked:
		r := p.RoleRevoked
		s := fmt.Sprintf("%s is no longer %s", orUnknown(r.GetPrincipal()), roleText(r.GetRole()))
		if ids := r.GetCombatantIds(); len(ids) == 1 {
			s += "; " + n.of(ids[0]) + " goes back to the GM"
		} else if len(ids) > 1 {
			s += "; " + n.list(ids) + " go back to the GM"
		}
		return s
	case *encounterv1.Event_JoiningSet:
		if p.JoiningSet.GetOpen() {
			return "The encounter is open to joining: anyone of its tenant may add the combatants it will control"
		}
		return "The encounter is closed to joining: only the GM and co-GMs add combatants"
	}
	return ""
}

// list names the combatants ids: "Diego, Le malfrat".
func (n *Names) list(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = n.of(id)
	}
	return strings.Join(out, ", ")
}

func runHide(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runSetHidden(ctx, "hide", true, args, stdout, stderr)
}

func runShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runSetHidden(ctx, "show", false, args, stdout, stderr)
}

func runSetHidden(ctx context.Context, name string, hidden bool, args []string, stdout, stderr io.Writer) error {
	about := "Hides a combatant (GM and co-GMs): everyone but the GMs and its controller sees its name,\nside and appearance (unhurt, wounded, badly wounded, out of the fight), never its sheet or\nits numbers, in every read and every event. `fray show` shows it again."
	if !hidden {
		about = "Shows a hidden combatant again (GM and co-GMs): from now on its sheet and numbers are\nseen by everyone who reads the encounter; what happened while it was hidden stays hidden."
	}
	fs := newFlagSet(name, "ENCOUNTER COMBATANT [flags]", about, stderr)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	pos, err := ParseArgs(fs, args, 2, 2)
	if err != nil {
		return err
	}
	return submit(ctx, c, pos[0], &encounterv1.Command{Kind: &encounterv1.Command_SetHidden{SetHidden: &encounterv1.SetHidden{
		CombatantId: pos[1], Hidden: hidden,
	}}}, stdout)
}
