package losscmd_test

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/clienttest"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// unquote splits a line PasteLine wrote as a POSIX shell would: words apart, '…' quoted, \x
// outside quotes x.
func unquote(t *testing.T, line string) []string {
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

// Issue 28, item 7: every legal action `fray legal` prints comes with a command line that,
// pasted with its placeholders filled (TARGET, PHASE… each by the first value its choice
// offers), sends exactly the pre-filled command with those choices filled in. Played on the
// quay's five combatants against the real encounter service, with a pursuit and a bow (aims),
// taking at each step the first attack, reaction or chase offered, else a pass; each action's
// line is run against a fake that records the command it sends.
func TestEveryLegalActionsCommandLineSendsItsCommand(t *testing.T) {
	clienttest.ClearEnv(t)
	seed := sha256.Sum256([]byte("legal lines"))
	s := clienttest.StartStack(t, encounter.Options{NewSeed: func() []byte { return seed[:] }})
	sys, ok := client.SystemByID("loss")
	require.True(t, ok)
	ok1 := func(addr string, args ...string) string {
		t.Helper()
		code, out, errOut := clienttest.Run(t, append(args, "--addr", addr, "--as", "gm")...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}
	id := strings.TrimSpace(ok1(s.Addr, "create", "--name", "Le quai"))
	var sheets []string
	for _, n := range []string{"diego", "canahan", "archere", "ruffian", "capitaine"} {
		sheets = append(sheets, filepath.Join(clienttest.Sheets, "quai", n+".yaml"))
	}
	ok1(s.Addr, append([]string{"add", id}, sheets...)...)
	ok1(s.Addr, "start", id)
	ok1(s.Addr, "pursuit", id, "--pursuers", "diego", "--pursued", "capitaine", "--distance", "2")

	lines, viaSubmit := map[string]int{}, 0
	for step := 0; step < 60; step++ {
		var resp encounterv1.GetEncounterResponse
		require.NoError(t, protojson.Unmarshal([]byte(ok1(s.Addr, "legal", id, "--json")), &resp))
		if len(resp.GetActions()) == 0 {
			break
		}
		fake := &clienttest.Fake{State: resp.GetState()}
		fakeAddr := clienttest.Serve(t, fake)
		var next []string
		for _, ca := range resp.GetActions() {
			for _, l := range ca.GetActions() {
				a := l.GetAction()
				want := proto.CloneOf(l.GetCommand())
				line := client.PasteLine(sys, true, id, l.GetCommand())
				words := unquote(t, line)
				require.Equal(t, "fray", words[0])
				for _, c := range a.GetChoices() {
					if !c.GetRequired() {
						continue
					}
					value := fmt.Sprint(max(c.GetMin(), 1))
					if len(c.GetOptions()) > 0 {
						value = c.GetOptions()[0].GetValue()
					}
					require.NoError(t, engine.Fill(want, c.GetField(), value))
					how, found := sys.ChoiceFlags[c.GetField()]
					if words[1] == "submit" {
						continue // the JSON is the pre-filled command: filled below
					}
					require.True(t, found, "%s: a flag for the required choice %s", line, c.GetField())
					i := slices.Index(words, how.Give)
					require.GreaterOrEqual(t, i, 0, "%s: the placeholder %s of %s", line, how.Give, c.GetField())
					if how.Value != nil {
						value = how.Value(value)
					}
					words[i] = value
				}
				if words[1] == "submit" {
					viaSubmit++
					b, err := protojson.Marshal(want)
					require.NoError(t, err)
					words[len(words)-1] = string(b)
				} else {
					lines[a.GetKey()]++
				}
				before := len(fake.Requests())
				code, _, errOut := clienttest.Run(t, append(words[1:], "--addr", fakeAddr, "--as", "gm")...)
				require.Equal(t, 0, code, "%s: %s", line, errOut)
				calls := fake.Requests()[before:]
				require.Equal(t, "Submit", calls[len(calls)-1].Method, line)
				got := calls[len(calls)-1].Req.(*encounterv1.SubmitRequest).GetCommand()
				clienttest.RequireProtoEqual(t, want, got)
				if next == nil || (!strings.HasPrefix(next[0], "attack") && !strings.HasPrefix(next[0], "react") && slices.Contains([]string{"attack", "parry", "dodge", "charge", "change distance (pursuit)"}, a.GetKey())) {
					next = words[1:]
				}
			}
		}
		ok1(s.Addr, next...)
	}
	t.Logf("command lines checked by key: %v; through fray submit: %d", lines, viaSubmit)
	for _, key := range []string{"attack", "parry", "dodge", "take the blow", "wait", "pass", "speak", "aim"} {
		require.NotZero(t, lines[key], "a %s was offered and checked", key)
	}
}
