package commands

import (
	"io"

	"github.com/fray-rpg/fray/cli/internal/d20segcmd"
	"github.com/fray-rpg/fray/cli/internal/feeriecmd"
	"github.com/fray-rpg/fray/cli/internal/kacmd"
	"github.com/fray-rpg/fray/cli/internal/logtools"
	"github.com/fray-rpg/fray/cli/internal/losscmd"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/spf13/cobra"
)

// builtinCommands are the client subcommands, in the order the usage lists them. `fray dev`
// and `fray load` register themselves from elsewhere (see cmd/fray/main.go).
func builtinCommands() []*cobra.Command {
	return []*cobra.Command{
		summary(createCmd(), "create an encounter and print its id"),
		summary(addCmd(), "add combatants from sheet files (YAML or JSON)"),
		summary(startCmd(), "start the fight"),
		summary(losscmd.AttackCmd(), "attack with a weapon (Les Chants de Loss)"),
		summary(losscmd.ReactCmd(), "answer an attack: parry, dodge or none"),
		summary(losscmd.PassCmd(), "end a combatant's actions for this Tour"),
		summary(losscmd.DeclareCmd(), "declare a combatant's intention for its first action (LOS-038)"),
		summary(losscmd.WaitCmd(), "wait and act at a lower phase (LOS-040)"),
		summary(losscmd.AimCmd(), "aim with a ranged weapon (LOS-035, LOS-084)"),
		summary(losscmd.ActCmd(), "speak, use a social Talent, pick up, move, stand up, recover a weapon"),
		summary(losscmd.DyingCmd(), "save or finish off a dying combatant (LOS-023)"),
		summary(losscmd.PursuitCmd(), "start a pursuit (GM, LOS-100)"),
		summary(losscmd.ChaseCmd(), "make a pursuit action: charge, closer, farther, zigzags... (LOS-102…LOS-107)"),
		summary(grantAnyCmd(), "grant a role: player (--combatants), observer or co-gm (GM); or free raises to a combatant (GM, LOS-004)"),
		summary(losscmd.DisasterCmd(), "turn a failed Exploit into a Disaster (GM, LOS-006)"),
		summary(feeriecmd.Cmd(), "Contes de Fées: declare, act, change, renounce, gesture, object; advance, impersonal, surprise, unseen, rule (GM)"),
		summary(kacmd.Cmd(), "Ka: attack (stun, burst), react, disarm, pickup, pass; terror (GM)"),
		summary(d20segcmd.Cmd(), "d20 à segments (d20seg): attack, cast, other, end; surprise (GM)"),
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
