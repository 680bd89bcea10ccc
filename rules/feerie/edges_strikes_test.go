package feerie_test

// Edges of special strikes and of becoming an object: each test kills a mutant that lived in
// a mutation run of this package, with the numbers at the edge.

import (
	"testing"

	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
)

// FEE-157, FEE-181: the witnesses of a frightening blow are the combatants present not at 0
// Essence: the Kobold's blow on the Lutin (floor((3 + 14)/4) = 4) gives it +4 against the
// Lutin, none against the Troll at 0 Essence.
func TestEdgeFrightenNoWitnessAtZeroEssence(t *testing.T) {
	troll := vaWith(vaTroll(), func(sh *feeriev1.Sheet) { sh.Essence = 0 })
	f := vaNew(t, nil, vaKobold(), vaLutin(), troll)
	f.declare("kobold", vaMelee("lutin", nil, vaFrighten))
	f.declare("lutin", vaPassive(), 20, 1, 1, 20)
	f.act("kobold", nil)
	r := f.advance(0, 20, 4)[0]
	require.Equal(t, int32(6), r.GetMargin())
	require.Equal(t, map[string]int32{"lutin": 4}, f.cs("kobold").GetIntimidationBonuses())
	require.Zero(t, f.cs("troll").GetEssence())
}

// FEE-157, FEE-181, FEE-171: a frightening blow of less than 4 Damage before Soak (margin 0,
// Damage 3: floor(3/4) = 0) gives no bonus against anyone.
func TestEdgeFrightenBelowFourGivesNothing(t *testing.T) {
	weak := vaFey("faible", "Faiblard", 10, 12, 3, 10, 0, 30) // Damage P3 + T0 = 3
	cible := vaFey("cible", "Cible", 10, 10, 10, 0, 0, 30)    // Defense H10 − T0 = 10
	f, r := vaDuel(t, nil, weak, cible, vaMelee("cible", nil, vaFrighten), nil, nil, 12, 10)
	require.Equal(t, []int32{12 - 4 + 2, 10, 0, 3}, []int32{r.GetAttack().GetTotal(), r.GetDefense(), r.GetMargin(), r.GetDamage()})
	require.True(t, r.GetSuccess())
	require.Zero(t, vaCondition(t, r.GetConditions(), vaFrighten).GetMalus())
	require.Empty(t, f.cs("faible").GetIntimidationBonuses())
}

// FEE-155, FEE-179: a crippled organ comes back once its ranks have passed, not one rank
// later: Damage 3 before Soak (margin 0) against Soak 0 cripples for 3 ranks; one passes with
// the strike's rank, then 1 left after the next, gone after the third.
func TestEdgeCrippleEndsWhenItsRanksHavePassed(t *testing.T) {
	weak := vaFey("faible", "Faiblard", 10, 12, 3, 10, 0, 30)
	cible := vaFey("cible", "Cible", 10, 10, 10, 0, 0, 30) // Soak R0 + T0 = 0
	f, r := vaDuel(t, nil, weak, cible, vaMelee("cible", nil, vaCripple), nil, nil, 20, 10)
	require.Equal(t, []int32{12 - 12 + 10, 0, 3, 0}, []int32{r.GetAttack().GetTotal(), r.GetMargin(), r.GetDamage(), r.GetSoak()})
	require.Equal(t, int32(3), vaCondition(t, r.GetConditions(), vaCripple).GetRanks())
	require.Equal(t, int32(2), vaCondition(t, f.cs("cible").GetConditions(), vaCripple).GetRanks())
	f.advance(0)
	require.Equal(t, int32(1), vaCondition(t, f.cs("cible").GetConditions(), vaCripple).GetRanks())
	f.advance(0)
	require.Empty(t, f.cs("cible").GetConditions(), "3 ranks have passed")
}

// FEE-026: a character that becomes an object renounces every activity: its queued activity
// leaves the queue, the others' stay.
func TestEdgeBecomingAnObjectEmptiesOnlyItsQueue(t *testing.T) {
	pantin := vaWith(vaLutin(), func(sh *feeriev1.Sheet) {})
	f := vaNew(t, nil, pantin, vaKobold())
	f.declare("lutin", vaMelee("kobold", vaAtt("épée")))
	f.declare("kobold", vaMelee("lutin", nil), 10, 10, 10, 10)
	require.Equal(t, int32(14), f.rank(), "V14 + 0 and V10 + 0: the Lutin first")
	f.advance(10)
	f.act("kobold", nil)
	f.act("lutin", nil)
	require.Len(t, f.St.GetFeerie().GetQueue(), 2)
	f.do(vaGM, vaBecomeCmd("lutin", "regard hypnotique", false))
	q := f.St.GetFeerie().GetQueue()
	require.Len(t, q, 1)
	require.Equal(t, "kobold", q[0].GetCombatantId())
	require.True(t, f.cs("lutin").GetRenounced())
}

