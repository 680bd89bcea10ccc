package browser_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/stretchr/testify/require"
)

// sheets is where the README's sheets are.
var sheets = filepath.Join("..", "..", "testdata", "sheets")

// hiddenCopy writes a copy of a sheet with hidden: true (the GM hides it from the players).
func hiddenCopy(t *testing.T, sheet string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sheets, sheet))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), sheet)
	require.NoError(t, os.WriteFile(path, append(b, []byte("hidden: true\n")...), 0o644))
	return path
}

// abs makes paths absolute, as the browser's file input needs them.
func abs(t *testing.T, paths ...string) []string {
	t.Helper()
	var out []string
	for _, p := range paths {
		a, err := filepath.Abs(p)
		require.NoError(t, err)
		out = append(out, a)
	}
	return out
}

// createAndInvite: on the GM's page, creates an encounter of system, adds the sheets from
// files, invites a player of combatant, and opens the invite on the player's page; the GM
// starts the encounter. It returns the encounter's id.
func createAndInvite(t *testing.T, page, gmToken string, gm, player *tab, name, system, combatant string, files []string, ids ...string) {
	t.Helper()
	gm.run(chromedp.Navigate(page+"#/?token="+gmToken), chromedp.WaitVisible(chromedp.CSS("#create")))
	// The form offers the rule systems the server has (ListRulesets), the first one's versions
	// newest first after "the latest" (0).
	require.Equal(t, systems.IDs(), eval[[]string](gm, `[...document.querySelectorAll('#new-system option')].map((o) => o.value)`))
	var versions []string
	for _, v := range slices.Backward(systems.Registry().Versions(systems.IDs()[0])) {
		versions = append(versions, fmt.Sprint(v))
	}
	require.Equal(t, append([]string{"0"}, versions...), eval[[]string](gm, `[...document.querySelectorAll('#new-version option')].map((o) => o.value)`))
	gm.run(chromedp.SendKeys(chromedp.CSS("#new-name"), name),
		chromedp.SetValue(chromedp.CSS("#new-system"), system))
	gm.click("#create-submit")
	gm.run(chromedp.WaitVisible(chromedp.CSS("#sheets")), chromedp.SetUploadFiles(chromedp.CSS("#sheets"), files))
	for _, id := range ids {
		gm.run(chromedp.WaitVisible(chromedp.CSS("#c-" + id)))
	}
	gm.click(`#invite input[value="` + combatant + `"]`)
	gm.click("#invite-submit")
	link, err := poll[string](gm, `document.getElementById('invite-link').value`)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(link, page+"#/encounter/"), link)
	require.Contains(t, link, "?token=")
	player.run(chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS("#c-"+combatant)))
	// The token left the address bar.
	href := eval[string](player, `location.href`)
	require.NotContains(t, href, "token=")
	gm.click("#start")
}

