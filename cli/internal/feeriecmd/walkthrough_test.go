package feeriecmd_test

import (
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
)

// A Contes de Fées fight played through the CLI against the rules engine, FEE-T04 first:
// Rübezahl (Vigilance 20) rolls an Initiative of 15, the Serpent (Vigilance 17) 17; once the
// Serpent has acted, Rübezahl anticipates 2 ranks to act at 17, and is resolved first, at −2
// on his attack and on his Defense against the Serpent's. Then a further activity that is a
// change of intention (a trip, FEE-074), the countdown to rank 0, an impersonal event, a
// surprise, a second Action's Initiative with last Action's penalties, and a change of tactic
// that moves Rübezahl's acting rank (FEE-071).
func TestFeerieWalkthroughWithTheRulesEngine(t *testing.T) {
	clienttest.ClearEnv(t)
	srv := &clienttest.RuleServer{Reg: engine.NewRegistry(feerie.Released()...), Seed: dice.NewSeed(),
		Dice: dice.NewFixed(12, 17, 9, 9, 14, 6, 3, 16, 20, 2, 10, 5, 3, 15)}
	lis := clienttest.ServeRules(t, srv)
	sheet := func(name string) string { return filepath.Join(clienttest.Sheets, "feerie", name) }
	step := func(args ...string) string {
		t.Helper()
		code, out, errOut := clienttest.Run(t, append(args, "--addr", lis)...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}

	require.Equal(t, "enc-1\n", step("create", "--name", "Clairière", "--system", "feerie"))
	require.Equal(t, "added Rübezahl (rubezahl): V 20, H 18, P 16, R 16, Taille +1, Essence 40, side pcs, controller rita (#2)\n"+
		"added Serpent (serpent): V 17, H 15, P 12, R 12, Taille +0, Essence 40, side foes, controller gm (#3)\n",
		step("add", "enc-1", sheet("rubezahl.yaml"), sheet("serpent.yaml")))
	require.Equal(t, "#4 The fight starts\n#5 Action 1, step 1: declarations\n", step("start", "enc-1"))
	require.Contains(t, step("state", "enc-1"), "Waiting for the declarations of rubezahl and serpent: fray feerie declare enc-1 COMBATANT --kind ...\n")

	require.Equal(t, "#6 Rübezahl declares: melee attack on Serpent, bâton on Attack and Defense, force des montagnes on Damage, tactic +0/+0/+0\n",
		step("feerie", "declare", "enc-1", "rubezahl", "--kind", "melee", "--target", "serpent", "--attack", "bâton", "--defense", "bâton",
			"--damage", "force des montagnes", "--as", "rita"))
	// The last declaration rolls Initiative (FEE-040).
	require.Equal(t, "#7 Serpent declares: melee attack on Rübezahl, morsure on Attack and Defense, écailles on Soak, tactic +0/+0/+0\n"+
		"#8 Initiative: Rübezahl 20+d20[12]−d20[17] = 15; Serpent 17+d20[9]−d20[9] = 17; the countdown starts at 17\n",
		step("feerie", "declare", "enc-1", "serpent", "--kind", "melee", "--target", "rubezahl", "--attack", "morsure", "--defense", "morsure", "--soak", "écailles"))

	// Only the GM runs the countdown.
	code, _, errOut := clienttest.Run(t, "feerie", "advance", "enc-1", "--as", "rita", "--addr", lis)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "fray feerie advance: PermissionDenied: ")

	// The first to act cannot anticipate (FEE-051): the rules refuse, and nothing happens.
	code, _, errOut = clienttest.Run(t, "feerie", "act", "enc-1", "rubezahl", "--as", "rita", "--addr", lis)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "fray feerie act: FailedPrecondition: ")
	t.Logf("fray feerie act rubezahl, too early:\n%s", errOut)

	require.Equal(t, "#9 Serpent acts at rank 17\n", step("feerie", "act", "enc-1", "serpent"))
	state := step("state", "enc-1", "--for", "rubezahl")
	require.Contains(t, state, "Action 1, countdown at rank 17 (from 17)\n")
	require.Regexp(t, `rubezahl\s+Rübezahl\s+pcs\s+dev/rita\s+40/40\s+15\s+15\s+0\s+declared melee attack on Serpent`, state)
	require.Regexp(t, `serpent\s+Serpent\s+foes\s+dev/gm\s+40/40\s+17\s+17\s+1 \(rank 17\)\s+declared melee attack on Rübezahl`, state)
	require.Contains(t, state, "To resolve at rank 17: Serpent's melee attack on Rübezahl\n")
	require.Contains(t, state, "Rübezahl may:\n  act — at rank 17:")

	require.Equal(t, "#10 Rübezahl acts at rank 17 (anticipating 2: −2)\n", step("feerie", "act", "enc-1", "rubezahl", "--as", "rita"))
	// Rübezahl first (Vigilance 20 > 17, FEE-044): 18 + 4 − 2 + 8 = 28 against 15 + 4, margin
	// 9: 4 + 20 − 14 = 10 Essence. The Serpent then fumbles against his Defense, 21 − 2.
	out := step("feerie", "advance", "enc-1")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 3, out)
	require.True(t, strings.HasPrefix(lines[0], "#11 rank 17: Rübezahl attacks Serpent: 28 (H 18 + bâton 4 − "), lines[0])
	require.True(t, strings.HasSuffix(lines[0], " 2 + d20[14]−d20[6]) vs Defense 19 (H 15 + morsure 4) — margin 9: "+
		"4 + Damage 20 (P 16 + T 1 + force des montagnes 3) − Soak 14 (R 12 + écailles 2) = 10 Essence lost (Serpent 30 left)"), lines[0])
	require.True(t, strings.HasPrefix(lines[1], "#12 rank 17: Serpent attacks Rübezahl: 6 (H 15 + morsure 4 + d20[3]−d20[16]) vs Defense 19 (H 18 − T 1 + bâton 4 − "), lines[1])
	require.True(t, strings.HasSuffix(lines[1], " 2) — margin −13: a fumble (FEE-004); hurting itself would cost 4 Essence"), lines[1])
	require.Equal(t, "#13 countdown 17 → 16", lines[2])

	// A further activity 8 ranks later, with a trip not declared: a change of intention too
	// (FEE-074, FEE-182). The flag amends the declared intent.
	require.Equal(t, "#14 countdown 16 → 9\n", step("feerie", "advance", "enc-1", "--to", "9"))
	require.Equal(t, "#15 Rübezahl acts again at rank 9, changing intention to melee attack on Serpent with trip, bâton on Attack and Defense, "+
		"force des montagnes on Damage, tactic +0/+0/+0 (activity 2, change of intention, earlier penalties: −10)\n",
		step("feerie", "act", "enc-1", "rubezahl", "--strike", "trip", "--as", "rita"))
	out = step("feerie", "advance", "enc-1")
	require.Contains(t, out, "#16 rank 9: Rübezahl attacks Serpent with trip: 24 (H 18 + bâton 4 − ")
	require.Contains(t, out, " − special strike trip 6 + d20[20]−d20[2]) vs Defense 19 (H 15 + morsure 4) — margin 5: "+
		"the special strikes replace the Essence damage; Serpent falls: −4 to its activities until it gets up (FEE-151)\n#17 countdown 9 → 8\n")
	state = step("state", "enc-1")
	require.Regexp(t, `rubezahl\s+Rübezahl\s+pcs\s+dev/rita\s+40/40\s+15\s+15\s+2 \(rank 9\)\s+−2 rolls, −2 Defense from rank 17 \(activity\); `+
		`−8 Defense from rank 9 \(activity\); −8 on the next Action;`, state)
	require.Regexp(t, `serpent\s+Serpent\s+foes\s+dev/gm\s+30/40\s+17\s+17\s+1 \(rank 17\)\s+down: −4 to its activities until it gets up;`, state)

	require.Equal(t, "#18 countdown 8 → 1\n", step("feerie", "advance", "enc-1", "--to", "1"))
	require.Equal(t, "#19 countdown 1 → 0: the impersonal events, then the next Action (FEE-046)\n", step("feerie", "advance", "enc-1"))
	require.Equal(t, "#20 rank 0: \"the thorns burn\": Serpent loses 3 Essence (FEE-046)\n",
		step("feerie", "impersonal", "enc-1", "serpent", "3", "the", "thorns", "burn"))
	require.Equal(t, "#21 Action 2, step 1: declarations\n", step("feerie", "advance", "enc-1"))
	require.Equal(t, "#22 Serpent is surprised for the next Action: −8 Initiative, −4 Defense, no tactic (FEE-080)\n",
		step("feerie", "surprise", "enc-1", "serpent"))
	state = step("state", "enc-1")
	require.Regexp(t, `rubezahl\s+Rübezahl\s+pcs\s+dev/rita\s+40/40\s+-\s+-\s+-\s+−8 on this Action \(FEE-062, FEE-073\); to declare\n`, state)
	require.Regexp(t, `serpent\s+Serpent\s+foes\s+dev/gm\s+27/40\s+-\s+-\s+-\s+surprised \(1 Action\);`, state)

	// Action 2: the penalties of Action 1 and the surprise weigh on Initiative; the Serpent
	// cannot act (FEE-043, FEE-062, FEE-080).
	require.Equal(t, "#23 Rübezahl declares: melee attack on Serpent, bâton on Attack and Defense, tactic Attaque foudroyante +4/−2/−2\n",
		step("feerie", "declare", "enc-1", "rubezahl", "--kind", "melee", "--target", "serpent", "--attack", "bâton", "--defense", "bâton",
			"--tactic", "attaque foudroyante", "--as", "rita"))
	out = step("feerie", "declare", "enc-1", "serpent", "--kind", "melee", "--target", "rubezahl", "--attack", "morsure")
	require.Contains(t, out, "#24 Serpent declares: melee attack on Rübezahl, morsure on Attack, tactic +0/+0/+0\n")
	require.Contains(t, out, "#25 Initiative: Rübezahl 16+d20[10]−d20[5] = 21 (V 20 + tactic 4 − ")
	require.Contains(t, out, " 8); Serpent 9+d20[3]−d20[15] = −3 (V 17 − surprised 8), cannot act (FEE-043); the countdown starts at 21\n")
	// A change of tactic moves the acting rank: 21 − 4 − 2 = 15 (FEE-071).
	require.Equal(t, "#26 rank 21: Rübezahl changes intention: melee attack on Serpent, bâton on Attack and Defense, tactic Parade simple −2/−2/+4; "+
		"it acts from rank 15 (−4 on that activity and on Defense from now on, −4 on the next Action; FEE-070, FEE-071)\n",
		step("feerie", "change", "enc-1", "rubezahl", "--tactic", "parade simple", "--as", "rita"))
	state = step("state", "enc-1")
	t.Logf("fray state:\n%s", state)
	require.Regexp(t, `rubezahl\s+Rübezahl\s+pcs\s+dev/rita\s+40/40\s+21\s+15\s+0\s+`, state)
	require.Regexp(t, `serpent\s+Serpent\s+foes\s+dev/gm\s+27/40\s+−3\s+-\s+0\s+cannot act this Action;`, state)

	log := step("log", "enc-1")
	t.Logf("fray log:\n%s", log)
	require.Len(t, strings.Split(strings.TrimSpace(log), "\n"), 26)
	// A new encounter gets the latest version of the rules.
	require.True(t, strings.HasPrefix(log, fmt.Sprintf(`#1 Encounter "Clairière" created by dev/gm, feerie v%d; rules: roll 1d20-1d20, a fumble at a margin of −10 or worse, Essence spent on a roll unlimited; dice seed sha256 `, feerie.Latest)), log)
	require.Zero(t, srv.Dice.Left(), "every die was rolled as planned")
	require.Equal(t, hex.EncodeToString(srv.Seed)+"\n", step("end", "enc-1"))
}
