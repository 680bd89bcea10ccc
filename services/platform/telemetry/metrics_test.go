package telemetry_test

import (
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/metricstest"
	"github.com/fray-rpg/fray/services/platform/ratelimit"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/fray-rpg/fray/services/platform/validate"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// limitsDesc is a service whose one method answers by the id asked: "ok", a refusal of the
// limit "encounter_bytes", else NotFound.
var limitsDesc = grpc.ServiceDesc{
	ServiceName: "test.Limits",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Get",
		Handler: func(_ any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
			in := &encounterv1.GetEncounterRequest{}
			if err := dec(in); err != nil {
				return nil, err
			}
			h := func(ctx context.Context, req any) (any, error) {
				switch id := req.(*encounterv1.GetEncounterRequest).GetEncounterId(); id {
				case "ok":
					return &encounterv1.GetEncounterResponse{}, nil
				case "big":
					return nil, refusal.OverLimit("encounter_bytes", "encounter %q takes too many bytes", id)
				default:
					return nil, status.Errorf(codes.NotFound, "there is no encounter %q", id)
				}
			}
			return interceptor(ctx, in, &grpc.UnaryServerInfo{FullMethod: "/test.Limits/Get"}, h)
		},
	}},
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// serveWithTelemetry serves limitsDesc with tel's options (and extra) on a loopback listener,
// its metrics on their own; it returns a client connection dialled with dial.
func serveWithTelemetry(t *testing.T, tel *telemetry.Telemetry, dial []grpc.DialOption, extra ...grpc.ServerOption) *grpc.ClientConn {
	t.Helper()
	srv := server.New(quietLog(), append(append(authtest.ServerOptions(), extra...), tel.ServerOptions()...)...)
	srv.GRPC.RegisterService(&limitsDesc, struct{}{})
	tel.Serve(srv)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done); tel.Close() })
	cc, err := grpc.NewClient(lis.Addr().String(), append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, dial...)...)
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	return cc
}

func startTelemetry(t *testing.T, listen string) *telemetry.Telemetry {
	t.Helper()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	tel, err := (&telemetry.Flags{MetricsListen: listen}).Start(context.Background(), "test", quietLog())
	require.NoError(t, err)
	return tel
}

// TestMetricsCountEveryCallByCode: after real calls over gRPC, a scrape of /metrics over a
// real listener has each call under its code (an authentication refusal and a rate limit's
// too: the interceptors are outermost), its handling time, the refusals by limit, the series
// of every registered method made at zero before any call, and the Go runtime's.
func TestMetricsCountEveryCallByCode(t *testing.T) {
	tel := startTelemetry(t, "127.0.0.1:0")
	require.NotNil(t, tel.Metrics)
	require.NotEmpty(t, tel.Addr())
	// Three calls of one principal pass, the fourth is over its rate.
	lim := ratelimit.New(ratelimit.Limits{PrincipalRate: 1e-9, PrincipalBurst: 3})
	cc := serveWithTelemetry(t, tel, nil, ratelimit.WithLimiter(lim))

	before := metricstest.Scrape(t, tel.Addr())
	for _, code := range []string{"OK", "NotFound", "Aborted", "Unauthenticated"} {
		require.Zero(t, before.Value(t, telemetry.MetricServerHandled, "grpc_service", "test.Limits", "grpc_method", "Get", "grpc_code", code), code)
	}
	require.Zero(t, before.Value(t, telemetry.MetricServerHandled, "grpc_service", "grpc.health.v1.Health", "grpc_method", "Check", "grpc_code", "OK"))

	get := func(ctx context.Context, id string) error {
		return cc.Invoke(ctx, "/test.Limits/Get", &encounterv1.GetEncounterRequest{EncounterId: id}, &encounterv1.GetEncounterResponse{})
	}
	require.NoError(t, get(authtest.As("gm"), "ok"))
	require.Equal(t, codes.NotFound, status.Code(get(authtest.As("gm"), "missing")))
	err := get(authtest.As("gm"), "big")
	require.Equal(t, codes.ResourceExhausted, status.Code(err))
	require.Contains(t, status.Convert(err).Message(), `encounter "big" takes too many bytes`)
	require.Equal(t, codes.ResourceExhausted, status.Code(get(authtest.As("gm"), "ok")), "over the rate")
	require.Equal(t, codes.ResourceExhausted, status.Code(get(authtest.As("alice"), strings.Repeat("x", validate.MaxRequestBytes))), "too large")
	require.Equal(t, codes.Unauthenticated, status.Code(get(context.Background(), "ok")))
	_, err = healthpb.NewHealthClient(cc).Check(context.Background(), &healthpb.HealthCheckRequest{})
	require.NoError(t, err)

	got := metricstest.Scrape(t, tel.Addr())
	method := []string{"grpc_service", "test.Limits", "grpc_method", "Get"}
	// The call over the rate is refused before it is read (platform's tap: the gm's token is
	// known by then, its bucket empty): counted as a refusal of its limit, not as a call
	// handled.
	for code, want := range map[string]float64{"OK": 1, "NotFound": 1, "ResourceExhausted": 2, "Unauthenticated": 1, "Internal": 0} {
		require.Equalf(t, want, got.Value(t, telemetry.MetricServerHandled, append(method, "grpc_code", code)...), "handled with %s", code)
	}
	require.Equal(t, 5.0, got.Value(t, telemetry.MetricServerStarted, method...))
	require.Equal(t, 5.0, got.Value(t, telemetry.MetricServerHandling+"_count", method...))
	require.Positive(t, got.Value(t, telemetry.MetricServerHandling+"_sum", method...))
	require.Equal(t, 1.0, got.Value(t, telemetry.MetricLimitRefusals, "limit", refusal.LimitRatePrincipal))
	require.Equal(t, 1.0, got.Value(t, telemetry.MetricLimitRefusals, "limit", "encounter_bytes"))
	require.Equal(t, 1.0, got.Value(t, telemetry.MetricLimitRefusals, "limit", refusal.LimitRequestBytes))
	require.Zero(t, got.Value(t, telemetry.MetricLimitRefusals, "limit", refusal.LimitRateTenant))
	require.Equal(t, 1.0, got.Value(t, telemetry.MetricServerHandled, "grpc_service", "grpc.health.v1.Health", "grpc_method", "Check", "grpc_code", "OK"))
	require.Positive(t, got.Value(t, "go_goroutines"))
	require.Positive(t, got.Value(t, "process_resident_memory_bytes"))
}

