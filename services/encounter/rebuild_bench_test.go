package encounter_test

import (
	"context"
	"crypto/sha256"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

// BenchmarkRebuildVsOrderedConsumer is P3 of issue 13: rebuilding an encounter from its
// events, as the service does it for a full replay (a fresh service without snapshots answers
// GetEncounter: store.Load from the start, every event folded, the state viewed), against the
// raw anchor, a nats.go jetstream ordered consumer reading the same messages from the same
// stream and only counting them. The encounter is a Loss duel of FRAY_BENCH_REBUILD_COMMANDS
// (default 2,000) attacks and dodges in an embedded NATS. Each of 3 repetitions runs b.N of
// each, alternating; the ratio is the rebuild's messages/s ÷ the consumer's.
//
//	go test ./services/encounter -run '^$' -bench RebuildVsOrderedConsumer -benchtime 20x
func BenchmarkRebuildVsOrderedConsumer(b *testing.B) {
	const reps = 3
	commands := 2_000
	if v, err := strconv.Atoi(os.Getenv("FRAY_BENCH_REBUILD_COMMANDS")); err == nil {
		commands = v
	}
	ctx := context.Background()
	_, nc := natstest.Start(b)
	st, err := store.Open(ctx, nc, store.Config{})
	require.NoError(b, err)
	sum := sha256.Sum256([]byte("fray-bench-rebuild"))
	reg := systems.Registry()
	svc := encounter.New(st, st, encounter.LocalDecider{Registry: reg}, reg, encounter.Options{
		NewSeed: func() []byte { return sum[:] }, Log: telemetry.NewLogger("text", "error"),
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
	for range commands {
		serviceStep(b, svc, id)
	}
	events := lastSequence(b, svc, id)
	stream, err := st.JetStream().Stream(ctx, st.StreamName())
	require.NoError(b, err)
	want, err := stream.Info(ctx, jetstream.WithSubjectFilter(st.Subject(id)))
	require.NoError(b, err)
	msgs := int(want.State.Msgs)
	b.Logf("encounter of %d events in %d messages", events, msgs)

	rebuild := func() {
		cold := encounter.New(st, st, encounter.LocalDecider{Registry: reg}, reg, encounter.Options{Log: telemetry.NewLogger("text", "error")})
		got, err := cold.GetEncounter(gm, &encounterv1.GetEncounterRequest{EncounterId: id})
		if err != nil {
			b.Fatal(err)
		}
		if got.GetState().GetSequence() != events {
			b.Fatalf("rebuilt to sequence %d, not %d", got.GetState().GetSequence(), events)
		}
	}
	raw := func() {
		cons, err := stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{FilterSubjects: []string{st.Subject(id)}})
		if err != nil {
			b.Fatal(err)
		}
		it, err := cons.Messages()
		if err != nil {
			b.Fatal(err)
		}
		defer it.Stop()
		for range msgs {
			if _, err := it.Next(); err != nil {
				b.Fatal(err)
			}
		}
	}
	kinds := []struct {
		name string
		do   func()
	}{{"rebuild", rebuild}, {"consumer", raw}}
	timed := func(n int, do func()) time.Duration {
		start := time.Now()
		for range n {
			do()
		}
		return time.Since(start)
	}
	for _, k := range kinds { // warm up
		timed(1, k.do)
	}
	b.ResetTimer()
	var ratios []float64
	var rates [2][]float64
	for range reps {
		var rate [2]float64
		for i, k := range kinds {
			rate[i] = float64(b.N*msgs) / timed(b.N, k.do).Seconds()
			rates[i] = append(rates[i], rate[i])
		}
		ratios = append(ratios, rate[0]/rate[1])
		b.Logf("rebuild %.0f msg/s (%.0f events/s), consumer %.0f msg/s, ratio %.3f",
			rate[0], rate[0]*float64(events)/float64(msgs), rate[1], rate[0]/rate[1])
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[0], "ratio-min")
	b.ReportMetric(ratios[1], "ratio-median")
	b.ReportMetric(ratios[2], "ratio-max")
	for i, k := range kinds {
		slices.Sort(rates[i])
		b.ReportMetric(rates[i][1], k.name+"-msg/s")
	}
	b.ReportMetric(slices.Sorted(slices.Values(rates[0]))[1]*float64(events)/float64(msgs), "rebuild-events/s")
	b.ReportMetric(0, "ns/op") // the op is a mix: the metrics above are the figures
}
