package load_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/fray-rpg/fray/cli/internal/load"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// TestMain keeps fray dev's notes of where its keys are in a folder of the test's own.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fray-load-records")
	if err != nil {
		panic(err)
	}
	os.Setenv("FRAY_DEV_RECORDS", dir)
	os.Unsetenv("FRAY_DEV_KEY")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func run(t *testing.T, args ...string) *load.Report {
	t.Helper()
	var out, errOut bytes.Buffer
	require.NoError(t, load.Command(context.Background(), append(args, "--json", "--quiet"), &out, &errOut), errOut.String())
	var rep load.Report
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep), out.String())
	return &rep
}

// The four rule systems play against the in-process stack: every system sends commands and
// plays its fight, the player's client among them, nothing is refused (each fight stops when
// its rules offer nothing more), both anchors are measured and the server CPU per command is
// there. Bounded by fights, not time (--duration is only a ceiling), so that a busy machine
// slows the run down but does not leave a system without a command; the anchors make one call
// each at least, however slow.
func TestEmbeddedLoadPlaysEverySystemBesideTheAnchors(t *testing.T) {
	all := run(t, "--embedded", "--encounters", "4", "--fights", "1", "--fight-length", "40", "--duration", ceiling, "--anchor-duration", "300ms")
	require.Equal(t, 4, all.Encounters)
	require.Equal(t, 1, all.Repeat)
	require.Len(t, all.Rounds, 1)
	rep := all.Rounds[0]
	require.Len(t, rep.Systems, 4)
	for _, sys := range load.Systems() {
		s := rep.Systems[sys]
		require.NotNil(t, s, sys)
		require.Positive(t, s.Count, sys)
		require.Equal(t, int64(1), s.Fights, "%s: one fight, as --fights says", sys)
		require.Positive(t, s.PlayerCommands, "%s: the player's client plays its combatants", sys)
		require.Empty(t, s.Errors, "%s: %v", sys, s.Example)
		t.Logf("%s: %d commands, %d by the player", sys, s.Count, s.PlayerCommands)
	}
	require.Empty(t, rep.Commands.Errors, rep.Commands.Example)
	require.Positive(t, rep.Commands.PerSecond)
	require.LessOrEqual(t, rep.Commands.P50, rep.Commands.P99)
	require.LessOrEqual(t, rep.Commands.P99, rep.Commands.Max)
	require.NotNil(t, rep.Health)
	require.Positive(t, rep.Health.Count)
	require.Empty(t, rep.Health.Errors)
	require.NotNil(t, rep.JetStream)
	require.Positive(t, rep.JetStream.Count)
	require.Empty(t, rep.JetStream.Errors, rep.JetStream.Example)
	require.NotNil(t, rep.Skeleton, "the skeleton of Submit carries the load's Submits")
	require.GreaterOrEqual(t, rep.Skeleton.Count, int64(all.Encounters), "one Submit a caller at least")
	require.Empty(t, rep.Skeleton.Errors, rep.Skeleton.Example)
	require.Positive(t, rep.RatioHealth)
	require.Positive(t, rep.RatioJetStream)
	require.Positive(t, rep.RatioSkeleton)
	require.Positive(t, time.Duration(rep.CPUPerSkeletonSubmit), "embedded: the skeleton's CPU is measured too")
	require.Positive(t, time.Duration(rep.CPUPerCommand))
	require.Equal(t, rep.Commands.PerSecond, all.Spread.CommandsPerSecond.Median, "one round: its figures are the spread's")
	require.Equal(t, rep.RatioSkeleton, all.Spread.RatioSkeleton.Median)
	t.Logf("%d commands in %v", rep.Commands.Count, rep.Elapsed)
}

// ceiling is the --duration of the tests' runs, which --fights or --commands end: a bound
// that only a run that never ends would reach.
const ceiling = "10m"

