package feerie_test

// Edges of the GM's rulings, of small objects, of Relentless and of dissimulation: each test
// kills a mutant that lived in a mutation run of this package, with the numbers at the edge.

import (
	"testing"

	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
)

// FEE-036: the GM's modified tactic becomes the declared intent's tactic (so acting as
// declared keeps it, with no change of intention); a ruling with no malus adds no penalty.
func TestEdgeRulingRewritesTheDeclaredTactic(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaTroll())
	f.declare("lutin", vaTac(vaMelee("troll", vaAtt("épée")), 3, -3, 0))
	ruled := &feeriev1.Tactic{Initiative: 0, Attack: -3, Defense: 3}
	f.do(vaGM, vaRulingCmd("lutin", &feeriev1.Ruling{Tactic: ruled, Reason: "a guarded stance"}))
	cs := f.cs("lutin")
	require.Equal(t, []int32{0, -3, 3}, []int32{cs.GetDeclared().GetTactic().GetInitiative(), cs.GetDeclared().GetTactic().GetAttack(), cs.GetDeclared().GetTactic().GetDefense()})
	require.Equal(t, []int32{0, -3, 3}, []int32{cs.GetTactic().GetInitiative(), cs.GetTactic().GetAttack(), cs.GetTactic().GetDefense()})
	require.Empty(t, cs.GetPenalties(), "no malus given: no penalty")
	f.declare("troll", vaPassive(), 10, 10, 1, 20)
	q := f.act("lutin", nil)
	require.False(t, q.GetChangeOfIntention())
	require.Zero(t, q.GetRollPenalty())
	r := f.advance(0, 10, 10)[0]
	require.Equal(t, int32(16+3-3), r.GetAttack().GetTotal())
}

// FEE-025: a ranged attack may aim at a small object against a difficulty: the Lutin's sling
// at a rope, difficulty 12: V14 + 2 + 10 = 26, margin 14.
func TestEdgeRangedAtASmallObject(t *testing.T) {
	rope := vaFey("corde", "Corde", 0, 0, 0, 4, -3, 1)
	rope.GetFeerie().Inanimate = true
	hurry := &feeriev1.Act{Circumstances: &feeriev1.Circumstances{SmallObjectDifficulty: 12}}
	_, r := vaDuel(t, nil, vaLutin(), rope, vaRanged("corde", vaAtt("fronde")), nil, hurry, 20, 10)
	require.Equal(t, []int32{14 + 2 + 10, 12, 14}, []int32{r.GetAttack().GetTotal(), r.GetDefense(), r.GetMargin()})
	require.True(t, r.GetSuccess())
}

// FEE-156, FEE-177: Relentless needs a wound: a hit the Troll's Soak 16 absorbed whole (the
// Lutin's 6 + 3) is no wound, so the next Action's relentless strike is refused.
func TestEdgeRelentlessNeedsALossAboveZero(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaTroll())
	f.declare("lutin", vaMelee("troll", vaAtt("épée")))
	f.declare("troll", vaPassive(), 20, 1, 1, 20)
	f.act("lutin", nil)
	r := f.advance(0, 10, 4)[0]
	require.True(t, r.GetSuccess())
	require.Zero(t, r.GetEssenceLost())
	require.Equal(t, []any{int32(0), "troll"}, []any{f.cs("lutin").GetLastLoss(), f.cs("lutin").GetLastTarget()})
	f.nextAction()
	f.declare("lutin", vaMelee("troll", vaAtt("épée")))
	f.declare("troll", vaPassive(), 20, 1, 1, 20)
	f.refuse(vaGM, vaActCmd("lutin", &feeriev1.Act{Intent: vaMelee("troll", vaAtt("épée"), vaRelentless)}), engine.CodePrecondition, "FEE-156", "Lutin", "Troll")
}

