package losscmd_test

import (
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// LOS-T01 played through the CLI: Diego (8 + d10 7 = 15 PA) attacks the ruffian with 6 + 6 + 8
// = 20 against 15; the ruffian dodges with 1 Exploit, 5 + 7 + 9 = 21 against 20: a miss, and
// +5 on the ruffian's next action.
func TestWalkthroughWithTheRulesEngine(t *testing.T) {
	clienttest.ClearEnv(t)
	srv := &clienttest.RuleServer{Reg: engine.NewRegistry(loss.New(loss.Latest)), Seed: dice.NewSeed(), Dice: dice.NewFixed(7, 6, 8, 9)}
	lis := clienttest.ServeRules(t, srv)
	sheet := func(name string) string { return filepath.Join(clienttest.Sheets, name) }
	step := func(args ...string) string {
		t.Helper()
		code, out, errOut := clienttest.Run(t, append(args, "--addr", lis)...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}

	require.Equal(t, "enc-1\n", step("create", "--name", "Ruelle"))
	require.Equal(t, "added Diego (diego): player character, side pcs, controller david (#2)\n"+
		"added Le malfrat (ruffian): adversaire, side foes, controller gm (#3)\n",
		step("add", "enc-1", sheet("diego.yaml"), sheet("ruffian.yaml")))
	require.Equal(t, "#4 The fight starts\n#5 Tour 1 (Séquence 1): Diego 8+d10[7] = 15 PA; Le malfrat 6+d10[6] = 12 PA\n",
		step("start", "enc-1"))
	// The engine's prompt now gives the Difficulty the defender must beat, which is the one
	// passed on by the attack (LOS-012), rather than the weapon.
	require.Equal(t, "#6 Diego attacks Le malfrat with épée (4 PA): 6+6+d10[8] = 20 vs 15 — success; Le malfrat may parry or dodge\n"+
		"waiting for ruffian (dev/gm): Diego attacks Le malfrat (total 20; Difficulty 15 to defend): parry, dodge or take the blow\n"+
		"  fray react enc-1 ruffian parry|dodge|none --as dev/gm\n",
		step("attack", "enc-1", "diego", "ruffian", "--as", "david"))

	// Only Diego's controller and the GM command him.
	code, _, errOut := clienttest.Run(t, "pass", "enc-1", "diego", "--as", "florence", "--addr", lis)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "fray pass: ")
	require.NotContains(t, errOut, "rpc error")

	// The engine records how every Difficulty came about: the Exploit's +5 on top of the 15
	// passed on by Diego's attack (LOS-010, LOS-012).
	require.Equal(t, "#7 Le malfrat dodges (1 PA, 1 Exploit): 5+7+d10[9] = 21 vs 20 — success (Difficulty 15, +5 1 Exploit (LOS-010))\n"+
		"#8 Diego's attack on Le malfrat misses\n",
		step("react", "enc-1", "ruffian", "dodge", "--exploits", "1"))

	state := step("state", "enc-1", "--for", "diego")
	require.Contains(t, state, "Tour 1 (Séquence 1)")
	require.Regexp(t, `ruffian\s+Le malfrat\s+foes\s+dev/gm\s+11\s+light 5/5, grave 5/5, fatal 5/5\s+\+5 on next action`, state)
	// Both at phase 11 may act (LOS-110). Besides attacking and passing, the engine now offers
	// the actions of LOS-035 without a Test and waiting (LOS-040); Diego, who has acted, may no
	// longer declare (LOS-038).
	require.Contains(t, state, "Diego may:\n"+
		"  attack with épée: 4 PA, targets ruffian (LOS-035)\n"+
		"  moving: 2 PA (LOS-035)\n"+
		"  picking up an object: 2 PA (LOS-035)\n"+
		"  a social Talent: 1 PA (LOS-035)\n"+
		"  wait — act later, at a phase from 1 to 10 (LOS-040)\n"+
		"  speak (LOS-035)\n"+
		"  pass (LOS-033)\n")

	log := step("log", "enc-1")
	t.Logf("fray log:\n%s", log)
	t.Logf("fray state:\n%s", state)
	t.Logf("fray pass as florence:\n%s", errOut)
	require.Len(t, strings.Split(strings.TrimSpace(log), "\n"), 8)
	require.True(t, strings.HasPrefix(log, fmt.Sprintf(`#1 Encounter "Ruelle" created by dev/gm, loss v%d; rules: action d10s explode`, loss.Latest)), log)

	require.Equal(t, hex.EncodeToString(srv.Seed)+"\n", step("end", "enc-1", "--reason", "the ruffian flees"))
}

// The actions of the whole catalogue played through the CLI against the rules engine: a
// declaration, free raises, speech, an attack with an Exploit effect and a situation, a
// counter-attack, a wait, an aim, a move, a pursuit, a Disaster.
func TestWalkthroughOfTheNewActions(t *testing.T) {
	clienttest.ClearEnv(t)
	srv := &clienttest.RuleServer{Reg: engine.NewRegistry(loss.New(loss.Latest)), Seed: dice.NewSeed(),
		Dice: dice.NewFixed(7, 6, 4, 5, 10, 5, 8, 3, 4, 7, 9, 8, 2)}
	lis := clienttest.ServeRules(t, srv)
	sheet := func(name string) string { return filepath.Join(clienttest.Sheets, name) }
	step := func(args ...string) string {
		t.Helper()
		code, out, errOut := clienttest.Run(t, append(args, "--addr", lis)...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}

	require.Equal(t, "enc-1\n", step("create", "--name", "Pont"))
	step("add", "enc-1", sheet("diego.yaml"), sheet("ruffian.yaml"), sheet("mateo.yaml"))
	require.Equal(t, "#5 The fight starts\n#6 Tour 1 (Séquence 1): Diego 8+d10[7] = 15 PA; Le malfrat 6+d10[6] = 12 PA; Mateo 5+d10[4] = 9 PA\n",
		step("start", "enc-1"))
	// Mateo's sheet gives no Fursa: a player character starts with pc_starting_fursa, 1 by
	// default (LOS-005).
	require.Regexp(t, `mateo\s+Mateo\s+pcs\s+dev/carla\s+9\s+light 5/5, grave 5/5, fatal 5/5\s+Fursa 1\n`, step("state", "enc-1"))

	require.Equal(t, "#7 Diego declares: \"I cut the ruffian's purse\"\n",
		step("declare", "enc-1", "diego", "I", "cut", "the", "ruffian's", "purse", "--as", "david"))
	require.Equal(t, "#8 Diego is granted 1 free raise: the high ground (LOS-004)\n",
		step("grant", "enc-1", "diego", "1", "--reason", "the high ground"))
	// Speaking costs nothing and needs no turn (LOS-035).
	require.Equal(t, "#9 Le malfrat speaks: \"À moi !\"\n", step("act", "enc-1", "ruffian", "speak", "--description", "À moi !"))

	// A Feint from higher ground, spending the free raise: 6 + 6 + 5 + 5 + 5 = 27 against
	// 15 + 5 (LOS-004, LOS-052, LOS-064).
	require.Equal(t, "#10 Diego attacks Le malfrat with épée (4 PA, 1 Exploit: feint): 6+6+d10[5]+10 = 27 vs 20 — success "+
		"(+5 1 free raise (LOS-004), +5 higher than the opponent (LOS-052); Difficulty 15, +5 1 Exploit (LOS-010)); Le malfrat may parry or dodge\n"+
		"waiting for ruffian (dev/gm): Diego attacks Le malfrat (total 27; Difficulty 20 to defend): parry, dodge or take the blow\n"+
		"  fray react enc-1 ruffian parry|dodge|none --as dev/gm\n",
		step("attack", "enc-1", "diego", "ruffian", "--effect", "feint", "--higher", "--free-raises", "1", "--as", "david"))
	// The ruffian parries with a Counter-attack, 5 + 5 + 15 = 25 against 20 + 5, and strikes
	// back at once (LOS-062).
	require.Equal(t, "#11 Le malfrat parries (1 PA, 1 Exploit: counter-attack): 5+5+d10[10,5] = 25 vs 25 — success (Difficulty 20, +5 1 Exploit (LOS-010))\n"+
		"#12 Diego's attack on Le malfrat misses\n"+
		"#13 Le malfrat counter-attacks Diego with dague (3 PA): 5+5+d10[8] = 18 vs 15 — success; Diego may parry or dodge\n"+
		"waiting for diego (dev/david): Le malfrat attacks Diego (total 18; Difficulty 15 to defend): parry, dodge or take the blow\n"+
		"  fray react enc-1 diego parry|dodge|none --as dev/david\n",
		step("react", "enc-1", "ruffian", "parry", "--effect", "counter-attack"))
	require.Equal(t, "#14 Diego dodges (1 PA): 5+5+d10[3] = 13 vs 15 — failure\n"+
		"#15 Le malfrat hits Diego: damage d10[4]+2 = 6 → 6 NS lost; Diego has NS light 0, grave 4, fatal 5\n",
		step("react", "enc-1", "diego", "dodge", "--as", "david"))

	// Diego (10 PA) waits until phase 7; Mateo (9) aims; the ruffian (8) moves away.
	require.Equal(t, "#16 Diego waits from phase 10 to 7 (next action −3 PA, minimum 2)\n", step("wait", "enc-1", "diego", "7"))
	require.Equal(t, "#17 Mateo aims with arbalète (2 PA): +2 on the next Test with it (LOS-035)\n",
		step("aim", "enc-1", "mateo", "arbalète", "--points", "2", "--as", "carla"))
	require.Equal(t, "#18 Le malfrat moves (2 PA)\n", step("act", "enc-1", "ruffian", "move"))

	require.Equal(t, "#19 pursuit starts: Mateo pursues Le malfrat at distance 3, in range (LOS-100)\n",
		step("pursuit", "enc-1", "--pursuers", "mateo", "--pursued", "ruffian", "--distance", "3"))
	// Only the distance after the action is in the event: the log, which has seen the pursuit
	// start, shows where it came from.
	require.Equal(t, "#20 pursuit: Mateo changes distance to 2 (2 PA): 6+5+d10[7]+2 = 20 vs 20 — success (+2 mount or vehicle speed (LOS-108))\n",
		step("chase", "enc-1", "mateo", "closer", "--as", "carla"))

	// Diego, in the grave band (+5, LOS-022), pays 4 − 3 PA for his wait and fails an Exploit:
	// the GM gains a Fursa and may call a Disaster (LOS-005, LOS-006).
	require.Equal(t, "#21 Diego attacks Le malfrat with épée (2 PA, 1 Exploit: extra damage): 6+6+d10[9] = 21 vs 25 — failure "+
		"(Difficulty 15, +5 wounds (LOS-022), +5 1 Exploit (LOS-010))\n"+
		"#22 Diego's attack on Le malfrat misses: the attack fails\n",
		step("attack", "enc-1", "diego", "ruffian", "--exploits", "1"))
	require.Equal(t, "#23 the GM turns Diego's failed Exploit into a Disaster: \"the blade snaps\" (LOS-006)\n",
		step("disaster", "enc-1", "diego", "the", "blade", "snaps"))
	code, _, errOut := clienttest.Run(t, "disaster", "enc-1", "diego", "again", "--as", "david", "--addr", lis)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "fray disaster: PermissionDenied: only the GM declares a Disaster")

	require.Equal(t, "#24 Le malfrat passes, keeping 6 PA to parry or dodge\n", step("pass", "enc-1", "ruffian"))
	// A Charge at distance 2 (LOS-102): only a dodge avoids it.
	require.Equal(t, "#25 pursuit: Mateo charges Le malfrat (3 PA): 6+5+d10[8]+2 = 21 vs 20 — success (+2 mount or vehicle speed (LOS-108)); Le malfrat may dodge\n"+
		"waiting for ruffian (dev/gm): pursuit: Mateo makes a Charge on Le malfrat (dodge at 20, or take it)\n"+
		"  fray react enc-1 ruffian dodge|none --as dev/gm\n",
		step("chase", "enc-1", "mateo", "charge", "--target", "ruffian", "--as", "carla"))
	require.Equal(t, "#26 Le malfrat dodges (1 PA): 5+7+d10[2] = 14 vs 20 — failure\n"+
		"#27 pursuit: Mateo's charge on Le malfrat lands; Le malfrat is unseated or thrown down\n",
		step("react", "enc-1", "ruffian", "dodge"))

	state := step("state", "enc-1")
	t.Logf("fray state:\n%s", state)
	require.Contains(t, state, "Tour 1 (Séquence 1); GM Fursa 1\n")
	require.Contains(t, state, "Pursuit: Mateo after Le malfrat, distance 2 (close)\n")
	require.Regexp(t, `diego\s+Diego\s+pcs\s+dev/david\s+5\s+light 0/5, grave 4/5, fatal 5/5\s+Fursa 2, Courage 1, declared "I cut the ruffian's purse"\n`, state)
	require.Regexp(t, `ruffian\s+Le malfrat\s+foes\s+dev/gm\s+5\s+light 5/5, grave 5/5, fatal 5/5\s+passed, prone\n`, state)
	require.Regexp(t, `mateo\s+Mateo\s+pcs\s+dev/carla\s+2\s+light 5/5, grave 5/5, fatal 5/5\s+Fursa 1, aiming arbalète \+2\n`, state)

	log := step("log", "enc-1")
	t.Logf("fray log:\n%s", log)
	require.Contains(t, log, "\n#20 pursuit: Mateo changes distance 3 → 2 (2 PA): 6+5+d10[7]+2 = 20 vs 20 — success (+2 mount or vehicle speed (LOS-108))\n")
	require.Len(t, strings.Split(strings.TrimSpace(log), "\n"), 27)
	require.Zero(t, srv.Dice.Left(), "every die was rolled as planned")
}
