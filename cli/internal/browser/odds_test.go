package browser_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"
)

// api is fray's EncounterService as the bearer of a page's token sees it.
type api struct {
	t   *testing.T
	c   encounterv1.EncounterServiceClient
	enc string
}

// apiOf dials addr with the token the page b keeps, for the encounter b shows.
func apiOf(t *testing.T, addr string, b *tab) *api {
	t.Helper()
	token := eval[string](b, `sessionStorage.getItem('fray.token')||''`)
	require.NotEmpty(t, token, "%s's page keeps no token", b.name)
	enc := eval[string](b, `decodeURIComponent((/#\/encounter\/([^/?]+)/.exec(location.hash)||[])[1]||'')`)
	require.NotEmpty(t, enc, "%s's page shows no encounter", b.name)
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(auth.PerRPCToken(auth.StaticToken(token), "", false)))
	require.NoError(t, err)
	t.Cleanup(func() { _ = cc.Close() })
	return &api{t: t, c: encounterv1.NewEncounterServiceClient(cc), enc: enc}
}

// legal is the first legal command of combatant keyed key, as the page lists them.
func (a *api) legal(combatant, key string) *encounterv1.Command {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	resp, err := a.c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: a.enc, LegalForAll: true})
	require.NoError(a.t, err)
	for _, ca := range resp.GetActions() {
		for _, lc := range ca.GetActions() {
			if ca.GetCombatantId() == combatant && lc.GetAction().GetKey() == key {
				return proto.CloneOf(lc.GetCommand())
			}
		}
	}
	require.Failf(a.t, "no such action", "%s may not %s", combatant, key)
	return nil
}

// odds is what GetOdds answers of cmd.
func (a *api) odds(cmd *encounterv1.Command) *oddsv1.Odds {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	resp, err := a.c.GetOdds(ctx, &encounterv1.GetOddsRequest{EncounterId: a.enc, Command: cmd})
	require.NoError(a.t, err)
	return resp.GetOdds()
}

// headline is what the page shows of odds: the first section with a chance of success (a
// defender's "miss", else its "hit", or for Ka one less its failure), and the mean of its
// first distribution.
type headline struct {
	section string
	chance  float64
	mean    float64
	hasMean bool
}

func headlineOf(t *testing.T, o *oddsv1.Odds) headline {
	t.Helper()
	for _, s := range o.GetSections() {
		h := headline{section: s.GetKey(), chance: -1}
		miss := -1.0
		for _, c := range s.GetChances() {
			switch c.GetKey() {
			case "miss":
				miss = c.GetProbability()
			case "hit":
				h.chance = c.GetProbability()
			case "level.0":
				if h.chance < 0 {
					h.chance = 1 - c.GetProbability()
				}
			}
		}
		if miss >= 0 {
			h.chance = miss
		}
		if h.chance < 0 {
			continue
		}
		if len(s.GetDistributions()) > 0 {
			h.mean, h.hasMean = s.GetDistributions()[0].GetMean(), true
		}
		return h
	}
	require.Failf(t, "no chance of success", "%v", o)
	return headline{}
}

// percent is the page's rendering of a chance.
func percent(p float64) string {
	switch {
	case p > 0 && p < 0.005:
		return "<1\u00a0%"
	case p < 1 && p >= 0.995:
		return ">99\u00a0%"
	}
	return fmt.Sprintf("%d\u00a0%%", int(math.Floor(p*100+0.5)))
}

// shown is what an odds element of the page shows: its text and its numbers.
type shown struct {
	Text    string `json:"text"`
	Section string `json:"section"`
	Chance  string `json:"chance"`
	Mean    string `json:"mean"`
	Hidden  bool   `json:"hidden"`
}

// oddsShown waits until the odds element sel shows a chance other than not, and none is
// being asked, and returns it.
func oddsShown(t *testing.T, b *tab, sel, not string) shown {
	t.Helper()
	js := fmt.Sprintf(`(() => { const e = document.querySelector(%q);
		if (!e || e.classList.contains('pending') || !e.dataset.chance || e.dataset.chance === %q) return null;
		return {text: e.textContent, section: e.dataset.section||'', chance: e.dataset.chance, mean: e.dataset.mean||'', hidden: e.hidden}; })()`, sel, not)
	got, err := poll[*shown](b, js)
	require.NoError(t, err, "%s's page never showed odds at %s (other than %s): %q", b.name, sel, not,
		eval[string](b, fmt.Sprintf(`(document.querySelector(%q)||{}).outerHTML||'none'`, sel)))
	require.NotNil(t, got)
	return *got
}

