package load_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/fray-rpg/fray/cli/internal/load"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/stretchr/testify/require"
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
// begins fights, nothing is refused (each fight stops when its rules offer nothing more), both
// anchors are measured and the server CPU per command is there.
func TestEmbeddedLoadPlaysEverySystemBesideTheAnchors(t *testing.T) {
	rep := run(t, "--embedded", "--encounters", "4", "--duration", "3s", "--anchor-duration", "300ms")
	require.Equal(t, 4, rep.Encounters)
	require.Len(t, rep.Systems, 4)
	for _, sys := range load.Systems {
		s := rep.Systems[sys]
		require.NotNil(t, s, sys)
		require.Positive(t, s.Count, sys)
		require.Positive(t, s.Fights, sys)
		require.Positive(t, s.PlayerCommands, "%s: the player's client plays its combatants", sys)
		require.Empty(t, s.Errors, "%s: %v", sys, s.Example)
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
	require.Positive(t, rep.RatioHealth)
	require.Positive(t, rep.RatioJetStream)
	require.Positive(t, time.Duration(rep.CPUPerCommand))
}

// Bounded in count: --commands stops the load there, whatever the duration.
func TestLoadStopsAtTheCommandCount(t *testing.T) {
	rep := run(t, "--embedded", "--encounters", "2", "--systems", "ka,d20seg", "--commands", "40", "--duration", "1m", "--anchor-duration", "0")
	require.Less(t, time.Duration(rep.Elapsed), time.Minute)
	// The budget counts every command sent; a fight begun is ended outside it (EndEncounter).
	require.LessOrEqual(t, rep.Commands.Count, int64(40+rep.Fights))
	require.Positive(t, rep.Commands.Count)
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
			Grace: 5 * time.Second, Log: platform.NewLogger("text", "error"), Ready: func(a string) { ready <- a }})
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("fray dev did not start: %v", err)
	}
	defer func() { cancel(); require.NoError(t, <-done) }()

	rep := run(t, "--addr", addr, "--encounters", "2", "--systems", "loss", "--duration", "1s", "--anchor-duration", "200ms")
	require.Positive(t, rep.Systems["loss"].Count)
	require.Empty(t, rep.Commands.Errors, rep.Commands.Example)
	require.Positive(t, rep.Health.Count)
	require.Nil(t, rep.JetStream)
	require.Zero(t, rep.CPUPerCommand)
	require.Contains(t, rep.CPUNote, "remote")
}
