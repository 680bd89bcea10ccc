package commands

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/spf13/cobra"
)

func stateCmd() *cobra.Command {
	var shows []string
	for _, s := range client.Systems() {
		shows = append(shows, "a "+s.Name+" encounter: "+s.State)
	}
	command, fs := client.NewCommand("state", "ENCOUNTER [--at N] [--for COMBATANT] [--json] [flags]",
		client.WrapText("Shows the encounter, as its system has it ("+strings.Join(shows, "; ")+"), and with --for what that combatant may do now.", 95), 1, 1)
	c := client.AddConnFlags(fs)
	at := fs.Uint64("at", 0, "the state as of this event sequence (0 = now)")
	forID := fs.String("for", "", "also list the legal actions of this combatant")
	asJSON := fs.Bool("json", false, "print the GetEncounterResponse in protojson")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		c.Raw = *asJSON
		cl, done, err := c.Encounters()
		if err != nil {
			return err
		}
		defer done()
		resp, err := cl.GetEncounter(c.Outgoing(ctx), &encounterv1.GetEncounterRequest{
			EncounterId: pos[0], AtSequence: *at, LegalFor: *forID,
		})
		if err != nil {
			return client.RPCErr("", err)
		}
		if *asJSON {
			return client.PrintJSON(stdout, resp, client.PrettyJSON)
		}
		writeState(stdout, resp, *forID)
		return nil
	})
	return command
}

func statusText(s encounterv1.EncounterStatus) string {
	switch s {
	case encounterv1.EncounterStatus_ENCOUNTER_STATUS_SETUP:
		return "setup"
	case encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE:
		return "active"
	case encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED:
		return "ended"
	default:
		return "status unknown"
	}
}

// writeState prints the human summary of an encounter.
func writeState(w io.Writer, resp *encounterv1.GetEncounterResponse, forID string) {
	st := resp.GetState()
	names := client.NamesOf(st)
	fmt.Fprintf(w, "%s (%s): %s", st.GetName(), st.GetEncounterId(), statusText(st.GetStatus()))
	if st.GetRuleSystem() != "" {
		fmt.Fprintf(w, ", %s v%d", st.GetRuleSystem(), st.GetRulesVersion())
	}
	fmt.Fprintf(w, ", GM %s, at event #%d\n", client.OrUnknown(st.GetGameMaster()), st.GetSequence())
	sys, ok := client.SystemOf(st)
	if !ok {
		// A system this CLI has no package for: the tracker the server's rules draw, as the
		// page shows it (issue 27).
		writeTracker(w, resp.GetTracker(), names)
		printLegal(w, resp, names, forID, plainLegal)
		return
	}
	sys.WriteState(w, st, names)
	printLegal(w, resp, names, forID, sys.LegalText)
}

// writeTracker prints the rows of cells the encounter's rule system draws for the caller
// (GetEncounterResponse.tracker): a line for where the fight is, a header, a row per
// combatant with its conditions.
func writeTracker(w io.Writer, tr *rulesetv1.Tracker, names *client.Names) {
	if len(tr.GetRows()) == 0 {
		fmt.Fprintln(w, "(no combatant to show: fray state --json shows it all)")
		return
	}
	if tr.GetTurn() != "" {
		fmt.Fprintln(w, tr.GetTurn())
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(append([]string{"combatant"}, tr.GetHeader()...), "\t")+"\t")
	for _, r := range tr.GetRows() {
		cells := append([]string{names.Of(r.GetCombatantId())}, r.GetCells()...)
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t"+strings.Join(r.GetConditions(), ", "))
	}
	_ = tw.Flush()
}

// printLegal prints what combatant forID may do, each line written by text.
func printLegal(w io.Writer, resp *encounterv1.GetEncounterResponse, names *client.Names, forID string,
	text func(name, desc string, cost int32, targets []string, weapon, rule string) string) {
	if forID == "" {
		return
	}
	if len(resp.GetLegal()) == 0 {
		fmt.Fprintf(w, "%s can do nothing now.\n", names.Of(forID))
		return
	}
	fmt.Fprintf(w, "%s may:\n", names.Of(forID))
	for _, a := range resp.GetLegal() {
		fmt.Fprintln(w, "  "+text(a.GetName(), a.GetDescription(), a.GetCost(), a.GetTargets(), a.GetWeapon(), a.GetRule()))
	}
}

func watchCmd() *cobra.Command {
	command, fs := client.NewCommand("watch", "ENCOUNTER [--from N] [--lang en|fr] [--json] [flags]",
		"Prints the encounter's events from --from on, then each new one as it is recorded, until\ninterrupted (Ctrl-C) or the encounter ends. When the stream breaks (the server restarts, the\nconnection drops) it resumes after the last event printed, none missed or printed twice,\nwaiting a little longer each time (saying so on stderr); it gives up after "+fmt.Sprint(resumeAttempts)+" attempts in a row.", 1, 1)
	c := client.AddConnFlags(fs)
	from := fs.Uint64("from", 1, "first event sequence to print")
	lang := client.AddLangFlag(fs)
	asJSON := fs.Bool("json", false, "print each Event in protojson, one per line")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		narration, err := narrationOf(lang, *asJSON)
		if err != nil {
			return err
		}
		c.Raw = *asJSON
		cl, done, err := c.Encounters()
		if err != nil {
			return err
		}
		defer done()
		_, err = stream(ctx, c, cl, pos[0], narration, *from, 0, func(r *encounterv1.WatchEncounterResponse) error {
			return printEvent(stdout, r, *asJSON)
		}, resumeNotices{w: stderr, name: "fray watch"})
		if ctx.Err() != nil {
			return nil // interrupted: the normal end of a watch
		}
		return err
	})
	return command
}

