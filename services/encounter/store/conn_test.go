package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

// silentNATS is a NATS server that accepts connections and answers pings; a published
// message with a reply subject is answered with answer(subject) when answer is set and
// returns something, and otherwise never: that request waits for ever. drop closes the
// connections it holds.
type silentNATS struct {
	lis    net.Listener
	answer func(subject string) []byte
	mu     sync.Mutex
	conns  []net.Conn
}

func startSilentNATS(t *testing.T) *silentNATS { return startFakeNATS(t, nil) }

func startFakeNATS(t *testing.T, answer func(subject string) []byte) *silentNATS {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := &silentNATS{lis: lis, answer: answer}
	t.Cleanup(func() { lis.Close(); s.drop() })
	go func() {
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			s.mu.Unlock()
			go s.serve(c)
		}
	}()
	return s
}

func (s *silentNATS) serve(c net.Conn) {
	_, _ = c.Write([]byte(`INFO {"server_id":"SILENT","version":"2.11.0","proto":1,"headers":true,"max_payload":1048576}` + "\r\n"))
	r := bufio.NewReader(c)
	subs := map[string]string{} // subject pattern → sid
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "PING":
			_, _ = c.Write([]byte("PONG\r\n"))
		case "SUB":
			subs[f[1]] = f[len(f)-1]
		case "PUB", "HPUB":
			n, _ := strconv.Atoi(f[len(f)-1])
			if _, err := io.ReadFull(r, make([]byte, n+2)); err != nil {
				return
			}
			withReply := (f[0] == "PUB" && len(f) == 4) || (f[0] == "HPUB" && len(f) == 5)
			if !withReply || s.answer == nil { // no reply subject, or silent
				continue
			}
			reply := f[2]
			data := s.answer(f[1])
			for pattern, sid := range subs {
				if data != nil && strings.HasPrefix(reply, strings.TrimSuffix(pattern, "*")) {
					_, _ = fmt.Fprintf(c, "MSG %s %s %d\r\n%s\r\n", reply, sid, len(data), data)
				}
			}
		}
	}
}

func (s *silentNATS) url() string { return "nats://" + s.lis.Addr().String() }

func (s *silentNATS) drop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		c.Close()
	}
	s.conns = nil
}

// A call whose caller set no deadline and that gets no answer ends at the call timeout as
// Unavailable (a write: perhaps recorded); one under way when the connection is lost ends
// then, whatever its deadline; one made while NATS is down fails at once; the caller's own
// deadline stays its own. Which of these ended a call is what it returns (each deadline far
// from the other: 200 ms against a minute), not how long it took, so a busy machine does not
// change the outcome.
func TestCallsEndAtTheirDeadlineOrWhenTheConnectionIsLost(t *testing.T) {
	srv := startSilentNATS(t)
	nc, err := nats.Connect(srv.url(), nats.MaxReconnects(-1), nats.ReconnectWait(time.Hour), nats.ReconnectBufSize(-1))
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	c := newConn(nc, 200*time.Millisecond)
	publish := func(ctx context.Context) error {
		ctx, end, err := c.call(ctx, true)
		if err != nil {
			return err
		}
		_, err = js.Publish(ctx, "fray.enc.a", []byte("x"))
		return end(err)
	}
	patient, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	err = publish(context.Background())
	var down *UnavailableError
	require.ErrorAs(t, err, &down)
	require.ErrorIs(t, err, ErrUnavailable)
	require.Equal(t, "no answer within 200ms", down.Why, "a caller with no deadline: the call timeout")
	require.True(t, down.MayHaveWritten, "a write sent and not confirmed may have been recorded")

	// The caller's 50 ms against the call's minute.
	c.timeout = time.Minute
	hurried, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	err = publish(hurried)
	require.ErrorIs(t, err, context.DeadlineExceeded, "the caller's own deadline")
	require.False(t, errors.Is(err, ErrUnavailable))

	// Lost during the call: it ends then, not at its deadline (a minute) nor the caller's.
	before := nc.Stats().OutMsgs
	done := make(chan error, 1)
	go func() { done <- publish(patient) }()
	require.Eventually(t, func() bool { // the request is on its way
		srv.mu.Lock()
		defer srv.mu.Unlock()
		return len(srv.conns) == 1 && nc.Stats().OutMsgs > before
	}, 2*time.Minute, 5*time.Millisecond)
	srv.drop()
	err = <-done
	require.ErrorAs(t, err, &down)
	require.Equal(t, "the connection to NATS was lost during the call", down.Why)

	// Down: at once (the state, not a deadline, says so), and nothing is sent.
	srv.lis.Close()
	require.Eventually(t, func() bool { return c.current() == nil }, 2*time.Minute, 5*time.Millisecond)
	sent := nc.Stats().OutMsgs
	err = publish(patient)
	require.ErrorAs(t, err, &down)
	require.False(t, down.MayHaveWritten)
	require.Contains(t, down.Why, "NATS is ")
	require.Equal(t, sent, nc.Stats().OutMsgs)
}

