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
	"github.com/fray-rpg/fray/rules/feerie"
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
// by spaces, double quotes keeping spaces, a comment from a word starting with #, and $qid,
// $fid and $id replaced by the encounter's id.
func shellWords(t *testing.T, line, enc string) []string {
	t.Helper()
	for _, v := range []string{"$qid", "$fid", "$id"} {
		line = strings.ReplaceAll(line, v, enc)
	}
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '#' && !quoted && !inWord:
			require.False(t, quoted, "unbalanced quotes in %q", line)
			if inWord {
				words = append(words, cur.String())
			}
			return words // a comment to the end of the line
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

// playREADMEBlock pastes the README's block after marker, in order, from cli/testdata/sheets
// as the README says, against the rules engine of reg with the dice of many seeds: every
// command must be taken (exit 0), whatever the dice.
func playREADMEBlock(t *testing.T, marker string, reg func() *engine.Registry) {
	t.Helper()
	clearEnv(t)
	block := readmeBlock(t, marker)
	require.NotEmpty(t, block)
	t.Chdir(sheets)
	const seeds = 40
	for i := range seeds {
		seed := sha256.Sum256(fmt.Appendf(nil, "fray README tour %d", i))
		stream, err := dice.NewStreamScheme(dice.Latest, seed[:], 0)
		require.NoError(t, err)
		srv := &ruleServer{reg: reg(), seed: seed[:], roller: stream}
		lis := serveRules(t, srv)
		ran := 0
		for _, line := range block {
			if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
				continue
			}
			var assign string
			if v, rest, ok := strings.Cut(line, "=$("); ok {
				assign, line = v, rest
			}
			words := shellWords(t, line, "enc-1")
			if assign != "" {
				last := len(words) - 1
				require.True(t, strings.HasSuffix(words[last], ")"), "%q closes its $(", line)
				words[last] = strings.TrimSuffix(words[last], ")")
			}
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
		require.Greater(t, ran, 4)
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

// The README's tour of Les Chants de Loss ("The whole of Les Chants de Loss is playable from
// it"): the quay's sheets share one Initiative roll, so no command waits on the turn order the
// dice make.
func TestTheREADMETourOfLossWorksWithAnyDice(t *testing.T) {
	playREADMEBlock(t, "The whole of Les Chants de Loss is playable from it.", func() *engine.Registry {
		return engine.NewRegistry(loss.New())
	})
}

// The README's Contes de Fées example ("The other systems have their own groups").
func TestTheREADMEContesDeFeesExampleWorksWithAnyDice(t *testing.T) {
	playREADMEBlock(t, "The other systems have their own groups of subcommands", func() *engine.Registry {
		return engine.NewRegistry(feerie.New())
	})
}
