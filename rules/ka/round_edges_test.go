package ka_test

// Edges of the round, the opposition, bursts and terror: each test kills a mutant that lived
// in a mutation run of this package (a comparison moved by one, a sign flipped, a count
// turned around), with the numbers at the edge.

import (
	"fmt"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
)

// KA-007: against a defence the attacker wins with a total ≥ 10 strictly above the defender's;
// exactly 10 against 7 wins, margin 10 − max(7, 10) = 0: a normal success (+1), 1 + 8 = 9
// against soak 4, one Ka die.
func TestKA007TenBeatsALowerDefence(t *testing.T) {
	f := newFight(t, nil, joshua(), molosse())
	f.start(coupe(3), coupe(2))
	f.do(player, attack("joshua", "chien", "pistolet", 0))
	evs := f.do(gm, dodge("chien"))
	require.Equal(t, int32(3+4+3), find(t, evs, (*kav1.Event).GetAttackDrawn).GetDraw().GetTotal())
	require.Equal(t, int32(1+4+2), find(t, evs, (*kav1.Event).GetDefenceDrawn).GetDraw().GetTotal())
	r := find(t, evs, (*kav1.Event).GetAttackResolved)
	require.True(t, r.GetSuccess())
	require.Equal(t, []int32{0, 1, 1, 9, 4, 1}, []int32{r.GetMargin(), r.GetLevel(), r.GetBonus(), r.GetDamage(), r.GetSoak(), r.GetKaLost()})
	require.Equal(t, int32(9), f.cs("chien").GetKaDice())
}

// KA-007, KA-021: a tie goes to the defender: 10 against 10 has no effect; the outcome records
// a failure (margin −1) and the target's tracks untouched.
func TestKA021TieRecordsAFailure(t *testing.T) {
	f := newFight(t, nil, joshua(), molosse())
	f.start(coupe(3), coupe(5))
	f.do(player, attack("joshua", "chien", "pistolet", 0))
	evs := f.do(gm, dodge("chien"))
	require.Equal(t, int32(10), find(t, evs, (*kav1.Event).GetDefenceDrawn).GetDraw().GetTotal())
	r := find(t, evs, (*kav1.Event).GetAttackResolved)
	require.False(t, r.GetSuccess())
	require.Equal(t, []int32{-1, 0, 10, 10}, []int32{r.GetMargin(), r.GetKaLost(), r.GetKaLeft(), r.GetRealityLeft()})
	require.Contains(t, r.GetNote(), "KA-021")
}

// KA-008, KA-011: attacking back is an action, at the cumulative malus of the actions the
// defender already took this round: the brute (three actions) dodged once and attacked once,
// so its attack back is at −2.
func TestKA008AttackBackAtTheMalus(t *testing.T) {
	brute3 := with(brute(), func(sh *kav1.Sheet) { sh.Spheres[ka.Humanite], sh.Spheres[third] = 3, 3 })
	f := newFight(t, nil, joshua(), brute3)
	f.start()
	f.do(player, attack("joshua", "brute", "crosse", 0))
	f.do(gm, dodge("brute"))
	f.do(gm, attack("brute", "joshua", "couteau", 0))
	f.do(player, takeIt("joshua"))
	require.Equal(t, []int32{2, 1}, []int32{f.cs("brute").GetActionsTaken(), f.cs("brute").GetActionsLeft()})
	f.do(player, attack("joshua", "brute", "crosse", 0))
	dd := find(t, f.do(gm, attackBack("brute", "couteau")), (*kav1.Event).GetDefenceDrawn)
	require.True(t, dd.GetAttackedBack())
	d := dd.GetDraw()
	require.Equal(t, int32(-2), d.GetModifiers())
	require.Equal(t, []string{"-2 actions already taken this round (KA-011)"}, d.GetModifierReasons())
	require.Equal(t, 4+3-2+d.GetDraw().GetValue(), d.GetTotal())
}

