package logtools_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

// runFray runs `fray ARGS` (clienttest.RunCtx), outside any test's context.
func runFray(args ...string) (int, string, string) {
	return clienttest.RunCtx(context.Background(), args...)
}

// Against a NATS enforcing deploy/nats/permissions.conf (as `fray dev`'s does), the log tools
// do all their work as the auditor, named or anonymous; import, which writes the log, takes
// the encounter user and is refused to the auditor at once, saying why.
func TestLogToolsAsTheAuditor(t *testing.T) {
	s := natstest.StartSecured(t)
	url := s.Server.ClientURL()
	golden := filepath.Join("..", "..", "..", "rules", "systems", "testdata", "golden", "loss-v1.jsonl")
	const id = "golden-loss"
	raw, err := os.ReadFile(golden)
	require.NoError(t, err)
	n := strings.Count(strings.TrimSpace(string(raw)), "\n") + 1 // one event a line

	code, _, stderr := runFray("import", golden, "--nats-url", url)
	require.Equal(t, 1, code, "the anonymous client is the auditor: it may not write the log")
	require.Contains(t, stderr, "refused this user")
	require.Contains(t, stderr, "Permissions Violation")
	code, _, stderr = runFray("import", golden, "--nats-url", url, "--nats-user", natsconn.AuditorUser, "--nats-password", s.Users.Auditor)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "refused this user")
	code, _, stderr = runFray("import", golden, "--nats-url", url, "--nats-user", natsconn.AuditorUser, "--nats-password", "wrong")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "Authorization Violation")
	code, stdout, stderr := runFray("import", golden, "--nats-url", url, "--nats-user", natsconn.EncounterUser, "--nats-password", s.Users.Encounter)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, fmt.Sprintf("imported %d events of %s", n, id))

	t.Setenv("FRAY_NATS_URL", url)
	for _, as := range []struct {
		name string
		args []string
	}{
		{"anonymous", nil},
		{"auditor", []string{"--nats-user", natsconn.AuditorUser, "--nats-password", s.Users.Auditor}},
	} {
		t.Run(as.name, func(t *testing.T) {
			run := func(args ...string) string {
				t.Helper()
				code, stdout, stderr := runFray(append(args, as.args...)...)
				require.Equal(t, 0, code, "fray %v: %s", args, stderr)
				return stdout
			}
			require.Contains(t, run("replay", id), fmt.Sprintf("== state as of event %d ==", n))
			require.Contains(t, run("replay", id, "--at", "12", "--format", "markdown"), "## State as of event 12")
			require.Contains(t, run("audit", "verify", id), fmt.Sprintf("intact: %d events", n))
			file := filepath.Join(t.TempDir(), "copy.jsonl")
			run("export", id, "--out", file)
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			got, err := os.ReadFile(file)
			require.NoError(t, err)
			require.Equal(t, strings.Count(string(want), "\n"), strings.Count(string(got), "\n"))
			tail := run("audit", "tail", "--durable", "tail-"+as.name, "--limit", "1")
			require.Contains(t, tail, id+" ")
		})
	}
}