// TestStreamEndedByShutdownIsCountedUnavailable: the metrics see a stream's code after the
// server's own mapping — a watch ended by shutdown is Unavailable, as the client sees it.
func TestStreamEndedByShutdownIsCountedUnavailable(t *testing.T) {
	tel := startTelemetry(t, "127.0.0.1:0")
	srv := server.New(quietLog(), append(authtest.ServerOptions(), tel.ServerOptions()...)...)
	tel.Serve(srv)
	t.Cleanup(tel.Close)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	watch, err := healthpb.NewHealthClient(cc).Watch(context.Background(), &healthpb.HealthCheckRequest{})
	require.NoError(t, err)
	_, err = watch.Recv()
	require.NoError(t, err)
	cancel()
	require.NoError(t, <-done)
	for {
		if _, err = watch.Recv(); err != nil {
			break
		}
	}
	require.Equal(t, codes.Unavailable, status.Code(err))
	got := metricstest.Scrape(t, tel.Addr())
	require.Equal(t, 1.0, got.Value(t, telemetry.MetricServerHandled, "grpc_method", "Watch", "grpc_code", "Unavailable"))
	require.Equal(t, 1.0, got.Value(t, telemetry.MetricServerStarted, "grpc_method", "Watch", "grpc_type", "server_stream"))
}

// TestTelemetryOffByDefault: without --metrics-listen and without an OTLP endpoint, nothing
// is kept: no option on the server or its clients, no tracer provider, no listener.
func TestTelemetryOffByDefault(t *testing.T) {
	tel := startTelemetry(t, "")
	require.Nil(t, tel.Metrics)
	require.Nil(t, tel.Tracing)
	require.Empty(t, tel.ServerOptions())
	require.Empty(t, tel.DialOptions())
	require.Nil(t, tel.TracerProvider())
	require.Empty(t, tel.Addr())
	tel.Serve(server.New(quietLog()))
	tel.Close()
	var none *telemetry.Telemetry
	require.Empty(t, none.ServerOptions())
	require.Nil(t, none.TracerProvider())
	none.Close()
}

// TestMetricsListenFlag: --metrics-listen takes FRAY_METRICS_LISTEN; an address that cannot
// be listened on is an error naming both.
func TestMetricsListenFlag(t *testing.T) {
	t.Setenv("FRAY_METRICS_LISTEN", "127.0.0.1:0")
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	f := telemetry.AddFlags(fs)
	require.NoError(t, platform.ParseFlags(fs, nil))
	require.Equal(t, "127.0.0.1:0", f.MetricsListen)

	f.MetricsListen = "127.0.0.1:notaport"
	_, err := f.Start(context.Background(), "test", quietLog())
	require.ErrorContains(t, err, "--metrics-listen (FRAY_METRICS_LISTEN) 127.0.0.1:notaport")
}

