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
// line the README shows for it ("# #N …") is printed, exactly, by the commands before it; so
// are its French sample and the Contes de Fées example's lines.
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

	// Issue 28, item 13: the French sample the README shows is the French of this fight's
	// attack, as --demo rolls it.
	_, french, ok := strings.Cut(text, "`audit tail` alike (`")
	require.True(t, ok, "the README's French sample")
	french, _, _ = strings.Cut(french, "…`)")
	require.True(t, strings.HasPrefix(french, "#6 Diego attaque"), french)
	require.Contains(t, fray(t, "log", id, "--addr", addr, "--lang", "fr"), "\n"+french)

	// And the Contes de Fées example of docs/tutorial.md, pasted in order from the sheets'
	// folder: the lines it shows (# #8, # #10) are what --demo's dice print.
	at := strings.Index(text, "The other systems have their own groups of subcommands")
	require.GreaterOrEqual(t, at, 0)
	var block []string
	for _, l := range strings.Split(text[at:], "\n")[1:] {
		if c, ok := strings.CutPrefix(l, "    "); ok {
			block = append(block, c)
		} else if len(block) > 0 {
			break
		}
	}
	t.Chdir(filepath.Join("..", "..", "testdata", "sheets"))
	fid, out, checked := "", "", 0
	for _, line := range block {
		if want, isShown := strings.CutPrefix(line, "# "); isShown {
			want = strings.TrimSuffix(want, " …")
			require.Contains(t, out, want, "docs/tutorial.md shows %q after the command", want)
			checked++
			continue
		}
		line, _, _ = strings.Cut(line, " #") // a comment
		assign, rest, isAssign := strings.Cut(line, "=$(")
		if isAssign {
			line = strings.TrimSuffix(rest, ")")
		}
		var words []string
		for i, part := range strings.Split(strings.ReplaceAll(line, "$fid", fid), `"`) {
			if i%2 == 1 {
				words = append(words, part) // quoted
			} else {
				words = append(words, strings.Fields(part)...)
			}
		}
		require.Equal(t, "../../../fray", words[0], line)
		out = fray(t, append(words[1:], "--addr", addr)...)
		if isAssign {
			require.Equal(t, "fid", assign)
			fid = strings.TrimSpace(out)
		}
	}
	require.Equal(t, 2, checked, "the lines the example shows")
}
