package commands

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// The log tools read and write the event log in NATS JetStream directly: no fray service
// needs to run.

// DefaultNATSURL is the NATS server when neither --nats-url nor FRAY_NATS_URL is given.
const DefaultNATSURL = "nats://127.0.0.1:4222"

type natsFlags struct {
	url, stream string
	// replicas of the stream when import creates it; log says what import found of an
	// existing one (import only).
	replicas int
	log      *slog.Logger
	// auth: the auditor user of deploy/nats/permissions.conf for every tool but import, which
	// writes. Against `fray dev`, none: its server takes an anonymous client for the auditor.
	auth platform.NATSAuth
}

func addNATSFlags(fs *pflag.FlagSet) *natsFlags {
	n := &natsFlags{}
	fs.StringVar(&n.url, "nats-url", envOr("FRAY_NATS_URL", DefaultNATSURL), "NATS server holding the log (env FRAY_NATS_URL)")
	fs.StringVar(&n.stream, "stream", envOr("FRAY_STREAM", "FRAY_ENCOUNTERS"), "JetStream stream of the events (env FRAY_STREAM)")
	gofs := flag.NewFlagSet("nats", flag.ContinueOnError) // platform's helper takes one
	n.auth.AddFlags(gofs)
	fs.AddGoFlagSet(gofs)
	return n
}

// NATSRefusedError: the NATS server refused a subject to this tool's user.
type NATSRefusedError struct {
	URL string
	Err error // wraps nats.ErrPermissionViolation
}

func (e *NATSRefusedError) Error() string {
	return fmt.Sprintf("NATS at %s refused this user: %v (the log tools read the event stream: the auditor's permissions are enough for all but `fray import`, which writes it and needs the encounter user's; see deploy/nats/permissions.conf, and --nats-user/--nats-password or --nats-creds)", e.URL, e.Err)
}

func (e *NATSRefusedError) Unwrap() error { return e.Err }

// open connects and attaches to the existing log, or (create) makes it. The context it
// returns ends, with a NATSRefusedError as its cause, as soon as the server refuses this user
// a subject, so that a refusal fails at once instead of waiting for a timeout: pass it to
// every call on the store, and any error to refused.
func (n *natsFlags) open(ctx context.Context, create bool) (context.Context, *store.JetStream, func(), error) {
	auth, err := n.auth.Options()
	if err != nil {
		return ctx, nil, nil, err
	}
	if create { // import writes the log as the encounter service does, from its inbox
		auth = append(auth, platform.EncounterNATSOptions()...)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	nc, err := nats.Connect(n.url, append(auth, nats.Name("fray-cli"),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			if errors.Is(err, nats.ErrPermissionViolation) {
				cancel(&NATSRefusedError{URL: n.url, Err: err})
			}
		}))...)
	if err != nil {
		cancel(nil)
		return ctx, nil, nil, fmt.Errorf("connect to NATS at %s: %w", n.url, err)
	}
	done := func() { nc.Close(); cancel(nil) }
	cfg := store.Config{Stream: n.stream, Replicas: n.replicas, Log: n.log}
	var st *store.JetStream
	if create { // the stream only, created if missing, an existing one never changed
		st, err = store.OpenLog(ctx, nc, cfg)
	} else {
		st, err = store.Attach(ctx, nc, cfg)
	}
	if err != nil {
		err = refused(ctx, err)
		done()
		return ctx, nil, nil, err
	}
	return ctx, st, done, nil
}

// refused is err, or the server's refusal that ended ctx.
func refused(ctx context.Context, err error) error {
	var r *NATSRefusedError
	if err != nil && errors.As(context.Cause(ctx), &r) {
		return r
	}
	return err
}

// loadEvents reads an encounter's events from a JSON-lines file, or from NATS.
func loadEvents(ctx context.Context, n *natsFlags, file, enc string) ([]*encounterv1.Event, error) {
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return ReadJSONL(f)
	}
	ctx, st, done, err := n.open(ctx, false)
	if err != nil {
		return nil, err
	}
	defer done()
	recs, err := st.Load(ctx, enc, 0)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("there is no encounter %q in stream %s", enc, n.stream)
	}
	if err != nil {
		return nil, refused(ctx, err)
	}
	var out []*encounterv1.Event
	for _, r := range recs {
		out = append(out, r.Batch.GetEvents()...)
	}
	return out, nil
}

