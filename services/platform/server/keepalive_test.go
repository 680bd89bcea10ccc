package server_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/protobuf/proto"
)

// h2 is a bare HTTP/2 client, to do what a gRPC client never does: ping too often, or stop
// answering the server's pings.
type h2 struct {
	t    *testing.T
	conn net.Conn
	fr   *http2.Framer
}

func dialH2(t *testing.T, addr string) *h2 {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	// A generous deadline: a frame awaited longer than this is the test's failure, however
	// busy the machine (a test that expects the server to close the connection tells the two
	// apart: see dropped).
	require.NoError(t, conn.SetDeadline(time.Now().Add(2*time.Minute)))
	_, err = conn.Write([]byte(http2.ClientPreface))
	require.NoError(t, err)
	c := &h2{t: t, conn: conn, fr: http2.NewFramer(conn, conn)}
	require.NoError(t, c.fr.WriteSettings())
	return c
}

// next reads the next frame but SETTINGS and WINDOW_UPDATE (a SETTINGS is acknowledged).
func (c *h2) next() (http2.Frame, error) {
	for {
		f, err := c.fr.ReadFrame()
		if err != nil {
			return nil, err
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				require.NoError(c.t, c.fr.WriteSettingsAck())
			}
			continue
		case *http2.WindowUpdateFrame:
			continue
		}
		return f, nil
	}
}

// watchHealth opens grpc.health.v1.Health/Watch of the whole server on stream 1.
func (c *h2) watchHealth() {
	var hb bytes.Buffer
	enc := hpack.NewEncoder(&hb)
	for _, kv := range [][2]string{{":method", "POST"}, {":scheme", "http"}, {":path", "/grpc.health.v1.Health/Watch"},
		{":authority", c.conn.RemoteAddr().String()}, {"content-type", "application/grpc"}, {"te", "trailers"}} {
		require.NoError(c.t, enc.WriteField(hpack.HeaderField{Name: kv[0], Value: kv[1]}))
	}
	require.NoError(c.t, c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: hb.Bytes(), EndHeaders: true}))
	msg, err := proto.Marshal(&healthpb.HealthCheckRequest{})
	require.NoError(c.t, err)
	require.NoError(c.t, c.fr.WriteData(1, true, append(binary.BigEndian.AppendUint32([]byte{0}, uint32(len(msg))), msg...)))
}

// status decodes a health Watch message.
func healthStatus(t *testing.T, f *http2.DataFrame) healthpb.HealthCheckResponse_ServingStatus {
	t.Helper()
	d := f.Data()
	require.GreaterOrEqual(t, len(d), 5)
	var r healthpb.HealthCheckResponse
	require.NoError(t, proto.Unmarshal(d[5:], &r))
	return r.GetStatus()
}

func serveFor(t *testing.T, srv *server.Server) string {
	t.Helper()
	lis := listen(t)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); <-served })
	return lis.Addr().String()
}

// The clients' keepalive is within what the servers allow.
func TestClientKeepaliveWithinThePolicy(t *testing.T) {
	c, p, s := server.ClientKeepalive(), server.KeepalivePolicy(), server.ServerKeepalive()
	require.GreaterOrEqual(t, c.Time, p.MinTime, "a client pinging faster than MinTime gets GOAWAY too_many_pings")
	require.True(t, p.PermitWithoutStream || !c.PermitWithoutStream, "clients ping idle connections: the server must allow it")
	require.Greater(t, s.Time, time.Duration(0))
	require.Greater(t, s.Timeout, time.Duration(0))
	require.GreaterOrEqual(t, c.Time, 10*time.Second, "grpc-go raises a client's Time below 10s to 10s")
}

// A client pinging faster than the policy allows (every KeepaliveMinTime) gets GOAWAY
// ENHANCE_YOUR_CALM "too_many_pings", and its connection is closed.
func TestTooManyPingsGetGoAway(t *testing.T) {
	srv := server.New(telemetry.NewLogger("text", "error"))
	c := dialH2(t, serveFor(t, srv))
	for i := range 4 {
		require.NoError(t, c.fr.WritePing(false, [8]byte{byte(i + 1)}))
	}
	for {
		f, err := c.next()
		require.NoError(t, err, "no GOAWAY before the connection closed")
		if g, ok := f.(*http2.GoAwayFrame); ok {
			require.Equal(t, http2.ErrCodeEnhanceYourCalm, g.ErrCode)
			require.Equal(t, "too_many_pings", string(g.DebugData()))
			break
		}
	}
	for {
		if _, err := c.next(); err != nil {
			require.ErrorIs(t, err, io.EOF, "the server closes the connection")
			return
		}
	}
}

