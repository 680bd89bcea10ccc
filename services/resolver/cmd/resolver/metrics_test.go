package main

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"

	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/metricstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// syncBuffer is a bytes.Buffer safe for the server's log and the test's reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestMetricsListen: the command serves /metrics on --metrics-listen (FRAY_METRICS_LISTEN):
// a call made on its gRPC port is counted there, and the port closes when it stops.
func TestMetricsListen(t *testing.T) {
	jwks := authtest.Default().WriteJWKS(t, t.TempDir())
	t.Setenv("FRAY_METRICS_LISTEN", "127.0.0.1:0")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--listen", "127.0.0.1:0", "--jwks", jwks, "--token-issuer", authtest.Issuer, "--token-audience", authtest.Audience}, &logs)
	}()
	serving := regexp.MustCompile(`msg="resolver serving" addr=(\S+) health="?[^ ]*"? metrics=(\S+)`)
	var m []string
	require.Eventually(t, func() bool { m = serving.FindStringSubmatch(logs.String()); return m != nil }, 2*time.Minute, 10*time.Millisecond, "logs: %s", &logs)
	addr, metrics := m[1], m[2]

	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	_, err = rulesv1.NewRulesServiceClient(cc).ListRulesets(authtest.As("gm"), &rulesv1.ListRulesetsRequest{})
	require.NoError(t, err)
	got := metricstest.Scrape(t, metrics)
	require.Equal(t, 1.0, got.Value(t, "grpc_server_handled_total", "grpc_service", "fray.rules.v1.RulesService", "grpc_method", "ListRulesets", "grpc_code", "OK"))
	require.Zero(t, got.Value(t, "grpc_server_handled_total", "grpc_service", "fray.rules.v1.RulesService", "grpc_method", "Resolve", "grpc_code", "OK"))

	cancel()
	require.Equal(t, 0, <-done)
	_, err = http.Get("http://" + metrics + "/metrics")
	require.Error(t, err, "the metrics port is closed once the resolver stops")
}
