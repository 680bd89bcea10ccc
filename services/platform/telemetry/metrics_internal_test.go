package telemetry

import (
	"context"
	"testing"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// BenchmarkMetricsInterceptors is what the metrics add to one unary call: the interceptors
// NewServer puts outermost (go-grpc-middleware's server metrics, with a trace exemplar looked
// up, and the refusal counter) around a handler that answers at once; "off" is the bare call.
//
//	go test ./services/platform -run '^$' -bench MetricsInterceptors -benchmem
func BenchmarkMetricsInterceptors(b *testing.B) {
	ok := func(context.Context, any) (any, error) { return &healthpb.HealthCheckResponse{}, nil }
	info := &grpc.UnaryServerInfo{FullMethod: "/fray.encounter.v1.EncounterService/Submit"}
	req := &healthpb.HealthCheckRequest{}
	b.Run("off", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = ok(context.Background(), req)
		}
	})
	m := NewMetrics()
	unary := m.server.UnaryServerInterceptor(grpcpromExemplar())
	b.Run("on", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = unary(context.Background(), req, info, func(ctx context.Context, req any) (any, error) {
				return m.countRefusalsUnary(ctx, req, info, ok)
			})
		}
	})
}
