package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/peer"
)

// BenchmarkCallLogging is the cost of the logging layer (note + logging interceptor) for one
// successful unary call at the default INFO level into io.Discard, for a hot method (health
// Check: skipped) and for one that is not (ListRulesets: its line written).
//
//	go test ./services/platform -run '^$' -bench CallLogging -benchmem
func BenchmarkCallLogging(b *testing.B) {
	log := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))
	logOpts := []logging.Option{logging.WithLogOnEvents(logging.FinishCall),
		logging.WithLevels(CodeLevel), logging.WithFieldsFromContextAndCallMeta(noteFields)}
	lu := logUnary(log, callLogger(log, nil), logOpts)
	ctx := peer.NewContext(context.Background(), &peer.Peer{Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4242}})
	ok := func(context.Context, any) (any, error) { return &healthpb.HealthCheckResponse{}, nil }
	for _, m := range []string{healthpb.Health_Check_FullMethodName, "/fray.rules.v1.RulesService/ListRulesets"} {
		info := &grpc.UnaryServerInfo{FullMethod: m}
		b.Run(m[1:], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = noteUnary(ctx, &healthpb.HealthCheckRequest{}, info, func(ctx context.Context, req any) (any, error) {
					return lu(ctx, req, info, ok)
				})
			}
		})
	}
}

// A thinned code writes one line per interval, which says how many lines it held back; other
// codes, and other thinned codes, are not held back by it.
func TestThinnedLinesSayHowManyTheyStandFor(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	lim := newLineLimiter(10*time.Second, func() time.Time { return now })
	var buf bytes.Buffer
	calls := callLogger(slog.New(slog.NewJSONHandler(&buf, nil)), lim)
	line := func(lvl logging.Level, code string) {
		calls.Log(context.Background(), lvl, "finished call", "grpc.method", "Submit", "grpc.code", code)
	}
	written := func() []map[string]any {
		var out []map[string]any
		dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
		for dec.More() {
			var m map[string]any
			require.NoError(t, dec.Decode(&m))
			out = append(out, m)
		}
		return out
	}
	for range 50 {
		line(logging.LevelWarn, "Unavailable")
	}
	line(logging.LevelWarn, "DeadlineExceeded")
	for range 3 {
		line(logging.LevelError, "Internal")
	}
	now = now.Add(9 * time.Second)
	line(logging.LevelWarn, "Unavailable") // still within the interval: held back
	now = now.Add(time.Second)
	line(logging.LevelWarn, "Unavailable")

	var codes []string
	for _, l := range written() {
		codes = append(codes, fmt.Sprint(l["grpc.code"], " ", l["unlogged"]))
	}
	require.Equal(t, []string{
		"Unavailable 0", "DeadlineExceeded 0",
		"Internal <nil>", "Internal <nil>", "Internal <nil>",
		"Unavailable 50", // the 49 after the first, and the one at 9 s
	}, codes)
}

func TestLogSafe(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"enc-abc", "enc-abc"},
		{"\x00\x1b[2J\r\nforged", `\x00\x1b[2J\x0d\x0aforged`},
		{"evil\u202eexe", `evil\u202eexe`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"back\\slash", `back\\slash`},
		{"é ü 日本", "é ü 日本"},
		{"0123456789", "01234…"},
	} {
		require.Equal(t, c.want, LogSafe(c.in, 5+len(c.in)*boolInt(c.in != "0123456789")), c.in)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
