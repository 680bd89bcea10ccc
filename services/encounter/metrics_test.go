package encounter_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/metricstest"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/fray-rpg/fray/services/resolver"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// flakySnapshots fails its writes while fail is set.
type flakySnapshots struct {
	store.Snapshots
	fail atomic.Bool
}

func (f *flakySnapshots) PutSnapshot(ctx context.Context, id string, s *encounterv1.Snapshot) error {
	if f.fail.Load() {
		return errors.New("the snapshot bucket is full")
	}
	return f.Snapshots.PutSnapshot(ctx, id, s)
}

// observed is the hosted topology in one test, with metrics and (when spans is set) traces:
// a resolver server and an encounter service, each a server.Server on its own loopback
// listener, the service asking the resolver over gRPC with a token, its metrics on a
// listener of their own.
type observed struct {
	client    encounterv1.EncounterServiceClient
	svc       *encounter.Service
	store     backend
	snapshots *flakySnapshots
	metrics   string // the metrics address
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// serveOn serves srv on a loopback listener until the test ends; its address.
func serveOn(t *testing.T, srv *server.Server) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	return lis.Addr().String()
}

func dialLoopback(t *testing.T, addr string, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	cc, err := grpc.NewClient(addr, append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	return cc
}

func startObserved(t *testing.T, opts encounter.Options, spans *tracetest.InMemoryExporter) *observed {
	t.Helper()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	telemetryOf := func(name, listen string) *telemetry.Telemetry {
		tel, err := (&telemetry.Flags{MetricsListen: listen}).Start(context.Background(), name, quiet())
		require.NoError(t, err)
		if spans != nil {
			tel.Tracing = telemetry.NewTracing(name, sdktrace.WithSyncer(spans))
		}
		t.Cleanup(tel.Close)
		return tel
	}
	// The resolver, with its own telemetry.
	resolverTel := telemetryOf("resolver", "")
	rules := server.New(quiet(), append(authtest.ServerOptions(), resolverTel.ServerOptions()...)...)
	rulesv1.RegisterRulesServiceServer(rules.GRPC, resolver.New(systems.Registry()))
	rulesAddr := serveOn(t, rules)

	// The encounter service, its calls to the resolver counted and traced.
	tel := telemetryOf("encounter", "127.0.0.1:0")
	_, nc := natstest.Start(t)
	st, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	snaps := &flakySnapshots{Snapshots: st}
	token := auth.StaticToken(authtest.Default().Token("encounter-service", identity.ScopeResolve))
	rulesConn := dialLoopback(t, rulesAddr, append(tel.DialOptions(), grpc.WithPerRPCCredentials(auth.PerRPCToken(token, "", false)))...)
	sum := sha256.Sum256([]byte("fray-metrics"))
	opts.NewSeed = func() []byte { return sum[:] }
	opts.Snapshots, opts.Log = snaps, quiet()
	opts.Metrics, opts.Tracing = encounter.NewMetrics(tel.Metrics), tel.Tracing
	svc := encounter.New(st, st, &encounter.RemoteDecider{Client: rulesv1.NewRulesServiceClient(rulesConn)}, systems.Registry(), opts)
	srv := server.New(quiet(), append(authtest.ServerOptions(), tel.ServerOptions()...)...)
	encounter.Register(srv.GRPC, svc)
	tel.Serve(srv)
	addr := serveOn(t, srv)

	// The client, traced too.
	var clientOpts []grpc.DialOption
	if spans != nil {
		clientOpts = append(clientOpts, telemetry.NewTracing("client", sdktrace.WithSyncer(spans)).DialOption())
	}
	return &observed{client: encounterv1.NewEncounterServiceClient(dialLoopback(t, addr, clientOpts...)), svc: svc, store: st, snapshots: snaps, metrics: tel.Addr()}
}

// create makes a Loss encounter of diego (played by david) and a ruffian, not started.
func (o *observed) create(t *testing.T, name string) string {
	t.Helper()
	created, err := o.client.CreateEncounter(as("gm"), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: name, RuleSystem: "loss"}})
	require.NoError(t, err)
	id := created.GetEncounterId()
	for _, f := range []*encounterv1.Combatant{fighter("diego", "david", 8, sword(4)), fighter("ruffian", "gm", 6, sword(3))} {
		_, err := o.client.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: f})
		require.NoError(t, err)
	}
	return id
}

