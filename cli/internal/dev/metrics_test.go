package dev_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/fray-rpg/fray/services/platform/metricstest"
	"github.com/stretchr/testify/require"
)

// TestDevServesMetrics: with --metrics-listen, fray dev serves /metrics: the commands the CLI
// sends are counted by rule system and code, the resolver calls the encounter service makes
// over its own port both as client and server calls; a refused command under its code.
func TestDevServesMetrics(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	metrics := make(chan string, 1)
	addr, stop := start(t, t.TempDir(), func(c *dev.Config) {
		c.MetricsListen = "127.0.0.1:0"
		c.MetricsReady = func(a string) { metrics <- a }
	})
	defer stop()
	at := <-metrics
	sheets := filepath.Join("..", "..", "testdata", "sheets")
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--name", "Ruelle sombre"))
	fray(t, "add", "--addr", addr, id, filepath.Join(sheets, "diego.yaml"), filepath.Join(sheets, "ruffian.yaml"))
	fray(t, "start", "--addr", addr, id)
	var out, errOut bytes.Buffer
	require.NotZero(t, commands.Run(context.Background(), []string{"start", "--addr", addr, id}, &out, &errOut))
	require.Contains(t, errOut.String(), "FailedPrecondition", "started already")

	got := metricstest.Scrape(t, at)
	require.Equal(t, 4.0, got.Value(t, "fray_encounter_commands_total", "system", "loss", "code", "OK"), "create, two adds, start")
	resolves := got.Value(t, "grpc_client_handled_total", "grpc_method", "Resolve", "grpc_code", "OK")
	require.GreaterOrEqual(t, resolves, 4.0)
	require.Equal(t, resolves, got.Value(t, "grpc_server_handled_total", "grpc_method", "Resolve", "grpc_code", "OK"), "served on the same port")
	require.Equal(t, 1.0, got.Value(t, "grpc_server_handled_total", "grpc_method", "StartEncounter", "grpc_code", "OK"))
	require.Equal(t, 1.0, got.Value(t, "fray_encounter_commands_total", "system", "loss", "code", "FailedPrecondition"))
	require.Equal(t, 1.0, got.Value(t, "grpc_server_handled_total", "grpc_method", "StartEncounter", "grpc_code", "FailedPrecondition"))
	require.Equal(t, 1.0, got.Value(t, "fray_encounter_cache_entries"))
}
