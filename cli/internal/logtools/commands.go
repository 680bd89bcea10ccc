package logtools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/spf13/cobra"
)

// The log tools' subcommands (fray export, import, replay, audit) read and write the event log
// in NATS JetStream directly: no fray service needs to run.

// WriteJSONL writes one protojson Event per line.
func WriteJSONL(w io.Writer, events []*encounterv1.Event) error {
	for _, ev := range events {
		if err := client.PrintJSON(w, ev, client.LineJSON); err != nil {
			return err
		}
	}
	return nil
}

// ExportCmd is `fray export`.
func ExportCmd() *cobra.Command {
	command, fs := client.NewCommand("export", "ENCOUNTER [--out FILE] [flags]",
		"Writes the whole log of an encounter as JSON lines (one event per line), read straight\nfrom NATS; `fray import` loads such a file into another NATS.", 1, 1)
	n := AddFlags(fs)
	out := fs.String("out", "", "file to write (default: standard output)")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		events, err := n.LoadEvents(ctx, "", pos[0])
		if err != nil {
			return err
		}
		w := stdout
		if *out != "" {
			f, err := os.Create(*out)
			if err != nil {
				return err
			}
			defer f.Close()
			w = f
		}
		return WriteJSONL(w, events)
	})
	return command
}

// ImportCmd is `fray import`.
func ImportCmd() *cobra.Command {
	command, fs := client.NewCommand("import", "FILE [flags]",
		"Loads an exported log (JSON lines) into NATS, creating the stream if it is missing (with\n--replicas), so that it can be replayed and audited there. An existing stream is never\nchanged: what differs from what import would create is said on standard error.", 1, 1)
	n := AddFlags(fs)
	fs.IntVar(&n.Replicas, "replicas", 1, "replicas of the stream if import creates it, 1 to 5 (an existing stream keeps its own)")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if n.Replicas < 1 || n.Replicas > 5 {
			return &client.UsageError{Msg: fmt.Sprintf("--replicas %d: JetStream keeps 1 to 5 replicas of a stream", n.Replicas)}
		}
		n.Log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))
		f, err := os.Open(pos[0])
		if err != nil {
			return err
		}
		defer f.Close()
		events, err := ReadJSONL(f)
		if err != nil {
			return fmt.Errorf("%s: %w", pos[0], err)
		}
		ctx, st, done, err := n.Open(ctx, true)
		if err != nil {
			return err
		}
		defer done()
		id, err := Import(ctx, st, events)
		if err != nil {
			return Refused(ctx, err)
		}
		fmt.Fprintf(stdout, "imported %d events of %s\n", len(events), id)
		return nil
	})
	return command
}

// progressEvery: a replay longer than this reports its progress on standard error.
const progressEvery = 1000

// StateWriter prints an encounter's state as `fray state` does (commands' writeState, which
// picks each rule system's table).
type StateWriter func(w io.Writer, resp *encounterv1.GetEncounterResponse)

// ReplayCmd is `fray replay`; it prints the state as of the last event replayed with state.
func ReplayCmd(state StateWriter) *cobra.Command {
	command, fs := client.NewCommand("replay", "ENCOUNTER [--at N] [--format text|jsonl|markdown] [--lang en|fr] [flags]",
		"Prints an encounter's combat log in plain language — who did what, every roll with its\nfaces and modifiers, the outcome — then its state as of --at (default: the end). Reads\nNATS directly, or an exported file with --file.", 0, 1)
	n := AddFlags(fs)
	at := fs.Uint64("at", 0, "stop at this event sequence (0: the last)")
	format := fs.String("format", "text", "text, jsonl or markdown")
	file := fs.String("file", "", "read an exported JSON-lines file instead of NATS")
	lang := client.AddLangFlag(fs)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if len(pos) == 0 && *file == "" {
			return client.Usagef("replay needs an encounter id, or --file")
		}
		if *format != "text" && *format != "jsonl" && *format != "markdown" {
			return client.Usagef("--format is text, jsonl or markdown, not %q", *format)
		}
		narrator, err := lang.Narrator()
		if err != nil {
			return err
		}
		enc := ""
		if len(pos) > 0 {
			enc = pos[0]
		}
		events, err := n.LoadEvents(ctx, *file, enc)
		if err != nil {
			return err
		}
		if *at > 0 && *at > uint64(len(events)) {
			return fmt.Errorf("the log has %d events; there is no event %d", len(events), *at)
		}
		if *at > 0 {
			events = events[:*at]
		}
		reg := systems.Registry()
		st := &encounterv1.EncounterState{}
		if *format == "markdown" && len(events) > 0 {
			fmt.Fprintf(stdout, "# %s\n\n| # | event |\n|---:|---|\n", client.Printable(events[0].GetEncounterCreated().GetName()))
		}
		for i, ev := range events {
			if err := reg.Evolve(st, ev); err != nil {
				return fmt.Errorf("event %d cannot be folded: %w", ev.GetSequence(), err)
			}
			switch *format {
			case "jsonl":
				if err := client.PrintJSON(stdout, ev, client.LineJSON); err != nil {
					return err
				}
			case "markdown":
				text := strings.TrimPrefix(narrator.Narrate(client.Display(ev)), fmt.Sprintf("#%d ", ev.GetSequence()))
				fmt.Fprintf(stdout, "| %d | %s |\n", ev.GetSequence(), strings.ReplaceAll(strings.ReplaceAll(text, "|", `\|`), "\n", "<br>"))
			default:
				fmt.Fprintln(stdout, narrator.Narrate(client.Display(ev)))
			}
			if len(events) > progressEvery && (i+1)%progressEvery == 0 {
				fmt.Fprintf(stderr, "replay: %d/%d events\n", i+1, len(events))
			}
		}
		resp := &encounterv1.GetEncounterResponse{State: st, StateSha256: engine.Hash(st)}
		switch *format {
		case "jsonl":
			b, err := client.LineJSON.Marshal(resp)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "{\"stateAsOf\":%d,\"encounter\":%s}\n", st.GetSequence(), b)
		case "markdown":
			fmt.Fprintf(stdout, "\n## State as of event %d\n\n```\n", st.GetSequence())
			state(stdout, client.Display(resp))
			fmt.Fprintln(stdout, "```")
		default:
			fmt.Fprintf(stdout, "\n== state as of event %d ==\n", st.GetSequence())
			state(stdout, client.Display(resp))
		}
		return nil
	})
	return command
}

