package resolver_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/resolver"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/proto"
)

// BenchmarkResolveVsHealth is P1 of issue 13: Resolve of a Loss attack on a 4-combatant state,
// as the encounter service sends it (sheets by digest, no state hash asked), over real gRPC
// (loopback TCP, one connection, 64 calls in flight, the encounter service's fray:resolve
// token) against the trivial unary anchor, gRPC health Check, on the same server, same
// connection, same concurrency. The server logs at info level (the default) into
// io.Discard. Each of 3 repetitions runs b.N calls of each, alternating; the ratio is Resolve's
// calls/s ÷ Check's calls/s. CPU per call is the whole process's (client and server).
//
//	go test ./services/resolver -run '^$' -bench ResolveVsHealth -benchtime 20000x
func BenchmarkResolveVsHealth(b *testing.B) {
	const inFlight, reps = 64, 3
	log := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))
	srv := server.New(log, authtest.ServerOptions()...)
	rulesv1.RegisterRulesServiceServer(srv.GRPC, resolver.New(systems.Registry()))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	b.Cleanup(func() { cancel(); require.NoError(b, <-done) })
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(b, err)
	b.Cleanup(func() { cc.Close() })
	rules, health := rulesv1.NewRulesServiceClient(cc), healthpb.NewHealthClient(cc)

	// As the encounter service sends it: its sheets sent once, then named by digest.
	full := lossAttackRequest(b, 4)
	call := authtest.As("encounter-service", identity.ScopeResolve) // both calls carry it
	_, err = rules.Resolve(call, withDigests(full, false))
	require.NoError(b, err)
	req := withDigests(full, true)
	resp, err := rules.Resolve(call, req)
	require.NoError(b, err)
	require.NotEmpty(b, resp.GetEvents())
	b.Logf("request %d bytes (%d with its sheets), response %d events", proto.Size(req), proto.Size(full), len(resp.GetEvents()))

	kinds := []struct {
		name string
		do   func() error
	}{
		{"resolve", func() error { _, err := rules.Resolve(call, req); return err }},
		{"health", func() error {
			_, err := health.Check(call, &healthpb.HealthCheckRequest{})
			return err
		}},
	}
	run := func(n int, do func() error) (time.Duration, time.Duration) {
		var wg sync.WaitGroup
		var once sync.Once
		var first error
		next := make(chan struct{}, n)
		for range n {
			next <- struct{}{}
		}
		close(next)
		cpu0 := cpuTime()
		start := time.Now()
		for range inFlight {
			wg.Go(func() {
				for range next {
					if err := do(); err != nil {
						once.Do(func() { first = err })
					}
				}
			})
		}
		wg.Wait()
		elapsed, cpu := time.Since(start), cpuTime()-cpu0
		if first != nil {
			b.Fatal(first)
		}
		return elapsed, cpu
	}
	for _, k := range kinds { // warm up
		run(min(b.N, 2000), k.do)
	}
	b.ResetTimer()
	var ratios, rates [2][]float64
	var cpus [2][]float64
	for range reps {
		var rate [2]float64
		for i, k := range kinds {
			elapsed, cpu := run(b.N, k.do)
			rate[i] = float64(b.N) / elapsed.Seconds()
			rates[i] = append(rates[i], rate[i])
			cpus[i] = append(cpus[i], float64(cpu.Microseconds())/float64(b.N))
		}
		ratios[0] = append(ratios[0], rate[0]/rate[1])
		b.Logf("resolve %.0f/s, health %.0f/s, ratio %.3f", rate[0], rate[1], rate[0]/rate[1])
	}
	slices.Sort(ratios[0])
	b.ReportMetric(ratios[0][0], "ratio-min")
	b.ReportMetric(ratios[0][1], "ratio-median")
	b.ReportMetric(ratios[0][2], "ratio-max")
	for i, k := range kinds {
		slices.Sort(rates[i])
		slices.Sort(cpus[i])
		b.ReportMetric(rates[i][1], k.name+"/s")
		b.ReportMetric(cpus[i][1], "cpu-µs/"+k.name)
	}
	b.ReportMetric(0, "ns/op") // the op is a mix: the metrics above are the figures
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// lossAttackRequest is the Resolve request of a Loss attack on a started fight of n
// combatants (half on each side, all the GM's), as the encounter service sends it.
func lossAttackRequest(b testing.TB, n int) *rulesv1.ResolveRequest {
	b.Helper()
	reg := systems.Registry()
	s := sha256.Sum256([]byte("fray bench resolve"))
	seed := s[:]
	const gm = "dev/gm"
	st := &encounterv1.EncounterState{EncounterId: "bench"}
	do := func(cmd *encounterv1.Command) {
		b.Helper()
		_, next, err := reg.Resolve(st, cmd, gm, seed, nil)
		require.NoError(b, err)
		st = next
	}
	do(&encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "bench", RuleSystem: "loss"}}})
	score := func(trait, talent string) *lossv1.Score { return &lossv1.Score{Trait: trait, Talent: talent} }
	for i := range n {
		do(&encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{
			Combatant: &encounterv1.Combatant{Id: fmt.Sprintf("c%d", i), Name: fmt.Sprintf("Combattant %d", i), Side: []string{"héros", "malfrats"}[i%2],
				Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
					Kind:       lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE,
					Traits:     map[string]int32{"Puissance": 6, "Agilité": 5},
					Talents:    map[string]int32{"Arme de mêlée": 6, "Esquive": 5},
					Initiative: int32(max(8-i, 0)),
					Weapons: []*lossv1.Weapon{{Name: "sabre", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Vitesse: 4, Damage: 3,
						Attack: score("Puissance", "Arme de mêlée")}},
					Dodge: score("Agilité", "Esquive"), Parry: score("Puissance", "Arme de mêlée"),
				}}}}}})
	}
	do(&encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	for i := range n { // whoever acts first attacks the next combatant
		attack := &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: fmt.Sprintf("c%d", i),
			Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: fmt.Sprintf("c%d", (i+1)%n)}}}}}
		if _, _, err := reg.Resolve(st, attack, gm, seed, nil); err == nil {
			// As the encounter service sends it on all but a sample of its commands: no hash
			// asked (encounter.RemoteDecider).
			return &rulesv1.ResolveRequest{State: st, Command: attack, Actor: gm, Seed: seed, OmitStateSha256: true}
		}
	}
	b.Fatal("no one may attack")
	return nil
}
