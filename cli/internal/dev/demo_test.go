package dev_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/stretchr/testify/require"
)

// `fray dev --demo` plays the README's five-minute fight with the dice it shows: every event
// line the README shows for it ("# #N …") is printed, exactly, by the commands before it.
func TestDevDemoRollsTheREADMEsDice(t *testing.T) {
	t.Setenv("FRAY_DEV_KEY", "")
	t.Setenv("FRAY_DEV_RECORDS", t.TempDir())
	text := clienttest.DocsText(t, "../../..")
	section := text[strings.Index(text, "## A Loss fight in five minutes"):strings.Index(text, "Refused commands say why")]
	var shown []string
	for _, l := range strings.Split(section, "\n") {
		if e, ok := strings.CutPrefix(l, "    # #"); ok {
			shown = append(shown, "#"+e)
		}
	}
	require.Len(t, shown, 4, "the README shows the start, the attack and the blow")

	addr, stop := start(t, t.TempDir(), func(c *dev.Config) { c.Demo = true })
	defer stop()
	sheet := func(n string) string { return filepath.Join("..", "..", "testdata", "sheets", n) }
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--name", "Ruelle sombre"))
	printed := fray(t, "add", "--addr", addr, id, sheet("diego.yaml"), sheet("ruffian.yaml"))
	printed += fray(t, "start", "--addr", addr, id)
	printed += fray(t, "attack", "--addr", addr, id, "diego", "ruffian", "--as", "david", "--exploits", "1", "--fursa", "1")
	printed += fray(t, "react", "--addr", addr, id, "ruffian", "none")
	for _, line := range shown {
		require.Contains(t, strings.Split(printed, "\n"), line, "printed:\n%s", printed)
	}
}
