// Package telemetry is what a service tells its operators: Prometheus metrics (every RPC
// served and made, refusals by limit) on a port of their own, OpenTelemetry traces when an
// OTLP exporter is configured, and the service's structured log.
package telemetry
