package platform

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
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
	lu := logUnary(log, logOpts)
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
