package dev_test

import (
	"bytes"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
)

// The README's "Play in the browser" block, pasted into bash as written (from
// cli/testdata/sheets, with the client built at the root) against `fray dev --demo` serving
// the page: it prints three links (Diego's player, a spectator, the GM), each opening the page
// at the encounter with a token in the fragment that reads the encounter as its role. The
// only changes to the lines: the client's path is the test's build of it, and the page's
// address the test's free port instead of 127.0.0.1:8080.
func TestREADMEPlayInTheBrowserWorksAsPasted(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to paste the README's block into")
	}
	text := clienttest.DocsText(t, "../../..")
	at := strings.Index(text, "The GM invites people with a link")
	require.GreaterOrEqual(t, at, 0, "the README's Play in the browser section")
	var block []string
	for _, l := range strings.Split(text[at:], "\n")[1:] {
		if c, ok := strings.CutPrefix(l, "    "); ok {
			block = append(block, c)
		} else if len(block) > 0 {
			break
		}
	}
	require.GreaterOrEqual(t, len(block), 5)

	bin := filepath.Join(t.TempDir(), "fray")
	build := exec.Command("go", "build", "-o", bin, "./cli/cmd/fray")
	build.Dir = filepath.Join("..", "..", "..")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)

	addr, page := startWeb(t)
	host := strings.TrimSuffix(strings.TrimPrefix(page, "http://"), "/")
	script := strings.Join(block, "\n")
	script = strings.ReplaceAll(script, "../../../fray", bin)
	script = strings.ReplaceAll(script, "127.0.0.1:8080", host)
	cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", script)
	cmd.Dir = filepath.Join("..", "..", "testdata", "sheets")
	cmd.Env = append(os.Environ(), "FRAY_ADDR="+addr)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "the block:\n%s\nstderr: %s", script, stderr.String())

	links := regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(page)+`#/encounter/(enc-[^?\s]+)\?token=(\S+)$`).FindAllStringSubmatch(stdout.String(), -1)
	require.Len(t, links, 3, "three links:\n%s", stdout.String())
	require.Contains(t, block, "# http://127.0.0.1:8080/#/encounter/enc-…?token=eyJ…", "the README shows the link's form")
	require.Contains(t, stderr.String(), "is a player of diego")
	id := links[0][1]
	roles := []func(*encounterv1.GetEncounterResponse){
		func(st *encounterv1.GetEncounterResponse) {
			require.NotEmpty(t, st.GetActions(), "the player commands Diego, who acts first")
			for _, a := range st.GetActions() {
				require.Equal(t, "diego", a.GetCombatantId())
			}
		},
		func(st *encounterv1.GetEncounterResponse) {
			require.Empty(t, st.GetActions(), "the spectator commands nothing")
		},
		func(st *encounterv1.GetEncounterResponse) {
			require.Equal(t, "dev/gm", st.GetState().GetGameMaster())
			require.NotEmpty(t, st.GetActions(), "the GM commands whoever may act")
		},
	}
	// The fight must be on for anyone to have actions: the GM starts it from its link.
	gmToken, err := url.QueryUnescape(links[2][2])
	require.NoError(t, err)
	_, err = call[encounterv1.StartEncounterRequest, encounterv1.StartEncounterResponse](t, browser{base: page, token: gmToken}, "StartEncounter", &encounterv1.StartEncounterRequest{EncounterId: id, CommandId: "readme-start"})
	require.NoError(t, err)
	for i, l := range links {
		require.Equal(t, id, l[1])
		require.True(t, strings.HasPrefix(l[2], "eyJ"), l[2])
		tok, err := url.QueryUnescape(l[2])
		require.NoError(t, err)
		st, err := call[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](t, browser{base: page, token: tok}, "GetEncounter", &encounterv1.GetEncounterRequest{EncounterId: id, LegalForAll: true})
		require.NoError(t, err, "link %d", i)
		roles[i](st)
	}
}