func (o *observed) scrape(t *testing.T) metricstest.Families {
	t.Helper()
	return metricstest.Scrape(t, o.metrics)
}

// delta is what a series grew by between two scrapes (absent: 0).
func delta(before, after metricstest.Families, name string, labels ...string) float64 {
	a, _ := after.Lookup(name, labels...)
	b, _ := before.Lookup(name, labels...)
	return a - b
}

// TestEncounterMetricsOverARealListener plays commands over gRPC and scrapes /metrics over
// its own listener after each step: commands by system and code (a refused one under
// FailedPrecondition, one on no encounter under unknown/NotFound), the per-RPC series, the
// resolver calls the service made, appends by outcome with a conflict and its retry, cache
// hits, misses and a cold load, snapshot writes and a failed one, watchers raised by a watch
// and lowered when it closes, a watch refused past the per-principal limit; and every name
// MetricNames lists is in the scrape, and every fray_ or grpc_ name scraped is listed.
func TestEncounterMetricsOverARealListener(t *testing.T) {
	o := startObserved(t, encounter.Options{MaxCached: 1, SnapshotEvery: 1, MaxWatchesPerPrincipal: 1}, nil)
	start := o.scrape(t)
	require.Zero(t, start.Value(t, encounter.MetricCacheEntries))
	require.Zero(t, start.Value(t, telemetry.MetricLimitRefusals, "limit", encounter.LimitWatchesPerPrincipal))
	require.Zero(t, start.Value(t, encounter.MetricAppend+"_count", "outcome", "conflict"))

	// Created and filled: four commands recorded.
	id := o.create(t, "Ruelle")
	got := o.scrape(t)
	require.Equal(t, 3.0, got.Value(t, encounter.MetricCommands, "system", "loss", "code", "OK"))
	require.Equal(t, 3.0, got.Value(t, encounter.MetricAppend+"_count", "outcome", "recorded"))
	require.Equal(t, 3.0, got.Value(t, telemetry.MetricClientHandled, "grpc_method", "Resolve", "grpc_code", "OK"), "the service's calls to the resolver")
	require.Equal(t, 1.0, got.Value(t, encounter.MetricCacheEntries))
	require.Positive(t, got.Value(t, encounter.MetricCacheBytes))
	require.Equal(t, float64(encounter.DefaultMaxCachedBytes), got.Value(t, encounter.MetricCacheMaxBytes))
	require.Equal(t, 2.0, got.Value(t, encounter.MetricSnapshotWrites, "result", "written"), "one per command after the create")

	// A command the rules refuse: FailedPrecondition, nothing appended.
	before := got
	_, err := o.client.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: attack("ruffian", "diego")})
	require.Equal(t, codes.FailedPrecondition, status.Code(err), "an attack before the start: %v", err)
	got = o.scrape(t)
	require.Equal(t, 1.0, delta(before, got, encounter.MetricCommands, "system", "loss", "code", "FailedPrecondition"))
	require.Equal(t, 1.0, delta(before, got, telemetry.MetricServerHandled, "grpc_method", "Submit", "grpc_code", "FailedPrecondition"))
	require.Zero(t, delta(before, got, encounter.MetricAppend+"_count"))
	require.Equal(t, 1.0, delta(before, got, encounter.MetricCacheHits))

	// Another service records a command; this one's append conflicts, it reads the log and
	// decides again.
	other := encounter.New(o.store, o.store, encounter.LocalDecider{Registry: systems.Registry()}, systems.Registry(), encounter.Options{Log: quiet()})
	_, err = other.StartEncounter(incoming("gm"), &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	before = o.scrape(t)
	_, err = o.client.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("marin", "gm", 5, sword(3))})
	require.NoError(t, err)
	got = o.scrape(t)
	require.Equal(t, 1.0, delta(before, got, encounter.MetricAppendConflicts))
	require.Equal(t, 1.0, delta(before, got, encounter.MetricAppend+"_count", "outcome", "conflict"))
	require.Equal(t, 1.0, delta(before, got, encounter.MetricRetries))
	require.Equal(t, 1.0, delta(before, got, encounter.MetricAppend+"_count", "outcome", "recorded"))
	require.Equal(t, 1.0, delta(before, got, encounter.MetricCommands, "system", "loss", "code", "OK"))

	// A failed snapshot write: counted, the command stands.
	o.snapshots.fail.Store(true)
	before = got
	_, err = o.client.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "marin"}}}})
	require.NoError(t, err)
	o.snapshots.fail.Store(false)
	got = o.scrape(t)
	require.Equal(t, 1.0, delta(before, got, encounter.MetricSnapshotWrites, "result", "failed"))
	require.Zero(t, delta(before, got, encounter.MetricSnapshotWrites, "result", "written"))

	// A command on no encounter: its system unknown (its empty entry takes the
	// cache's one place).
	_, err = o.client.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: "enc-nothere"})
	require.Equal(t, codes.NotFound, status.Code(err))
	got = o.scrape(t)
	require.Equal(t, 1.0, got.Value(t, encounter.MetricCommands, "system", "unknown", "code", "NotFound"))

	// A second encounter takes the cache's one place; reading the first again is a miss and
	// a cold load.
	o.create(t, "Clairière")
	before = o.scrape(t)
	require.Equal(t, 1.0, before.Value(t, encounter.MetricCacheEntries))
	_, err = o.client.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	got = o.scrape(t)
	require.Equal(t, 1.0, delta(before, got, encounter.MetricCacheMisses))
	require.Equal(t, 1.0, delta(before, got, encounter.MetricColdLoad+"_count"))
	require.Zero(t, delta(before, got, encounter.MetricCacheHits))
	require.Positive(t, delta(before, got, encounter.MetricColdLoad+"_sum"))

	// A watch raises the watchers open; a second one of the same principal is refused past
	// its limit; closing the first lowers them again.
	ctx, cancel := context.WithCancel(as("david"))
	w, err := o.client.WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id, FromSequence: 1})
	require.NoError(t, err)
	_, err = w.Header() // sent once the watch is under way
	require.NoError(t, err)
	got = o.scrape(t)
	require.Equal(t, 1.0, got.Value(t, encounter.MetricWatchers))
	require.Equal(t, 1.0, got.Value(t, encounter.MetricWatched))
	second, err := o.client.WatchEncounter(as("david"), &encounterv1.WatchEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	_, err = second.Recv()
	require.Equal(t, codes.ResourceExhausted, status.Code(err))
	got = o.scrape(t)
	require.Equal(t, 1.0, got.Value(t, telemetry.MetricLimitRefusals, "limit", encounter.LimitWatchesPerPrincipal))
	require.Equal(t, 1.0, got.Value(t, telemetry.MetricServerHandled, "grpc_method", "WatchEncounter", "grpc_code", "ResourceExhausted"))
	cancel()
	require.Eventually(t, func() bool {
		v, _ := metricstest.Scrape(t, o.metrics).Lookup(encounter.MetricWatchers)
		return v == 0
	}, patience, 20*time.Millisecond, "the watch closed")
	got = o.scrape(t)
	require.Zero(t, got.Value(t, encounter.MetricWatched))

	// Every listed name is exported, and every exported fray_ or grpc_ name is listed.
	names := got.Names()
	for _, name := range encounter.MetricNames() {
		require.Contains(t, names, name)
	}
	for _, name := range names {
		if strings.HasPrefix(name, "fray_") || strings.HasPrefix(name, "grpc_") {
			require.Contains(t, encounter.MetricNames(), name)
		}
	}
	require.True(t, slices.IsSorted(encounter.MetricNames()))
}