// fastKeepalive is the server's keepalive with Time shortened to grpc-go's minimum, so that a
// test lives through several rounds, and the given Timeout.
func fastKeepalive(timeout time.Duration) grpc.ServerOption {
	return grpc.KeepaliveParams(keepalive.ServerParameters{Time: time.Second, Timeout: timeout})
}

// An idle watch lives on past the server's keepalive Time: the server pings the silent
// connection, the client answers, and the stream carries the next change.
func TestIdleWatchOutlivesKeepaliveTime(t *testing.T) {
	// A generous Timeout: a test slowed by the machine's load still answers in time.
	srv := server.New(telemetry.NewLogger("text", "error"), fastKeepalive(10*time.Second))
	dep := srv.Health.Readiness("", "test")
	c := dialH2(t, serveFor(t, srv))
	c.watchHealth()
	pings := 0
	for {
		f, err := c.next()
		require.NoError(t, err)
		switch f := f.(type) {
		case *http2.DataFrame:
			st := healthStatus(t, f)
			if pings < 3 {
				require.Equal(t, serving, st, "the first message, before any ping")
				continue
			}
			require.Equal(t, notServing, st, "the change after 3 keepalive rounds, on the same stream")
			return
		case *http2.PingFrame:
			require.False(t, f.IsAck())
			require.NoError(t, c.fr.WritePing(true, f.Data))
			if pings++; pings == 3 {
				dep.NotReady("test")
			}
		case *http2.GoAwayFrame, *http2.RSTStreamFrame:
			t.Fatalf("the idle watch was ended: %v", f)
		}
	}
}

// A client that stops answering (gone without closing its connection) is dropped after
// KeepaliveTime + KeepaliveTimeout, its watch with it: the server closes the connection (not
// the test's own read deadline, which would be a timeout).
func TestSilentClientIsDropped(t *testing.T) {
	srv := server.New(telemetry.NewLogger("text", "error"), fastKeepalive(time.Second))
	c := dialH2(t, serveFor(t, srv))
	c.watchHealth()
	start := time.Now()
	pinged := false
	for {
		f, err := c.next()
		if err != nil {
			var ne net.Error
			require.False(t, errors.As(err, &ne) && ne.Timeout(), "never dropped: %v", err)
			require.True(t, errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || isReset(err), "%v", err)
			break
		}
		if p, ok := f.(*http2.PingFrame); ok && !p.IsAck() {
			pinged = true // and not answered
		}
	}
	require.True(t, pinged)
	t.Logf("dropped after %v", time.Since(start).Round(time.Millisecond))
}

func isReset(err error) bool {
	var op *net.OpError
	return errors.As(err, &op)
}

// countingListener counts the connections it accepted.
type countingListener struct {
	net.Listener
	mu sync.Mutex
	n  int
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.n++
		l.mu.Unlock()
	}
	return c, err
}

func (l *countingListener) accepted() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

// Issue 22, item 4: a server with a connection age asks each client connection to go
// (GOAWAY) once it is that old, so a client keeps calling through new connections, each
// resolving the service's name again (where an instance added since gets its share), and no
// call fails for it.
func TestAConnectionPastItsAgeIsReplacedWithoutAFailedCall(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	f := server.AddServeFlags(fs, server.ConnectionAge{Max: 300 * time.Millisecond, Grace: 5 * time.Second})
	require.NoError(t, platform.ParseFlags(fs, nil))
	srv := server.New(telemetry.NewLogger("text", "error"), f.ServerOptions()...)
	lis := &countingListener{Listener: listen(t)}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); <-served })
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	client := healthpb.NewHealthClient(cc)
	began, calls := time.Now(), 0
	for lis.accepted() < 3 {
		require.Less(t, time.Since(began), time.Minute, "the client still on its first connections after a minute of calls")
		_, err := client.Check(context.Background(), &healthpb.HealthCheckRequest{}, grpc.WaitForReady(true))
		require.NoError(t, err, "call %d", calls)
		calls++
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("%d calls, none failed, over %d connections in %s", calls, lis.accepted(), time.Since(began).Round(time.Millisecond))
}