// ReadJSONL reads one protojson Event per line (blank lines skipped).
func ReadJSONL(r io.Reader) ([]*encounterv1.Event, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var out []*encounterv1.Event
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		ev := &encounterv1.Event{}
		if err := protojson.Unmarshal([]byte(text), ev); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		out = append(out, ev)
	}
	return out, sc.Err()
}

// WriteJSONL writes one protojson Event per line.
func WriteJSONL(w io.Writer, events []*encounterv1.Event) error {
	for _, ev := range events {
		if err := printJSON(w, ev, lineJSON); err != nil {
			return err
		}
	}
	return nil
}

// Batches groups a log's events into the records of their commands: a record starts at an
// event carrying its command, or where the command id changes.
func Batches(events []*encounterv1.Event) []*encounterv1.EventBatch {
	var out []*encounterv1.EventBatch
	for i, ev := range events {
		if i == 0 || ev.GetCommand() != nil || ev.GetCommandId() != events[i-1].GetCommandId() {
			out = append(out, &encounterv1.EventBatch{})
		}
		b := out[len(out)-1]
		b.Events = append(b.Events, ev)
	}
	return out
}

// Import records a log's events into a store that does not hold the encounter yet.
func Import(ctx context.Context, log store.Log, events []*encounterv1.Event) (string, error) {
	if len(events) == 0 {
		return "", errors.New("the file holds no events")
	}
	id := events[0].GetEncounterId()
	for _, ev := range events {
		if ev.GetEncounterId() != id {
			return "", fmt.Errorf("event %d belongs to encounter %s, not %s: import one encounter at a time", ev.GetSequence(), ev.GetEncounterId(), id)
		}
	}
	if _, err := log.Load(ctx, id, 0); !errors.Is(err, store.ErrNotFound) {
		if err == nil {
			return "", fmt.Errorf("encounter %s is already in this log", id)
		}
		return "", err
	}
	var last uint64
	for _, b := range Batches(events) {
		a, err := log.Append(ctx, id, last, id+"/"+b.GetEvents()[0].GetCommandId(), b)
		if err != nil {
			return "", fmt.Errorf("record of event %d: %w", b.GetEvents()[0].GetSequence(), err)
		}
		last = a.Position
	}
	return id, nil
}

func exportCmd() *cobra.Command {
	command, fs := newCommand("export", "ENCOUNTER [--out FILE] [flags]",
		"Writes the whole log of an encounter as JSON lines (one event per line), read straight\nfrom NATS; `fray import` loads such a file into another NATS.", 1, 1)
	n := addNATSFlags(fs)
	out := fs.String("out", "", "file to write (default: standard output)")
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		events, err := loadEvents(ctx, n, "", pos[0])
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

func importCmd() *cobra.Command {
	command, fs := newCommand("import", "FILE [flags]",
		"Loads an exported log (JSON lines) into NATS, creating the stream if it is missing (with\n--replicas), so that it can be replayed and audited there. An existing stream is never\nchanged: what differs from what import would create is said on standard error.", 1, 1)
	n := addNATSFlags(fs)
	fs.IntVar(&n.replicas, "replicas", 1, "replicas of the stream if import creates it, 1 to 5 (an existing stream keeps its own)")
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if n.replicas < 1 || n.replicas > 5 {
			return &UsageError{Msg: fmt.Sprintf("--replicas %d: JetStream keeps 1 to 5 replicas of a stream", n.replicas)}
		}
		n.log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
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
		ctx, st, done, err := n.open(ctx, true)
		if err != nil {
			return err
		}
		defer done()
		id, err := Import(ctx, st, events)
		if err != nil {
			return refused(ctx, err)
		}
		fmt.Fprintf(stdout, "imported %d events of %s\n", len(events), id)
		return nil
	})
	return command
}

// progressEvery: a replay longer than this reports its progress on standard error.
const progressEvery = 1000