// --repeat 3 runs three rounds, each the load then the anchors on the same servers: the JSON
// has the three, each round's ratios are its commands/s over its own anchors', and each
// figure's min / median / max are those of the rounds' figures.
func TestLoadRepeatsInterleavedRounds(t *testing.T) {
	rep := run(t, "--embedded", "--encounters", "2", "--systems", "loss,feerie", "--fights", "1", "--fight-length", "40", "--duration", ceiling, "--anchor-duration", "200ms", "--repeat", "3")
	require.Equal(t, 3, rep.Repeat)
	require.Len(t, rep.Rounds, 3)
	var cps, hps, jps, sps, rh, rj, rs []float64
	var p50, p99, cpu, skcpu []load.Duration
	for i, r := range rep.Rounds {
		require.Positive(t, r.Commands.Count, "round %d", i+1)
		require.Empty(t, r.Commands.Errors, r.Commands.Example)
		require.NotNil(t, r.Health, "round %d", i+1)
		require.NotNil(t, r.JetStream, "round %d", i+1)
		require.Positive(t, r.Health.PerSecond)
		require.Positive(t, r.JetStream.PerSecond)
		require.InEpsilon(t, r.Commands.PerSecond/r.Health.PerSecond, r.RatioHealth, 1e-9, "round %d", i+1)
		require.InEpsilon(t, r.Commands.PerSecond/r.JetStream.PerSecond, r.RatioJetStream, 1e-9, "round %d", i+1)
		require.NotNil(t, r.Skeleton, "round %d", i+1)
		require.Empty(t, r.Skeleton.Errors, r.Skeleton.Example)
		require.InEpsilon(t, r.Commands.PerSecond/r.Skeleton.PerSecond, r.RatioSkeleton, 1e-9, "round %d", i+1)
		cps, hps, jps, sps = append(cps, r.Commands.PerSecond), append(hps, r.Health.PerSecond), append(jps, r.JetStream.PerSecond), append(sps, r.Skeleton.PerSecond)
		rh, rj, rs = append(rh, r.RatioHealth), append(rj, r.RatioJetStream), append(rs, r.RatioSkeleton)
		p50, p99, cpu = append(p50, r.Commands.P50), append(p99, r.Commands.P99), append(cpu, r.CPUPerCommand)
		skcpu = append(skcpu, r.CPUPerSkeletonSubmit)
	}
	sp := rep.Spread
	requireRange(t, "commands/s", cps, sp.CommandsPerSecond)
	requireRange(t, "health Check/s", hps, sp.HealthPerSecond)
	requireRange(t, "JetStream publish/s", jps, sp.JetStreamPerSecond)
	requireRange(t, "ratio to health Check", rh, sp.RatioHealth)
	requireRange(t, "ratio to JetStream publish", rj, sp.RatioJetStream)
	requireRange(t, "skeleton Submit/s", sps, sp.SkeletonPerSecond)
	requireRange(t, "ratio to skeleton Submit", rs, sp.RatioSkeleton)
	requireRange(t, "CPU per skeleton Submit", skcpu, sp.CPUPerSkeletonSubmit)
	requireRange(t, "p50", p50, sp.P50)
	requireRange(t, "p99", p99, sp.P99)
	requireRange(t, "CPU per command", cpu, sp.CPUPerCommand)
	require.NotNil(t, sp.P95)
	require.NotNil(t, sp.Max)
}

// requireRange: min ≤ median ≤ max, the min and max are the rounds' own, and (three rounds)
// the median is the middle one.
func requireRange[T ~float64 | ~int64](t *testing.T, name string, got []T, r *load.Range[T]) {
	t.Helper()
	require.NotNil(t, r, name)
	require.LessOrEqual(t, r.Min, r.Median, name)
	require.LessOrEqual(t, r.Median, r.Max, name)
	s := slices.Sorted(slices.Values(got))
	require.Equal(t, []T{s[0], s[len(s)/2], s[len(s)-1]}, []T{r.Min, r.Median, r.Max}, name)
}

// The text report of several rounds shows each and the min / median / max of every figure.
func TestLoadTextReportOfRounds(t *testing.T) {
	var out, errOut bytes.Buffer
	require.NoError(t, load.Command(context.Background(), []string{"--embedded", "--encounters", "2", "--systems", "ka", "--fights", "1", "--fight-length", "40", "--duration", ceiling,
		"--anchor-duration", "100ms", "--repeat", "2", "--quiet"}, &out, &errOut), errOut.String())
	text := out.String()
	for _, want := range []string{"2 rounds", "round 1: load for", "round 2: load for", "min / median / max over 2 rounds",
		"commands/s", "health Check/s", "JetStream publish/s", "skeleton Submit/s", "÷ health Check", "÷ JetStream publish", "÷ skeleton Submit", "p99", "CPU per command"} {
		require.Contains(t, text, want)
	}
}

