package encounter_test

import (
	"context"
	"net"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/ratelimit"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// BenchmarkFlood: over real gRPC (loopback, the encounter service in-process on an embedded
// NATS, rate limits of 200 requests/s per principal), alice reads her encounter 100 times a
// second, in 4 rounds of FRAY_FLOOD_PHASE (default 2s) alone then as long while mallory, on
// her own connection, sends 2,000 requests a second (10× her quota); the rounds alternate so
// that whatever else the machine does weighs on both. It reports alice's p50 and p99 alone
// and under the flood, their ratio, and what mallory got through and was refused; it fails if
// alice's p99 under the flood is more than twice her p99 alone.
//
//	go test ./services/encounter -run '^$' -bench Flood -benchtime 1x
func BenchmarkFlood(b *testing.B) {
	phase := 2 * time.Second
	if d, err := time.ParseDuration(os.Getenv("FRAY_FLOOD_PHASE")); err == nil {
		phase = d
	}
	const quota, victimRate, floodRate = 200, 100, 2000
	ctx := context.Background()
	_, nc := natstest.Start(b)
	st, err := store.Open(ctx, nc, store.Config{})
	require.NoError(b, err)
	reg := systems.Registry()
	svc := encounter.New(st, st, encounter.LocalDecider{Registry: reg}, reg, encounter.Options{Snapshots: st, Log: telemetry.NewLogger("text", "error")})
	lim := ratelimit.New(ratelimit.Limits{PrincipalRate: quota, PrincipalBurst: quota / 4, TenantRate: 10 * floodRate, TenantBurst: floodRate})
	srv := server.New(telemetry.NewLogger("text", "error"), append(authtest.ServerOptions(), ratelimit.WithLimiter(lim))...)
	encounter.Register(srv.GRPC, svc)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx, lis, 5*time.Second) }()
	b.Cleanup(func() { stop(); <-done })
	dial := func() encounterv1.EncounterServiceClient {
		cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
		require.NoError(b, err)
		b.Cleanup(func() { cc.Close() })
		return encounterv1.NewEncounterServiceClient(cc)
	}
	alice, mallory := dial(), dial()
	asAlice, asMallory := authtest.As("alice"), authtest.As("mallory")
	mine := func(c encounterv1.EncounterServiceClient, as context.Context, name string) string {
		r, err := c.CreateEncounter(as, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: name, RuleSystem: "loss"}})
		require.NoError(b, err)
		for _, f := range []*encounterv1.Combatant{fighter("diego", "gm", 8, sword(4)), fighter("ruffian", "gm", 6, sword(3))} {
			_, err := c.AddCombatant(as, &encounterv1.AddCombatantRequest{EncounterId: r.GetEncounterId(), Combatant: f})
			require.NoError(b, err)
		}
		return r.GetEncounterId()
	}
	aliceEnc, malloryEnc := mine(alice, asAlice, "Alice"), mine(mallory, asMallory, "Mallory")

	// measure reads alice's encounter victimRate times a second for the phase.
	measure := func() []time.Duration {
		var lat []time.Duration
		tick := time.NewTicker(time.Second / victimRate)
		defer tick.Stop()
		end := time.Now().Add(phase)
		for now := range tick.C {
			if now.After(end) {
				break
			}
			start := time.Now()
			_, err := alice.GetEncounter(asAlice, &encounterv1.GetEncounterRequest{EncounterId: aliceEnc})
			require.NoError(b, err, "alice is never refused")
			lat = append(lat, time.Since(start))
		}
		return lat
	}
	pct := func(lat []time.Duration, p float64) time.Duration {
		s := slices.Clone(lat)
		slices.Sort(s)
		return s[min(len(s)-1, int(float64(len(s))*p))]
	}

	for b.Loop() {
		measure() // warm up: connections, caches
		var unloaded, loaded []time.Duration
		var served, refused, other atomic.Int64
		var elapsed time.Duration
		for range 4 {
			unloaded = append(unloaded, measure()...)
			fctx, stopFlood := context.WithCancel(ctx)
			var wg sync.WaitGroup
			const senders = 8
			for range senders {
				wg.Go(func() {
					tick := time.NewTicker(time.Second * senders / floodRate)
					defer tick.Stop()
					for {
						select {
						case <-fctx.Done():
							return
						case <-tick.C:
						}
						_, err := mallory.GetEncounter(asMallory, &encounterv1.GetEncounterRequest{EncounterId: malloryEnc})
						switch status.Code(err) {
						case codes.OK:
							served.Add(1)
						case codes.ResourceExhausted:
							refused.Add(1)
						default:
							other.Add(1)
						}
					}
				})
			}
			start := time.Now()
			loaded = append(loaded, measure()...)
			elapsed += time.Since(start)
			stopFlood()
			wg.Wait()
		}

		u50, u99, l50, l99 := pct(unloaded, .5), pct(unloaded, .99), pct(loaded, .5), pct(loaded, .99)
		ratio := float64(l99) / float64(u99)
		b.ReportMetric(float64(u50.Microseconds()), "unloaded-p50-µs")
		b.ReportMetric(float64(u99.Microseconds()), "unloaded-p99-µs")
		b.ReportMetric(float64(l50.Microseconds()), "loaded-p50-µs")
		b.ReportMetric(float64(l99.Microseconds()), "loaded-p99-µs")
		b.ReportMetric(ratio, "p99-ratio")
		b.ReportMetric(float64(served.Load())/elapsed.Seconds(), "flood-served/s")
		b.ReportMetric(float64(refused.Load())/elapsed.Seconds(), "flood-refused/s")
		b.Logf("alice %d reads alone: p50 %v p99 %v; %d reads under the flood: p50 %v p99 %v (×%.2f); mallory sent %.0f/s: %.0f/s served, %.0f/s refused, %d other",
			len(unloaded), u50, u99, len(loaded), l50, l99, ratio,
			float64(served.Load()+refused.Load()+other.Load())/elapsed.Seconds(), float64(served.Load())/elapsed.Seconds(), float64(refused.Load())/elapsed.Seconds(), other.Load())
		require.Zero(b, other.Load(), "mallory gets served or ResourceExhausted, nothing else")
		if ratio > 2 {
			b.Errorf("alice's p99 under the flood is %.2f× her p99 alone (%v vs %v): more than 2×", ratio, l99, u99)
		}
	}
}