// FEE-155, FEE-176: Cripple needs the would-be loss to be at least 1: Damage 3 before Soak
// (margin 0) against Soak 2 is exactly 1: the organ is crippled for 3 ranks.
func TestEdgeCrippleAtAWouldBeLossOfOne(t *testing.T) {
	weak := vaFey("faible", "Faiblard", 10, 12, 3, 10, 0, 30)
	cible := vaFey("cible", "Cible", 10, 10, 10, 2, 0, 30) // Soak R2 + T0 = 2
	_, r := vaDuel(t, nil, weak, cible, vaMelee("cible", nil, vaCripple), nil, nil, 20, 10)
	require.Equal(t, []int32{0, 3, 2}, []int32{r.GetMargin(), r.GetDamage(), r.GetSoak()})
	require.Equal(t, int32(3), vaCondition(t, r.GetConditions(), vaCripple).GetRanks())
	require.Zero(t, r.GetEssenceLost())
}

// FEE-036, FEE-041: the GM rules on a tactic until the countdown's last rank, 1; at rank 0 the
// Action is over.
func TestEdgeRulingAtRankOne(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaTroll())
	f.declare("lutin", vaTac(vaMelee("troll", vaAtt("épée")), 3, -3, 0))
	f.declare("troll", vaPassive(), 10, 10, 10, 10)
	f.advance(1)
	require.Equal(t, int32(1), f.rank())
	evs := f.do(vaGM, vaRulingCmd("lutin", &feeriev1.Ruling{Malus: 2, Reason: "late"}))
	require.Equal(t, int32(2), evs[0].GetTacticRuled().GetMalus())
	f.advance(0)
	f.refuse(vaGM, vaRulingCmd("lutin", &feeriev1.Ruling{Malus: 2}), engine.CodePrecondition, "FEE-036", "Lutin")
}

// FEE-156, FEE-171: Relentless adds a quarter of the previous loss, rounded down: after a
// loss of 3 that is 0, and the Damage carries no relentless term (3, not 3 + 0).
func TestEdgeRelentlessAfterALossBelowFour(t *testing.T) {
	weak := vaFey("faible", "Faiblard", 10, 12, 3, 10, 0, 30)
	cible := vaFey("cible", "Cible", 10, 10, 10, 0, 0, 30)
	f, r := vaDuel(t, nil, weak, cible, vaMelee("cible", nil), nil, nil, 8, 10)
	require.Equal(t, []int32{0, 3}, []int32{r.GetMargin(), r.GetEssenceLost()})
	f.nextAction()
	f.declare("cible", vaPassive())
	f.declare("faible", vaMelee("cible", nil, vaRelentless), 20, 1, 1, 20)
	f.act("faible", nil)
	r = f.advance(0, 8, 10)[0]
	require.True(t, r.GetSuccess())
	vaNoMod(t, r.GetDamageModifiers(), "relentless")
	require.Equal(t, []int32{3, 3}, []int32{r.GetDamage(), r.GetEssenceLost()})
}

// FEE-158, FEE-181, FEE-176: a blow of negative Damage before Soak throws no one and frightens
// no one: a tiny fey (P0, T−5, ranged −4: Damage −9) knocks the Kobold back by margin 2:
// floor(2/2) − 9 = −8 before Soak, 0 distance units (not −2); its frightening blow, margin 3,
// −8 again: a bonus of 0 (not −2).
func TestEdgeNoDistanceNorFearForNegativeDamage(t *testing.T) {
	tiny := vaFey("fee", "Fée", 30, 10, 0, 10, -5, 20)
	_, r := vaDuel(t, nil, tiny, vaKobold(), vaRanged("kobold", nil, vaKnockback), nil, nil, 4, 10)
	require.Equal(t, []int32{2, -9}, []int32{r.GetMargin(), r.GetDamage()})
	require.Zero(t, vaCondition(t, r.GetConditions(), vaKnockback).GetDistance())
	require.Equal(t, "Kobold is thrown 0 distance units (FEE-158)", r.GetNote())
	f, r := vaDuel(t, nil, tiny, vaKobold(), vaRanged("kobold", nil, vaFrighten), nil, nil, 1, 10)
	require.Equal(t, []int32{3, -9}, []int32{r.GetMargin(), r.GetDamage()})
	require.Zero(t, vaCondition(t, r.GetConditions(), vaFrighten).GetMalus())
	require.Empty(t, f.cs("fee").GetIntimidationBonuses())
}
