package commands

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/spf13/cobra"
)

// rulesetsCmd is `fray rulesets [SYSTEM]`: without SYSTEM the systems the RulesService
// decides and their versions; with it, that system as `fray rules SYSTEM` shows it (its actions,
// Exploits and house rules with their defaults), for a reader who takes "rulesets" for the
// place where a system is described.
func rulesetsCmd() *cobra.Command {
	command, fs := client.NewCommand("rulesets", "[SYSTEM [--rules-version N]] [--json] [flags]",
		"Lists the rule systems the RulesService decides, with their versions; with SYSTEM, that\n"+
			"system as `fray rules SYSTEM` shows it: its sheet fields, its actions and Exploits with their\n"+
			"costs and rule IDs, its house rules with their defaults (fray create --options), and its tables.", 0, 1)
	c := client.AddRulesFlags(fs)
	version := fs.Uint32("rules-version", 0, "with SYSTEM: the version (0 = the latest)")
	asJSON := fs.Bool("json", false, "print the ListRulesetsResponse (with SYSTEM: the DescribeRulesetResponse) in protojson")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if len(pos) == 0 && *version != 0 {
			return client.ShortUsagef("--rules-version goes with SYSTEM: fray rulesets SYSTEM --rules-version N")
		}
		cl, done, err := c.Rules()
		if err != nil {
			return err
		}
		defer done()
		if len(pos) == 1 {
			return describe(ctx, c, cl, &rulesv1.DescribeRulesetRequest{Id: pos[0], Version: *version}, *asJSON, stdout)
		}
		resp, err := cl.ListRulesets(c.Outgoing(ctx), &rulesv1.ListRulesetsRequest{})
		if err != nil {
			return client.RPCErr("", err)
		}
		if *asJSON {
			return client.PrintJSON(stdout, resp, client.PrettyJSON)
		}
		rows := []string{"ID\tNAME\tVERSIONS"}
		for _, r := range resp.GetRulesets() {
			vs := make([]string, len(r.GetVersions()))
			for i, v := range r.GetVersions() {
				vs[i] = fmt.Sprint(v)
			}
			rows = append(rows, fmt.Sprintf("%s\t%s\t%s", r.GetId(), r.GetName(), strings.Join(vs, ", ")))
		}
		if err := client.Table(stdout, rows); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "\nfray rulesets SYSTEM describes one: its actions, Exploits and house rules with their defaults.")
		return nil
	})
	return command
}

func rollCmd() *cobra.Command {
	command, fs := client.NewCommand("roll", "EXPR [--seed HEX] [--offset N] [--json] [flags]",
		"Rolls dice notation (\"3d10+4\", \"1d10!\" explodes) on the RulesService and prints the faces\nand the total, then the seed in hex: give it back with --seed (and --offset) to replay.", 1, 1)
	c := client.AddRulesFlags(fs)
	seedHex := fs.String("seed", "", "32-byte seed in hex (default: a fresh seed, printed)")
	offset := fs.Uint64("offset", 0, "position in the seed's dice stream")
	asJSON := fs.Bool("json", false, "print the RollResponse in protojson")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		seed, err := hex.DecodeString(*seedHex)
		if err != nil {
			return &client.UsageError{Msg: fmt.Sprintf("--seed: not hex: %v", err), Short: true}
		}
		cl, done, err := c.Rules()
		if err != nil {
			return err
		}
		defer done()
		resp, err := cl.Roll(c.Outgoing(ctx), &rulesv1.RollRequest{Expression: pos[0], Seed: seed, Offset: *offset})
		if err != nil {
			return client.RPCErr("", err)
		}
		if *asJSON {
			return client.PrintJSON(stdout, resp, client.PrettyJSON)
		}
		r := resp.GetRoll()
		fmt.Fprintf(stdout, "%s: %s = %d\n", r.GetExpression(), client.English().Roll(r), r.GetTotal())
		fmt.Fprintf(stdout, "seed %s offset %d (%d draws)\n", hex.EncodeToString(resp.GetSeed()), r.GetOffset(), r.GetDraws())
		return nil
	})
	return command
}
