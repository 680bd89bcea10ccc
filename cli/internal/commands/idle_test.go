package commands_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/stretchr/testify/require"
)

// fray idle list and end, against the encounter service on JetStream: the tenant's
// administrator (a token of the tenant with the fray:admin scope, which the CLI mints from the
// dev key) lists the encounters idle for --older-than and ends them; each end reveals the
// seed (the audit verifies the log from NATS) and is narrated; a token without the scope, or
// of another tenant, is refused.
func TestFrayIdleListsAndEndsATenantsIdleEncounters(t *testing.T) {
	clienttest.ClearEnv(t)
	var mu sync.Mutex
	now := time.Date(2026, 1, 5, 20, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	s := clienttest.StartStack(t, encounter.Options{Now: clock})
	fray := func(args ...string) (int, string, string) {
		t.Helper()
		return clienttest.Run(t, append(args, "--addr", s.Addr)...)
	}
	ok := func(args ...string) string {
		t.Helper()
		code, out, errOut := fray(args...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}
	stale := strings.TrimSpace(ok("create", "--name", "Ruelle", "--as", "gm"))
	ok("add", stale, filepath.Join(clienttest.Sheets, "diego.yaml"), filepath.Join(clienttest.Sheets, "ruffian.yaml"), "--as", "gm")
	ok("start", stale, "--as", "gm")
	advance(3 * 24 * time.Hour)
	fresh := strings.TrimSpace(ok("create", "--name", "Taverne", "--as", "gm"))
	advance(time.Hour)

	out := ok("idle", "list", "--tenant", "dev", "--older-than", "48h", "--as", "ops")
	require.Regexp(t, `(?m)^ID\s+NAME\s+SYSTEM\s+STATUS\s+EVENTS\s+GM\s+LAST ACTIVE$`, out)
	require.Regexp(t, stale+`\s+Ruelle\s+loss\s+active\s+\d+\s+dev/gm\s`, out)
	require.NotContains(t, out, fresh)
	require.Contains(t, out, "1 idle; tenant dev has 2 open; `fray idle end --tenant dev` ends them")
	out = ok("idle", "list", "--tenant", "dev", "--as", "ops")
	require.Contains(t, out, "0 idle; tenant dev has 2 open", "none idle for the server's 720h")

	// Refusals: no tenant, a duration too short, another tenant's token, a token without the
	// scope (--token: what the operator holds, not what the CLI mints).
	clienttest.RequireUsageError(t, []string{"idle", "list", "--addr", s.Addr}, "--tenant: name the tenant")
	clienttest.RequireUsageError(t, []string{"idle", "end", "--tenant", "dev", "--older-than", "10ms", "--addr", s.Addr}, "--older-than 10ms: give 1s or more")
	code, _, errOut := fray("idle", "list", "--tenant", "dev", "--as", "other/ops")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, `administers tenant "other", not "dev"`)
	tok := strings.TrimSpace(ok("token", "--as", "gm"))
	code, _, errOut = fray("idle", "end", "--tenant", "dev", "--older-than", "48h", "--token", tok)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, `"fray:admin" scope`)

	out = ok("idle", "end", "--tenant", "dev", "--older-than", "48h", "--as", "ops")
	require.Regexp(t, stale+`\s+Ruelle\s+loss\s+ended\s+\d+\s+dev/gm\s`, out)
	require.Contains(t, out, "ended 1; tenant dev has 1 open")
	log := ok("log", stale, "--as", "gm")
	require.Contains(t, log, "Encounter ended for idleness: no event for 2 days (ended by dev/ops); dice seed revealed: ")
	code, out, errOut = clienttest.Run(t, "audit", "verify", stale, "--nats-url", s.NATSURL)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "intact")

	out = ok("idle", "end", "--tenant", "dev", "--older-than", "48h", "--as", "ops")
	require.Equal(t, "ended 0; tenant dev has 1 open\n", out)
}

// The README's `fray idle` block, as pasted against a server whose clock an encounter has been
// idle on for two hours: the list shows it, the end ends it.
func TestTheREADMEIdleBlockWorksAsPasted(t *testing.T) {
	clienttest.ClearEnv(t)
	text := clienttest.DocsText(t, "../../..")
	at := strings.Index(text, "### Idle encounters")
	require.GreaterOrEqual(t, at, 0, "the README has its section")
	var block []string
	started := false
	for _, l := range strings.Split(text[at:], "\n")[1:] {
		if c, ok := strings.CutPrefix(l, "    "); ok {
			started = true
			block = append(block, c)
		} else if started {
			break
		}
	}
	require.Len(t, block, 2)

	var mu sync.Mutex
	now := time.Date(2026, 1, 5, 20, 0, 0, 0, time.UTC)
	s := clienttest.StartStack(t, encounter.Options{Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	t.Setenv("FRAY_ADDR", s.Addr)
	code, out, errOut := clienttest.Run(t, "create", "--name", "Ruelle")
	require.Equal(t, 0, code, errOut)
	id := strings.TrimSpace(out)
	mu.Lock()
	now = now.Add(2 * time.Hour)
	mu.Unlock()

	var outs []string
	for _, line := range block {
		args := strings.Fields(line)
		require.Equal(t, "./fray", args[0], "the README runs the CLI built at the root: %q", line)
		code, out, errOut := clienttest.Run(t, args[1:]...)
		require.Equal(t, 0, code, "%q: %s", line, errOut)
		outs = append(outs, out)
	}
	require.Contains(t, outs[0], id)
	require.Contains(t, outs[0], "1 idle; tenant dev has 1 open")
	require.Contains(t, outs[1], id)
	require.Contains(t, outs[1], "ended 1; tenant dev has 0 open")
}
