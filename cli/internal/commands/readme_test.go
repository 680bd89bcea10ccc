package commands_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/cli/internal/commands"
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
	text := clienttest.DocsText(t, "../../..")
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
// $fid, $oid and $id replaced by the encounter's id.
func shellWords(t *testing.T, line, enc string) []string {
	t.Helper()
	for _, v := range []string{"$qid", "$fid", "$oid", "$id"} {
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
	clienttest.ClearEnv(t)
	block := readmeBlock(t, marker)
	require.NotEmpty(t, block)
	t.Chdir(clienttest.Sheets)
	const seeds = 40
	for i := range seeds {
		seed := sha256.Sum256(fmt.Appendf(nil, "fray README tour %d", i))
		stream, err := dice.NewStreamScheme(dice.Latest, seed[:], 0)
		require.NoError(t, err)
		srv := &clienttest.RuleServer{Reg: reg(), Seed: seed[:], Roller: stream}
		lis := clienttest.ServeRules(t, srv)
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
			code, out, errOut := clienttest.Run(t, append(words[1:], "--addr", lis)...)
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
		return engine.NewRegistry(loss.New(loss.Latest))
	})
}

// The README's Contes de Fées example ("The other systems have their own groups").
func TestTheREADMEContesDeFeesExampleWorksWithAnyDice(t *testing.T) {
	playREADMEBlock(t, "The other systems have their own groups of subcommands", func() *engine.Registry {
		return engine.NewRegistry(feerie.Released()...)
	})
}

// collapse makes runs of spaces one, so a table the README shows matches the one printed.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// The README's "A Loss fight in five minutes", pasted in order with the dice of `fray dev
// --demo` (Diego and the ruffian d10 6 each, then 6 for the attack, 7 and 8 for the damage):
// every command is taken or refused as shown, and every output line the README shows (the "# "
// lines after a command) is printed, on stdout for what is recorded, on stderr for a refusal.
func TestTheREADMEFiveMinuteFightPrintsWhatItShows(t *testing.T) {
	clienttest.ClearEnv(t)
	text := clienttest.DocsText(t, "../../..")
	section := text[strings.Index(text, "## A Loss fight in five minutes"):]
	section = section[:strings.Index(section[1:], "\n## ")+1] // to the next section
	var block []string
	for _, l := range strings.Split(section, "\n") {
		if strings.HasPrefix(l, "    ") {
			block = append(block, strings.TrimPrefix(l, "    "))
		}
	}
	t.Chdir(clienttest.Sheets)
	// The dice of `fray dev --demo`: its seed's stream (the e2e of --demo is in cli/internal/dev).
	stream, err := dice.NewStreamScheme(dice.Latest, commands.DemoSeed(), 0)
	require.NoError(t, err)
	srv := &clienttest.RuleServer{Reg: engine.NewRegistry(loss.New(loss.Latest)), Seed: commands.DemoSeed(), Roller: stream}
	lis := clienttest.ServeRules(t, srv)
	encID := regexp.MustCompile(`enc-[a-z0-9]+`)
	var code int
	var out, errOut string
	ran, checked := 0, 0
	for _, line := range block {
		switch {
		case strings.HasPrefix(line, "# "), strings.HasPrefix(line, "#   "):
			want := encID.ReplaceAllString(strings.TrimPrefix(line, "#"), "enc-1")
			got := out
			if strings.HasPrefix(strings.TrimSpace(want), "fray ") && strings.Contains(want, ": ") && code != 0 {
				got = errOut // a refusal
			}
			var lines []string
			for _, l := range strings.Split(got, "\n") {
				lines = append(lines, collapse(l))
			}
			require.Contains(t, lines, collapse(want), "the README shows %q after the command; it printed:\n%s%s", want, out, errOut)
			checked++
			continue
		case !strings.Contains(line, "../../../fray "):
			continue // go build, cd: done by the test's setup
		}
		var assign string
		if v, rest, ok := strings.Cut(line, "=$("); ok {
			assign, line = v, rest
		}
		words := shellWords(t, line, "enc-1")
		if assign != "" {
			words[len(words)-1] = strings.TrimSuffix(words[len(words)-1], ")")
		}
		code, out, errOut = clienttest.Run(t, append(words[1:], "--addr", lis)...)
		t.Logf("$ %s\n%s%s", line, out, errOut)
		if !strings.Contains(errOut, "fray attack: ") { // the refusals the README shows exit 1
			require.Equal(t, 0, code, "%s\n%s%s", line, out, errOut)
		}
		ran++
	}
	require.Greater(t, ran, 9)
	require.Greater(t, checked, 15)
	require.Equal(t, uint64(5), stream.Offset(), "the README's five dice are all rolled, one word each")
}

// The README's house-rules example: options.yaml, shipped beside the clienttest.Sheets, is taken and
// its rules recorded in the first event.
func TestTheREADMEHouseRulesExample(t *testing.T) {
	clienttest.ClearEnv(t)
	block := readmeBlock(t, "is an example:")
	require.Len(t, block, 1)
	t.Chdir(clienttest.Sheets)
	srv := &clienttest.RuleServer{Reg: engine.NewRegistry(loss.New(loss.Latest)), Seed: dice.NewSeed(), Dice: dice.NewFixed()}
	lis := clienttest.ServeRules(t, srv)
	words := shellWords(t, block[0], "enc-1")
	require.Equal(t, "../../../fray", words[0])
	code, out, errOut := clienttest.Run(t, append(words[1:], "--addr", lis)...)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "enc-1\n", out)
	code, out, errOut = clienttest.Run(t, "log", "enc-1", "--addr", lis)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "damage d10s explode, health bands 4/4/4, GM Fursa 2")
}
