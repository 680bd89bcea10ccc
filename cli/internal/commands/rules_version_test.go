package commands_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/stretchr/testify/require"
)

// fray create --rules-version, end to end over gRPC against the encounter service on an
// embedded JetStream, with d20 segments, whose version 2 refuses a sheet without its armour
// and weapon class that version 1 took for light (D20-010): an encounter created at version 1
// while the latest is 2 pins version 1 (the state says so, and it decides as v1: it accepts
// the bare sheet the latest refuses); a version the server does not know is refused
// FailedPrecondition naming the versions it knows; and `fray audit verify` decides the v1
// encounter's commands again under v1 (intact), while the same log relabelled version 2
// diverges at that sheet.
func TestCreateAtAnOlderRulesVersionPinsIt(t *testing.T) {
	clienttest.ClearEnv(t)
	require.Equal(t, 2, d20seg.Latest, "this test plays v1 against the latest, v2")
	begin := time.Now()
	s := clienttest.StartStack(t, encounter.Options{})
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
	require.Regexp(t, `(?m)^d20seg\s+d20 à segments\s+1, 2$`, ok("rulesets", "--as", "gm"))

	old := strings.TrimSpace(ok("create", "--name", "Le vieux gué", "--system", "d20seg", "--rules-version", "1", "--as", "gm"))
	latest := strings.TrimSpace(ok("create", "--name", "Le gué", "--system", "d20seg", "--as", "gm"))
	require.Contains(t, ok("state", old, "--as", "gm"), "Le vieux gué ("+old+"): setup, d20seg v1, ")
	require.Contains(t, ok("state", latest, "--as", "gm"), "Le gué ("+latest+"): setup, d20seg v2, ")

	// A sheet without armour or weapon class: v1 takes them for light, v2 refuses it.
	raw, err := os.ReadFile(filepath.Join(clienttest.Sheets, "d20seg", "novice.yaml"))
	require.NoError(t, err)
	var kept []string
	for _, l := range strings.Split(string(raw), "\n") {
		if !strings.Contains(l, "armour:") && !strings.Contains(l, "weapon_class:") {
			kept = append(kept, l)
		}
	}
	bare := filepath.Join(t.TempDir(), "bare.yaml")
	require.NoError(t, os.WriteFile(bare, []byte(strings.Join(kept, "\n")), 0o600))
	code, _, errOut := fray("add", latest, bare, "--as", "gm")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "InvalidArgument")
	require.Contains(t, errOut, "armour")
	require.Contains(t, errOut, "D20-010")
	ok("add", old, bare, filepath.Join(clienttest.Sheets, "d20seg", "soldat.yaml"), "--as", "gm")
	ok("start", old, "--as", "gm")
	require.Regexp(t, `novice\s+\S+\s+\S+\s+\S+\s+3\s`, ok("state", old, "--as", "gm"), "v1: Rapidité 3, light armour and weapon taken for the missing ones")

	// fray rules: the descriptor of the version asked, or of the one an encounter pinned.
	v1 := ok("rules", "--encounter", old, "--as", "gm")
	require.Contains(t, v1, "d20 à segments (d20seg), version 1\n")
	require.Regexp(t, `(?m)^  rapidite, armour, shield, weapon_class\s+Initiative \(D20-010\)$`, v1)
	v2 := ok("rules", "--encounter", latest, "--as", "gm")
	require.Contains(t, v2, "d20 à segments (d20seg), version 2\n")
	require.Regexp(t, `(?m)^  rapidite, armour \(required\), shield, weapon_class \(required\)\s+Initiative \(D20-010\)$`, v2)
	require.Equal(t, v1, ok("rules", "d20seg", "--rules-version", "1", "--as", "gm"))
	require.Equal(t, v2, ok("rules", "d20seg", "--as", "gm"), "the latest")
	require.Regexp(t, `(?m)^Attack cost \(D20-017\):\n  BBA\s+SEGMENTS\n  0–5\s+4\n  6–10\s+3\n  11–15\s+2\n  16\+\s+1, then 2$`, v2)
	require.Regexp(t, `(?m)^  other\s+1 segment unless the GM says otherwise\s+move, draw a weapon, stand up, use an object \(D20-022\)$`, v2)
	code, _, errOut = fray("rules", "d20seg", "--rules-version", "99", "--as", "gm")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "FailedPrecondition")
	require.Contains(t, errOut, "it knows versions 1, 2")
	clienttest.RequireUsageError(t, []string{"rules", "d20seg", "--encounter", old, "--addr", s.Addr}, "--encounter gives the system and its version")
	clienttest.RequireUsageError(t, []string{"rules", "--addr", s.Addr}, "name the rule system")

	code, _, errOut = fray("create", "--name", "Le gué futur", "--system", "d20seg", "--rules-version", "99", "--as", "gm")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "FailedPrecondition")
	require.Contains(t, errOut, `rule system "d20seg" version 99`)
	require.Contains(t, errOut, "it knows versions 1, 2")

	ok("end", old, "--as", "gm")
	code, out, errOut := clienttest.Run(t, "audit", "verify", old, "--nats-url", s.NATSURL)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "intact")

	// The same log, as if recorded under version 2: the audit decides it again under v2 and
	// diverges at the bare sheet.
	exported := filepath.Join(t.TempDir(), "old.jsonl")
	clienttest.Run(t, "export", old, "--out", exported, "--nats-url", s.NATSURL)
	log, err := os.ReadFile(exported)
	require.NoError(t, err)
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		var ev map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &ev))
		require.EqualValues(t, 1, ev["rulesVersion"])
		ev["rulesVersion"] = 2 // the event's, not its recorded command's (whose digest it keeps)
		b, err := json.Marshal(ev)
		require.NoError(t, err)
		lines = append(lines, string(b))
	}
	relabelled := filepath.Join(t.TempDir(), "as-v2.jsonl")
	require.NoError(t, os.WriteFile(relabelled, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	code, _, errOut = clienttest.Run(t, "audit", "verify", "--file", relabelled)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "DIVERGENCE at event 2")
	require.Contains(t, errOut, "D20-010")
	t.Logf("done in %s", time.Since(begin))
}