func replayCmd() *cobra.Command {
	command, fs := newCommand("replay", "ENCOUNTER [--at N] [--format text|jsonl|markdown] [--lang en|fr] [flags]",
		"Prints an encounter's combat log in plain language — who did what, every roll with its\nfaces and modifiers, the outcome — then its state as of --at (default: the end). Reads\nNATS directly, or an exported file with --file.", 0, 1)
	n := addNATSFlags(fs)
	at := fs.Uint64("at", 0, "stop at this event sequence (0: the last)")
	format := fs.String("format", "text", "text, jsonl or markdown")
	file := fs.String("file", "", "read an exported JSON-lines file instead of NATS")
	lang := addLangFlag(fs)
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if len(pos) == 0 && *file == "" {
			return Usagef("replay needs an encounter id, or --file")
		}
		if *format != "text" && *format != "jsonl" && *format != "markdown" {
			return Usagef("--format is text, jsonl or markdown, not %q", *format)
		}
		narrator, err := lang.narrator()
		if err != nil {
			return err
		}
		enc := ""
		if len(pos) > 0 {
			enc = pos[0]
		}
		events, err := loadEvents(ctx, n, *file, enc)
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
			fmt.Fprintf(stdout, "# %s\n\n| # | event |\n|---:|---|\n", Printable(events[0].GetEncounterCreated().GetName()))
		}
		for i, ev := range events {
			if err := reg.Evolve(st, ev); err != nil {
				return fmt.Errorf("event %d cannot be folded: %w", ev.GetSequence(), err)
			}
			switch *format {
			case "jsonl":
				if err := printJSON(stdout, ev, lineJSON); err != nil {
					return err
				}
			case "markdown":
				text := strings.TrimPrefix(narrator.Narrate(display(ev)), fmt.Sprintf("#%d ", ev.GetSequence()))
				fmt.Fprintf(stdout, "| %d | %s |\n", ev.GetSequence(), strings.ReplaceAll(strings.ReplaceAll(text, "|", `\|`), "\n", "<br>"))
			default:
				fmt.Fprintln(stdout, narrator.Narrate(display(ev)))
			}
			if len(events) > progressEvery && (i+1)%progressEvery == 0 {
				fmt.Fprintf(stderr, "replay: %d/%d events\n", i+1, len(events))
			}
		}
		resp := &encounterv1.GetEncounterResponse{State: st, StateSha256: engine.Hash(st)}
		switch *format {
		case "jsonl":
			b, err := lineJSON.Marshal(resp)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "{\"stateAsOf\":%d,\"encounter\":%s}\n", st.GetSequence(), b)
		case "markdown":
			fmt.Fprintf(stdout, "\n## State as of event %d\n\n```\n", st.GetSequence())
			writeState(stdout, display(resp), "")
			fmt.Fprintln(stdout, "```")
		default:
			fmt.Fprintf(stdout, "\n== state as of event %d ==\n", st.GetSequence())
			writeState(stdout, display(resp), "")
		}
		return nil
	})
	return command
}

func auditCmd() *cobra.Command {
	return group("audit", "Reads the event log in NATS directly, as an auditor: verify an ended encounter's dice and\nchain, or tail every event of every encounter.", []member{
		{"verify", "check an ended encounter's log: the chain of events and every roll against the revealed seed", verifyCmd},
		{"tail", "print every event of every encounter as it is appended", tailCmd},
	})
}

