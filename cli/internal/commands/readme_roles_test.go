package commands_test

import (
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
