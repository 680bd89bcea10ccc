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
// hound is prompted and dodges; both pages show the same log and tracks within a second.
func TestKaInTheBrowser(t *testing.T) {
	tabs := browsers(t, "gm", "player")
	gm, player := tabs[0], tabs[1]
	addr, page := server(t)
	gmToken := fray(t, "token", "--addr", addr, "--as", "gm")

	files := abs(t, filepath.Join(sheets, "ka", "joshua.yaml"), filepath.Join(sheets, "ka", "chien.yaml"))
	createAndInvite(t, page, gmToken, gm, player, "La ruelle", "ka", "joshua", files, "joshua", "chien")
	sameWithin(t, time.Now(), 5*time.Second, gm, player, "Round 1", nil, "joshua", "chien")

	player.click(`#actions button.action[data-key="attack"][data-combatant="joshua"]`)
	player.run(chromedp.WaitVisible(chromedp.CSS("#choices")), chromedp.SetValue(chromedp.CSS(`#choices select[data-field="ka.attack.target_id"]`), "chien"))
	clicked := time.Now()
	player.click("#choices-submit")
	gm.run(chromedp.WaitVisible(chromedp.CSS(`#actions .prompt[data-combatant="chien"] button[data-key="dodge"]`)))
	sameWithin(t, clicked, time.Second, gm, player, "Joshua declares an attack", nil, "joshua", "chien")
	clicked = time.Now()
	gm.click(`#actions .prompt[data-combatant="chien"] button[data-key="dodge"]`)
	sameWithin(t, clicked, time.Second, gm, player, "Pass 2", nil, "joshua", "chien")
	require.Contains(t, strings.Join(gm.logLines(), "\n"), "le chien dodges")
	gm.screenshot("browser-ka-gm.png")
}