func verifyCmd() *cobra.Command {
	command, fs := newCommand("audit verify", "ENCOUNTER [flags]",
		"Once the seed is revealed, re-derives every roll from seed and offset and decides every\nrecorded command again with the pinned rules, comparing the events. Names the first\ndivergence and exits 1; on an intact log, says so.", 0, 1)
	n := addNATSFlags(fs)
	file := fs.String("file", "", "verify an exported JSON-lines file instead of NATS")
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if len(pos) == 0 && *file == "" {
			return Usagef("audit verify needs an encounter id, or --file")
		}
		enc := ""
		if len(pos) > 0 {
			enc = pos[0]
		}
		events, err := loadEvents(ctx, n, *file, enc)
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
	command, fs := newCommand("audit tail", "[--durable NAME] [--lang en|fr] [--json] [flags]",
		"Prints every event of every encounter as it is recorded, through a durable consumer:\nrestarted, it resumes where it stopped, missing none and repeating none.", 0, 0)
	n := addNATSFlags(fs)
	durable := fs.String("durable", "fray-audit-tail", "name of the durable consumer (one per auditor)")
	asJSON := fs.Bool("json", false, "one protojson event per line")
	limit := fs.Int("limit", 0, "stop after this many records (0: run until interrupted)")
	lang := addLangFlag(fs)
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if _, err := lang.code(); err != nil {
			return err
		}
		interrupted := ctx
		ctx, st, done, err := n.open(ctx, false)
		if err != nil {
			return err
		}
		defer done()
		told := &narrators{lang: lang, log: st}
		err = Tail(ctx, st.JetStream(), n.stream, *durable, *limit, func(ev *encounterv1.Event) error {
			if *asJSON {
				return printJSON(stdout, ev, lineJSON)
			}
			text, err := told.narrate(ctx, ev)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(stdout, "%s %s\n", Printable(ev.GetEncounterId()), text)
			return err
		})
		if interrupted.Err() != nil {
			return nil
		}
		return refused(ctx, err)
	})
	return command
}

// Tail calls fn with every event of every encounter, through a durable consumer that
// acknowledges each record only once fn has taken all its events, and waits for the server
// to confirm it: restarted, it resumes after the last record acknowledged.
func Tail(ctx context.Context, js jetstream.JetStream, stream, durable string, limit int, fn func(*encounterv1.Event) error) error {
	cons, err := js.CreateOrUpdateConsumer(ctx, stream, jetstream.ConsumerConfig{
		Durable:       durable,
		Description:   "fray audit tail",
		DeliverPolicy: jetstream.DeliverAllPolicy,
		AckPolicy:     jetstream.AckExplicitPolicy,
	})
	if err != nil {
		return fmt.Errorf("consumer %s: %w", durable, err)
	}
	// One message per pull, so that no pull request is left waiting on the server when the
	// tail stops: a message it took would only come back after the ack wait.
	for n := 0; limit == 0 || n < limit; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := cons.Next(jetstream.FetchMaxWait(2 * time.Second))
		if errors.Is(err, nats.ErrTimeout) || errors.Is(err, jetstream.ErrNoMessages) {
			n--
			continue
		}
		if err != nil {
			return err
		}
		b := &encounterv1.EventBatch{}
		if err := proto.Unmarshal(m.Data(), b); err != nil {
			return err
		}
		for _, ev := range b.GetEvents() {
			if err := fn(ev); err != nil {
				return err
			}
		}
		if err := m.DoubleAck(ctx); err != nil {
			return err
		}
	}
	return nil
}

func rewindCmd() *cobra.Command {
	command, fs := newCommand("rewind", "ENCOUNTER SEQUENCE [--reason R] [flags]",
		"Returns the encounter to its state after event SEQUENCE (GM only): resources, conditions,\npending reactions, turn order and the dice position. Nothing is deleted: the undo is a new\nevent, and the undone events stay in the log.", 2, 2)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	reason := fs.String("reason", "", "why")
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		var to uint64
		if _, err := fmt.Sscan(pos[1], &to); err != nil || to == 0 {
			return Usagef("SEQUENCE is an event number from 1, not %q", pos[1])
		}
		cl, done, err := c.encounters()
		if err != nil {
			return err
		}
		defer done()
		resp, err := cl.RewindEncounter(c.outgoing(ctx), &encounterv1.RewindEncounterRequest{
			EncounterId: pos[0], CommandId: c.id(), ExpectedSequence: c.expected.ptr(), ToSequence: to, Reason: *reason,
		})
		if err != nil {
			return rpcErr("", err)
		}
		if c.raw {
			return printJSON(stdout, resp, prettyJSON)
		}
		printOutcome(stdout, pos[0], resp.GetEvents(), resp.GetState())
		return nil
	})
	return command
}