func TestCovers(t *testing.T) {
	for _, tc := range []struct {
		p, s string
		ok   bool
	}{
		{"fray.enc.*", "fray.enc.*", true},
		{"fray.>", "fray.enc.*", true},
		{">", "fray.enc.*", true},
		{"fray.*.*", "fray.enc.*", true},
		{"fray.enc.x", "fray.enc.*", false},
		{"fray.enc", "fray.enc.*", false},
		{"fray.enc.*.*", "fray.enc.*", false},
		{"other.*", "fray.enc.*", false},
		{"fray.enc.*", "fray.enc.>", false},
		{"fray.enc.>", "fray.enc.>", true},
		{"fray.enc.>", "fray.enc", false},
	} {
		require.Equal(t, tc.ok, covers(tc.p, tc.s), "%s covers %s", tc.p, tc.s)
	}
}

// A record whose earlier attempt is still being stored (JetStream's "duplicate message id is
// in process") may be recorded: Unavailable, saying so, not an error of the log.
func TestAnAppendWhoseEarlierAttemptIsInProcess(t *testing.T) {
	srv := startFakeNATS(t, func(subject string) []byte {
		if subject == "fray.enc.a" {
			return []byte(`{"error":{"code":409,"err_code":10158,"description":"duplicate message id is in process"}}`)
		}
		return nil
	})
	nc, err := nats.Connect(srv.url())
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	s := &JetStream{cfg: Config{}.withDefaults(), conn: newConn(nc, time.Minute), js: js}
	_, err = s.Append(context.Background(), "a", 7, "a/cmd-1", nil)
	var down *UnavailableError
	require.ErrorAs(t, err, &down)
	require.Equal(t, "an earlier attempt at this command is being recorded", down.Why)
	require.True(t, down.MayHaveWritten)
}

// A request nobody receives (no stream leader during an election, JetStream off) is
// Unavailable at once, and nothing was written.
func TestNoRespondersIsUnavailable(t *testing.T) {
	_, nc := natstest.Start(t)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	c := newConn(nc, time.Minute)
	ctx, end, err := c.call(context.Background(), true)
	require.NoError(t, err)
	_, err = js.Publish(ctx, "fray.enc.nostream", []byte("x")) // no stream made yet
	err = end(err)
	var down *UnavailableError
	require.ErrorAs(t, err, &down)
	require.False(t, down.MayHaveWritten)
	// "does not answer" from no responders, not the call's minute ("no answer within 1m0s").
	require.Contains(t, down.Why, "JetStream does not answer")
}

// A call on a connection this service closed says so (Closed), unlike one on a connection
// that is only down for now: nothing should be tried again on it.
func TestACallOnAClosedConnectionSaysItIsClosed(t *testing.T) {
	_, nc := natstest.Start(t)
	c := newConn(nc, time.Minute)
	nc.Close()
	_, _, err := c.call(context.Background(), false)
	var down *UnavailableError
	require.ErrorAs(t, err, &down)
	require.True(t, down.Closed)
	require.Equal(t, "NATS is closed", down.Why)
}

// BenchmarkCall is what conn.call and its end add to one JetStream call.
func BenchmarkCall(b *testing.B) {
	_, nc := natstest.Start(b)
	c := newConn(nc, DefaultCallTimeout)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		_, end, err := c.call(ctx, false)
		if err != nil {
			b.Fatal(err)
		}
		_ = end(nil)
	}
}
