package clienttest_test

import (
	"crypto/sha256"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { clienttest.Main(m) }

// A fight through the CLI against the Stack: what the encounter service records on JetStream
// is what the log tools then read from NATS, with no service in between (LOS-031: the Tour
// starts with each combatant's PA).
func TestStackPlaysAFightTheLogToolsRead(t *testing.T) {
	clienttest.ClearEnv(t)
	seed := sha256.Sum256([]byte("fray-clienttest-stack"))
	s := clienttest.StartStack(t, encounter.Options{NewSeed: func() []byte { return seed[:] }})
	fray := func(args ...string) string {
		t.Helper()
		code, out, errOut := clienttest.Run(t, append(args, "--addr", s.Addr, "--as", "gm")...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}
	id := strings.TrimSpace(fray("create", "--name", "Ruelle"))
	require.NotEmpty(t, id)
	fray("add", id, filepath.Join(clienttest.Sheets, "diego.yaml"), filepath.Join(clienttest.Sheets, "ruffian.yaml"))
	started := fray("start", id)
	require.Contains(t, started, "Tour 1 (Séquence 1): ")
	require.Contains(t, fray("state", id), "Tour 1 (Séquence 1)")
	log := fray("log", id)
	require.Len(t, strings.Split(strings.TrimSpace(log), "\n"), 5, log) // created, 2 added, started, Tour 1

	code, out, errOut := clienttest.Run(t, "replay", id, "--nats-url", s.NATSURL)
	require.Equal(t, 0, code, errOut)
	require.True(t, strings.HasPrefix(out, log), "replay tells the log as `fray log` does:\n%s", out)
	require.Contains(t, out, "== state as of event 5 ==")
}

// The fake records who asked what, and answers what it is given.
func TestFakeRecordsTheRequests(t *testing.T) {
	clienttest.ClearEnv(t)
	f := &clienttest.Fake{}
	addr := clienttest.Serve(t, f)
	code, out, errOut := clienttest.Run(t, "create", "--addr", addr, "--as", "florence", "--name", "Ruelle")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "enc-1\n", out)
	calls := f.Requests()
	require.Len(t, calls, 1)
	require.Equal(t, "CreateEncounter", calls[0].Method)
	require.Equal(t, []string{"dev/florence"}, calls[0].Principal)

	code, _, errOut = clienttest.Run(t, "state", "enc-1", "--addr", "127.0.0.1:1", "--timeout", "1s")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "fray state: ")
}
