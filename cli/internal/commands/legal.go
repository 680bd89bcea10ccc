package commands

import (
	"context"
	"fmt"
	"io"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/spf13/cobra"
)

// legal is registered rather than listed among the built-in commands: it comes after them in
// `fray help`, which lists the others as before.
func init() { Register(legalCmd) }

func legalCmd() *cobra.Command {
	command, fs := client.NewCommand("legal", "ENCOUNTER [--for COMBATANT] [--json] [flags]",
		"Lists who may act now and what each combatant you may command may do (every one for the GM,\nyour own for a player): each legal action with its stable key in brackets (the action's name\nin `fray rulesets SYSTEM`), then the command line that takes it, to paste (a placeholder such\nas TARGET for a choice it needs; `fray submit --command` for an action no command of the CLI\nsends), then the choices it leaves open: the argument or flag that gives each (or the command\nfield it fills), * when required, and what it may take. With --for, that combatant only.\n--json prints the GetEncounterResponse, the commands to submit in it.", 1, 1)
	c := client.AddConnFlags(fs)
	forID := fs.String("for", "", "only this combatant")
	asJSON := fs.Bool("json", false, "print the GetEncounterResponse in protojson")
	lang := fs.String("lang", "", "the language of the actions' names and labels, as the rules word them: en or fr (default en)")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		c.Raw = *asJSON
		cl, done, err := c.Encounters()
		if err != nil {
			return err
		}
		defer done()
		resp, err := cl.GetEncounter(c.Outgoing(ctx), &encounterv1.GetEncounterRequest{
			EncounterId: pos[0], LegalFor: *forID, LegalForAll: *forID == "", Language: *lang,
		})
		if err != nil {
			return client.RPCErr("", err)
		}
		if *asJSON {
			return client.PrintJSON(stdout, resp, client.PrettyJSON)
		}
		writeLegal(stdout, resp, *forID, *lang != "" && *lang != "en")
		return nil
	})
	return summary(command, "who may act now, and what each combatant you command may do: keys and choices")
}

// writeLegal prints who may act and the legal actions of resp, each line as `fray state --for`
// writes it (asWorded: with the names and descriptions the rules worded in the language asked),
// then its key, then its choices.
func writeLegal(w io.Writer, resp *encounterv1.GetEncounterResponse, forID string, asWorded bool) {
	st := resp.GetState()
	names := client.NamesOf(st)
	text := plainLegal
	sys, known := client.SystemOf(st)
	if known && !asWorded {
		text = sys.LegalText // the CLI's own English
	}
	if forID == "" {
		if len(resp.GetMayAct()) == 0 {
			fmt.Fprintln(w, "No one may act now.")
		} else {
			fmt.Fprintf(w, "May act now: %s.\n", client.AndList(namesOf(names, resp.GetMayAct())))
		}
		if a := resp.GetAwaitingReaction(); len(a) > 0 {
			fmt.Fprintf(w, "An attack waits for the answer of %s.\n", client.AndList(namesOf(names, a)))
		}
	} else if len(resp.GetActions()) == 0 {
		fmt.Fprintf(w, "%s can do nothing now.\n", names.Of(forID))
	}
	for _, ca := range resp.GetActions() {
		fmt.Fprintf(w, "%s may:\n", names.Of(ca.GetCombatantId()))
		for _, l := range ca.GetActions() {
			a := l.GetAction()
			fmt.Fprintf(w, "  %s [%s]\n", text(a.GetName(), a.GetDescription(), a.GetCost(), a.GetTargets(), a.GetWeapon(), a.GetRule()), a.GetKey())
			fmt.Fprintln(w, "      "+client.Printable(client.PasteLine(sys, known, st.GetEncounterId(), l.GetCommand())))
			for _, c := range a.GetChoices() {
				how, found := sys.ChoiceFlags[c.GetField()]
				fmt.Fprintln(w, "        "+client.ChoiceLine(c, how, found))
			}
		}
	}
}

// plainLegal words a legal action of a rule system no package of the CLI registers: its cost
// a bare number, in the system's own unit.
func plainLegal(name, desc string, cost int32, targets []string, weapon, rule string) string {
	c := ""
	if cost > 0 {
		c = fmt.Sprint(cost)
	}
	return client.LegalLine(name, desc, c, targets, weapon, rule)
}

func namesOf(names *client.Names, ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, names.Of(id))
	}
	return out
}
