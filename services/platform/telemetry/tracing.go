package telemetry

// Traces: OpenTelemetry through otelgrpc's stats handlers (server and client), exported over
// OTLP/gRPC when the standard environment names a collector, otherwise off: no handler on
// the server or the clients, no provider, nothing done per call.

import (
	"context"
	"fmt"
	"os"
	"strings"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc/filters"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"google.golang.org/grpc"
	"google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/reflection/grpc_reflection_v1alpha"
)

// Tracing is a tracer provider and the gRPC handlers that use it: each call served or made
// is a span, its trace carried in the W3C traceparent header.
type Tracing struct {
	Provider *sdktrace.TracerProvider
}

// TracingFromEnv returns the tracing of service exporting over OTLP/gRPC, configured by the
// standard variables (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, and
// their _HEADERS, _INSECURE, _CERTIFICATE…; OTEL_TRACES_SAMPLER; OTEL_SERVICE_NAME,
// OTEL_RESOURCE_ATTRIBUTES), or nil when neither endpoint is set, OTEL_SDK_DISABLED is true or
// OTEL_TRACES_EXPORTER is none: tracing off.
func TracingFromEnv(ctx context.Context, service string) (*Tracing, error) {
	if !tracingConfigured() {
		return nil, nil
	}
	exp, err := otlptracegrpc.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("OTLP trace exporter (OTEL_EXPORTER_OTLP_ENDPOINT): %w", err)
	}
	return NewTracing(service, sdktrace.WithBatcher(exp)), nil
}

// tracingConfigured tells whether the environment asks for traces.
func tracingConfigured() bool {
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") || strings.EqualFold(os.Getenv("OTEL_TRACES_EXPORTER"), "none") {
		return false
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// NewTracing returns the tracing of service with the given provider options (an exporter:
// sdktrace.WithBatcher, or WithSyncer in tests). OTEL_SERVICE_NAME, when set, names it instead.
func NewTracing(service string, opts ...sdktrace.TracerProviderOption) *Tracing {
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName(service)))
	if err != nil {
		res = resource.Default()
	}
	// The environment has the last word on the name (OTEL_SERVICE_NAME).
	if env, err := resource.New(context.Background(), resource.WithFromEnv()); err == nil {
		if merged, err := resource.Merge(res, env); err == nil {
			res = merged
		}
	}
	return &Tracing{Provider: sdktrace.NewTracerProvider(append([]sdktrace.TracerProviderOption{sdktrace.WithResource(res)}, opts...)...)}
}

// notTraced are the calls not worth a span: health probes and reflection.
var notTraced = filters.None(filters.HealthCheck(),
	filters.ServiceName(grpc_reflection_v1.ServerReflection_ServiceDesc.ServiceName),
	filters.ServiceName(grpc_reflection_v1alpha.ServerReflection_ServiceDesc.ServiceName))

func (t *Tracing) handlerOptions() []otelgrpc.Option {
	return []otelgrpc.Option{
		otelgrpc.WithTracerProvider(t.Provider),
		otelgrpc.WithPropagators(propagation.TraceContext{}),
		// The metrics are Prometheus's (metrics.go): none from here.
		otelgrpc.WithMeterProvider(noop.NewMeterProvider()),
		otelgrpc.WithFilter(notTraced),
	}
}

// ServerOption traces every call the server handles, a child of the caller's span when the
// call carries one.
func (t *Tracing) ServerOption() grpc.ServerOption {
	return grpc.StatsHandler(otelgrpc.NewServerHandler(t.handlerOptions()...))
}

// DialOption traces every call of a client connection, carrying the trace to the server.
func (t *Tracing) DialOption() grpc.DialOption {
	return grpc.WithStatsHandler(otelgrpc.NewClientHandler(t.handlerOptions()...))
}

// Shutdown sends the spans not sent yet and stops the provider.
func (t *Tracing) Shutdown(ctx context.Context) error { return t.Provider.Shutdown(ctx) }
