package commands

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/spf13/cobra"
)

func init() { Register(rulesCmd) }

// rulesCmd is `fray rules`: a rule system's descriptor as the RulesService gives it
// (DescribeRuleset), at the version asked or at the one an encounter pinned. The costs and
// numbers the other commands' help would otherwise have to repeat are read here, from the
// version that decides.
func rulesCmd() *cobra.Command {
	command, fs := client.NewCommand("rules", "SYSTEM [--rules-version N] | --encounter ENCOUNTER [--json] [flags]",
		"Shows a rule system at one version: its sheet fields, its actions with their costs and rule\n"+
			"IDs, its house rules with their defaults, and its tables, as the server decides them:\n"+
			"  fray rules d20seg                    the latest version\n"+
			"  fray rules loss --rules-version 1    an older one\n"+
			"  fray rules --encounter ENC           the version the encounter pinned at its creation\n"+
			"fray rulesets lists the systems and their versions.", 0, 1)
	c := client.AddRulesFlags(fs)
	version := fs.Uint32("rules-version", 0, "the version (0 = the latest)")
	enc := fs.String("encounter", "", "the system and version of this encounter")
	asJSON := fs.Bool("json", false, "print the DescribeRulesetResponse in protojson")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		req := &rulesv1.DescribeRulesetRequest{Version: *version}
		switch {
		case *enc != "" && (len(pos) > 0 || *version != 0):
			return client.ShortUsagef("--encounter gives the system and its version: give no SYSTEM nor --rules-version with it")
		case *enc == "" && len(pos) == 0:
			return client.ShortUsagef("name the rule system (fray rulesets lists them), or --encounter ENCOUNTER")
		case *enc != "":
			cl, done, err := c.Encounters()
			if err != nil {
				return err
			}
			defer done()
			resp, err := cl.GetEncounter(c.Outgoing(ctx), &encounterv1.GetEncounterRequest{EncounterId: *enc})
			if err != nil {
				return client.RPCErr("reading encounter "+*enc, err)
			}
			req.Id, req.Version = resp.GetState().GetRuleSystem(), resp.GetState().GetRulesVersion()
		default:
			req.Id = pos[0]
		}
		cl, done, err := c.Rules()
		if err != nil {
			return err
		}
		defer done()
		return describe(ctx, c, cl, req, *asJSON, stdout)
	})
	return summary(command, "show a rule system at one version: sheet fields, actions and their costs, house rules, tables")
}

// describe asks the RulesService for req's descriptor and prints it (protojson with asJSON):
// what `fray rules` and `fray rulesets SYSTEM` both show.
func describe(ctx context.Context, c *client.Conn, cl rulesv1.RulesServiceClient, req *rulesv1.DescribeRulesetRequest, asJSON bool, stdout io.Writer) error {
	resp, err := cl.DescribeRuleset(c.Outgoing(ctx), req)
	if err != nil {
		return client.RPCErr("", err)
	}
	if asJSON {
		return client.PrintJSON(stdout, resp, client.PrettyJSON)
	}
	return writeRuleset(stdout, resp.GetRuleset())
}

// writeRuleset prints a descriptor: a heading, then the sheet, the actions, the house rules
// and each table, as aligned columns.
func writeRuleset(w io.Writer, d *rulesetv1.RulesetDescriptor) error {
	fmt.Fprintf(w, "%s (%s), version %d\n", d.GetName(), d.GetId(), d.GetVersion())
	rule := func(r string) string {
		if r == "" {
			return ""
		}
		return " (" + r + ")"
	}
	section := func(title string, rows []string) error {
		if len(rows) == 0 {
			return nil
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		return client.Table(w, rows)
	}
	var rows []string
	for _, f := range d.GetSheetFields() {
		rows = append(rows, fmt.Sprintf("  %s\t%s", f.GetName(), f.GetDescription()))
	}
	if err := section("Sheet", rows); err != nil {
		return err
	}
	rows = []string{"  ACTION\tCOST\tWHAT"}
	for _, a := range d.GetActions() {
		rows = append(rows, fmt.Sprintf("  %s\t%s\t%s%s", a.GetName(), client.Dash(a.GetCost()), a.GetDescription(), rule(a.GetRule())))
	}
	if err := section("Actions", rows); err != nil {
		return err
	}
	rows = []string{"  OPTION\tDEFAULT\tWHAT"}
	for _, o := range d.GetOptions() {
		rows = append(rows, fmt.Sprintf("  %s\t%s\t%s%s", o.GetName(), client.Dash(o.GetDefaultValue()), o.GetDescription(), rule(o.GetRule())))
	}
	if err := section("House rules (fray create --options)", rows); err != nil {
		return err
	}
	for _, t := range d.GetTables() {
		rows = []string{"  " + strings.ToUpper(strings.Join(t.GetHeader(), "\t"))}
		for _, r := range t.GetRows() {
			rows = append(rows, "  "+strings.Join(r.GetCells(), "\t"))
		}
		if err := section(t.GetName()+rule(t.GetRule()), rows); err != nil {
			return err
		}
	}
	return nil
}