// FEE-081: a dissimulation roll may use an Aspect of 0 (Charme 0 + 6 against Vigilance 12:
// margin −6, no bonus); only an unknown Aspect is refused.
func TestEdgeDissimulationWithAnAspectOfZero(t *testing.T) {
	a := sqPlain("a", "Aspic", 12)
	a.GetFeerie().Charme = 0
	f := sqNew(t, a, sqPlain("v", "Violette", 12))
	ur := sqFind(t, f.do(sqUnseen("a", "v", "charme"), sqFaces(6)...), (*feeriev1.Event).GetUnseenRolled)
	require.Equal(t, []int32{6, 12, -6, 0}, []int32{ur.GetRoll().GetTotal(), ur.GetVigilance(), ur.GetMargin(), ur.GetInitiativeBonus()})
}

// FEE-036, FEE-071: a ruling during the countdown that changes the tactic's Initiative moves
// the acting rank as a change of tactic would: Initiative 14 + 3 + 0 = 17; the GM takes the +3
// away at rank 17: the Lutin now acts at 17 − 3 + 0 = 14, with no anticipation there.
func TestEdgeRulingMovesTheActingRank(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaTroll())
	f.declare("lutin", vaTac(vaMelee("troll", vaAtt("épée")), 3, -3, 0))
	f.declare("troll", vaPassive(), 10, 10, 1, 20)
	require.Equal(t, []int32{17, 17}, []int32{f.rank(), f.cs("lutin").GetActingRank()})
	evs := f.do(vaGM, vaRulingCmd("lutin", &feeriev1.Ruling{Tactic: &feeriev1.Tactic{Initiative: 0, Attack: -3, Defense: 3}}))
	require.Equal(t, []int32{17, 14}, []int32{evs[0].GetTacticRuled().GetRank(), evs[0].GetTacticRuled().GetActingRank()})
	require.Equal(t, int32(14), f.cs("lutin").GetActingRank())
	f.advance(14)
	require.Zero(t, f.act("lutin", nil).GetAnticipation())
}

// FEE-022, FEE-024: a character the GM ruled helpless that then falls to 0 Essence is refused
// for being at 0 Essence, which no ruling lifts, not for the ruling.
func TestEdgeHelplessAtZeroEssence(t *testing.T) {
	f := sqNew(t, sqPlain("x", "Xavière", 10), sqPlain("y", "Yvon", 10))
	f.do(sqCmd("x", &feeriev1.Action{Kind: &feeriev1.Action_Helpless{Helpless: &feeriev1.Helpless{Reason: "endormie"}}}))
	f.refuse(sqDeclare("x", sqPassive()), engine.CodePrecondition, "FEE-022", "Xavière", "endormie")
	f.declare([]sqD{{"y", sqPassive()}}, 0)
	for f.s().GetRank() > 0 {
		f.advance(0)
	}
	f.do(sqImpersonal("x", 30))
	require.Zero(t, f.cs("x").GetEssence())
	require.True(t, f.cs("x").GetHelpless())
	f.refuse(sqGesture("x", "soupire"), engine.CodePrecondition, "FEE-024", "Xavière")
}

// FEE-036, FEE-050: the GM's malus given during the countdown weighs on the rolls from the rank
// of the ruling, that very rank included: ruled at 14, the Lutin's activity at 14 is at −2
// (16 + 3 − 2 + 0 = 17).
func TestEdgeRulingMalusAtItsOwnRank(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaTroll())
	f.declare("lutin", vaMelee("troll", vaAtt("épée")))
	f.declare("troll", vaPassive(), 10, 10, 1, 20)
	require.Equal(t, int32(14), f.rank())
	evs := f.do(vaGM, vaRulingCmd("lutin", &feeriev1.Ruling{Malus: 2, Reason: "a lazy description"}))
	require.Equal(t, []int32{14, 2}, []int32{evs[0].GetTacticRuled().GetRank(), evs[0].GetTacticRuled().GetMalus()})
	q := f.act("lutin", nil)
	require.Equal(t, int32(2), q.GetRollPenalty())
	r := f.advance(0, 10, 10)[0]
	require.Equal(t, int32(16+3-2), r.GetAttack().GetTotal())
}
