package logtools_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/logtools"
	rulesnarrate "github.com/fray-rpg/fray/rules/narrate"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

// The log tools narrate with the rules' narrator in the language of --lang: replay line by
// line; audit tail with names, an encounter first met in the middle of the log (a durable
// consumer resumed) named from the events before it, as replay names it.
func TestTheLogToolsNarrateInTheLanguageAsked(t *testing.T) {
	srv, nc := natstest.Start(t)
	t.Setenv("FRAY_NATS_URL", srv.ClientURL())
	ids := map[string]string{}               // system → encounter
	want := map[string]map[string][]string{} // lang → encounter → lines
	for _, lang := range []string{"en", "fr"} {
		want[lang] = map[string][]string{}
	}
	for _, system := range systems.IDs() {
		golden := filepath.Join("..", "..", "..", "rules", "systems", "testdata", "golden", system+"-v1.jsonl")
		code, stdout, stderr := runFray("import", golden)
		require.Equal(t, 0, code, stderr)
		id := strings.Fields(stdout)[len(strings.Fields(stdout))-1]
		ids[system] = id
		f, err := os.Open(golden)
		require.NoError(t, err)
		events, err := logtools.ReadJSONL(f)
		f.Close()
		require.NoError(t, err)
		for _, lang := range []string{"en", "fr"} {
			tag, err := rulesnarrate.Parse(lang)
			require.NoError(t, err)
			n := systems.Registry().Narrator(tag)
			for _, ev := range events {
				want[lang][id] = append(want[lang][id], n.Narrate(ev))
			}
			code, stdout, stderr = runFray("replay", id, "--lang", lang)
			require.Equal(t, 0, code, stderr)
			got, _, _ := strings.Cut(stdout, "\n\n== state as of event")
			require.Equal(t, strings.Join(want[lang][id], "\n"), got, "%s replay --lang %s", system, lang)
		}
	}
	require.NotEqual(t, want["en"], want["fr"])

	// audit tail, three records at a time through one durable consumer: whatever record it
	// resumes from, each encounter's lines are replay's.
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	stream, err := js.Stream(t.Context(), "FRAY_ENCOUNTERS")
	require.NoError(t, err)
	info, err := stream.Info(t.Context())
	require.NoError(t, err)
	for _, lang := range []string{"en", "fr"} {
		got := map[string][]string{}
		for left := int(info.State.Msgs); left > 0; left -= 3 {
			code, stdout, stderr := runFray("audit", "tail", "--durable", "tail-"+lang, "--limit", strconv.Itoa(min(3, left)), "--lang", lang)
			require.Equal(t, 0, code, stderr)
			for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
				id, text, ok := strings.Cut(line, " ")
				require.True(t, ok, line)
				got[id] = append(got[id], text)
			}
		}
		require.Equal(t, want[lang], got, "audit tail --lang %s", lang)
	}

	code, _, stderr := runFray("replay", ids["loss"], "--lang", "de")
	require.Equal(t, commands.ExitUsage, code)
	require.Contains(t, stderr, "en (English) or fr (French)")
	code, _, stderr = runFray("audit", "tail", "--lang", "de")
	require.Equal(t, commands.ExitUsage, code)
	require.Contains(t, stderr, "en (English) or fr (French)")
}
