package commands

import (
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesnarrate "github.com/fray-rpg/fray/rules/narrate"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/stretchr/testify/require"
)

// narrated is what a fake encounter service sends a watch of its log: the events from the
// sequence asked on, each narrated by the rules' narrator in the language asked (none when no
// language is asked), learning from the events before as the encounter service does.
func narrated(req *encounterv1.WatchEncounterRequest, log []*encounterv1.Event) []*encounterv1.WatchEncounterResponse {
	var n *rulesnarrate.Narrator
	if req.GetLanguage() != "" {
		tag, err := rulesnarrate.Parse(req.GetLanguage())
		if err != nil {
			panic(err)
		}
		n = systems.Registry().Narrator(tag)
	}
	var out []*encounterv1.WatchEncounterResponse
	for _, ev := range log {
		r := &encounterv1.WatchEncounterResponse{Event: ev}
		switch {
		case n == nil:
		case ev.GetSequence() >= req.GetFromSequence():
			r.Narration = n.Narrate(ev)
		default:
			n.Learn(ev)
		}
		if ev.GetSequence() >= req.GetFromSequence() {
			out = append(out, r)
		}
	}
	return out
}

// log and watch print the server's narration in the language of --lang (English by default),
// and ask for none with --json; a language narration is not written in is a usage error.
func TestLogAndWatchPrintTheServersNarrationInTheLanguageAsked(t *testing.T) {
	clearEnv(t)
	st, events := ruelle(t)
	f := &fake{state: st, events: events}
	addr := serve(t, f)
	// lines is the narration of the events from sequence from to until (0: the last).
	lines := func(lang string, from, until uint64) string {
		var out strings.Builder
		for _, r := range narrated(&encounterv1.WatchEncounterRequest{Language: lang, FromSequence: from}, events) {
			if until == 0 || r.GetEvent().GetSequence() <= until {
				out.WriteString(r.GetNarration() + "\n")
			}
		}
		return out.String()
	}
	lastWatch := func() *encounterv1.WatchEncounterRequest {
		calls := f.requests()
		require.Equal(t, "WatchEncounter", calls[len(calls)-1].method)
		return calls[len(calls)-1].req.(*encounterv1.WatchEncounterRequest)
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
		code, out, errOut := run(t, append(c.args, "--addr", addr)...)
		require.Equal(t, ExitOK, code, errOut)
		require.Equal(t, lines(c.lang, c.from, c.until), out, "%v", c.args)
		require.Equal(t, c.lang, lastWatch().GetLanguage())
	}
	require.NotEqual(t, lines("en", 1, 0), lines("fr", 1, 0))

	code, _, errOut := run(t, "log", "enc-1", "--addr", addr, "--json", "--lang", "fr")
	require.Equal(t, ExitOK, code, errOut)
	require.Empty(t, lastWatch().GetLanguage(), "--json prints events, not their narration")

	calls := len(f.requests())
	for _, cmd := range []string{"log", "watch"} {
		code, _, errOut = run(t, cmd, "enc-1", "--addr", addr, "--lang", "de")
		require.Equal(t, ExitUsage, code)
		require.Contains(t, errOut, "--lang: narration language \"de\": narration is written in en (English) or fr (French)")
	}
	require.Len(t, f.requests(), calls, "refused before asking the server")
}
