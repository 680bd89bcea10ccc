package commands

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	"github.com/spf13/cobra"
)

func init() { Register(oddsCmd) }

// oddsActions are the actions `fray odds` prepares, by the words that name them, and their
// names for a reader: the actions whose line of their system's table says Odds, under their
// group's name (ka attack) and, for a flat system's, without it too (attack).
func oddsActions() (words [][]string, names []string) {
	for _, s := range client.Systems() {
		for _, a := range s.Actions {
			if !a.Odds {
				continue
			}
			words = append(words, []string{s.Group, a.Name})
			if s.Flat {
				words = append(words, []string{a.Name})
				names = append(names, a.Name)
			} else {
				names = append(names, s.Group+" "+a.Name)
			}
		}
	}
	return words, names
}

const oddsSynopsis = "ENCOUNTER COMBATANT ACTION [ARGS] [flags]"

// oddsCmd is `fray odds ENCOUNTER COMBATANT ACTION …`: ACTION and its arguments and flags are
// those of the command that would take it (`attack TARGET --exploits 2`, `ka attack TARGET`,
// `d20 attack TARGET`, `feerie act --tactic …`); nothing is submitted: the encounter service
// answers the exact odds of the command (EncounterService.GetOdds), printed as a table with a
// histogram of each distribution.
func oddsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "odds " + oddsSynopsis,
		Short: "the exact odds of an action before it is taken: a table and a histogram",
		Long: "The exact chances of an action before it is committed, from the rules, the numbers and the\n" +
			"dice, as you see the encounter (a hidden combatant's numbers are not used). ACTION and what\n" +
			"follows are as for the command that takes it, without its ENCOUNTER COMBATANT:\n" +
			"  fray odds ENC diego attack ruffian --exploits 2   (Les Chants de Loss)\n" +
			"  fray odds ENC ruffian react dodge   (its defender, once an attack awaits its answer)\n" +
			"  fray odds ENC joshua ka attack chien --weapon pistolet\n" +
			"  fray odds ENC knight d20 attack brigand\n" +
			"  fray odds ENC didimus feerie act\n" +
			"Nothing is submitted. --json prints the odds as JSON.",
		DisableFlagParsing: true,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
				return c.Help()
			}
			if len(args) < 3 {
				return client.ShortUsagef("missing arguments: %d given, ENCOUNTER COMBATANT ACTION needed", len(args))
			}
			var words []string
			actions, names := oddsActions()
			for _, a := range actions {
				if len(args) >= 2+len(a) && slices.Equal(args[2:2+len(a)], a) {
					words = a
				}
			}
			if words == nil {
				return client.ShortUsagef("no odds for %q: the actions with odds are %s", args[2], client.AndList(names))
			}
			inner := append(append(slices.Clone(words), args[0], args[1]), args[2+len(words):]...)
			ctx := context.WithValue(c.Context(), client.OddsKey{}, showOdds)
			_, err := client.Execute(ctx, Root(), inner, c.OutOrStdout(), c.ErrOrStderr())
			return err
		},
	}
	return cmd
}

// showOdds asks the odds of cmd on encounter enc and prints them.
func showOdds(ctx context.Context, c *client.Conn, enc string, cmd *encounterv1.Command, stdout io.Writer) error {
	cl, done, err := c.Encounters()
	if err != nil {
		return err
	}
	defer done()
	resp, err := cl.GetOdds(c.Outgoing(ctx), &encounterv1.GetOddsRequest{EncounterId: enc, Command: cmd})
	if err != nil {
		return client.RPCErr("", err)
	}
	if c.Raw {
		return client.PrintJSON(stdout, resp, client.PrettyJSON)
	}
	PrintOdds(stdout, resp.GetOdds())
	return nil
}

// histogramWidth is the width of the longest bar.
const histogramWidth = 40

// PrintOdds prints odds as a table: each section with its chances, each distribution as a
// histogram whose longest bar is the likeliest value.
func PrintOdds(w io.Writer, o *oddsv1.Odds) {
	fmt.Fprintf(w, "odds of %s (%s)\n", client.Printable(o.GetSummary()), client.Printable(o.GetRuleSystem()))
	for _, s := range o.GetSections() {
		fmt.Fprintf(w, "\n%s\n", client.Printable(s.GetTitle()))
		if s.GetUnavailable() != "" {
			fmt.Fprintf(w, "  no odds: %s\n", client.Printable(s.GetUnavailable()))
		}
		width := 0
		for _, c := range s.GetChances() {
			width = max(width, len([]rune(client.Printable(c.GetLabel()))))
		}
		for _, c := range s.GetChances() {
			label := client.Printable(c.GetLabel())
			fmt.Fprintf(w, "  %s%s  %s  %s\n", label, strings.Repeat(" ", width-len([]rune(label))), percent(c.GetProbability()), bar(c.GetProbability(), 1))
		}
		for _, d := range s.GetDistributions() {
			fmt.Fprintf(w, "  %s (mean %.2f)\n", client.Printable(d.GetLabel()), d.GetMean())
			top := 0.0
			digits := 1
			for _, x := range d.GetOutcomes() {
				top = math.Max(top, x.GetProbability())
				digits = max(digits, len(fmt.Sprint(x.GetValue())))
			}
			for _, x := range d.GetOutcomes() {
				fmt.Fprintf(w, "    %*d  %s  %s\n", digits, x.GetValue(), percent(x.GetProbability()), bar(x.GetProbability(), top))
			}
		}
	}
	if o.GetLeftOut() > 0 {
		fmt.Fprintf(w, "\nexploding dice truncated: %.1e of the probability left out\n", o.GetLeftOut())
	}
	for _, a := range o.GetAssumptions() {
		fmt.Fprintf(w, "assumes %s\n", client.Printable(a))
	}
}

// percent renders a probability as a percentage of fixed width.
func percent(p float64) string {
	switch {
	case p > 0 && p < 0.0005:
		return "  <0.1%"
	case p < 1 && p > 0.9995:
		return " >99.9%"
	}
	return fmt.Sprintf("%6.1f%%", 100*p)
}

// bar is a bar of p against top, in eighths of a block.
func bar(p, top float64) string {
	if top <= 0 || p <= 0 {
		return ""
	}
	eighths := int(math.Round(p / top * histogramWidth * 8))
	partial := []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}
	out := strings.Repeat("█", eighths/8) + partial[eighths%8]
	if out == "" {
		out = "▏"
	}
	return out
}