// TestTracingFollowsTheEnvironment: tracing is on when an OTLP endpoint is named, unless the
// SDK is disabled or the traces exporter is none.
func TestTracingFollowsTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		on   bool
	}{
		{"nothing", map[string]string{}, false},
		{"endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317"}, true},
		{"traces endpoint", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4317"}, true},
		{"disabled", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_SDK_DISABLED": "true"}, false},
		{"exporter none", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_TRACES_EXPORTER": "none"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER"} {
				t.Setenv(k, tc.env[k])
			}
			tr, err := telemetry.TracingFromEnv(context.Background(), "test")
			require.NoError(t, err)
			require.Equal(t, tc.on, tr != nil)
			if tr != nil {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				require.NoError(t, tr.Shutdown(ctx))
			}
		})
	}
}

// TestCallsAreTracedAcrossClientAndServer: a call from a traced client is a client span and
// a server span of one trace, the server's the client's child; health checks are not
// traced; the latency observation of a traced call carries its trace id (an exemplar, in the
// OpenMetrics exposition).
func TestCallsAreTracedAcrossClientAndServer(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tel := startTelemetry(t, "127.0.0.1:0")
	tel.Tracing = telemetry.NewTracing("test", sdktrace.WithSyncer(spans))
	clientTracing := telemetry.NewTracing("client", sdktrace.WithSyncer(spans))
	cc := serveWithTelemetry(t, tel, []grpc.DialOption{clientTracing.DialOption()})

	require.NoError(t, cc.Invoke(authtest.As("gm"), "/test.Limits/Get", &encounterv1.GetEncounterRequest{EncounterId: "ok"}, &encounterv1.GetEncounterResponse{}))
	_, err := healthpb.NewHealthClient(cc).Check(context.Background(), &healthpb.HealthCheckRequest{})
	require.NoError(t, err)

	// The server ends its span when it handles the call's end, which may come after the client
	// has its answer (CI once looked too soon): wait for both spans.
	var client, server tracetest.SpanStub
	var names []string
	require.Eventually(t, func() bool {
		client, server, names = tracetest.SpanStub{}, tracetest.SpanStub{}, nil
		for _, s := range spans.GetSpans() {
			names = append(names, s.Name)
			switch s.SpanKind {
			case trace.SpanKindClient:
				client = s
			case trace.SpanKindServer:
				server = s
			}
		}
		return client.SpanContext.IsValid() && server.SpanContext.IsValid()
	}, 2*time.Minute, 5*time.Millisecond, "a client span and a server span")
	for _, name := range names {
		require.Equal(t, "test.Limits/Get", name, "only the call is traced, not health")
	}
	require.Len(t, names, 2, "one client span and one server span: %v", names)
	require.Equal(t, client.SpanContext.TraceID(), server.SpanContext.TraceID())
	require.Equal(t, client.SpanContext.SpanID(), server.Parent.SpanID())

	req, err := http.NewRequest(http.MethodGet, "http://"+tel.Addr()+"/metrics", nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "application/openmetrics-text; version=1.0.0")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Contains(t, string(body), `trace_id="`+server.SpanContext.TraceID().String()+`"`)
}

// TestRefusalIsAStatusNamingItsLimit: a Refusal is ResourceExhausted to gRPC and says its
// limit, wrapped or not; a rate limit's error names the principal's or the tenant's.
func TestRefusalIsAStatusNamingItsLimit(t *testing.T) {
	err := refusal.OverLimit("watch_buffer", "fell %d records behind", 256)
	require.Equal(t, codes.ResourceExhausted, status.Code(err))
	require.Equal(t, "fell 256 records behind", status.Convert(err).Message())
	require.Equal(t, "rpc error: code = ResourceExhausted desc = fell 256 records behind", err.Error())
	var r *refusal.LimitExceeded
	require.True(t, errors.As(errors.Join(errors.New("context"), err), &r))
	require.Equal(t, "watch_buffer", r.RefusedLimit())
	require.Equal(t, refusal.LimitRatePrincipal, (&ratelimit.Error{Who: "dev/gm"}).RefusedLimit())
	require.Equal(t, refusal.LimitRateTenant, (&ratelimit.Error{Who: "tenant dev"}).RefusedLimit())
	require.True(t, strings.HasPrefix(telemetry.MetricLimitRefusals, "fray_"))
}
