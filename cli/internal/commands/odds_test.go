package commands_test

import (
	"crypto/sha256"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
)

// `fray odds` against the real encounter service: the odds of Diego's attack with 2 Exploits
// on the ruffian (le malfrat), as a table with histograms (LOS-010, LOS-014); as david, once the GM has hidden
// the ruffian, no odds from its numbers; --json; an action without odds is a usage error.
func TestOddsPrintsATableAndHistograms(t *testing.T) {
	fray, enc := startedRuelle(t, "fray-odds-cli")

	out, _ := fray(0, "odds", enc, "diego", "attack", "ruffian", "--exploits", "2", "--as", "gm")
	for _, want := range []string{
		"odds of an attack at Difficulty 25 with 2 Exploits (loss)",
		"the attack reaches its Difficulty (LOS-010, LOS-011)",
		"  0 Exploits: Difficulty 15",
		"  5 Exploits: Difficulty 40",
		"parried (LOS-013, LOS-014)",
		"dodged (LOS-013, LOS-014)",
		"hits with 2 Exploits standing",
		"  NS lost (mean ",
		"█",
		"assumes the defender declares no Exploit",
	} {
		require.Contains(t, out, want)
	}
	grouped, _ := fray(0, "odds", enc, "diego", "loss", "attack", "ruffian", "--exploits", "2", "--as", "gm")
	require.Equal(t, out, grouped, "fray loss attack is fray attack")
	json1, _ := fray(0, "odds", enc, "diego", "attack", "ruffian", "--exploits", "2", "--as", "gm", "--json")
	var resp map[string]any
	require.NoError(t, json.Unmarshal([]byte(json1), &resp))
	require.Contains(t, resp, "odds")

	fray(0, "hide", enc, "ruffian", "--as", "gm")
	out, _ = fray(0, "odds", enc, "diego", "attack", "ruffian", "--as", "david")
	require.Contains(t, out, "no odds: the target's numbers are hidden from you")
	require.NotContains(t, out, "NS lost", "no distribution from the hidden ruffian's numbers")

	_, errOut := fray(commands.ExitUsage, "odds", enc, "diego", "pass", "--as", "david")
	require.Contains(t, errOut, "the actions with odds are attack, react, d20 attack, feerie act, ka attack, ka react, ka disarm and ka terror")
	_, errOut = fray(commands.ExitError, "odds", enc, "ruffian", "attack", "diego", "--as", "david")
	require.Contains(t, errOut, "PermissionDenied")
	// The README's example, pasted in order from the sheets' folder (`fray` for
	// ../../../fray): a fight of its own (the README's five-minute one has ended its own by
	// then, and its ruffian is out), Diego first with these dice as with --demo's.
	block := readmeBlock(t, "When it is Diego's turn")
	require.Len(t, block, 4)
	t.Chdir(clienttest.Sheets)
	oid := ""
	for _, line := range block {
		assign, rest, ok := strings.Cut(line, "=$(")
		if ok {
			line = strings.TrimSuffix(rest, ")")
		}
		words := shellWords(t, line, oid)
		require.Equal(t, "../../../fray", words[0])
		out, _ = fray(0, words[1:]...)
		if ok {
			require.Equal(t, "oid", assign)
			oid = strings.TrimSpace(out)
		}
	}
	require.Contains(t, out, "odds of an attack at Difficulty 25 with 2 Exploits (loss)")
	require.Contains(t, out, "dodged (LOS-013, LOS-014)")
	help, _ := fray(0, "odds", "--help")
	require.Contains(t, help, "fray odds ENC diego attack ruffian --exploits 2")
}

// `fray odds ENC DEFENDER react dodge|parry|none` answers for the defender of the attack
// awaiting it (issue 28, item 5): the chance its defence makes the attack miss, the Exploits
// standing, the NS it loses and the chance it is out of the fight; before any attack awaits,
// the rules' refusal.
func TestOddsOfAReaction(t *testing.T) {
	fray, enc := startedRuelle(t, "fray-odds-react")
	_, errOut := fray(commands.ExitError, "odds", enc, "ruffian", "react", "dodge", "--as", "gm")
	require.Contains(t, errOut, "no attack is waiting")

	// Diego attacks until one reaches its Difficulty and waits for the ruffian's answer.
	for i := 0; ; i++ {
		require.Less(t, i, 3, "one of Diego's attacks reaches Difficulty 15")
		out, _ := fray(0, "attack", enc, "diego", "ruffian", "--as", "gm")
		if strings.Contains(out, "parry, dodge or take the blow") {
			break
		}
	}
	for _, c := range []struct{ reaction, title string }{
		{"dodge", "dodged (LOS-013, LOS-014)"},
		{"parry", "parried (LOS-013, LOS-014)"},
		{"none", "the blow taken (LOS-009)"},
	} {
		out, _ := fray(0, "odds", enc, "ruffian", "react", c.reaction, "--as", "gm")
		require.Contains(t, out, c.title, c.reaction)
		require.Contains(t, out, "the target is out of the fight", c.reaction)
		require.Contains(t, out, "  NS lost (mean ", c.reaction)
		if c.reaction != "none" {
			require.Contains(t, out, "the defence succeeds: the attack misses", c.reaction)
		}
	}
}

// startedRuelle serves the encounter service (its dice seeded by seedName) and starts the
// quay's Ruelle through the CLI: Diego against the ruffian. fray runs a command against it.
func startedRuelle(t *testing.T, seedName string) (fray func(code int, args ...string) (string, string), enc string) {
	clienttest.ClearEnv(t)
	b := store.NewMemory()
	seed := sha256.Sum256([]byte(seedName))
	svc := encounter.New(b, b, encounter.LocalDecider{Registry: systems.Registry()}, systems.Registry(),
		encounter.Options{NewSeed: func() []byte { return seed[:] }})
	addr := clienttest.ServeWith(t, func(g *grpc.Server) { encounter.Register(g, svc) })
	fray = func(code int, args ...string) (string, string) {
		t.Helper()
		got, out, errOut := clienttest.Run(t, append(args, "--addr", addr)...)
		require.Equal(t, code, got, "%v: %s", args, errOut)
		return out, errOut
	}
	enc, _ = fray(0, "create", "--name", "Ruelle", "--as", "gm")
	enc = strings.TrimSpace(enc)
	fray(0, "add", enc, filepath.Join(clienttest.Sheets, "diego.yaml"), filepath.Join(clienttest.Sheets, "ruffian.yaml"), "--as", "gm")
	fray(0, "start", enc, "--as", "gm")
	return fray, enc
}
