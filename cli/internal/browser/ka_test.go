package browser_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// Ka in the browser: the GM creates the encounter, adds Joshua and the hound from their sheet
// files and invites Joshua's player; the player attacks the hound from its button, the GM's
// hound is prompted and dodges, both by the keyboard alone; both pages show the same log and
// tracks within a second. The attack button shows the odds GetOdds answers for the hound.
func TestKaInTheBrowser(t *testing.T) {
	tabs := browsers(t, "gm", "player")
	gm, player := tabs[0], tabs[1]
	addr, page := server(t)
	gmToken := fray(t, "token", "--addr", addr, "--as", "gm")

	files := abs(t, filepath.Join(sheets, "ka", "joshua.yaml"), filepath.Join(sheets, "ka", "chien.yaml"))
	createAndInvite(t, page, gmToken, gm, player, "La ruelle", "ka", "joshua", files, "joshua", "chien")
	bothShow(t, time.Now(), gm, player, "Round 1", nil, "joshua", "chien")

	// The attack button's odds: one less the chance of a failure (KA-006) and the Ka dice lost,
	// as GetOdds answers them for the dog targeted, taken (KA-005).
	attack := chromedp.CSS(`#actions button.action[data-key="attack"][data-combatant="joshua"]`)
	player.run(chromedp.WaitVisible(attack))
	asPlayer := apiOf(t, addr, player)
	shot := asPlayer.legal("joshua", "attack")
	shot.GetKa().GetAttack().TargetId = "chien"
	h := headlineOf(t, asPlayer.odds(shot))
	require.Equal(t, "none", h.section)
	require.True(t, h.hasMean, "the Ka dice lost: the dog is not hidden")
	requireShows(t, h, oddsShown(t, player, `#actions button.action[data-key="attack"][data-combatant="joshua"] .odds`, ""), "Joshua's attack button")

	// By the keyboard alone: a button takes Enter, its form takes the focus.
	player.run(chromedp.Focus(attack), chromedp.KeyEvent("\r"), chromedp.WaitVisible(chromedp.CSS("#choices")))
	require.Equal(t, "ka.attack.target_id", eval[string](player, `document.activeElement.dataset.field`), "the form takes the focus")
	player.run(chromedp.SetValue(chromedp.CSS(`#choices select[data-field="ka.attack.target_id"]`), "chien"), chromedp.Focus(chromedp.CSS("#choices-submit")))
	clicked := time.Now()
	player.run(chromedp.KeyEvent("\r"))
	dodge := chromedp.CSS(`#actions .prompt[data-combatant="chien"] button[data-key="dodge"]`)
	gm.run(chromedp.WaitVisible(dodge))
	bothShow(t, clicked, gm, player, "Joshua declares an attack", nil, "joshua", "chien")
	clicked = time.Now()
	gm.run(chromedp.Focus(dodge), chromedp.KeyEvent("\r"))
	bothShow(t, clicked, gm, player, "Pass 2", nil, "joshua", "chien")
	require.Contains(t, strings.Join(gm.logLines(), "\n"), "le chien dodges")
	gm.screenshot("browser-ka-gm.png")
}
