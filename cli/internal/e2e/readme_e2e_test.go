package e2e_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/stretchr/testify/require"
)

// readmeCommands are the commands of the README's indented block after marker, as pasted: the
// fray arguments of each line (quotes and comments as sh reads them), and the variable a
// line assigns with $(…), if any.
func readmeCommands(t *testing.T, marker string) (cmds [][]string, assigns []string) {
	t.Helper()
	text := clienttest.DocsText(t, "../../..")
	at := strings.Index(text, marker)
	require.GreaterOrEqual(t, at, 0, "the README still says %q", marker)
	started := false
	for _, l := range strings.Split(text[at:], "\n")[1:] {
		if !strings.HasPrefix(l, "    ") {
			if started {
				break
			}
			continue
		}
		started = true
		l = strings.TrimPrefix(l, "    ")
		if strings.HasPrefix(l, "#") {
			continue
		}
		var assign string
		if v, rest, ok := strings.Cut(l, "=$("); ok {
			assign, l = v, rest
		}
		var words []string
		var cur strings.Builder
		inWord, quoted := false, false
	scan:
		for _, r := range l {
			switch {
			case r == '#' && !quoted && !inWord:
				break scan
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
		if inWord {
			words = append(words, cur.String())
		}
		if assign != "" {
			words[len(words)-1] = strings.TrimSuffix(words[len(words)-1], ")")
		}
		require.Equal(t, "../../../fray", words[0], "%q", l)
		cmds, assigns = append(cmds, words[1:]), append(assigns, assign)
	}
	return cmds, assigns
}

// The README's tour of Les Chants de Loss and its Contes de Fées example, pasted into the fray
// CLI against the real encounter service, resolver and JetStream with three seeds each: every
// command is taken, in the order shown, whatever the dice. `--as NAME` becomes a token for
// dev/NAME, as fray dev mints it.
func TestTheREADMEExamplesAgainstTheServices(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the README's examples three times over JetStream")
	}
	for _, tc := range []struct{ marker, id, last string }{
		{"The whole of Les Chants de Loss is playable from it.", "qid", "joins: Marin 1 (marin-1)"},
		{"The other systems have their own groups of subcommands", "fid", "Le farfadet attacks Rübezahl"},
	} {
		t.Run(tc.id, func(t *testing.T) { playREADMEAgainstTheServices(t, tc.marker, tc.id, tc.last) })
	}
}

func playREADMEAgainstTheServices(t *testing.T, marker, id, last string) {
	cmds, assigns := readmeCommands(t, marker)
	require.Greater(t, len(cmds), 5, "the README's example")
	ns, _ := natstest.Start(t)
	resolverAddr := startResolver(t)
	t.Chdir("../../testdata/sheets")
	for i := range 3 {
		sum := sha256.Sum256(fmt.Appendf(nil, "fray README e2e %d", i))
		srv := server.New(quietLog(), authtest.ServerOptions()...)
		run, err := encounter.Start(context.Background(), encounter.Config{NATSURL: ns.ClientURL(), ResolverAddr: resolverAddr, Log: quietLog(),
			Options:       encounter.Options{NewSeed: func() []byte { return sum[:] }},
			ResolverToken: auth.StaticToken(authtest.Default().Token("encounter-service", identity.ScopeResolve))}, srv, systems.Registry())
		require.NoError(t, err)
		addr := serveOn(t, srv)
		vars := map[string]string{}
		for k, words := range cmds {
			who := "gm"
			var args []string
			for j := 0; j < len(words); j++ {
				w := words[j]
				if w == "--as" && j+1 < len(words) {
					who, j = words[j+1], j+1
					continue
				}
				if strings.HasPrefix(w, "$") {
					w = vars[w[1:]]
				}
				args = append(args, w)
			}
			args = append(args, "--addr", addr, "--token", authtest.Default().Token(who))
			code, out, errOut := frayCLI(args...)
			require.Equal(t, 0, code, "seed %d: fray %s\n%s%s", i, strings.Join(words, " "), out, errOut)
			if assigns[k] != "" {
				vars[assigns[k]] = strings.TrimSpace(out)
			}
		}
		code, out, _ := frayCLI("log", vars[id], "--addr", addr, "--token", authtest.Default().Token("gm"))
		require.Equal(t, 0, code)
		require.Contains(t, out, last, "the example's last command is recorded")
		run.Close()
	}
}