func TestLoadRefusesNoRounds(t *testing.T) {
	var out, errOut bytes.Buffer
	err := load.Command(context.Background(), []string{"--embedded", "--repeat", "0", "--quiet"}, &out, &errOut)
	require.ErrorContains(t, err, "--repeat 0")
}

// Bounded in count: --commands stops the load there, whatever the duration.
func TestLoadStopsAtTheCommandCount(t *testing.T) {
	rep := run(t, "--embedded", "--encounters", "2", "--systems", "ka,d20seg", "--commands", "40", "--duration", ceiling, "--anchor-duration", "0").Rounds[0]
	// The budget counts every command sent; a fight begun is ended outside it (EndEncounter).
	require.GreaterOrEqual(t, rep.Commands.Count, int64(40), "the whole budget was sent")
	require.LessOrEqual(t, rep.Commands.Count, int64(40+rep.Fights))
	t.Logf("%d commands in %v", rep.Commands.Count, rep.Elapsed)
	require.Nil(t, rep.Health)
	require.Nil(t, rep.JetStream)
}

func TestLoadRefusesAnUnknownSystem(t *testing.T) {
	var out, errOut bytes.Buffer
	err := load.Command(context.Background(), []string{"--embedded", "--systems", "chess", "--anchor-duration", "0", "--quiet"}, &out, &errOut)
	require.ErrorContains(t, err, `unknown rule system "chess"`)
}

// Against a remote server (here a fray dev of its own, found by its dev key): the load and the
// health anchor run, the CPU per command is omitted and the report says so; without
// --nats-url there is no JetStream anchor.
func TestRemoteLoadOmitsTheCPU(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- dev.Run(ctx, dev.Config{Listen: "127.0.0.1:0", Data: t.TempDir(), NATSHost: "127.0.0.1", NATSPort: -1,
			Grace: 5 * time.Second, Log: telemetry.NewLogger("text", "error"), Ready: func(a string) { ready <- a }})
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("fray dev did not start: %v", err)
	}
	defer func() { cancel(); require.NoError(t, <-done) }()

	all := run(t, "--addr", addr, "--encounters", "2", "--systems", "loss", "--fights", "1", "--fight-length", "40", "--duration", ceiling, "--anchor-duration", "200ms")
	rep := all.Rounds[0]
	require.Positive(t, rep.Systems["loss"].Count)
	require.Empty(t, rep.Commands.Errors, rep.Commands.Example)
	require.Positive(t, rep.Health.Count)
	require.Nil(t, rep.JetStream)
	require.Zero(t, rep.CPUPerCommand)
	require.Contains(t, all.CPUNote, "remote")
	require.Nil(t, all.Spread.CPUPerCommand)
}

// startDev runs a fray dev of its own in-process with opts, and returns its address.
func startDev(t *testing.T, opts encounter.Options) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- dev.Run(ctx, dev.Config{Listen: "127.0.0.1:0", Data: t.TempDir(), NATSHost: "127.0.0.1", NATSPort: -1, Options: opts,
			Grace: 5 * time.Second, Log: telemetry.NewLogger("text", "error"), Ready: func(a string) { ready <- a }})
	}()
	select {
	case addr := <-ready:
		t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
		return addr
	case err := <-done:
		cancel()
		t.Fatalf("fray dev did not start: %v", err)
	}
	return ""
}

