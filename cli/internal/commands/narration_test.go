package commands_test

import (
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/cli/internal/commands"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
)

// log and watch print the server's narration in the language of --lang (English by default),
// and ask for none with --json; a language narration is not written in is a usage error.
func TestLogAndWatchPrintTheServersNarrationInTheLanguageAsked(t *testing.T) {
	clienttest.ClearEnv(t)
	st, events := clienttest.Ruelle(t)
	f := &clienttest.Fake{State: st, Events: events}
	addr := clienttest.Serve(t, f)
	// lines is the narration of the events from sequence from to until (0: the last).
	lines := func(lang string, from, until uint64) string {
		var out strings.Builder
		for _, r := range clienttest.Narrated(&encounterv1.WatchEncounterRequest{Language: lang, FromSequence: from}, events) {
			if until == 0 || r.GetEvent().GetSequence() <= until {
				out.WriteString(r.GetNarration() + "\n")
			}
		}
		return out.String()
	}
	lastWatch := func() *encounterv1.WatchEncounterRequest {
		calls := f.Requests()
		require.Equal(t, "WatchEncounter", calls[len(calls)-1].Method)
		return calls[len(calls)-1].Req.(*encounterv1.WatchEncounterRequest)
	}
	for _, c := range []struct {
		args        []string
		lang        string
		from, until uint64
	}{
		{[]string{"log", "enc-1"}, "en", 1, st.GetSequence()}, // log: up to the sequence of the state read first
		{[]string{"log", "enc-1", "--lang", "fr"}, "fr", 1, st.GetSequence()},
		{[]string{"log", "enc-1", "--lang", "fr-CA"}, "fr", 1, st.GetSequence()},
		{[]string{"watch", "enc-1", "--from", "6", "--lang", "fr"}, "fr", 6, 0},
		{[]string{"watch", "enc-1", "--lang", "en"}, "en", 1, 0},
	} {
		code, out, errOut := clienttest.Run(t, append(c.args, "--addr", addr)...)
		require.Equal(t, commands.ExitOK, code, errOut)
		require.Equal(t, lines(c.lang, c.from, c.until), out, "%v", c.args)
		require.Equal(t, c.lang, lastWatch().GetLanguage())
	}
	require.NotEqual(t, lines("en", 1, 0), lines("fr", 1, 0))

	code, _, errOut := clienttest.Run(t, "log", "enc-1", "--addr", addr, "--json", "--lang", "fr")
	require.Equal(t, commands.ExitOK, code, errOut)
	require.Empty(t, lastWatch().GetLanguage(), "--json prints events, not their narration")

	calls := len(f.Requests())
	for _, cmd := range []string{"log", "watch"} {
		code, _, errOut = clienttest.Run(t, cmd, "enc-1", "--addr", addr, "--lang", "de")
		require.Equal(t, commands.ExitUsage, code)
		require.Contains(t, errOut, "--lang: narration language \"de\": narration is written in en (English) or fr (French)")
	}
	require.Len(t, f.Requests(), calls, "refused before asking the server")
}
