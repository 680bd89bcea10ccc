// Package logtools is the log tools of the CLI, fray export, import, replay and audit
// (commands.go), and what they share: reading and writing fray's event log in NATS JetStream
// directly (no fray service needs to run), and its JSON-lines files.
package logtools

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
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// DefaultNATSURL is the NATS server when neither --nats-url nor FRAY_NATS_URL is given.
const DefaultNATSURL = "nats://127.0.0.1:4222"

// NATS is the log the tools read or write: its server, stream and credentials (AddFlags).
type NATS struct {
	URL, Stream string
	// Replicas of the stream when import creates it; Log says what import found of an
	// existing one (import only).
	Replicas int
	Log      *slog.Logger
	// Auth: the auditor user of deploy/nats/permissions.conf for every tool but import, which
	// writes. Against `fray dev`, none: its server takes an anonymous client for the auditor.
	Auth natsconn.Auth
}

// AddFlags adds --nats-url, --stream and the NATS authentication flags to fs.
func AddFlags(fs *pflag.FlagSet) *NATS {
	n := &NATS{}
	fs.StringVar(&n.URL, "nats-url", platform.Env("FRAY_NATS_URL", DefaultNATSURL), "NATS server holding the log (env FRAY_NATS_URL)")
	fs.StringVar(&n.Stream, "stream", platform.Env("FRAY_STREAM", "FRAY_ENCOUNTERS"), "JetStream stream of the events (env FRAY_STREAM)")
	gofs := flag.NewFlagSet("nats", flag.ContinueOnError) // platform's helper takes one
	n.Auth.AddFlags(gofs)
	fs.AddGoFlagSet(gofs)
	return n
}

// RefusedError: the NATS server refused a subject to this tool's user.
type RefusedError struct {
	URL string
	Err error // wraps nats.ErrPermissionViolation
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("NATS at %s refused this user: %v (the log tools read the event stream: the auditor's permissions are enough for all but `fray import`, which writes it and needs the encounter user's; see deploy/nats/permissions.conf, and --nats-user/--nats-password or --nats-creds)", e.URL, e.Err)
}

func (e *RefusedError) Unwrap() error { return e.Err }

// Open connects and attaches to the existing log, or (create) makes it. The context it
// returns ends, with a RefusedError as its cause, as soon as the server refuses this user
// a subject, so that a refusal fails at once instead of waiting for a timeout: pass it to
// every call on the store, and any error to Refused.
func (n *NATS) Open(ctx context.Context, create bool) (context.Context, *store.JetStream, func(), error) {
	auth, err := n.Auth.Options()
	if err != nil {
		return ctx, nil, nil, err
	}
	if create { // import writes the log as the encounter service does, from its inbox
		auth = append(auth, natsconn.EncounterOptions()...)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	nc, err := nats.Connect(n.URL, append(auth, nats.Name("fray-cli"),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			if errors.Is(err, nats.ErrPermissionViolation) {
				cancel(&RefusedError{URL: n.URL, Err: err})
			}
		}))...)
	if err != nil {
		cancel(nil)
		return ctx, nil, nil, fmt.Errorf("connect to NATS at %s: %w", n.URL, err)
	}
	done := func() { nc.Close(); cancel(nil) }
	cfg := store.Config{Stream: n.Stream, Replicas: n.Replicas, Log: n.Log}
	var st *store.JetStream
	if create { // the stream only, created if missing, an existing one never changed
		st, err = store.OpenLog(ctx, nc, cfg)
	} else {
		st, err = store.Attach(ctx, nc, cfg)
	}
	if err != nil {
		err = Refused(ctx, err)
		done()
		return ctx, nil, nil, err
	}
	return ctx, st, done, nil
}

// Refused is err, or the server's refusal that ended ctx.
func Refused(ctx context.Context, err error) error {
	var r *RefusedError
	if err != nil && errors.As(context.Cause(ctx), &r) {
		return r
	}
	return err
}

// LoadEvents reads an encounter's events from a JSON-lines file, or from NATS.
func (n *NATS) LoadEvents(ctx context.Context, file, enc string) ([]*encounterv1.Event, error) {
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return ReadJSONL(f)
	}
	ctx, st, done, err := n.Open(ctx, false)
	if err != nil {
		return nil, err
	}
	defer done()
	recs, err := st.Load(ctx, enc, 0)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("there is no encounter %q in stream %s", enc, n.Stream)
	}
	if err != nil {
		return nil, Refused(ctx, err)
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