// At the tenant's cap of open encounters, with no idle end near (no RetryInfo), the load
// stops at the first refused create, says why and how to get out, and reports what ran: the
// refusals are a few, one per worker at most, not a loop. Every fight it began is ended, so
// it leaves nothing open toward the cap.
func TestLoadStopsAtTheCapOfOpenEncounters(t *testing.T) {
	addr := startDev(t, encounter.Options{MaxOpenEncounters: 2, IdleEnd: -1})
	var out, errOut bytes.Buffer
	err := load.Command(context.Background(), []string{"--addr", addr, "--encounters", "4", "--systems", "loss", "--duration", "1m",
		"--anchor-duration", "0", "--json", "--quiet"}, &out, &errOut)
	var stopped *load.StoppedError
	require.ErrorAs(t, err, &stopped)
	require.Contains(t, err.Error(), "the load stopped: the server refuses new encounters (ResourceExhausted")
	require.Contains(t, err.Error(), "end some of your open encounters with `fray end`")
	require.Contains(t, err.Error(), "`fray idle end --tenant T --older-than 1m`")
	var rep load.Report
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep), out.String())
	require.Len(t, rep.Rounds, 1)
	r := rep.Rounds[0]
	refused := r.Commands.Errors["ResourceExhausted"]
	require.Positive(t, refused)
	require.LessOrEqual(t, refused, int64(4), "one refused create per worker at most: %v", r.Commands.Errors)

	// Nothing left open: the tenant may create as many as its cap again.
	gm := loadClient(t, addr, load.GMSubject)
	for i := range 2 {
		_, err := gm.CreateEncounter(context.Background(), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: fmt.Sprint("after ", i), RuleSystem: "loss"}})
		require.NoError(t, err, "the load ended every encounter it created")
	}
}

// A refusal that says a wait helps (RetryInfo: an idle encounter ends at the next sweep) is
// waited for, not sent again at once: each worker refused waits, past the end of the run
// here, so the refusals are one per worker at most, and the load runs its course.
func TestLoadWaitsAsARefusalAsks(t *testing.T) {
	addr := startDev(t, encounter.Options{MaxOpenEncounters: 2, IdleEnd: time.Second, IdleSweepEvery: 30 * time.Minute})
	gm := loadClient(t, addr, load.GMSubject)
	for i := range 2 { // the cap, filled by encounters left idle
		_, err := gm.CreateEncounter(context.Background(), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: fmt.Sprint("idle ", i), RuleSystem: "loss"}})
		require.NoError(t, err)
	}
	_, err := gm.CreateEncounter(context.Background(), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "one more", RuleSystem: "loss"}})
	require.Equal(t, codes.ResourceExhausted, status.Code(err))
	var wait time.Duration
	for _, d := range status.Convert(err).Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok {
			wait = ri.GetRetryDelay().AsDuration()
		}
	}
	require.Positive(t, wait, "the refusal says when to try again: %v", err)

	rep := run(t, "--addr", addr, "--encounters", "3", "--systems", "loss", "--duration", "2s", "--anchor-duration", "0")
	r := rep.Rounds[0]
	require.LessOrEqual(t, r.Commands.Errors["ResourceExhausted"], int64(3), "one refusal per worker, then a wait: %v", r.Commands.Errors)
}

// loadClient is an EncounterService client of addr's fray dev, as subject of the load's tenant.
func loadClient(t *testing.T, addr, subject string) encounterv1.EncounterServiceClient {
	t.Helper()
	path, ok := auth.FindDevKey(addr)
	require.True(t, ok)
	key, err := auth.LoadDevKey(path)
	require.NoError(t, err)
	src := &auth.MintedToken{Signer: key, Claims: auth.DevClaims(auth.DevTenant, subject, time.Hour)}
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithPerRPCCredentials(auth.PerRPCToken(src, "", false)))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	return encounterv1.NewEncounterServiceClient(cc)
}

// The load plays the systems of the registry that have a fight, in the registry's order; one
// it cannot play is refused before anything is sent, saying which it plays.
func TestTheLoadPlaysTheRegistrysSystems(t *testing.T) {
	var want []string
	for _, id := range systems.IDs() {
		if slices.Contains(load.Systems(), id) {
			want = append(want, id)
		}
	}
	require.Equal(t, want, load.Systems(), "in the registry's order")
	require.Subset(t, load.Systems(), []string{"loss", "ka", "feerie", "d20seg"}, "the four of this build have their fights")
	_, err := load.Run(context.Background(), load.Config{Systems: []string{"chess"}})
	require.EqualError(t, err, `unknown rule system "chess": fray load plays `+strings.Join(load.Systems(), ", "))
}
