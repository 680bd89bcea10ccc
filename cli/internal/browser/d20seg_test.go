package browser_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// d20 segments in the browser: the GM creates the encounter, adds the veteran and the soldier
// (and a second soldier it hides) from their sheet files and invites the veteran's player;
// the veteran's attack button shows the chance to hit (D20-040) and the damage to expect, as
// GetOdds answers them for the soldier targeted; with the hidden soldier targeted in the form
// the odds are unavailable (GetOdds gives the player none); the player attacks the soldier
// from its button; both pages show the same log and tracks within a second, and the
// soldier's hit points as the narrated attack leaves them (D20-041).
func TestD20SegInTheBrowser(t *testing.T) {
	tabs := browsers(t, "gm", "player")
	gm, player := tabs[0], tabs[1]
	addr, page := server(t)
	gmToken := fray(t, "token", "--addr", addr, "--as", "gm")

	// A second soldier, hidden by the GM.
	b, err := os.ReadFile(filepath.Join(sheets, "d20seg", "soldat.yaml"))
	require.NoError(t, err)
	second := filepath.Join(t.TempDir(), "soldat2.yaml")
	b = bytes.Replace(bytes.Replace(b, []byte("id: soldat\n"), []byte("id: soldat2\n"), 1), []byte("name: Soldat\n"), []byte("name: Second soldat\n"), 1)
	require.NoError(t, os.WriteFile(second, append(b, "hidden: true\n"...), 0o644))
	hidden := []string{"Second soldat"}

	files := abs(t, filepath.Join(sheets, "d20seg", "veteran.yaml"), filepath.Join(sheets, "d20seg", "soldat.yaml"), second)
	createAndInvite(t, page, gmToken, gm, player, "Le gué", "d20seg", "veteran", files, "veteran", "soldat", "soldat2")
	bothShow(t, time.Now(), gm, player, "Round 1", hidden, "veteran", "soldat")

	attack := `#actions button.action[data-key="attack"][data-combatant="veteran"]`
	player.run(chromedp.WaitVisible(chromedp.CSS(attack)))
	asPlayer := apiOf(t, addr, player)
	cut := asPlayer.legal("veteran", "attack")
	cut.GetD20Seg().GetAttack().TargetId = "soldat"
	h := headlineOf(t, asPlayer.odds(cut))
	require.True(t, h.hasMean, "the damage to expect: the soldier is not hidden")
	requireShows(t, h, oddsShown(t, player, attack+" .odds", ""), "the veteran's attack button")

	// The hidden soldier targeted in the form: GetOdds gives the player no chance (its CA and
	// hit points are hidden), and the form says the odds are unavailable; the GM's are there.
	player.click(attack)
	player.run(chromedp.WaitVisible(chromedp.CSS("#choices")))
	target := func(id string) {
		require.True(t, eval[bool](player, fmt.Sprintf(`(() => { const s = document.querySelector('#choices select[data-field="d20seg.attack.target_id"]');
			s.value = %q; s.dispatchEvent(new Event('change', {bubbles: true})); return s.value === %q; })()`, id, id)))
	}
	target("soldat2")
	cut.GetD20Seg().GetAttack().TargetId = "soldat2"
	for _, s := range asPlayer.odds(cut).GetSections() {
		require.Empty(t, s.GetChances(), "no odds from the hidden soldier's numbers")
		require.Empty(t, s.GetDistributions(), "no odds from the hidden soldier's numbers")
		require.Contains(t, s.GetUnavailable(), "hidden from you")
	}
	require.True(t, headlineOf(t, apiOf(t, addr, gm).odds(cut)).hasMean, "the GM sees all")
	none, err := poll[string](player, `(() => { const e = document.getElementById('choices-odds');
		return e && !e.hidden && e.classList.contains('none') && !e.classList.contains('pending') && !e.dataset.chance ? e.textContent : ''; })()`)
	require.NoError(t, err, "the form never said the odds are unavailable")
	require.Equal(t, "odds unavailable", none)
	require.Contains(t, eval[string](player, `document.getElementById('choices-odds').title`), "hidden from you")
	target("soldat")
	requireShows(t, h, oddsShown(t, player, "#choices-odds", ""), "the form's odds, the soldier targeted again")

	before := gm.tracks("soldat")
	clicked := time.Now()
	player.click("#choices-submit")
	bothShow(t, clicked, gm, player, "Vétéran attacks", hidden, "veteran", "soldat")
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