// AuditCmd is `fray audit`: verify and tail.
func AuditCmd() *cobra.Command {
	return client.Group("audit", "Reads the event log in NATS directly, as an auditor: verify an ended encounter's dice and\nchain, or tail every event of every encounter.", []client.Member{
		{Name: "verify", Summary: "check an ended encounter's log: the chain of events and every roll against the revealed seed", Cmd: verifyCmd},
		{Name: "tail", Summary: "print every event of every encounter as it is appended", Cmd: tailCmd},
	})
}

func verifyCmd() *cobra.Command {
	command, fs := client.NewCommand("audit verify", "ENCOUNTER [flags]",
		"Once the seed is revealed, re-derives every roll from seed and offset and decides every\nrecorded command again with the pinned rules, comparing the events. Names the first\ndivergence and exits 1; on an intact log, says so.", 0, 1)
	n := AddFlags(fs)
	file := fs.String("file", "", "verify an exported JSON-lines file instead of NATS")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if len(pos) == 0 && *file == "" {
			return client.Usagef("audit verify needs an encounter id, or --file")
		}
		enc := ""
		if len(pos) > 0 {
			enc = pos[0]
		}
		events, err := n.LoadEvents(ctx, *file, enc)
		if err != nil {
			return err
		}
		rep, err := systems.Registry().Audit(events)
		var d *engine.Divergence
		if errors.As(err, &d) {
			return fmt.Errorf("DIVERGENCE at event %d: %s", d.Sequence, d.Reason)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "intact: %d events, %d commands decided again, %d rolls re-derived from the revealed seed\n", rep.Events, rep.Commands, rep.Rolls)
		return nil
	})
	return command
}

func tailCmd() *cobra.Command {
	command, fs := client.NewCommand("audit tail", "[--durable NAME] [--lang en|fr] [--json] [flags]",
		"Prints every event of every encounter as it is recorded, through a durable consumer:\nrestarted, it resumes where it stopped, missing none and repeating none.", 0, 0)
	n := AddFlags(fs)
	durable := fs.String("durable", "fray-audit-tail", "name of the durable consumer (one per auditor)")
	asJSON := fs.Bool("json", false, "one protojson event per line")
	limit := fs.Int("limit", 0, "stop after this many records (0: run until interrupted)")
	lang := client.AddLangFlag(fs)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if _, err := lang.Code(); err != nil {
			return err
		}
		interrupted := ctx
		ctx, st, done, err := n.Open(ctx, false)
		if err != nil {
			return err
		}
		defer done()
		told := &client.Narrators{Lang: lang, Log: st}
		err = Tail(ctx, st.JetStream(), n.Stream, *durable, *limit, func(ev *encounterv1.Event) error {
			if *asJSON {
				return client.PrintJSON(stdout, ev, client.LineJSON)
			}
			text, err := told.Narrate(ctx, ev)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(stdout, "%s %s\n", client.Printable(ev.GetEncounterId()), text)
			return err
		})
		if interrupted.Err() != nil {
			return nil
		}
		return Refused(ctx, err)
	})
	return command
}