// TestSizeLimitRefusalsAreCounted: a create past the encounter's bytes is refused
// (ResourceExhausted), counted under its limit and as a command of its system.
func TestSizeLimitRefusalsAreCounted(t *testing.T) {
	o := startObserved(t, encounter.Options{MaxEncounterBytes: 16}, nil)
	_, err := o.client.CreateEncounter(as("gm"), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Too big for sixteen bytes", RuleSystem: "loss"}})
	require.Equal(t, codes.ResourceExhausted, status.Code(err))
	got := o.scrape(t)
	require.Equal(t, 1.0, got.Value(t, telemetry.MetricLimitRefusals, "limit", encounter.LimitEncounterBytes))
	require.Equal(t, 1.0, got.Value(t, encounter.MetricCommands, "system", "loss", "code", "ResourceExhausted"))
	require.Zero(t, got.Value(t, encounter.MetricAppend+"_count"))
	// A system nobody knows is not a label of its own.
	_, err = o.client.CreateEncounter(as("gm"), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "x", RuleSystem: "no-such-system"}})
	require.Error(t, err)
	got = o.scrape(t)
	_, ok := got.Lookup(encounter.MetricCommands, "system", "no-such-system")
	require.False(t, ok)
	require.Equal(t, 1.0, got.Value(t, encounter.MetricCommands, "system", "unknown"))
}

