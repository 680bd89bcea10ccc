package commands_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/cli/internal/commands"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
)

// Issue 28, item 4: the names and labels of legal actions are narrated text, worded by the
// rules in the language asked: with language fr, GetEncounter's legal_for_all gives the
// ruffian's answers as « parer », « esquiver », « encaisser le coup », with the defensive
// Exploits as the book names them (Contre-attaque, Esquive totale), their keys, commands and
// values unchanged; `fray legal --lang fr` prints them, with the CLI's own flags; without a
// language, English as before. Against the real encounter service, with --demo's dice (Diego
// first, his attack hits).
func TestLegalActionsAreWordedInTheLanguageAsked(t *testing.T) {
	clienttest.ClearEnv(t)
	s := clienttest.StartStack(t, encounter.Options{NewSeed: commands.DemoSeed})
	ok := func(args ...string) string {
		t.Helper()
		code, out, errOut := clienttest.Run(t, append(args, "--addr", s.Addr)...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}
	id := strings.TrimSpace(ok("create", "--name", "Ruelle sombre"))
	ok("add", id, filepath.Join(clienttest.Sheets, "diego.yaml"), filepath.Join(clienttest.Sheets, "ruffian.yaml"))
	ok("start", id)
	ok("attack", id, "diego", "ruffian", "--as", "david")

	var fr encounterv1.GetEncounterResponse
	require.NoError(t, protojson.Unmarshal([]byte(ok("legal", id, "--json", "--lang", "fr")), &fr))
	names := map[string]string{}
	labels := map[string]bool{}
	for _, ca := range fr.GetActions() {
		for _, l := range ca.GetActions() {
			names[l.GetAction().GetKey()] = l.GetAction().GetName()
			for _, c := range l.GetAction().GetChoices() {
				for _, o := range c.GetOptions() {
					labels[o.GetLabel()] = true
				}
			}
		}
	}
	require.Equal(t, map[string]string{"parry": "parer", "dodge": "esquiver", "take the blow": "encaisser le coup"}, names)
	require.True(t, labels["Contre-attaque"], "%v", labels)
	require.True(t, labels["Esquive totale"], "%v", labels)

	text := ok("legal", id, "--lang", "fr")
	for _, want := range []string{"  parer: 1 (LOS-036) [parry]", "  esquiver: 1 (LOS-036) [dodge]", "  encaisser le coup (LOS-009) [take the blow]",
		"fray react " + id + " ruffian parry", "counter-attack (Contre-attaque, 1)", "Exploits déclarés sur la défense (LOS-012)"} {
		require.Contains(t, text, want)
	}
	en := ok("legal", id)
	require.Contains(t, en, "counter-attack (Counter-attack, 1)", "English without a language")
	require.NotContains(t, en, "parer")
}
