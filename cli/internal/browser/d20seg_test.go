package browser_test

import (
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// d20 segments in the browser: the GM creates the encounter, adds the veteran and the soldier
// from their sheet files and invites the veteran's player; the veteran's attack button shows
// the chance to hit (D20-040) and the damage to expect, as GetOdds answers them for the
// soldier targeted; the player attacks from it; both pages show the same log and tracks
// within a second, and the soldier's hit points as the narrated attack leaves them.
func TestD20SegInTheBrowser(t *testing.T) {
	tabs := browsers(t, "gm", "player")
	gm, player := tabs[0], tabs[1]
	addr, page := server(t)
	gmToken := fray(t, "token", "--addr", addr, "--as", "gm")

	files := abs(t, filepath.Join(sheets, "d20seg", "veteran.yaml"), filepath.Join(sheets, "d20seg", "soldat.yaml"))
	createAndInvite(t, page, gmToken, gm, player, "Le gué", "d20seg", "veteran", files, "veteran", "soldat")
	sameWithin(t, time.Now(), 5*time.Second, gm, player, "Round 1", nil, "veteran", "soldat")

	attack := `#actions button.action[data-key="attack"][data-combatant="veteran"]`
	player.run(chromedp.WaitVisible(chromedp.CSS(attack)))
	asPlayer := apiOf(t, addr, player)
	cut := asPlayer.legal("veteran", "attack")
	cut.GetD20Seg().GetAttack().TargetId = "soldat"
	h := headlineOf(t, asPlayer.odds(cut))
	require.True(t, h.hasMean, "the damage to expect: the soldier is not hidden")
	requireShows(t, h, oddsShown(t, player, attack+" .odds", ""), "the veteran's attack button")

	before := gm.tracks("soldat")
	player.click(attack)
	player.run(chromedp.WaitVisible(chromedp.CSS("#choices")), chromedp.SetValue(chromedp.CSS(`#choices select[data-field="d20seg.attack.target_id"]`), "soldat"))
	clicked := time.Now()
	player.click("#choices-submit")
	sameWithin(t, clicked, time.Second, gm, player, "Vétéran attacks", nil, "veteran", "soldat")
	// The hit points the narration says are left, on both pages' trackers (D20-041).
	line := player.logLines()[len(player.logLines())-1]
	m := regexp.MustCompile(`Soldat has (\d+) hit points left`).FindStringSubmatch(line)
	require.NotNil(t, m, "the demo's dice hit: %q", line)
	for _, b := range []*tab{gm, player} {
		require.Contains(t, b.tracks("soldat"), "PV"+m[1], "%s's tracker", b.name)
	}
	require.NotEqual(t, before, gm.tracks("soldat"))
	t.Logf("the soldier: %q, then %q", before, gm.tracks("soldat"))
	gm.screenshot("browser-d20seg-gm.png")
}