// The help states the numbers of the latest version of the rules, read from its value, and says
// where an encounter's own version is described: the trip of Les Chants de Loss v2 throws the
// target down (LOS-035), d20 segments' other action costs its version's segments (D20-022).
func TestHelpStatesTheLatestVersionsNumbers(t *testing.T) {
	help := func(args ...string) string {
		t.Helper()
		code, out, errOut := clienttest.Run(t, append(args, "-h")...)
		require.Equal(t, 0, code, errOut)
		return strings.Join(strings.Fields(out), " ")
	}
	n := loss.New(loss.Latest).Numbers
	attack := help("attack")
	require.Contains(t, attack, fmt.Sprintf("Costs and numbers here are those of version %d of the rules; fray rules --encounter ENC", loss.Latest))
	require.Contains(t, attack, fmt.Sprintf("Each Exploit raises the Difficulty by %d;", n.ExploitStep))
	if n.TripFells {
		require.Contains(t, attack, fmt.Sprintf("--trip trip the target instead of a blow (%d PA); on a success it falls: it must stand up (%d PA) at its next action (LOS-035)", n.ManoeuvreCost, n.StandUpCost))
	}
	require.Contains(t, help("chase"), fmt.Sprintf("charge a pursuer at distance 2, Difficulty %d: unseats or throws down --target (%d PA)", n.ChargeDifficulty, n.ChargeCost))
	require.Contains(t, help("act"), fmt.Sprintf("stand up or regain one's balance (%d PA, LOS-072;", n.StandUpCost))
	d := d20seg.New(d20seg.Latest).Numbers()
	require.Contains(t, help("d20"), fmt.Sprintf("The numbers here are version %d's; fray rules d20seg lists the costs and tables", d20seg.Latest))
	require.Contains(t, help("d20", "other"), fmt.Sprintf("It costs %d segment unless the GM says otherwise", d.OtherCost))
}
