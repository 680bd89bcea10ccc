package feeriecmd_test

import (
	"path/filepath"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/stretchr/testify/require"
)

// Issue 28, item 7: every legal action of a Contes de Fées fight `fray legal` prints comes with
// a command line that, pasted with its placeholders filled, sends exactly the pre-filled
// command with those choices filled in (a declaration or a change, whose intention is chosen
// field by field, is a `fray submit` line, which does). Rübezahl and the farfadet against the
// real encounter service, declaring, then acting at their ranks.
func TestEveryFeerieLegalActionsCommandLineSendsItsCommand(t *testing.T) {
	lines, viaSubmit := clienttest.LegalLines(t, "feerie", clienttest.LinesFight{
		Create: []string{"--name", "La clairière", "--system", "feerie"},
		Sheets: []string{filepath.Join(clienttest.Sheets, "feerie", "rubezahl.yaml"), filepath.Join(clienttest.Sheets, "feerie", "farfadet.yaml")},
		Setup: [][]string{
			{"feerie", "declare", "ENC", "rubezahl", "--kind", "melee", "--target", "farfadet", "--attack", "bâton"},
			{"feerie", "declare", "ENC", "farfadet", "--kind", "melee", "--target", "rubezahl"},
		},
		Prefer: []string{"act"}, Steps: 6,
	})
	t.Logf("command lines checked by key: %v; through fray submit: %d", lines, viaSubmit)
	for _, key := range []string{"act", "renounce", "gesture"} {
		require.NotZero(t, lines[key], "a %s was offered and checked", key)
	}
}