// KA-033: a burst reaches at most 5 targets: 5 are declared, 6 refused.
func TestKA033BurstOfFive(t *testing.T) {
	cs := []*encounterv1.Combatant{tireur()}
	var ids []string
	for i := 1; i <= 6; i++ {
		id := fmt.Sprintf("cible%d", i)
		ids = append(ids, id)
		cs = append(cs, who(id, "Cible "+id, false, 2, 2, 2, nil, 2, 5, 10))
	}
	f := newFight(t, nil, cs...)
	f.start()
	f.refuse(gm, burst("tireur", ids...), engine.CodePrecondition, "KA-033")
	evs := f.do(gm, burst("tireur", ids[:5]...))
	require.Equal(t, ids[:5], find(t, evs, (*kav1.Event).GetAttackDeclared).GetPendingIds())
}

// KA-023, KA-033: a burst is soaked with Animalité + encaissement + protection: the armoured
// dog (protection 2) soaks 3 + 3 + 2 = 8 of a burst on it alone (+12).
func TestKA033BurstSoakCountsProtection(t *testing.T) {
	f := newFight(t, nil, tireur(), with(molosse(), func(sh *kav1.Sheet) { sh.Protection = 2 }))
	f.start(coupe(5))
	f.do(gm, attackCmd("tireur", &kav1.Attack{TargetId: "chien", Weapon: "pistolet-mitrailleur", Burst: true}))
	evs := f.do(gm, takeIt("chien"))
	require.Equal(t, int32(5+3-1+5), find(t, evs, (*kav1.Event).GetAttackDrawn).GetDraw().GetTotal())
	r := find(t, evs, (*kav1.Event).GetAttackResolved)
	require.Equal(t, []int32{2, 1, 12, 13, 8, 1}, []int32{r.GetMargin(), r.GetBonus(), r.GetWeaponDamage(), r.GetDamage(), r.GetSoak(), r.GetKaLost()})
}

// KA-034, KA-005: Abysse needs a failure (total < 10) below Animalité × 3: Joshua (Animalité 4
// + encaissement 3) drawing a 3 totals 10, no failure, though 10 < 12; drawing a 2, 9: Abysse.
func TestKA034TerrorAtTen(t *testing.T) {
	for _, c := range []struct {
		card   *kav1.Card
		total  int32
		abysse bool
	}{{coupe(3), 10, false}, {coupe(2), 9, true}} {
		f := newFight(t, nil, joshua(), dog())
		f.start(c.card)
		td := find(t, f.do(gm, terror("joshua", 0)), (*kav1.Event).GetTerrorDrawn)
		require.Equal(t, c.total, td.GetDraw().GetTotal())
		require.Equal(t, c.abysse, td.GetAbysse(), "total %d", c.total)
		require.Equal(t, c.abysse, f.cs("joshua").GetAbysse())
	}
}

// KA-013, KA-014: a defender of the attacker's rank that spends its only action dodging has
// none left to take at the same time: put out by the blow, it does not still act.
func TestKA014NoSameTimeActionAfterTheLastDodge(t *testing.T) {
	frail := who("frele", "La frêle", false, 4, 1, 2, map[string]int32{"Esquive": 1}, 0, 1, 10)
	f := newFight(t, nil, brute(), frail)
	f.start(coupe(10), coupe(1))
	f.do(gm, attack("brute", "frele", "couteau", 0))
	evs := f.do(gm, dodge("frele"))
	require.Equal(t, int32(4+3+10), find(t, evs, (*kav1.Event).GetAttackDrawn).GetDraw().GetTotal())
	require.Equal(t, int32(4+1+1), find(t, evs, (*kav1.Event).GetDefenceDrawn).GetDraw().GetTotal())
	r := find(t, evs, (*kav1.Event).GetAttackResolved)
	require.Equal(t, []int32{7, 5, 4, 1, 0}, []int32{r.GetMargin(), r.GetDamage(), r.GetSoak(), r.GetKaLost(), r.GetKaLeft()})
	require.True(t, r.GetDying())
	require.False(t, r.GetStillActs(), "its only action went on the dodge")
	require.False(t, strings.Contains(r.GetNote(), "KA-014"), r.GetNote())
	require.False(t, f.cs("frele").GetStillActs())
}
