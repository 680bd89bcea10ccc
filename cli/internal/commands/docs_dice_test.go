package commands_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/stretchr/testify/require"
)

// verifierScript is the Python dice verifier docs/event-log.md documents.
const verifierScript = "../../../docs/verify-dice.py"

func python(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the Python dice verifier of docs/ is not checked")
	}
	return py
}

// The Python verifier of docs/verify-dice.py draws the same faces as rules/dice under both
// schemes, at offsets inside a block, on block boundaries (scheme 2: 64 words), across the
// ChaCha8 key change every 16 blocks (124 words) and far on, with exploding, modified and
// many-sided dice: the spec in docs/event-log.md is enough to re-derive every roll.
func TestThePythonDiceVerifierDrawsWhatGoDraws(t *testing.T) {
	py := python(t)
	var in, want bytes.Buffer
	exprs := []string{"1d10!", "3d10+4", "d20-2", "2d1000", "4d6!", "1d7"}
	docSeed := sha256.Sum256([]byte("fray docs"))
	for i, seed := range [][]byte{bytes.Repeat([]byte{0}, 32), docSeed[:], dice.NewSeed()} {
		for _, scheme := range []dice.Scheme{dice.Scheme1, dice.Scheme2} {
			for _, off := range []uint64{0, 1, 31, 32, 63, 64, 65, 123, 124, 125, 127, 128, 500, 1000, 4103} {
				for j, e := range exprs {
					if (i+j+int(off))%2 == 1 && off > 0 { // a spread of the combinations, not all
						continue
					}
					expr, err := dice.Parse(e)
					require.NoError(t, err)
					s, err := dice.NewStreamScheme(scheme, seed, off)
					require.NoError(t, err)
					r := s.Roll(expr)
					fmt.Fprintf(&in, "%s %d %d %s\n", hex.EncodeToString(seed), scheme, off, e)
					faces := make([]string, len(r.GetFaces()))
					for k, f := range r.GetFaces() {
						faces[k] = fmt.Sprint(f)
					}
					fmt.Fprintf(&want, "%s %d\n", strings.Join(faces, " "), r.GetTotal())
				}
			}
		}
	}
	cmd := exec.Command(py, verifierScript, "rolls")
	cmd.Stdin = &in
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Greater(t, strings.Count(want.String(), "\n"), 100)
	require.Equal(t, strings.Split(want.String(), "\n"), strings.Split(string(out), "\n"))
}

// The Python verifier re-derives every roll of the golden log of each system (an exported
// log, as `fray export` writes it) from the seed it reveals, and fails on a changed die.
func TestThePythonDiceVerifierAuditsExportedLogs(t *testing.T) {
	py := python(t)
	for _, sys := range systems.IDs() {
		t.Run(sys, func(t *testing.T) {
			log := filepath.Join("../../../rules/systems/testdata/golden", sys+"-v1.jsonl")
			out, err := exec.Command(py, verifierScript, "log", log).CombinedOutput()
			require.NoError(t, err, "%s", out)
			require.Regexp(t, `^[1-9]\d* rolls re-derived from the revealed seed\n$`, string(out))

			// One face changed: the verifier names the event and exits 1.
			raw, err := os.ReadFile(log)
			require.NoError(t, err)
			at := bytes.Index(raw, []byte(`"faces":[`))
			require.Positive(t, at)
			i := at + len(`"faces":[`)
			n := bytes.IndexAny(raw[i:], ",]")
			face := "1"
			if string(raw[i:i+n]) == "1" {
				face = "2"
			}
			tampered := append(append(bytes.Clone(raw[:i]), face...), raw[i+n:]...)
			path := filepath.Join(t.TempDir(), "tampered.jsonl")
			require.NoError(t, os.WriteFile(path, tampered, 0o600))
			out, err = exec.Command(py, verifierScript, "log", path).CombinedOutput()
			require.Error(t, err)
			require.Contains(t, string(out), "recorded faces")
		})
	}
}

// The roll docs/event-log.md re-derives by hand is what rules/dice draws, and what the
// script prints.
func TestTheEventLogDocsRollExample(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/event-log.md")
	require.NoError(t, err)
	lines := strings.Split(string(doc), "\n")
	found := false
	for i, l := range lines {
		args, ok := strings.CutPrefix(strings.TrimSpace(l), "python3 docs/verify-dice.py roll ")
		if !ok {
			continue
		}
		found = true
		f := strings.Fields(strings.ReplaceAll(args, "'", ""))
		require.Len(t, f, 4)
		seed, err := hex.DecodeString(f[0])
		require.NoError(t, err)
		var scheme dice.Scheme
		var off uint64
		_, err = fmt.Sscan(f[1]+" "+f[2], &scheme, &off)
		require.NoError(t, err)
		expr, err := dice.Parse(f[3])
		require.NoError(t, err)
		s, err := dice.NewStreamScheme(scheme, seed, off)
		require.NoError(t, err)
		r := s.Roll(expr)
		want := "#"
		for _, face := range r.GetFaces() {
			want += fmt.Sprintf(" %d", face)
		}
		want += fmt.Sprintf(" %d", r.GetTotal())
		require.Equal(t, want, strings.TrimSpace(lines[i+1]), "the output the docs show under %q", l)
		if py, err := exec.LookPath("python3"); err == nil {
			out, err := exec.Command(py, verifierScript, "roll", f[0], f[1], f[2], f[3]).CombinedOutput()
			require.NoError(t, err, "%s", out)
			require.Equal(t, strings.TrimPrefix(want, "# ")+"\n", string(out))
		}
	}
	require.True(t, found, "docs/event-log.md shows a roll re-derived by hand")
}

// docs/rules/ holds the rule catalogues a clone needs: the same as the project's shared
// catalogues, where those are beside the repository (they are not in a clone: skipped there).
func TestTheRuleCataloguesInDocsAreTheSharedOnes(t *testing.T) {
	shared := "../../../../shared/rules"
	if _, err := os.Stat(shared); err != nil {
		t.Skip("no shared catalogues beside the repository")
	}
	for _, sys := range systems.IDs() {
		want, err := os.ReadFile(filepath.Join(shared, sys+".md"))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join("../../../docs/rules", sys+".md"))
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "docs/rules/%s.md: copy it again from the shared catalogue", sys)
	}
}
