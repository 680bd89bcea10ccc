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

func rulesetsCmd() *cobra.Command {
	command, fs := client.NewCommand("rulesets", "[--json] [flags]", "Lists the rule systems the RulesService decides, with their versions.", 0, 0)
	c := client.AddRulesFlags(fs)
	asJSON := fs.Bool("json", false, "print the ListRulesetsResponse in protojson")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		cl, done, err := c.Rules()
		if err != nil {
			return err
		}
		defer done()
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
		return client.Table(stdout, rows)
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
