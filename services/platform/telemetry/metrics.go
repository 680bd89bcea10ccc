package telemetry

// Prometheus metrics: a registry per server, per-RPC metrics from go-grpc-middleware's
// provider (counts by code, a histogram of handling time), refusals by limit, served over
// HTTP on a listener of their own (--metrics-listen, FRAY_METRICS_LISTEN).

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/fray-rpg/fray/services/platform/refusal"
	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/reflection"
)

// The names of the metric families Metrics exports besides the Go runtime's and the
// process's (go_*, process_*). grpc_server_handling_seconds and grpc_client_handling_seconds
// are histograms (_bucket, _sum, _count).
const (
	MetricServerStarted      = "grpc_server_started_total"
	MetricServerHandled      = "grpc_server_handled_total"
	MetricServerHandling     = "grpc_server_handling_seconds"
	MetricServerMsgReceived  = "grpc_server_msg_received_total"
	MetricServerMsgSent      = "grpc_server_msg_sent_total"
	MetricClientStarted      = "grpc_client_started_total"
	MetricClientHandled      = "grpc_client_handled_total"
	MetricClientHandling     = "grpc_client_handling_seconds"
	MetricClientMsgReceived  = "grpc_client_msg_received_total"
	MetricClientMsgSent      = "grpc_client_msg_sent_total"
	MetricLimitRefusals      = "fray_limit_refusals_total"
	metricsPath              = "/metrics"
	metricsReadHeaderTimeout = 5 * time.Second
)

// LatencyBuckets are the bounds (seconds) of the latency histograms: a warm command takes
// about a millisecond, a cold load or a call to a dependency under trouble up to seconds.
var LatencyBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}

// Metrics are a service's Prometheus metrics, in a registry of their own (not the global
// one): the Go runtime and the process, every RPC the server handles (started, handled by
// code, handling time, messages), every RPC its clients make (ClientOptions), and the
// requests refused for going past a limit. A service adds its own to Registry.
type Metrics struct {
	Registry *prometheus.Registry
	server   *grpcprom.ServerMetrics
	client   *grpcprom.ClientMetrics
	refusals *prometheus.CounterVec
}

// NewMetrics returns the metrics of one server, in a new registry.
func NewMetrics() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		server: grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram(
			grpcprom.WithHistogramBuckets(LatencyBuckets))),
		client: grpcprom.NewClientMetrics(grpcprom.WithClientHandlingTimeHistogram(
			grpcprom.WithHistogramBuckets(LatencyBuckets))),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricLimitRefusals,
			Help: "Requests refused for going past a limit (ResourceExhausted), by limit: rate_principal, rate_tenant, and the encounter service's own.",
		}, []string{"limit"}),
	}
	m.Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.server, m.client, m.refusals)
	m.KnownLimits(refusal.LimitRatePrincipal, refusal.LimitRateTenant, refusal.LimitRequestBytes, refusal.LimitSentState)
	return m
}

// KnownLimits makes the refusal series of each limit, at zero, so that a dashboard sees every
// limit before its first refusal.
func (m *Metrics) KnownLimits(limits ...string) {
	for _, l := range limits {
		m.refusals.WithLabelValues(l)
	}
}

// ServerOption puts the metrics' interceptors on a server built by NewServer, outermost,
// whatever the order of the options: they see every call, its final code (a refusal by
// authentication or a rate limit, a stream ended by shutdown as Unavailable) and its whole
// duration.
func (m *Metrics) ServerOption() grpc.ServerOption { return MetricsOption{Metrics: m} }

// MetricsOption marks the metrics among a server's options, for NewServer.
type MetricsOption struct {
	grpc.EmptyServerOption
	Metrics *Metrics
}

// Interceptors are the metrics' server interceptors; NewServer puts them before every other.
func (m *Metrics) Interceptors() []grpc.ServerOption {
	exemplar := grpcpromExemplar()
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(m.server.UnaryServerInterceptor(exemplar), m.countRefusalsUnary),
		grpc.ChainStreamInterceptor(m.server.StreamServerInterceptor(exemplar), m.countRefusalsStream),
	}
}

func grpcpromExemplar() grpcprom.Option { return grpcprom.WithExemplarFromContext(traceExemplar) }

// traceExemplar links a latency observation to its trace, when the call is traced and
// sampled (an exemplar, shown in the OpenMetrics exposition).
func traceExemplar(ctx context.Context) prometheus.Labels {
	if sc := trace.SpanContextFromContext(ctx); sc.IsSampled() {
		return prometheus.Labels{"trace_id": sc.TraceID().String()}
	}
	return nil
}

// InitializeServer makes every series of every method registered on srv (handled for each
// code), at zero, so that rates and ratios exist before the first call.
func (m *Metrics) InitializeServer(srv reflection.ServiceInfoProvider) {
	m.server.InitializeMetrics(srv)
}

// ClientOptions are the dial options counting the calls of a client connection (the
// encounter service's to the resolver): grpc_client_*.
func (m *Metrics) ClientOptions() []grpc.DialOption {
	if m == nil {
		return nil
	}
	return []grpc.DialOption{
		grpc.WithChainUnaryInterceptor(m.client.UnaryClientInterceptor()),
		grpc.WithChainStreamInterceptor(m.client.StreamClientInterceptor()),
	}
}

