package browser_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// declare opens the declare form of combatant on the page and declares an attack on target;
// it returns when it submitted the form.
func declare(t *testing.T, b *tab, combatant, target string) time.Time {
	t.Helper()
	b.click(fmt.Sprintf(`#actions button.action[data-key="declare"][data-combatant=%q]`, combatant))
	b.run(chromedp.WaitVisible(chromedp.CSS("#choices")))
	ok := eval[bool](b, fmt.Sprintf(`(() => {
		const kind = document.querySelector('#choices select[data-field$="intent.kind"]');
		const o = Array.from(kind.options).find(o => o.value.includes('ATTACK'));
		if (!o) return false;
		kind.value = o.value;
		document.querySelector('#choices select[data-field$="intent.target_id"]').value = %q;
		return true; })()`, target))
	require.True(t, ok, "%s's declare form offers no attack", combatant)
	b.run(chromedp.WaitVisible(chromedp.CSS("#choices-submit")))
	submitted := time.Now()
	b.run(chromedp.Click(chromedp.CSS("#choices-submit")))
	return submitted
}

// Contes de Fées in the browser: Rübezahl's player and the GM's Serpent declare their attacks
// (step 1) from their forms; the GM advances the countdown to the first rank where someone
// acts; at its rank, whoever acts takes its activity from its button, which shows the odds
// GetOdds answers for it; both pages show the same log, rank and tracks (Essence) within a
// second.
func TestFeerieInTheBrowser(t *testing.T) {
	tabs := browsers(t, "gm", "player")
	gm, player := tabs[0], tabs[1]
	addr, page := server(t)
	gmToken := fray(t, "token", "--addr", addr, "--as", "gm")

	files := abs(t, filepath.Join(sheets, "feerie", "rubezahl.yaml"), filepath.Join(sheets, "feerie", "serpent.yaml"))
	createAndInvite(t, page, gmToken, gm, player, "Le col", "feerie", "rubezahl", files, "rubezahl", "serpent")
	bothShow(t, time.Now(), gm, player, "#6 ", nil, "rubezahl", "serpent")

	clicked := declare(t, player, "rubezahl", "serpent")
	bothShow(t, clicked, gm, player, "Rübezahl declares", nil, "rubezahl", "serpent")
	clicked = declare(t, gm, "serpent", "rubezahl")
	bothShow(t, clicked, gm, player, "Serpent declares", nil, "rubezahl", "serpent")

	// The GM advances the countdown until someone may act at the rank.
	for i := 0; i < 40 && !gm.has(`#actions button.action[data-key="act"]`) && !player.has(`#actions button.action[data-key="act"]`); i++ {
		gm.click(`#actions button.action[data-key="advance"]`)
		gm.run(chromedp.WaitVisible(chromedp.CSS(`#actions button.action`)))
	}
	turn := gm.turn()
	require.Contains(t, turn, "rang")
	actor, who := gm, "serpent"
	if player.has(`#actions button.action[data-key="act"]`) {
		actor, who = player, "rubezahl"
	}
	// The act button's odds: those GetOdds answers the actor of its declared attack, with the
	// tactic in force (FEE-020), and the Essence lost.
	asActor := apiOf(t, addr, actor)
	h := headlineOf(t, asActor.odds(asActor.legal(who, "act")))
	require.Equal(t, "chosen", h.section)
	require.True(t, h.hasMean, "the Essence lost: no one is hidden")
	requireShows(t, h, oddsShown(t, actor, fmt.Sprintf(`#actions button.action[data-key="act"][data-combatant=%q] .odds`, who), ""), who+"'s act button")
	before := gm.sequence()
	clicked = time.Now()
	actor.click(fmt.Sprintf(`#actions button.action[data-key="act"][data-combatant=%q]`, who))
	if actor.has("#choices") {
		clicked = time.Now()
		actor.click("#choices-submit")
	}
	bothShow(t, clicked, gm, player, "after "+before, nil, "rubezahl", "serpent")
	require.True(t, strings.Contains(gm.turn(), "rang"), gm.turn())
	gm.screenshot("browser-feerie-gm.png")
}