// requireShows checks that the page shows h: the same chance and mean, to the last bit, and
// the text made of them.
func requireShows(t *testing.T, h headline, s shown, what string) {
	t.Helper()
	require.False(t, s.Hidden, what)
	require.Equal(t, h.section, s.Section, what)
	chance, err := strconv.ParseFloat(s.Chance, 64)
	require.NoError(t, err, what)
	require.Equal(t, h.chance, chance, "%s: the chance GetOdds answers", what)
	require.True(t, strings.HasPrefix(s.Text, percent(h.chance)), "%s: %q does not start with %q", what, s.Text, percent(h.chance))
	if !h.hasMean {
		require.Empty(t, s.Mean, "%s: no expected effect where GetOdds gives none", what)
		require.NotContains(t, s.Text, "≈", what)
		return
	}
	mean, err := strconv.ParseFloat(s.Mean, 64)
	require.NoError(t, err, what)
	require.Equal(t, h.mean, mean, "%s: the expected effect GetOdds answers", what)
	require.Contains(t, s.Text, fmt.Sprintf("≈\u00a0%.1f", h.mean), what)
}

// Odds on the buttons (issue 17), Les Chants de Loss: Diego's player's attack button shows the
// chance of success and no expected effect against the hidden ruffian, exactly what GetOdds
// answers the player's token for the command the form gives untouched (the ruffian targeted,
// no Exploit): the chance to land (LOS-010) comes from Diego's own numbers, the NS lost would
// need the ruffian's (hidden: the server gives none, the page shows none). The GM's page, which
// sees all, shows on the same button the NS lost GetOdds answers the GM. In the open form, an
// Exploit checked changes the odds (LOS-010: Difficulty +5), to those GetOdds answers for it;
// unchecked, they are back. The form lists every section of the odds in words.
func TestLossOddsInTheBrowser(t *testing.T) {
	tabs := browsers(t, "gm", "player")
	gm, player := tabs[0], tabs[1]
	addr, page := server(t)
	gmToken := fray(t, "token", "--addr", addr, "--as", "gm")
	files := abs(t, filepath.Join(sheets, "diego.yaml"), hiddenCopy(t, "ruffian.yaml"))
	createAndInvite(t, page, gmToken, gm, player, "Ruelle sombre", "loss", "diego", files, "diego", "ruffian")
	bothShow(t, time.Now(), gm, player, "Tour 1", []string{"Le malfrat"}, "diego")

	asPlayer, asGM := apiOf(t, addr, player), apiOf(t, addr, gm)
	swing := asPlayer.legal("diego", "attack")
	swing.GetLoss().GetAttack().TargetId = "ruffian"
	mine, all := asPlayer.odds(swing), asGM.odds(swing)
	button := `#actions button.action[data-key="attack"][data-combatant="diego"] .odds`

	// The player: the chance to land, no NS lost (the ruffian's numbers are hidden).
	h := headlineOf(t, mine)
	require.False(t, h.hasMean, "GetOdds gives a player no NS lost against a hidden target")
	untouched := oddsShown(t, player, button, "")
	requireShows(t, h, untouched, "the player's attack button")
	require.NotContains(t, player.text(), "NS lost", "the player's page shows no NS lost against the hidden ruffian")

	// The GM, who sees all: the same chance, and the NS lost.
	hg := headlineOf(t, all)
	require.True(t, hg.hasMean, "GetOdds gives the GM the NS lost")
	requireShows(t, hg, oddsShown(t, gm, button, ""), "the GM's attack button")
	require.Contains(t, gm.text(), fmt.Sprintf("NS lost ≈\u00a0%.1f", hg.mean))

	// The form: an Exploit checked, the odds of the attack with it, on the button and in the form.
	player.click(`#actions button.action[data-key="attack"][data-combatant="diego"]`)
	player.run(chromedp.WaitVisible(chromedp.CSS("#choices")))
	requireShows(t, h, oddsShown(t, player, "#choices-odds", ""), "the form's odds, untouched")
	// All the odds, in words: each section GetOdds answers the player, and why those against
	// the hidden ruffian's defences are not there.
	detail, err := poll[string](player, `(() => { const d = document.getElementById('choices-odds-detail');
		return d && !d.hidden && !d.classList.contains('pending') ? d.textContent : ''; })()`)
	require.NoError(t, err, "the form shows no odds in detail")
	for _, s := range mine.GetSections() {
		require.Contains(t, detail, s.GetTitle())
		require.Contains(t, detail, s.GetUnavailable())
	}
	require.Contains(t, detail, "hidden from you")
	require.NotContains(t, detail, "NS lost")
	effect := eval[string](player, `(() => { const e = Array.from(document.querySelectorAll('#choices fieldset[data-field="loss.attack.exploits"] label'))
		.find(l => / \(1\)$/.test(l.textContent)); return e ? e.querySelector('input').value : ''; })()`)
	require.NotEmpty(t, effect, "an Exploit effect of cost 1 in the form")
	player.click(fmt.Sprintf(`#choices input[value=%q]`, effect))
	exploit := oddsShown(t, player, button, untouched.Chance)
	bolder := proto.CloneOf(swing)
	require.NoError(t, fillEnum(bolder, effect))
	hb := headlineOf(t, asPlayer.odds(bolder))
	require.Less(t, hb.chance, h.chance, "LOS-010: an Exploit raises the Difficulty by 5")
	requireShows(t, hb, exploit, "the player's attack button, one Exploit checked")
	requireShows(t, hb, oddsShown(t, player, "#choices-odds", untouched.Chance), "the form's odds, one Exploit checked")
	player.screenshot("browser-player-odds.png")

	// Unchecked: the odds of the attack without it again.
	player.click(fmt.Sprintf(`#choices input[value=%q]`, effect))
	requireShows(t, h, oddsShown(t, player, button, exploit.Chance), "the player's attack button, the Exploit unchecked")

	// Rapid changes do not pile up: another Exploit of cost 1 checked and unchecked five times
	// in a row, then checked, asks GetOdds once, for the last choice.
	other := eval[string](player, fmt.Sprintf(`(() => { const e = Array.from(document.querySelectorAll('#choices fieldset[data-field="loss.attack.exploits"] label'))
		.find(l => / \(1\)$/.test(l.textContent) && l.querySelector('input').value !== %q); return e ? e.querySelector('input').value : ''; })()`, effect))
	require.NotEmpty(t, other, "a second Exploit effect of cost 1 in the form")
	var asked atomic.Int32
	require.NoError(t, chromedp.Listen(player.ctx, func(ev any) { // the tab's network events (chromedp enables them)
		if e, ok := ev.(*network.EventRequestWillBeSent); ok && strings.HasSuffix(e.Request.URL, "/GetOdds") {
			asked.Add(1)
		}
	}))
	require.True(t, eval[bool](player, fmt.Sprintf(`(() => { const b = document.querySelector('#choices input[value=%q]');
		for (let i = 0; i < 11; i++) b.click(); return b.checked; })()`, other)))
	feint := proto.CloneOf(swing)
	require.NoError(t, fillEnum(feint, other))
	hf := headlineOf(t, asPlayer.odds(feint))
	js := fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && !e.classList.contains('pending'); })()`, button)
	_, err = poll[bool](player, js)
	require.NoError(t, err)
	requireShows(t, hf, oddsShown(t, player, button, ""), "the player's attack button, after eleven clicks")
	require.Equal(t, int32(1), asked.Load(), "GetOdds asked once for eleven changes")
}

// fillEnum adds the Exploit effect named name to cmd's Loss attack.
func fillEnum(cmd *encounterv1.Command, name string) error {
	v, ok := lossv1.ExploitEffect_value[name]
	if !ok {
		return fmt.Errorf("no Exploit effect %q", name)
	}
	a := cmd.GetLoss().GetAttack()
	a.Exploits = append(a.Exploits, lossv1.ExploitEffect(v))
	return nil
}
