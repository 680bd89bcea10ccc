package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// Submit sends cmd through Submit and prints the events it caused.
func Submit(ctx context.Context, c *Conn, enc string, cmd *encounterv1.Command, stdout io.Writer) error {
	if show := oddsOf(ctx); show != nil { // `fray odds`: the odds of cmd, nothing submitted
		return show(ctx, c, enc, cmd, stdout)
	}
	cl, done, err := c.Encounters()
	if err != nil {
		return err
	}
	defer done()
	resp, err := cl.Submit(c.Outgoing(ctx), &encounterv1.SubmitRequest{
		EncounterId: enc, CommandId: c.ID(), ExpectedSequence: c.Expected.Ptr(), Command: cmd,
	})
	if err != nil {
		return RPCErr("", err)
	}
	if c.Raw {
		return PrintJSON(stdout, resp, PrettyJSON)
	}
	PrintOutcome(stdout, enc, resp.GetEvents(), resp.GetState())
	return nil
}

// PrintOutcome prints a command's events and what the game now waits for.
func PrintOutcome(w io.Writer, enc string, events []*encounterv1.Event, st *encounterv1.EncounterState) {
	n := OutcomeNarrator(st)
	for _, ev := range events {
		fmt.Fprintln(w, n.Narrate(ev))
	}
	if len(events) == 0 && st != nil {
		fmt.Fprintln(w, "(no event: the command changed nothing)")
	}
	PrintPending(w, enc, st)
}

// PrintPending prints the reactions the encounter waits for, each with the command that gives
// it, worded by the encounter's system.
func PrintPending(w io.Writer, enc string, st *encounterv1.EncounterState) {
	sys, known := SystemOf(st)
	for _, p := range st.GetPending() {
		fmt.Fprintf(w, "waiting for %s (%s): %s\n", p.GetCombatantId(), OrUnknown(p.GetController()), p.GetPrompt())
		if !known || sys.Answer == nil {
			continue // no command to suggest: fray submit answers it
		}
		react, choices := sys.Answer(st, p.GetCombatantId())
		fmt.Fprintf(w, "  fray %s %s %s %s --as %s\n", react, enc, p.GetCombatantId(), choices, OrUnknown(p.GetController()))
	}
}

var (
	PrettyJSON = protojson.MarshalOptions{Multiline: true, Indent: "  "}
	LineJSON   = protojson.MarshalOptions{}
)

func PrintJSON(w io.Writer, m proto.Message, opts protojson.MarshalOptions) error {
	b, err := opts.Marshal(m)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(PrintableJSON(b)))
	return err
}

// Table writes rows of tab-separated cells as aligned columns, without trailing spaces.
func Table(w io.Writer, rows []string) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(tw, r)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for line := range strings.Lines(buf.String()) {
		if _, err := fmt.Fprintln(w, strings.TrimRight(line, " \n")); err != nil {
			return err
		}
	}
	return nil
}

func Dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// SheetWithheld reports whether the server withheld c's sheet and numbers from this reader:
// the GM hides it, and the reader is neither the GM nor its controller.
func SheetWithheld(c *encounterv1.Combatant) bool {
	return c.GetHidden() && c.GetSheet() == nil
}

func EngineCombatant(st *encounterv1.EncounterState, id string) *encounterv1.Combatant {
	for _, c := range st.GetCombatants() {
		if c.GetId() == id {
			return c
		}
	}
	return nil
}

// AppearanceText is what the table sees of a combatant whose numbers are hidden.
func AppearanceText(a encounterv1.Appearance) string {
	switch a {
	case encounterv1.Appearance_APPEARANCE_FIGHTING:
		return "unhurt"
	case encounterv1.Appearance_APPEARANCE_WOUNDED:
		return "wounded"
	case encounterv1.Appearance_APPEARANCE_BADLY_WOUNDED:
		return "badly wounded"
	case encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT:
		return "out of the fight"
	}
	return "hidden"
}

// WrapText breaks text into lines of at most width characters, at spaces.
func WrapText(text string, width int) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}

// ListFlag is a repeatable string flag; each value may also be a comma-separated list.
type ListFlag []string

func (l *ListFlag) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(*l, ",")
}

// Type names the value in the usage.
func (*ListFlag) Type() string { return "list" }

func (l *ListFlag) Set(s string) error {
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l = append(*l, part)
		}
	}
	return nil
}

// OddsKey marks a context in which submit asks the odds of its command instead.
type OddsKey struct{}

// oddsOf is what submit does instead of submitting, under `fray odds`; nil otherwise.
func oddsOf(ctx context.Context) func(context.Context, *Conn, string, *encounterv1.Command, io.Writer) error {
	show, _ := ctx.Value(OddsKey{}).(func(context.Context, *Conn, string, *encounterv1.Command, io.Writer) error)
	return show
}
