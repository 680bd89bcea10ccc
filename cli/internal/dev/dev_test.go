package dev_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/ratelimit"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
)

// TestMain keeps fray dev's notes of where its keys are (auth.RecordDevKey) in a folder of
// the test's own.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fray-dev-records")
	if err != nil {
		panic(err)
	}
	os.Setenv("FRAY_DEV_RECORDS", dir)
	os.Unsetenv("FRAY_DEV_KEY")
	os.Unsetenv("FRAY_TOKEN")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// start runs `fray dev` on free ports over data until the returned stop is called.
func start(t *testing.T, data string, tune ...func(*dev.Config)) (addr string, stop func()) {
	t.Helper()
	addr, cancel, done := startRun(t, data, tune...)
	return addr, func() { cancel(); require.NoError(t, <-done) }
}

// startRun is start, with the stop in two: cancel, then done says how Run ended.
func startRun(t *testing.T, data string, tune ...func(*dev.Config)) (addr string, cancel func(), done <-chan error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	ended := make(chan error, 1)
	cfg := dev.Config{
		Listen: "127.0.0.1:0", Data: data, NATSHost: "127.0.0.1", NATSPort: -1,
		Grace: 5 * time.Second, Log: telemetry.NewLogger("text", "error"),
		Ready: func(a string) { ready <- a },
	}
	for _, f := range tune {
		f(&cfg)
	}
	go func() {
		ended <- dev.Run(ctx, cfg)
	}()
	select {
	case addr = <-ready:
	case err := <-ended:
		cancel()
		t.Fatalf("fray dev did not start: %v", err)
	}
	return addr, cancel, ended
}

// requireLasts checks that exp is ttl after a moment between before and after (the call that
// made it), to the second a token's exp is written in: bracketed by the clock, not compared
// with it within some tolerance, so that a slow machine does not move it.
func requireLasts(t *testing.T, before, after time.Time, ttl time.Duration, exp time.Time, msgAndArgs ...any) {
	t.Helper()
	require.False(t, exp.Before(before.Add(ttl).Truncate(time.Second)), msgAndArgs...)
	require.False(t, exp.After(after.Add(ttl)), msgAndArgs...)
}

// fray runs one CLI command and returns its output.
func fray(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	code := commands.Run(context.Background(), args, &out, &errOut)
	require.Equal(t, 0, code, "fray %v: %s", args, errOut.String())
	return out.String()
}

func TestDevServesBothServicesAndKeepsDataAcrossRestarts(t *testing.T) {
	data := t.TempDir()
	sheets := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join("..", "..", "testdata", "sheets", n+".yaml"))
		}
		return out
	}

	addr, stop := start(t, data)
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--name", "Ruelle sombre"))
	require.True(t, strings.HasPrefix(id, "enc-"), id)
	added := fray(t, append([]string{"add", "--addr", addr, id}, sheets("diego", "ruffian")...)...)
	require.Contains(t, added, "Diego")
	require.Contains(t, fray(t, "start", "--addr", addr, id), "Tour 1")
	before := fray(t, "state", "--addr", addr, "--json", id)
	require.Contains(t, fray(t, "rulesets", "--addr", addr), "loss")
	require.Contains(t, fray(t, "roll", "--addr", addr, "3d10+4"), "3d10+4")
	stop()

	// A second run over the same folder finds the encounter where it was.
	addr, stop = start(t, data)
	defer stop()
	require.Contains(t, fray(t, "list", "--addr", addr), id)
	require.Equal(t, before, fray(t, "state", "--addr", addr, "--json", id))
}

// fray dev makes its signing key once and keeps it; the CLI run from another folder finds it
// (fray dev notes where it is) and mints for --as; `fray token` mints from it too; a call
// without a token, or with a token of another key, is refused.
func TestDevKeyAndTokensFromAnotherFolder(t *testing.T) {
	t.Setenv("FRAY_DEV_KEY", "")
	t.Setenv("FRAY_DEV_RECORDS", t.TempDir())
	data := t.TempDir()
	addr, stop := start(t, data)
	keyFile := filepath.Join(data, auth.DevKeyFile)
	key, err := os.ReadFile(keyFile)
	require.NoError(t, err)
	fi, err := os.Stat(keyFile)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the key is its owner's only")

	t.Chdir(t.TempDir()) // as the README's ../../../fray run from cli/testdata/sheets
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--as", "david", "--name", "Ailleurs"))
	require.Contains(t, fray(t, "state", "--addr", addr, "--as", "david", id), "GM dev/david")
	tok := strings.TrimSpace(fray(t, "token", "--addr", addr, "--as", "david"))
	require.Contains(t, fray(t, "list", "--addr", addr, "--token", tok), id)
	// Reads follow roles: florence has none in david's encounter, and does not list it.
	florence := strings.TrimSpace(fray(t, "token", "--addr", addr, "--as", "florence"))
	require.NotContains(t, fray(t, "list", "--addr", addr, "--token", florence), id)

	var out, errOut bytes.Buffer
	foreign := authtest.Default().Token("david")
	require.Equal(t, 1, commands.Run(context.Background(), []string{"list", "--addr", addr, "--token", foreign}, &out, &errOut))
	require.Contains(t, errOut.String(), "Unauthenticated: unknown signing key")
	stop()

	// Stopped: the note is gone, and the CLI finds no key for that address.
	errOut.Reset()
	require.Equal(t, 1, commands.Run(context.Background(), []string{"token", "--addr", addr}, &out, &errOut))
	require.Contains(t, errOut.String(), "no dev signing key found")

	// Restarted over the same folder: the same key, so tokens minted before still verify.
	addr, stop = start(t, data)
	defer stop()
	again, err := os.ReadFile(keyFile)
	require.NoError(t, err)
	require.Equal(t, key, again)
	require.Contains(t, fray(t, "list", "--addr", addr, "--token", tok), id)
}

// fray dev serves plaintext with a key anyone holding its folder can mint from: loopback only.
// fray dev limits each caller's rate as the encounter service does; its own calls from the
// encounter service to the resolver take nothing from a player's quota.
func TestDevLimitsEachCallersRate(t *testing.T) {
	addr, stop := start(t, t.TempDir(), func(c *dev.Config) {
		c.RateLimits = ratelimit.Limits{PrincipalRate: 0.001, PrincipalBurst: 3} // none back while the test runs
	})
	defer stop()
	t.Setenv("FRAY_ADDR", addr)
	// Three calls of david's burst, the create deciding through the resolver too.
	id := strings.TrimSpace(fray(t, "create", "--name", "Limite", "--as", "david"))
	fray(t, "list", "--as", "david")
	fray(t, "state", id, "--as", "david")
	var out, errOut bytes.Buffer
	code := commands.Run(context.Background(), []string{"list", "--as", "david"}, &out, &errOut)
	require.Equal(t, 1, code, out.String())
	require.Contains(t, errOut.String(), "ResourceExhausted")
	require.Contains(t, errOut.String(), "dev/david: more than 0.001 requests/s; retry in")
	// Another caller is served.
	require.Contains(t, fray(t, "list", "--as", "florence"), "No encounters")
}

func TestDevListensOnLoopbackOnly(t *testing.T) {
	err := dev.Run(context.Background(), dev.Config{Listen: "0.0.0.0:0", Data: t.TempDir(), NATSHost: "127.0.0.1", NATSPort: -1, Grace: time.Second, Log: telemetry.NewLogger("text", "error")})
	require.ErrorContains(t, err, "fray dev listens on loopback only")
}
