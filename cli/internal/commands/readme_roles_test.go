package commands_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/stretchr/testify/require"
)

// Issue 28, item 13: the README's roles block, pasted in order from the repository's root
// against the real encounter service, on an encounter of its own (it once granted roles on
// the five-minute fight's, which the log tools' block had ended): every line is taken, and
// the roles it grants are the encounter's.
func TestTheREADMERolesBlockPastesOnItsOwnEncounter(t *testing.T) {
	clienttest.ClearEnv(t)
	block := readmeBlock(t, "**Roles, per encounter, recorded as events.**")
	require.GreaterOrEqual(t, len(block), 6)
	s := clienttest.StartStack(t, encounter.Options{})
	t.Chdir("../../..")
	rid := ""
	for _, line := range block {
		assign, rest, isAssign := strings.Cut(line, "=$(")
		if isAssign {
			line = strings.TrimSuffix(rest, ")")
		}
		words := shellWords(t, strings.ReplaceAll(line, "$rid", rid), rid)
		require.Equal(t, "./fray", words[0], line)
		code, out, errOut := clienttest.Run(t, append(words[1:], "--addr", s.Addr)...)
		require.Equal(t, 0, code, "%s: %s", line, errOut)
		if isAssign {
			require.Equal(t, "rid", assign)
			rid = strings.TrimSpace(out)
		}
	}
	code, out, errOut := clienttest.Run(t, "state", rid, "--addr", s.Addr)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "dev/florence")
}

// Issue 28, item 14: the README is the front door, the rest is in docs/: the README stays short
// and names every document of docs/, so that what moved there is found from it (and the tests
// that paste blocks read docs/ too: clienttest.DocsText).
func TestTheREADMEIsAFrontDoorToEveryDoc(t *testing.T) {
	raw, err := os.ReadFile("../../../README.md")
	require.NoError(t, err)
	readme := string(raw)
	require.LessOrEqual(t, strings.Count(readme, "\n"), 200, "the README keeps to what it is, the two commands, a short fight and the browser")
	docs, err := filepath.Glob("../../../docs/*.md")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(docs), 10)
	for _, d := range docs {
		require.Contains(t, readme, "](docs/"+filepath.Base(d)+")", "the README links %s", d)
	}
}
