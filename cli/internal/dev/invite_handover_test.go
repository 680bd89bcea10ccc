package dev_test

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/stretchr/testify/require"
)

// Issue 28, item 8: `fray invite --player diego` hands Diego to a new principal and says so on
// stderr — whose Diego was (david, by the sheet's controller), that david commands it no
// longer, and the grant that gives it back; run, that grant lets david command Diego again.
func TestInviteSaysWhoseCombatantItHandsOver(t *testing.T) {
	addr, _ := startWeb(t)
	sheets := filepath.Join("..", "..", "testdata", "sheets")
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--as", "gm", "--name", "Ruelle sombre"))
	fray(t, "add", "--addr", addr, "--as", "gm", id, filepath.Join(sheets, "diego.yaml"), filepath.Join(sheets, "ruffian.yaml"))
	fray(t, "start", id, "--addr", addr, "--as", "gm")
	require.Contains(t, fray(t, "legal", id, "--addr", addr, "--as", "david"), "Diego may:")

	var out, errOut bytes.Buffer
	code := commands.Run(context.Background(), []string{"invite", id, "--player", "diego", "--addr", addr, "--as", "gm"}, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	said := regexp.MustCompile(`Diego \(diego\) was dev/david's: it is (dev/diego-\S+)'s now, and dev/david no longer commands it; dev/david has no other part in the encounter, and can no longer read it \(to give it back: (fray grant \S+ david player --combatants diego)\)`).FindStringSubmatch(errOut.String())
	require.NotNil(t, said, errOut.String())
	out.Reset()
	errOut.Reset()
	code = commands.Run(context.Background(), []string{"legal", id, "--addr", addr, "--as", "david"}, &out, &errOut)
	require.Equal(t, 1, code, "david lost Diego, his only combatant, and with it his part in the encounter")
	require.Contains(t, errOut.String(), "dev/david has no role in encounter")

	back := strings.Fields(said[2])
	require.Equal(t, id, back[2])
	fray(t, append(back[1:], "--addr", addr, "--as", "gm")...)
	require.Contains(t, fray(t, "legal", id, "--addr", addr, "--as", "david"), "Diego may:", "the grant the invite printed gives Diego back")
}
