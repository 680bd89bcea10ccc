package losscmd_test

import (
	"path/filepath"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/stretchr/testify/require"
)

// Issue 28, item 7: every legal action `fray legal` prints comes with a command line that,
// pasted with its placeholders filled (TARGET, PHASE… each by the first value its choice
// offers), sends exactly the pre-filled command with those choices filled in. Played on the
// quay's five combatants against the real encounter service, with a pursuit and a bow (aims),
// taking at each step an attack, a reaction or a chase when offered.
func TestEveryLegalActionsCommandLineSendsItsCommand(t *testing.T) {
	var sheets []string
	for _, n := range []string{"diego", "canahan", "archere", "ruffian", "capitaine"} {
		sheets = append(sheets, filepath.Join(clienttest.Sheets, "quai", n+".yaml"))
	}
	lines, viaSubmit := clienttest.LegalLines(t, "loss", clienttest.LinesFight{
		Create: []string{"--name", "Le quai"}, Sheets: sheets,
		Setup:  [][]string{{"pursuit", "ENC", "--pursuers", "diego", "--pursued", "capitaine", "--distance", "2"}},
		Prefer: []string{"attack", "parry", "dodge", "charge (pursuit)", "change distance (pursuit)"}, Steps: 60,
	})
	t.Logf("command lines checked by key: %v; through fray submit: %d", lines, viaSubmit)
	for _, key := range []string{"attack", "parry", "dodge", "take the blow", "wait", "pass", "speak", "aim"} {
		require.NotZero(t, lines[key], "a %s was offered and checked", key)
	}
	require.Zero(t, viaSubmit, "every action of Les Chants de Loss has a command of its own")
}
