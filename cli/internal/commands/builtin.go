package commands

import (
	"io"
	"slices"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/logtools"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/spf13/cobra"
)

// builtinCommands are the client subcommands, in the order the usage lists them: the groups
// of the rule systems' actions come after start (systemCommands). `fray dev` and `fray load`
// register themselves from elsewhere (see cmd/fray/main.go).
func builtinCommands() []*cobra.Command {
	first := []*cobra.Command{
		summary(createCmd(), "create an encounter and print its id"),
		summary(addCmd(), "add combatants from sheet files (YAML or JSON)"),
		summary(startCmd(), "start the fight"),
	}
	rest := []*cobra.Command{
		summary(grantAnyCmd(), "grant a role: player (--combatants), observer or co-gm (GM); or free raises to a combatant (GM, LOS-004)"),
		summary(submitCmd(), "submit any command given in protojson"),
		summary(endCmd(), "end an encounter and print its revealed dice seed"),
		summary(stateCmd(), "show an encounter's state"),
		summary(watchCmd(), "follow an encounter's events live"),
		summary(logCmd(), "print every event of an encounter so far"),
		summary(listCmd(), "list the encounters"),
		summary(rulesetsCmd(), "list the rule systems"),
		summary(rollCmd(), "roll dice notation (3d10+4, 1d10!)"),
		summary(logtools.ReplayCmd(stateOnly), "print an encounter's log in plain language, and its state as of an event (reads NATS)"),
		summary(logtools.AuditCmd(), "verify an ended encounter's log, or tail every event (reads NATS)"),
		summary(logtools.ExportCmd(), "write an encounter's log as JSON lines (reads NATS)"),
		summary(logtools.ImportCmd(), "load an exported log into NATS"),
		summary(rewindCmd(), "return an encounter to an earlier event (GM)"),
		summary(revokeCmd(), "revoke a role: player, observer or co-gm (GM)"),
		summary(joiningCmd(), "open or close an encounter to players adding their own combatants (GM)"),
		summary(hideCmd(), "hide a combatant's sheet and numbers from all but the GMs and its controller (GM)"),
		summary(showCmd(), "show a hidden combatant again (GM)"),
		summary(tokenCmd(), "mint a token from fray dev's signing key (--as NAME), or print its public key set (--jwks)"),
		summary(inviteCmd(), "invite a player of some combatants or an observer: a link to the page in the browser (GM)"),
	}
	taken := map[string]bool{}
	for _, c := range slices.Concat(first, rest) {
		taken[c.Name()] = true
	}
	return slices.Concat(first, systemCommands(taken), rest)
}

// systemCommands are the command groups of the registered rule systems (`fray ka …`), then
// the members of a flat system run without its group's name (`fray attack`), hidden, but for
// a name taken by a built-in command (`fray grant`, which grants roles too).
func systemCommands(taken map[string]bool) []*cobra.Command {
	var groups, flat []*cobra.Command
	for _, s := range client.Systems() {
		groups = append(groups, client.SystemGroup(s))
		if !s.Flat {
			continue
		}
		for _, a := range s.Actions {
			if taken[a.Name] {
				continue
			}
			c := client.ActionCommand(s.ID, a)
			c.Hidden = true
			flat = append(flat, c)
		}
	}
	return append(groups, flat...)
}

// summary sets the one line the usage lists cmd with.
func summary(cmd *cobra.Command, short string) *cobra.Command {
	cmd.Short = short
	return cmd
}

// stateOnly prints `fray state` of resp without legal actions: the state replay ends with.
func stateOnly(w io.Writer, resp *encounterv1.GetEncounterResponse) { writeState(w, resp, "") }

// WriteJSONL writes one protojson Event per line, as `fray export` does (logtools.WriteJSONL).
func WriteJSONL(w io.Writer, events []*encounterv1.Event) error {
	return logtools.WriteJSONL(w, events)
}