// Refused counts a refusal of limit.
func (m *Metrics) Refused(limit string) { m.refusals.WithLabelValues(limit).Inc() }

func (m *Metrics) countRefusalsUnary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	if l := refusal.LimitOf(err); l != "" {
		m.Refused(l)
	}
	return resp, err
}

func (m *Metrics) countRefusalsStream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	err := handler(srv, ss)
	if l := refusal.LimitOf(err); l != "" {
		m.Refused(l)
	}
	return err
}

// Handler serves the registry in the Prometheus text format (or OpenMetrics, with the
// latency histograms' exemplars, to a scraper that asks for it).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{EnableOpenMetrics: true, Registry: m.Registry})
}

// Serve serves the metrics at /metrics on lis, plain HTTP, until stop is called.
func (m *Metrics) Serve(lis net.Listener, log *slog.Logger) (stop func()) {
	mux := http.NewServeMux()
	mux.Handle(metricsPath, m.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: metricsReadHeaderTimeout}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := hs.Serve(lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics port", "addr", lis.Addr().String(), "err", err)
		}
	}()
	return func() {
		_ = hs.Close()
		<-done
	}
}

// TelemetryFlags are how a service exports metrics: --metrics-listen. Traces follow the
// OpenTelemetry environment (OTEL_EXPORTER_OTLP_ENDPOINT; tracing.go).
type Flags struct {
	MetricsListen string
}

// AddTelemetryFlags adds --metrics-listen (env FRAY_METRICS_LISTEN) to fs.
func AddFlags(fs *flag.FlagSet) *Flags {
	f := &Flags{}
	fs.StringVar(&f.MetricsListen, "metrics-listen", "", "serve Prometheus metrics at /metrics, plain HTTP, on this address such as :9090 (env FRAY_METRICS_LISTEN; default: none, no metrics kept). Traces go to an OTLP collector when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set")
	return f
}

// Telemetry is a service's metrics and traces, each off (nil) unless configured.
type Telemetry struct {
	// Metrics, when --metrics-listen is given.
	Metrics *Metrics
	// Tracing, when an OTLP exporter is configured (tracing.go).
	Tracing *Tracing
	lis     net.Listener
	log     *slog.Logger
	stop    func()
}

// Start opens the metrics listener (when --metrics-listen is given) and the trace exporter
// (when the environment names one); service names the service in its traces. Serve serves
// the metrics; Close stops both.
func (f *Flags) Start(ctx context.Context, service string, log *slog.Logger) (*Telemetry, error) {
	t := &Telemetry{log: log}
	if f.MetricsListen != "" {
		lis, err := net.Listen("tcp", f.MetricsListen)
		if err != nil {
			return nil, fmt.Errorf("--metrics-listen (FRAY_METRICS_LISTEN) %s: %w", f.MetricsListen, err)
		}
		t.lis, t.Metrics = lis, NewMetrics()
	}
	tr, err := TracingFromEnv(ctx, service)
	if err != nil {
		if t.lis != nil {
			t.lis.Close()
		}
		return nil, err
	}
	t.Tracing = tr
	return t, nil
}

// ServerOptions are the options of NewServer that keep the metrics and the traces of every
// call.
func (t *Telemetry) ServerOptions() []grpc.ServerOption {
	var opts []grpc.ServerOption
	if t == nil {
		return nil
	}
	if t.Metrics != nil {
		opts = append(opts, t.Metrics.ServerOption())
	}
	if t.Tracing != nil {
		opts = append(opts, t.Tracing.ServerOption())
	}
	return opts
}

// DialOptions are those of a client connection the service makes (to the resolver): its
// calls counted and traced, the trace carried on.
func (t *Telemetry) DialOptions() []grpc.DialOption {
	if t == nil {
		return nil
	}
	opts := t.Metrics.ClientOptions()
	if t.Tracing != nil {
		opts = append(opts, t.Tracing.DialOption())
	}
	return opts
}

// TracerProvider is the provider of the service's own spans, nil when tracing is off.
func (t *Telemetry) TracerProvider() trace.TracerProvider {
	if t == nil || t.Tracing == nil {
		return nil
	}
	return t.Tracing.Provider
}

// Serve starts serving the metrics, every series of srv's methods made at zero; call it once
// the services are registered on srv.
func (t *Telemetry) Serve(srv reflection.ServiceInfoProvider) {
	if t == nil || t.Metrics == nil || t.lis == nil || t.stop != nil {
		return
	}
	t.Metrics.InitializeServer(srv)
	t.stop = t.Metrics.Serve(t.lis, t.log)
	t.log.Info("metrics serving", "addr", t.lis.Addr().String(), "path", metricsPath)
}

// Addr is the metrics listener's address, or "".
func (t *Telemetry) Addr() string {
	if t == nil || t.lis == nil {
		return ""
	}
	return t.lis.Addr().String()
}

// Close stops serving the metrics and sends the spans not sent yet (for up to 5 s).
func (t *Telemetry) Close() {
	if t == nil {
		return
	}
	if t.stop != nil {
		t.stop()
	} else if t.lis != nil {
		t.lis.Close()
	}
	if t.Tracing != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := t.Tracing.Shutdown(ctx); err != nil {
			t.log.Warn("traces not all sent", "err", err)
		}
	}
}
