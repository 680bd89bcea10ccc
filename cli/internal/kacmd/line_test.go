package kacmd_test

import (
	"path/filepath"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/stretchr/testify/require"
)

// Issue 28, item 7: every legal action of a Ka fight `fray legal` prints comes with a command
// line that, pasted with its placeholders filled, sends exactly the pre-filled command with
// those choices filled in; a dodge, whose skill the CLI's own command leaves to the rules, is
// a `fray submit` line, which does. Joshua and the dog against the real encounter service,
// attacking, disarming and answering.
func TestEveryKaLegalActionsCommandLineSendsItsCommand(t *testing.T) {
	lines, viaSubmit := clienttest.LegalLines(t, "ka", clienttest.LinesFight{
		Create: []string{"--name", "La ruelle", "--system", "ka"},
		Sheets: []string{filepath.Join(clienttest.Sheets, "ka", "joshua.yaml"), filepath.Join(clienttest.Sheets, "ka", "chien.yaml")},
		Prefer: []string{"attack", "disarm", "take it", "attack back", "pick up"}, Steps: 40,
	})
	t.Logf("command lines checked by key: %v; through fray submit: %d", lines, viaSubmit)
	for _, key := range []string{"attack", "pass", "take it"} {
		require.NotZero(t, lines[key], "a %s was offered and checked", key)
	}
}
