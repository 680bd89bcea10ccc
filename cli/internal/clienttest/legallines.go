package clienttest

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// ShellSplit splits a line client.PasteLine wrote as a POSIX shell would: words apart, '…'
// quoted, \x outside quotes x.
func ShellSplit(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	quoted, in, escaped := false, false, false
	for _, r := range line {
		switch {
		case escaped:
			w.WriteRune(r)
			escaped = false
		case r == '\\' && !quoted:
			escaped, in = true, true
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				words = append(words, w.String())
			}
			w.Reset()
			in = false
		default:
			w.WriteRune(r)
			in = true
		}
	}
	require.False(t, quoted, "unbalanced quotes: %s", line)
	if in {
		words = append(words, w.String())
	}
	return words
}

// A LinesFight is a fight LegalLines plays: the encounter created with Create (the words
// after `fray create`), the Sheets added, then Setup (command lines after `fray`, ENC for the
// encounter) after the start; at each step the first legal action whose key is in Prefer is
// taken (else the first offered), for at most Steps steps.
type LinesFight struct {
	Create, Sheets []string
	Setup          [][]string
	Prefer         []string
	Steps          int
}

// LegalLines plays f against the real encounter service (a fixed seed) as the GM and checks,
// at every step, every legal action's command line as `fray legal` prints it (issue 28, item
// 7): pasted with each required choice's placeholder replaced by its first value, it sends
// exactly the pre-filled command with those choices filled in (run against a fake that
// records it). It returns how many actions of each key went through the system's own command,
// and how many through `fray submit`.
func LegalLines(t *testing.T, system string, f LinesFight) (map[string]int, int) {
	t.Helper()
	ClearEnv(t)
	seed := sha256.Sum256([]byte("legal lines " + system))
	s := StartStack(t, encounter.Options{NewSeed: func() []byte { return seed[:] }})
	sys, ok := client.SystemByID(system)
	require.True(t, ok)
	run := func(addr string, args ...string) string {
		t.Helper()
		code, out, errOut := Run(t, append(args, "--addr", addr, "--as", "gm")...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}
	id := strings.TrimSpace(run(s.Addr, append([]string{"create"}, f.Create...)...))
	run(s.Addr, append([]string{"add", id}, f.Sheets...)...)
	run(s.Addr, "start", id)
	for _, l := range f.Setup {
		args := slices.Clone(l)
		for i := range args {
			args[i] = strings.ReplaceAll(args[i], "ENC", id)
		}
		run(s.Addr, args...)
	}
	lines, viaSubmit := map[string]int{}, 0
	for range f.Steps {
		var resp encounterv1.GetEncounterResponse
		require.NoError(t, protojson.Unmarshal([]byte(run(s.Addr, "legal", id, "--json")), &resp))
		if len(resp.GetActions()) == 0 {
			break
		}
		fake := &Fake{State: resp.GetState()}
		fakeAddr := Serve(t, fake)
		var next []string
		nextPreferred := false
		for _, ca := range resp.GetActions() {
			for _, l := range ca.GetActions() {
				a := l.GetAction()
				want := proto.CloneOf(l.GetCommand())
				line := client.PasteLine(sys, true, id, l.GetCommand())
				words := ShellSplit(t, line)
				require.Equal(t, "fray", words[0])
				submit := words[1] == "submit"
				for _, c := range a.GetChoices() {
					if !c.GetRequired() {
						continue
					}
					value := fmt.Sprint(max(c.GetMin(), 1))
					if len(c.GetOptions()) > 0 {
						value = c.GetOptions()[0].GetValue()
					}
					require.NoError(t, engine.Fill(want, c.GetField(), value))
					if submit {
						continue // the JSON is the pre-filled command: filled below
					}
					how, found := sys.ChoiceFlags[c.GetField()]
					require.True(t, found, "%s: a flag for the required choice %s", line, c.GetField())
					i := slices.Index(words, how.Give)
					require.GreaterOrEqual(t, i, 0, "%s: the placeholder %s of %s", line, how.Give, c.GetField())
					if how.Value != nil {
						value = how.Value(value)
					}
					words[i] = value
				}
				if submit {
					viaSubmit++
					b, err := protojson.Marshal(want)
					require.NoError(t, err)
					words[len(words)-1] = string(b)
				} else {
					lines[a.GetKey()]++
				}
				before := len(fake.Requests())
				code, _, errOut := Run(t, append(words[1:], "--addr", fakeAddr, "--as", "gm")...)
				require.Equal(t, 0, code, "%s: %s", line, errOut)
				calls := fake.Requests()[before:]
				require.Equal(t, "Submit", calls[len(calls)-1].Method, line)
				RequireProtoEqual(t, want, calls[len(calls)-1].Req.(*encounterv1.SubmitRequest).GetCommand())
				if preferred := slices.Contains(f.Prefer, a.GetKey()); next == nil || (preferred && !nextPreferred) {
					next, nextPreferred = words[1:], preferred
				}
			}
		}
		run(s.Addr, next...)
	}
	return lines, viaSubmit
}