// The GM creates a Loss encounter in the page, adds Diego and a hidden ruffian from their
// sheet files and invites a player of Diego by the page's link; the player attacks from its
// buttons (the target chosen in the form); the GM's ruffian is prompted and dodges. Both pages
// show the same log lines and tracks within a second of each click, without reload; the
// hidden ruffian's numbers never reach the player's DOM (nor its PA through the phase); the
// GM's attack button for the ruffian shows the odds GetOdds answers the GM. Then
// both read the log in French (watched again, no reload), the GM rewinds to the attack from a
// line of the log (the ruffian is prompted again, the undone lines struck on the player's page
// too) and ends the encounter.
func TestLossInTheBrowser(t *testing.T) {
	tabs := browsers(t, "gm", "player")
	gm, player := tabs[0], tabs[1]
	addr, page := server(t)
	gmToken := fray(t, "token", "--addr", addr, "--as", "gm")
	hidden := []string{"Le malfrat"}

	files := abs(t, filepath.Join(sheets, "diego.yaml"), hiddenCopy(t, "ruffian.yaml"))
	createAndInvite(t, page, gmToken, gm, player, "Ruelle sombre", "loss", "diego", files, "diego", "ruffian")
	for _, b := range []*tab{gm, player} {
		require.True(t, eval[bool](b, `window.frayNoReload = true`))
	}
	bothShow(t, time.Now(), gm, player, "Tour 1", hidden, "diego")
	require.Contains(t, gm.turn(), "Tour 1")

	// The player attacks from its buttons: the form asks for the target.
	player.click(`#actions button.action[data-key="attack"][data-combatant="diego"]`)
	player.run(chromedp.WaitVisible(chromedp.CSS("#choices")), chromedp.SetValue(chromedp.CSS(`#choices select[data-field="loss.attack.target_id"]`), "ruffian"))
	clicked := time.Now()
	player.click("#choices-submit")
	// The ruffian is prompted on the GM's page; it dodges.
	gm.run(chromedp.WaitVisible(chromedp.CSS(`#actions .prompt[data-combatant="ruffian"] button[data-key="dodge"]`)))
	bothShow(t, clicked, gm, player, "Diego attacks", hidden, "diego")
	gm.screenshot("browser-gm-prompt.png")
	clicked = time.Now()
	gm.click(`#actions .prompt[data-combatant="ruffian"] button[data-key="dodge"]`)
	bothShow(t, clicked, gm, player, "misses", hidden, "diego")
	require.Contains(t, strings.Join(gm.logLines(), "\n"), "Le malfrat dodges")

	// The hidden ruffian: the GM sees its numbers, the player's DOM holds none of them.
	require.NotEmpty(t, gm.tracks("ruffian"))
	require.Empty(t, player.tracks("ruffian"))
	require.Contains(t, gm.text(), "Le malfrat 6+d10[6] = 12 PA")
	dom := player.text()
	require.Contains(t, dom, "Le malfrat")
	require.Contains(t, gm.turn(), "phase 11 PA")     // the ruffian's 11 PA left
	require.Contains(t, player.turn(), "phase 10 PA") // Diego's: the ruffian's are not told
	for _, secret := range []string{"6+d10[6] = 12", "dague", "Esquive 7", gm.tracks("ruffian"), "11 PA"} {
		require.NotContains(t, dom, secret)
	}
	// The ruffian's turn: the GM's attack button shows the odds GetOdds answers the GM (who
	// sees all) of its attack on Diego, the NS lost with them.
	asGM := apiOf(t, addr, gm)
	stab := asGM.legal("ruffian", "attack")
	stab.GetLoss().GetAttack().TargetId = "diego"
	h := headlineOf(t, asGM.odds(stab))
	require.True(t, h.hasMean)
	requireShows(t, h, oddsShown(t, gm, `#actions button.action[data-key="attack"][data-combatant="ruffian"] .odds`, ""), "the ruffian's attack button")
	gm.screenshot("browser-gm.png")
	player.screenshot("browser-player.png")

	// The player reads the log in French: the page watches it again, without reload.
	// The GM too, for what follows.
	for _, b := range []*tab{player, gm} {
		require.True(t, eval[bool](b, `(() => { const s = document.getElementById('language'); s.value = 'fr'; s.dispatchEvent(new Event('change')); return true; })()`))
		require.Equal(t, "7", b.lastSequence("Diego attaque Le malfrat à l'épée"))
		b.lastSequence("#9 L'attaque de Diego contre Le malfrat échoue")
	}

	// The GM rewinds to the attack from the log: the ruffian is prompted again, on both pages.
	before := gm.sequence()
	clicked = time.Now()
	gm.click(`#log li[data-sequence="7"] button.rewind`)
	bothShow(t, clicked, gm, player, "after "+before, hidden, "diego")
	gm.run(chromedp.WaitVisible(chromedp.CSS(`#actions .prompt[data-combatant="ruffian"] button[data-key="dodge"]`)))
	require.Equal(t, "true", eval[string](player, `String(document.querySelector('#log li[data-sequence="8"]').classList.contains('undone'))`))

	// The GM ends the encounter.
	before = gm.sequence()
	gm.click("#end")
	ended := gm.lastSequence("after " + before)
	gm.settle(ended)
	player.settle(ended)
	require.Contains(t, eval[string](gm, `document.getElementById('title').textContent`), "terminée")
	require.Contains(t, eval[string](player, `document.getElementById('title').textContent`), "terminée")
	for _, b := range []*tab{gm, player} {
		require.True(t, eval[bool](b, `window.frayNoReload === true`), "%s's page was reloaded", b.name)
	}
}
