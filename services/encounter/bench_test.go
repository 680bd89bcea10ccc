package encounter_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// BenchmarkColdLoad measures loading one encounter into a fresh service (nothing cached) from
// a stream that also holds FRAY_BENCH_NOISE (default 1,000,000) events of other encounters:
// a short one (a duel of ~100 commands spread among the noise), a 10,000-command one
// (opening and closing joining, each command with its own id, through the service) and a
// 30,000-command one (the same, recorded by recordJoiningOnJetStream: the last commands
// through a service, which writes the snapshot). <n>/first-command is a cold load and then a
// command with a client's id. Each reports its p50 and p99 besides the mean (p50-ns, p99-ns);
// full replays are measured for the short and 10k ones only.
//
//	go test ./services/encounter -run '^$' -bench ColdLoad -benchtime 200x
func BenchmarkColdLoad(b *testing.B) {
	noise := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("FRAY_BENCH_NOISE")); err == nil {
		noise = v
	}
	ctx := context.Background()
	_, nc := natstest.Start(b)
	st, err := store.Open(ctx, nc, store.Config{})
	require.NoError(b, err)
	js, err := jetstream.New(nc)
	require.NoError(b, err)

	sum := sha256.Sum256([]byte("fray-bench"))
	reg := systems.Registry()
	svc := encounter.New(st, st, encounter.LocalDecider{Registry: reg}, reg, encounter.Options{
		NewSeed: func() []byte { return sum[:] }, Snapshots: st, Log: telemetry.NewLogger("text", "error"),
	})
	ctxGM := incoming("gm")
	created, err := svc.CreateEncounter(ctxGM, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Bench", RuleSystem: "loss"}})
	require.NoError(b, err)
	id := created.GetEncounterId()
	for _, f := range []*encounterv1.Combatant{fighter("diego", "david", 8, sword(4)), fighter("ruffian", "gm", 6, sword(3))} {
		f.GetLoss().Armour = 12
		_, err := svc.AddCombatant(ctxGM, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: f})
		require.NoError(b, err)
	}
	_, err = svc.StartEncounter(ctxGM, &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(b, err)

	const commands = 100
	payload := make([]byte, 200)
	for i := range commands {
		for j := range noise / commands {
			// A patient stall: on a busy machine the acknowledgements lag.
			if _, err := js.PublishAsync(fmt.Sprintf("fray.enc.other-%d", (i*noise/commands+j)%1000), payload, jetstream.WithStallWait(time.Minute)); err != nil {
				b.Fatal(err)
			}
		}
		<-js.PublishAsyncComplete()
		serviceStep(b, svc, id)
	}
	info, err := js.Stream(ctx, "FRAY_ENCOUNTERS")
	require.NoError(b, err)
	si, err := info.Info(ctx)
	require.NoError(b, err)
	long, _ := playJoining(b, svc, 10_000)
	long30k := recordJoiningOnJetStream(b, st, 30_000)
	si, err = info.Info(ctx)
	require.NoError(b, err)
	b.Logf("stream holds %d messages; the short encounter %d events, the long ones %d and %d", si.State.Msgs, lastSequence(b, svc, id), lastSequence(b, svc, long), lastSequence(b, svc, long30k))
	for name, enc := range map[string]string{"short": id, "10k": long, "30k": long30k} {
		snap, err := st.Snapshot(ctx, enc)
		require.NoError(b, err)
		b.Logf("%s: snapshot of %d bytes", name, proto.Size(snap))
	}

	snap, err := st.Snapshot(ctx, id)
	require.NoError(b, err)
	stream, err := js.Stream(ctx, "FRAY_ENCOUNTERS")
	require.NoError(b, err)
	b.Run("parts/last-message", func(b *testing.B) {
		for b.Loop() {
			if _, err := stream.GetLastMsgForSubject(ctx, "fray.enc."+id); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parts/snapshot", func(b *testing.B) {
		for b.Loop() {
			if _, err := st.Snapshot(ctx, id); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parts/tail", func(b *testing.B) {
		for b.Loop() {
			if _, err := st.Load(ctx, id, snap.GetPosition()); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, enc := range []struct {
		name, id string
		replay   bool
	}{{"short", id, true}, {"10k", long, true}, {"30k", long30k, false}} {
		for _, tc := range []struct {
			name  string
			snaps store.Snapshots
		}{{"snapshot+tail", st}, {"full-replay", nil}} {
			if tc.snaps == nil && !enc.replay {
				continue
			}
			b.Run(enc.name+"/"+tc.name, func(b *testing.B) {
				timedLoop(b, func() {
					cold := encounter.New(st, st, encounter.LocalDecider{Registry: reg}, reg, encounter.Options{Snapshots: tc.snaps, Log: telemetry.NewLogger("text", "error")})
					if _, err := cold.GetEncounter(ctxGM, &encounterv1.GetEncounterRequest{EncounterId: enc.id}); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
	for _, enc := range []struct{ name, id string }{{"10k", long}, {"30k", long30k}} {
		b.Run(enc.name+"/first-command", func(b *testing.B) {
			n := 0
			timedLoop(b, func() {
				cold := encounter.New(st, st, encounter.LocalDecider{Registry: reg}, reg, encounter.Options{Snapshots: st, Log: telemetry.NewLogger("text", "error")})
				got, err := cold.GetEncounter(ctxGM, &encounterv1.GetEncounterRequest{EncounterId: enc.id})
				if err != nil {
					b.Fatal(err)
				}
				n++
				cmd := joining(!got.GetState().GetJoiningOpen())
				if _, err := cold.Submit(ctxGM, &encounterv1.SubmitRequest{EncounterId: enc.id, CommandId: fmt.Sprintf("bench-%d-%d", time.Now().UnixNano(), n), Command: cmd}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// timedLoop runs f in b.Loop and reports, besides the mean, the p50 and p99 of its runs.
func timedLoop(b *testing.B, f func()) {
	var ds []time.Duration
	for b.Loop() {
		t := time.Now()
		f()
		ds = append(ds, time.Since(t))
	}
	slices.Sort(ds)
	q := func(p float64) float64 {
		return float64(ds[min(len(ds)-1, int(p*float64(len(ds))))].Nanoseconds())
	}
	b.ReportMetric(q(0.50), "p50-ns")
	b.ReportMetric(q(0.99), "p99-ns")
}

func lastSequence(b *testing.B, svc *encounter.Service, id string) uint64 {
	got, err := svc.GetEncounter(incoming("gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(b, err)
	return got.GetState().GetSequence()
}

func incoming(who string) context.Context {
	return authtest.Identity(who)
}

// serviceStep plays the next command of the duel straight on the service.
func serviceStep(b *testing.B, svc *encounter.Service, id string) {
	got, err := svc.GetEncounter(incoming("gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(b, err)
	cmd := nextDuelCommand(got.GetState())
	_, err = svc.Submit(incoming("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: cmd})
	require.NoError(b, err)
}

// BenchmarkSubmit measures one command (decide in-process, append to JetStream with its
// conditions, fold, update the ListEncounters index, view the response) on a warm encounter:
// a duel of attacks and dodges; and the same without the index. cpu-µs/op is the process's
// CPU per op (the service and the embedded NATS server).
//
//	go test ./services/encounter -run '^$' -bench Submit -benchtime 2000x
func BenchmarkSubmit(b *testing.B) {
	b.Run("with index", func(b *testing.B) { benchmarkSubmit(b, true) })
	b.Run("without index", func(b *testing.B) { benchmarkSubmit(b, false) })
}

// logOnly hides a store's index.
type logOnly struct{ backend }

func benchmarkSubmit(b *testing.B, index bool) {
	_, nc := natstest.Start(b)
	js, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(b, err)
	var st backend = js
	if !index {
		st = logOnly{js}
	}
	sum := sha256.Sum256([]byte("fray-bench-submit"))
	reg := systems.Registry()
	svc := encounter.New(st, st, encounter.LocalDecider{Registry: reg}, reg, encounter.Options{
		NewSeed: func() []byte { return sum[:] }, Snapshots: st, Log: telemetry.NewLogger("text", "error"),
		Metrics: benchMetrics(b), // FRAY_BENCH_METRICS=1: with the service's metrics (metrics_test.go)
	})
	gm := incoming("gm")
	created, err := svc.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Bench", RuleSystem: "loss"}})
	require.NoError(b, err)
	id := created.GetEncounterId()
	for _, f := range []*encounterv1.Combatant{fighter("diego", "david", 8, sword(4)), fighter("ruffian", "gm", 6, sword(3))} {
		f.GetLoss().Armour = 30 // nobody falls
		_, err := svc.AddCombatant(gm, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: f})
		require.NoError(b, err)
	}
	_, err = svc.StartEncounter(gm, &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(b, err)
	// The process's CPU (user and system) per command: the service and the embedded NATS
	// server, steadier than the time on a shared machine.
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			return 0
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	cpu0 := cpu()
	for b.Loop() {
		serviceStep(b, svc, id)
	}
	b.ReportMetric(float64((cpu()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
}
