package commands

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// readmeBlock returns the indented commands of README.md that follow the paragraph holding
// marker, as a reader would paste them: every line of the block, comments included.
func readmeBlock(t *testing.T, marker string) []string {
	t.Helper()
	raw, err := os.ReadFile("../../../README.md")
	require.NoError(t, err)
	text := string(raw)
	at := strings.Index(text, marker)
	require.GreaterOrEqual(t, at, 0, "the README still says %q", marker)
	lines := strings.Split(text[at:], "\n")
	var block []string
	started := false
	for _, l := range lines[1:] {
		switch {
		case strings.HasPrefix(l, "    "):
			started = true
			block = append(block, strings.TrimPrefix(l, "    "))
		case started:
			return block
		}
	}
	return block
}

// shellWords splits a pasted command line as sh would for the README's commands: words apart
// by spaces, double quotes keeping spaces, $qid and $id replaced by the encounter's id.
func shellWords(t *testing.T, line, enc string) []string {
	t.Helper()
	line = strings.ReplaceAll(strings.ReplaceAll(line, "$qid", enc), "$id", enc)
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	require.False(t, quoted, "unbalanced quotes in %q", line)
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// Every command of the README's tour of Les Chants de Loss ("The whole of Les Chants de Loss
// is playable from it"), pasted in order from cli/testdata/sheets as the README says, is taken
// by the rules engine (exit 0) with the dice of many seeds: the quay's sheets share one
// Initiative roll, so no command waits on the turn order the dice make.
func TestTheREADMETourOfLossWorksWithAnyDice(t *testing.T) {
	clearEnv(t)
	block := readmeBlock(t, "The whole of Les Chants de Loss is playable from it.")
	require.NotEmpty(t, block)
	t.Chdir(sheets)
	const seeds = 40
	for i := range seeds {
		seed := sha256.Sum256(fmt.Appendf(nil, "fray README tour %d", i))
		stream, err := dice.NewStreamScheme(dice.Latest, seed[:], 0)
		require.NoError(t, err)
		srv := &ruleServer{reg: engine.NewRegistry(loss.New()), seed: seed[:], roller: stream}
		lis := serveRules(t, srv)
		ran := 0
		for _, line := range block {
			if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
				continue
			}
			var assign string
			if v, rest, ok := strings.Cut(line, "=$("); ok {
				assign, line = v, strings.TrimSuffix(rest, ")")
			}
			words := shellWords(t, line, "enc-1")
			require.Equal(t, "../../../fray", words[0], "a README command runs the fray built at the root: %q", line)
			code, out, errOut := run(t, append(words[1:], "--addr", lis)...)
			if i == 0 {
				t.Logf("$ %s\n%s%s", line, out, errOut)
			}
			require.Equal(t, 0, code, "seed %d: %s\n%s%s", i, line, out, errOut)
			if assign != "" {
				require.Equal(t, "enc-1\n", out, "%s= takes the encounter's id", assign)
			}
			ran++
		}
		require.Greater(t, ran, 10)
		if i == 0 {
			code, out, _ := run(t, "log", "enc-1", "--addr", lis)
			require.Equal(t, 0, code)
			t.Logf("fray log with seed 0:\n%s", out)
		}
	}
	// Every sheet the block names is shipped.
	for _, line := range block {
		for _, w := range strings.Fields(line) {
			if strings.HasSuffix(w, ".yaml") {
				_, err := os.Stat(filepath.Clean(w))
				require.NoError(t, err, "the README's sheet %s", w)
			}
		}
	}
}
