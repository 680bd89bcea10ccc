package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// A watch whose stream breaks — the server restarting or shutting down (Unavailable), the
// connection lost or reset — is resumed from the event after the last one seen, after a
// pause that doubles from resumeFirst up to resumeMax (with jitter), resumeAttempts times in
// a row at most: a stream that brought an event, or lasted resumeSettled, resets the count.
const (
	resumeAttempts = 8
	resumeFirst    = 250 * time.Millisecond
	resumeMax      = 8 * time.Second
	resumeSettled  = time.Minute
)

// resumeNotices tells the user on w, prefixed by name, that a stream broke and was resumed.
type resumeNotices struct {
	w    io.Writer
	name string
}

// resumeWait is the pause before the nth attempt (a test shortens it).
var resumeWait = backoff

// backoff is the pause before the nth attempt: resumeFirst doubled n-1 times, at most
// resumeMax, less up to a fifth at random so that the watchers of a restarted server do not
// all come back at once.
func backoff(n int) time.Duration {
	d := resumeMax
	if n < 16 {
		d = min(resumeFirst<<(n-1), resumeMax)
	}
	return d - time.Duration(rand.Int64N(int64(d/5)+1))
}

// resumable tells whether a watch that ended with err may be resumed: the server going away
// or unreachable (Unavailable), a stream reset under it, or ended by the server while this
// side did not cancel it (an older server reports its shutdown as Canceled).
func resumable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	switch st := status.Convert(err); st.Code() {
	case codes.Unavailable, codes.Canceled:
		return true
	case codes.Internal:
		return strings.Contains(st.Message(), "RST_STREAM")
	}
	return false
}

// stream calls fn for each event of WatchEncounter from sequence from (narrated in lang, ""
// for none), until the stream ends or, when until > 0, the event of sequence until has been
// seen; a broken stream is resumed after the last event seen (resumable), so that fn sees
// each event once, in order. It returns the last sequence seen.
func stream(ctx context.Context, c *client.Conn, cl encounterv1.EncounterServiceClient, enc, lang string, from, until uint64, fn func(*encounterv1.WatchEncounterResponse) error, notes resumeNotices) (uint64, error) {
	next := max(from, 1)
	var last uint64
	failures, resuming := 0, false
	for {
		onStart := func() {
			if resuming {
				notes.say("resumed from #%d", next)
			}
		}
		began, seen := time.Now(), next
		err := streamOnce(ctx, c, cl, enc, lang, next, until, onStart, func(r *encounterv1.WatchEncounterResponse) error {
			ev := r.GetEvent()
			if ev.GetSequence() < next {
				return nil // seen already (never expected: the server starts at next)
			}
			if err := fn(r); err != nil {
				return err
			}
			last, next = ev.GetSequence(), ev.GetSequence()+1
			return nil
		})
		if err == nil {
			return last, nil
		}
		if !resumable(ctx, err) {
			if ctx.Err() != nil {
				return last, ctx.Err()
			}
			var rpc *client.RPCError
			if errors.As(err, &rpc) {
				return last, err
			}
			if _, ok := status.FromError(err); ok {
				return last, client.RPCErr("watching "+enc, err)
			}
			return last, err
		}
		if next > seen || time.Since(began) >= resumeSettled {
			failures = 0
		}
		failures++
		if failures > resumeAttempts {
			return last, fmt.Errorf("gave up after %d attempts in a row to resume from #%d: %w", resumeAttempts, next, client.RPCErr("watching "+enc, err))
		}
		wait := resumeWait(failures)
		notes.say("the stream of %s broke (%s); resuming from #%d in %s (attempt %d of %d)",
			enc, client.ErrorText(client.RPCErr("", err)), next, wait.Round(time.Millisecond), failures, resumeAttempts)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return last, ctx.Err()
		case <-t.C:
		}
		if c.Dialed != nil {
			// A connection that failed waits out its own backoff (up to 2 minutes) before
			// it tries again: this attempt, paced by ours, tries now.
			c.Dialed.ResetConnectBackoff()
		}
		resuming = true
	}
}

func (n resumeNotices) say(format string, args ...any) {
	if n.w != nil {
		fmt.Fprintf(n.w, "%s: %s\n", n.name, fmt.Sprintf(format, args...))
	}
}

// streamOnce is one WatchEncounter from sequence from; onStart is called when the server
// began it (its headers came).
func streamOnce(ctx context.Context, c *client.Conn, cl encounterv1.EncounterServiceClient, enc, lang string, from, until uint64, onStart func(), fn func(*encounterv1.WatchEncounterResponse) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st, err := cl.WatchEncounter(c.Outgoing(ctx), &encounterv1.WatchEncounterRequest{EncounterId: enc, FromSequence: from, Language: lang})
	if err != nil {
		return err
	}
	if _, err := st.Header(); err == nil {
		onStart()
	}
	for {
		resp, err := st.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		ev := resp.GetEvent()
		if ev == nil {
			continue
		}
		if err := fn(resp); err != nil {
			return err
		}
		if until > 0 && ev.GetSequence() >= until {
			return nil
		}
	}
}
