package d20segcmd_test

import (
	"path/filepath"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/stretchr/testify/require"
)

// Issue 28, item 7: every legal action of a d20 segments fight `fray legal` prints comes with
// a command line that, pasted with its placeholders filled, sends exactly the pre-filled
// command with those choices filled in (a cast or another action, whose words are still to be
// given, is a `fray submit` line, which does). Four fighters against the real encounter
// service, attacking when they may.
func TestEveryD20LegalActionsCommandLineSendsItsCommand(t *testing.T) {
	var sheets []string
	for _, n := range []string{"maitre", "novice", "soldat", "veteran"} {
		sheets = append(sheets, filepath.Join(clienttest.Sheets, "d20seg", n+".yaml"))
	}
	lines, viaSubmit := clienttest.LegalLines(t, "d20seg", clienttest.LinesFight{
		Create: []string{"--name", "Le gué", "--system", "d20seg"}, Sheets: sheets,
		Prefer: []string{"attack"}, Steps: 30,
	})
	t.Logf("command lines checked by key: %v; through fray submit: %d", lines, viaSubmit)
	for _, key := range []string{"attack", "end turn"} {
		require.NotZero(t, lines[key], "a %s was offered and checked", key)
	}
}
