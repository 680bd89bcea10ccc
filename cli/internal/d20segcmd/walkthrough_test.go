package d20segcmd_test

import (
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
)

// A d20seg fight played through the CLI against the rules engine, with the four example
// sheets (BBA 0, 6, 11, 16): Initiative with the roll-off of the veteran and the master, both
// at 4 (D20-T01, D20-T04); a surprise attack with apprehension rolls, free actions and the
// surprise round's segments 0–2 (D20-004); the veteran's critical of D20-T03 on the
// flat-footed novice; a first round with a spell for the next round, and its end.
func TestD20WalkthroughWithTheRulesEngine(t *testing.T) {
	clienttest.ClearEnv(t)
	srv := &clienttest.RuleServer{Reg: engine.NewRegistry(d20seg.Released()...), Seed: dice.NewSeed(),
		Dice: dice.NewFixed(8, 15, 7, 10, 19, 9, 10, 3, 20, 5, 3, 2, 8, 18, 6, 14, 7)}
	lis := clienttest.ServeRules(t, srv)
	sheet := func(name string) string { return filepath.Join(clienttest.Sheets, "d20seg", name) }
	step := func(args ...string) string {
		t.Helper()
		code, out, errOut := clienttest.Run(t, append(args, "--addr", lis)...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}

	require.Equal(t, "enc-1\n", step("create", "--name", "L'embuscade", "--system", "d20seg"))
	out := step("add", "enc-1", sheet("novice.yaml"), sheet("soldat.yaml"), sheet("veteran.yaml"), sheet("maitre.yaml"))
	require.Contains(t, out, "added Novice (novice): Rapidité 3, Initiative 5, BBA 0, CA 11, 8 hit points, size M, side travellers, controller gm (#2)\n")
	require.Contains(t, out, "added Soldat (soldat): Rapidité 3, Initiative −2, BBA 6, CA 21, 45 hit points, size M, side travellers, controller gm (#3)\n")
	// D20-T01, D20-T04: the veteran and the master roll off for their Initiative of 4.
	require.Equal(t, "#6 The fight starts\n"+
		"#7 Initiative for the combat (D20-010, D20-012): Novice 5 (Rapidité 3 + 2 equipment); Maître d'armes 4 (Rapidité 5 − 1 equipment); "+
		"Vétéran 4 (Rapidité 6 − 2 equipment); Soldat −2 (Rapidité 3 − 5 equipment); roll-off: Vétéran d20[8], Maître d'armes d20[15] (D20-011); "+
		"at a shared segment: Novice, Maître d'armes, Vétéran, Soldat\n"+
		"#8 Round 1: segments 0 to 5 (D20-013)\n", step("start", "enc-1"))
	state := step("state", "enc-1")
	t.Logf("fray state:\n%s", state)
	require.Contains(t, state, "Round 1: segments 0 to 5 (D20-013)\n")
	require.Regexp(t, `maitre\s+Maître d'armes\s+ambushers\s+dev/gm\s+4 \(tie 1st\)\s+120/120\s+segment 0\s+0\s+next attack costs 1 segment \(BBA 16, D20-017\)\n`, state)
	require.Regexp(t, `veteran\s+Vétéran\s+ambushers\s+dev/gm\s+4 \(tie 2nd\)\s+80/80\s+segment 0\s+0\s+next attack costs 2 segments`, state)
	require.Contains(t, state, "Before anyone acts, the GM may declare a surprise attack: fray d20 surprise enc-1 --attackers A,B --defender ID[:SITUATION+...] (D20-004)\n")
	require.Contains(t, state, "Novice acts next, at segment 0: fray d20 attack|cast|other|end enc-1 novice ...\n")

	// The surprise: the veteran's stealth, 8 + d20, against each defender's apprehension: the
	// novice, −3 in the forest at night, is surprised; the soldier (impaired −3, a spell +1)
	// is not.
	code, _, errOut := clienttest.Run(t, "d20", "surprise", "enc-1", "--attackers", "veteran", "--defender", "novice", "--as", "rita", "--addr", lis)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "fray d20 surprise: PermissionDenied: ")
	require.Equal(t, "#9 Surprise attack by Vétéran and Maître d'armes: a free action each first, in Initiative order, then segments 0–2 of the surprise round (D20-004); "+
		"Novice: apprehension d20[7] − 3 = 4 vs Vétéran's stealth d20[10] + 8 = 18: surprised, flat-footed (D20-003, D20-006); "+
		"Soldat: apprehension d20[19] − 1 = 18 vs Vétéran's stealth d20[9] + 8 = 17: not surprised (D20-003, D20-005)\n",
		step("d20", "surprise", "enc-1", "--attackers", "veteran,maitre", "--defender", "novice:cluttered-view+night", "--defender", "soldat:night+impaired=3:+1"))
	state = step("state", "enc-1", "--for", "maitre")
	require.Contains(t, state, "Surprise round: segments 0 to 2 (D20-004)\n")
	require.Regexp(t, `novice\s+Novice\s+travellers\s+dev/gm\s+5\s+8/8\s+segment 0\s+0\s+surprised: flat-footed, no action in the surprise round \(D20-004, D20-006\)\n`, state)
	require.Regexp(t, `maitre\s+Maître d'armes\s+ambushers\s+dev/gm\s+4 \(tie 1st\)\s+120/120\s+segment 0\s+0\s+free action left \(D20-004\), next attack costs 1 segment`, state)
	require.Contains(t, state, "Maître d'armes acts next, with its free action, before anyone acts in a segment (D20-004): fray d20 attack|cast|other enc-1 maitre ... --free, or end\n")
	require.Contains(t, state, "Maître d'armes may:\n  attack with cimeterre as its free action (D20-004)\n")

	require.Equal(t, "#10 free action (D20-004): Maître d'armes attacks Soldat with cimeterre: d20[10] + 20 = 30 vs CA 21 — a hit (D20-040): "+
		"damage d6[3] + 5 = 8 (D20-041); Soldat has 37 hit points left\n",
		step("d20", "attack", "enc-1", "maitre", "soldat", "--weapon", "cimeterre", "--free"))
	// D20-004: every attacker's free action comes before anyone acts in a segment.
	code, _, errOut = clienttest.Run(t, "d20", "other", "enc-1", "maitre", "draws", "his", "lance", "--addr", lis)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "fray d20 other: FailedPrecondition: Vétéran's free action comes first")
	// D20-T03: 34 against the flat-footed CA of 11 − 1: a critical, 2 × (5 + 3) + 2 = 18.
	require.Equal(t, "#11 free action (D20-004): Vétéran attacks Novice with épée longue: d20[20] + 14 = 34 vs CA 10 (flat-footed, D20-006) — "+
		"a critical hit, 20 or more above the CA (D20-042): damage 18 (d8[5] and the bonuses, multiplied; feats once); Novice has −10 hit points left: down (D20-044)\n",
		step("d20", "attack", "enc-1", "veteran", "novice", "--free"))
	require.Equal(t, "#12 segment 0: Maître d'armes: \"draws his lance\" (1 segment, D20-022)\n", step("d20", "other", "enc-1", "maitre", "draws", "his", "lance"))
	require.Equal(t, "#13 segment 0: Vétéran attacks Soldat with épée longue (2 segments, D20-017): d20[3] + 14 = 17 vs CA 21 — a miss (D20-040)\n",
		step("d20", "attack", "enc-1", "veteran", "soldat"))
	require.Equal(t, "#14 segment 0: Soldat: \"raises his pavise\" (1 segment, D20-022)\n", step("d20", "other", "enc-1", "soldat", "raises", "his", "pavise"))
	// The lance reaches 4.5 m (D20-031); the master's first attack of the round costs 1.
	require.Equal(t, "#15 segment 1: Maître d'armes attacks Soldat with lance (1 segment, D20-017): d20[2] + 19 = 21 vs CA 21 — a hit (D20-040): "+
		"damage d8[8] + 4 = 12 (D20-041); Soldat has 25 hit points left\n",
		step("d20", "attack", "enc-1", "maitre", "soldat", "--weapon", "lance", "--distance", "4m"))
	require.Equal(t, "#16 Soldat ends its turn for this round (D20-016)\n", step("d20", "end", "enc-1", "soldat"))
	require.Equal(t, "#17 Maître d'armes ends its turn for this round (D20-016)\n", step("d20", "end", "enc-1", "maitre"))
	// The veteran has segment 2 left: an attack (2 segments) does not fit (D20-004).
	code, _, errOut = clienttest.Run(t, "d20", "attack", "enc-1", "veteran", "soldat", "--addr", lis)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "fray d20 attack: FailedPrecondition: ")
	require.Equal(t, "#18 segment 2: Vétéran: \"steps back\" (1 segment, D20-022)\n#19 Round 1: segments 0 to 5 (D20-013)\n",
		step("d20", "other", "enc-1", "veteran", "steps", "back"))
	state = step("state", "enc-1")
	require.Regexp(t, `novice\s+Novice\s+travellers\s+dev/gm\s+5\s+−10/8\s+-\s+0\s+DOWN \(D20-044\)\n`, state)
	require.Contains(t, state, "Maître d'armes acts next, at segment 0: fray d20 attack|cast|other|end enc-1 maitre ...\n")
	require.NotContains(t, state, "surprise attack", "one surprise only, before round 1")

	require.Equal(t, "#20 segment 0: Maître d'armes casts peau de pierre (2 segments, D20-018); it takes effect at the start of the next round (D20-019)\n",
		step("d20", "cast", "enc-1", "maitre", "peau", "de", "pierre", "--pure", "--segments", "2", "--next-round"))
	require.Equal(t, "#21 segment 0: Vétéran attacks Soldat with épée longue (2 segments, D20-017): d20[18] + 14 = 32 vs CA 21 — a hit (D20-040): "+
		"damage d8[6] + 5 = 11 (D20-041); Soldat has 14 hit points left\n", step("d20", "attack", "enc-1", "veteran", "soldat"))
	require.Equal(t, "#22 segment 0: Soldat attacks Vétéran with arbalète (3 segments, D20-017): d20[14] + 6 = 20 vs CA 19 — a hit (D20-040): "+
		"damage d8[7] + 2 = 9 (D20-041); Vétéran has 71 hit points left\n", step("d20", "attack", "enc-1", "soldat", "veteran", "--weapon", "arbalète"))
	state = step("state", "enc-1", "--for", "maitre")
	t.Logf("fray state:\n%s", state)
	require.Regexp(t, `soldat\s+Soldat\s+travellers\s+dev/gm\s+−2\s+14/45\s+segment 3\s+1\s+next attack costs 3 segments \(BBA 6, D20-017\)\n`, state)
	require.Regexp(t, `veteran\s+Vétéran\s+ambushers\s+dev/gm\s+4 \(tie 2nd\)\s+71/80\s+segment 2\s+1\s+`, state)
	require.Contains(t, state, "Taking effect at the start of the next round: peau de pierre (D20-019)\n")
	require.Contains(t, state, "Maître d'armes may:\n  attack with cimeterre at segment 2: 1 segment (D20-017)\n")
	step("d20", "end", "enc-1", "maitre")
	step("d20", "end", "enc-1", "veteran")
	require.Equal(t, "#25 Soldat ends its turn for this round (D20-016)\n#26 Round 2: segments 0 to 5 (D20-013); taking effect now: peau de pierre (D20-019)\n",
		step("d20", "end", "enc-1", "soldat"))

	log := step("log", "enc-1")
	t.Logf("fray log:\n%s", log)
	require.Len(t, strings.Split(strings.TrimSpace(log), "\n"), 26)
	require.True(t, strings.HasPrefix(log, fmt.Sprintf(`#1 Encounter "L'embuscade" created by dev/gm, d20seg v%d; rules: apprehension modifiers light 2, medium 5, high 10, `, d20seg.Latest)+
		`no carry-over, down at 0 hit points, apprehension rolled against surprise; dice seed sha256 `), log)
	require.Zero(t, srv.Dice.Left(), "every die was rolled as planned")
	require.Equal(t, hex.EncodeToString(srv.Seed)+"\n", step("end", "enc-1"))
}