// narrationOf is the language to ask the server to narrate in: none for --json, which prints
// the events only.
func narrationOf(lang client.LangFlag, asJSON bool) (string, error) {
	code, err := lang.Code()
	if asJSON {
		return "", err
	}
	return code, err
}

// printEvent prints an event as the server narrated it (in protojson with asJSON).
func printEvent(w io.Writer, r *encounterv1.WatchEncounterResponse, asJSON bool) error {
	if asJSON {
		return client.PrintJSON(w, r.GetEvent(), client.LineJSON)
	}
	_, err := fmt.Fprintln(w, r.GetNarration())
	return err
}

func logCmd() *cobra.Command {
	command, fs := client.NewCommand("log", "ENCOUNTER [--lang en|fr] [--json] [flags]",
		"Prints every event of the encounter recorded so far, then exits.", 1, 1)
	c := client.AddConnFlags(fs)
	lang := client.AddLangFlag(fs)
	asJSON := fs.Bool("json", false, "print each Event in protojson, one per line")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		narration, err := narrationOf(lang, *asJSON)
		if err != nil {
			return err
		}
		c.Raw = *asJSON
		cl, done, err := c.Encounters()
		if err != nil {
			return err
		}
		defer done()
		resp, err := cl.GetEncounter(c.Outgoing(ctx), &encounterv1.GetEncounterRequest{EncounterId: pos[0]})
		if err != nil {
			return client.RPCErr("", err)
		}
		until := resp.GetState().GetSequence()
		if until == 0 {
			return nil
		}
		last, err := stream(ctx, c, cl, pos[0], narration, 1, until, func(r *encounterv1.WatchEncounterResponse) error {
			return printEvent(stdout, r, *asJSON)
		}, resumeNotices{w: stderr, name: "fray log"})
		if err != nil {
			return err
		}
		if last < until {
			return fmt.Errorf("the event stream ended at #%d, before #%d", last, until)
		}
		return nil
	})
	return command
}

func listCmd() *cobra.Command {
	command, fs := client.NewCommand("list", "[--page-size N] [--page-token TOKEN | --all] [--json] [flags]",
		"Lists the encounters you have a role in, the most recently active first, a page at a time.", 0, 0)
	c := client.AddConnFlags(fs)
	asJSON := fs.Bool("json", false, "print the ListEncountersResponse in protojson (with --all, one per page)")
	size := fs.Int("page-size", 0, "encounters per page (0: the server's default, 50; at most 200)")
	token := fs.String("page-token", "", "continue after the page that gave this token")
	all := fs.Bool("all", false, "list every page")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if *all && *token != "" {
			return client.ShortUsagef("--all lists from the first page: give it or --page-token, not both")
		}
		if *size < 0 || *size > 200 {
			return client.ShortUsagef("--page-size %d: give 1 to 200, or 0 for the server's default (50)", *size)
		}
		c.Raw = *asJSON
		cl, done, err := c.Encounters()
		if err != nil {
			return err
		}
		defer done()
		rows := []string{"ID\tNAME\tSYSTEM\tSTATUS\tEVENTS\tROLE\tLAST ACTIVE"}
		req := &encounterv1.ListEncountersRequest{PageSize: int32(*size), PageToken: *token}
		for {
			resp, err := cl.ListEncounters(c.Outgoing(ctx), req)
			if err != nil {
				return client.RPCErr("", err)
			}
			if *asJSON {
				if err := client.PrintJSON(stdout, resp, client.PrettyJSON); err != nil {
					return err
				}
			}
			for _, e := range resp.GetEncounters() {
				last := "-"
				if e.GetLastActivity() != nil {
					last = e.GetLastActivity().AsTime().Local().Format("2006-01-02 15:04")
				}
				rows = append(rows, fmt.Sprintf("%s\t%s\t%s\t%s\t%d\t%s\t%s", e.GetEncounterId(), e.GetName(), client.Dash(e.GetRuleSystem()),
					statusText(e.GetStatus()), e.GetSequence(), roleColumn(e.GetRole()), last))
			}
			next := resp.GetNextPageToken()
			if *all && next != "" {
				req.PageToken = next
				continue
			}
			if *asJSON {
				return nil
			}
			if len(rows) == 1 {
				fmt.Fprintln(stdout, "No encounters.")
				return nil
			}
			if err := client.Table(stdout, rows); err != nil {
				return err
			}
			if next != "" {
				fmt.Fprintf(stdout, "More: fray list --page-token %s (or --all)\n", next)
			}
			return nil
		}
	})
	return command
}

// roleColumn names a role in the list as fray grant spells it.
func roleColumn(r encounterv1.Role) string {
	switch r {
	case encounterv1.Role_ROLE_GM:
		return "GM"
	case encounterv1.Role_ROLE_CO_GM:
		return "co-GM"
	case encounterv1.Role_ROLE_PLAYER:
		return "player"
	case encounterv1.Role_ROLE_OBSERVER:
		return "observer"
	}
	return "-"
}