// TestOneSubmitIsOneTrace: a Submit from a traced client is one trace of five spans — the
// client's call, the encounter service's handling of it, its call to the resolver, the
// resolver's handling of that, and the append to JetStream — each the child of the one
// before it (the append a child of the encounter service's span).
func TestOneSubmitIsOneTrace(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	o := startObserved(t, encounter.Options{}, spans)
	id := o.create(t, "Ruelle")
	_, err := o.client.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	// The servers end their spans once the answer is sent: wait for all five of each call.
	require.Eventually(t, func() bool { return len(spans.GetSpans()) >= 4*5 }, patience, 10*time.Millisecond)

	got, err := o.client.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(spans.GetSpans()) >= 4*5+2 }, patience, 10*time.Millisecond)
	spans.Reset()
	_, err = o.client.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: nextDuelCommand(got.GetState())})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(spans.GetSpans()) >= 5 }, patience, 10*time.Millisecond)
	byName := map[string]tracetest.SpanStub{}
	for _, s := range spans.GetSpans() {
		byName[s.Name+"/"+s.SpanKind.String()] = s
	}
	require.Len(t, byName, 5, "spans: %v", byName)
	client := byName["fray.encounter.v1.EncounterService/Submit/client"]
	server := byName["fray.encounter.v1.EncounterService/Submit/server"]
	resolveClient := byName["fray.rules.v1.RulesService/Resolve/client"]
	resolveServer := byName["fray.rules.v1.RulesService/Resolve/server"]
	appended := byName["JetStream append/client"]
	for _, s := range []tracetest.SpanStub{client, server, resolveClient, resolveServer, appended} {
		require.True(t, s.SpanContext.IsValid(), "spans: %v", byName)
		require.Equal(t, client.SpanContext.TraceID(), s.SpanContext.TraceID(), "%s in the client's trace", s.Name)
	}
	require.Equal(t, client.SpanContext.SpanID(), server.Parent.SpanID())
	require.Equal(t, server.SpanContext.SpanID(), resolveClient.Parent.SpanID())
	require.Equal(t, resolveClient.SpanContext.SpanID(), resolveServer.Parent.SpanID())
	require.Equal(t, server.SpanContext.SpanID(), appended.Parent.SpanID())
	require.Equal(t, trace.SpanKindClient, appended.SpanKind)
	attrs := map[string]any{}
	for _, a := range appended.Attributes {
		attrs[string(a.Key)] = a.Value.AsInterface()
	}
	require.Equal(t, id, attrs["fray.encounter_id"])
	require.Positive(t, attrs["fray.position"])
	require.Equal(t, false, attrs["fray.duplicate"])
	require.Equal(t, "encounter", resourceName(server), "the service's name")
	require.Equal(t, "resolver", resourceName(resolveServer))
}

func resourceName(s tracetest.SpanStub) string {
	for _, a := range s.Resource.Attributes() {
		if a.Key == "service.name" {
			return a.Value.AsString()
		}
	}
	return ""
}

// benchMetrics are the service's metrics when FRAY_BENCH_METRICS is 1 (BenchmarkSubmit with
// and without them), else none.
func benchMetrics(b *testing.B) *encounter.Metrics {
	if os.Getenv("FRAY_BENCH_METRICS") != "1" {
		return nil
	}
	b.Log("with the service's metrics")
	return encounter.NewMetrics(telemetry.NewMetrics())
}
