package feerie_test

// Tests of edges of the Action sequence and of the checks of an intent: each one kills a
// mutant that lived in a mutation run of this package (a comparison moved by one or turned
// around, a sign flipped), with the numbers at the edge.

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
)

// FEE-080: a surprised character may not declare a tactic; a tactic of 0/0/0 is no tactic, so
// it may declare it.
func TestEdgeSurprisedMayDeclareAZeroTactic(t *testing.T) {
	f := sqNew(t, sqFae("v", "Violette", 12, 12, 10, 10, 30, sqAffinity("épée", 2)), sqPlain("a", "Ambroise", 10))
	f.do(sqSurprise("v", 1, false))
	f.refuse(sqDeclare("v", sqTactic(sqMelee("a", "épée"), 2, -2, 0)), engine.CodePrecondition, "FEE-080", "Violette")
	f.refuse(sqDeclare("v", sqTactic(sqMelee("a", "épée"), 0, 2, -2)), engine.CodePrecondition, "FEE-080", "Violette")
	f.refuse(sqDeclare("v", sqTactic(sqMelee("a", "épée"), 2, 0, -2)), engine.CodePrecondition, "FEE-080", "Violette")
	ev := sqFind(t, f.do(sqDeclare("v", sqTactic(sqMelee("a", "épée"), 0, 0, 0))), (*feeriev1.Event).GetDeclared)
	require.Equal(t, "v", ev.GetCombatantId())
}

// FEE-154: Keep at bay only against a Taille ≤ own; FEE-159: Enter the guard only against a
// Taille ≥ own. Equal Tailles (0 and 0) allow both; a larger or smaller target is refused.
func TestEdgeGuardStrikesAtEqualTaille(t *testing.T) {
	strike := func(s feeriev1.SpecialStrike) *feeriev1.Intent {
		in := sqMelee("b")
		in.Strikes = []feeriev1.SpecialStrike{s}
		return in
	}
	for _, c := range []struct {
		name    string
		taille  int32 // the target's; the striker's is 0
		s       feeriev1.SpecialStrike
		refused string
	}{
		{"keep at bay, equal", 0, feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY, ""},
		{"keep at bay, larger by 1", 1, feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY, "FEE-154"},
		{"enter the guard, equal", 0, feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD, ""},
		{"enter the guard, smaller by 1", -1, feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD, "FEE-159"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := sqPlain("b", "Brun", 10)
			b.GetFeerie().Taille = c.taille
			f := sqNew(t, sqPlain("a", "Aude", 10), b)
			if c.refused != "" {
				f.refuse(sqDeclare("a", strike(c.s)), engine.CodePrecondition, c.refused, "Aude")
				return
			}
			d := sqFind(t, f.do(sqDeclare("a", strike(c.s))), (*feeriev1.Event).GetDeclared)
			require.Equal(t, []feeriev1.SpecialStrike{c.s}, d.GetIntent().GetStrikes())
		})
	}
}

// FEE-001: another activity rolls a named Aspect; an Aspect of 0 is still an Aspect (Charme 0
// rolls 0 + d20 − d20), only an unknown name is refused.
func TestEdgeAspectOfZero(t *testing.T) {
	a := sqPlain("a", "Aude", 10)
	a.GetFeerie().Charme = 0
	f := sqNew(t, a, sqPlain("b", "Brun", 10))
	f.refuse(sqDeclare("a", sqOther("grâce", 5)), engine.CodeInvalid, "", "Aspect")
	f.declare([]sqD{{"a", sqOther("charme", 5)}, {"b", sqPassive()}}, 0, -20)
	f.act("a", nil)
	rs := f.advance(0, 6)
	require.Len(t, rs, 1)
	require.Equal(t, []int32{0, 6, 5, 1}, []int32{rs[0].GetAttack().GetScore(), rs[0].GetAttack().GetTotal(), rs[0].GetDefense(), rs[0].GetMargin()})
	require.True(t, rs[0].GetSuccess())
}

// FEE-046: an impersonal event at rank 0 may cost no Essence (a warning, a noise); a negative
// loss is refused.
func TestEdgeImpersonalEventOfNoLoss(t *testing.T) {
	f := sqNew(t, sqPlain("a", "Aude", 10), sqPlain("b", "Brun", 10))
	f.declare([]sqD{{"a", sqPassive()}, {"b", sqPassive()}}, 0, 0)
	for f.s().GetRank() > 0 {
		f.advance(0)
	}
	f.refuse(sqImpersonal("a", -1), engine.CodeInvalid, "FEE-046")
	ih := sqFind(t, f.do(sqImpersonal("a", 0)), (*feeriev1.Event).GetImpersonal)
	require.Equal(t, []any{"a", int32(0)}, []any{ih.GetTargetId(), ih.GetEssenceLost()})
	require.Equal(t, int32(30), f.cs("a").GetEssence())
}

// FEE-071, FEE-074: a further activity that is also a change of intention, declared at rank 12
// after a first activity at rank 17, acts at 17 − 8 = 9 (no tactic either side), below the rank
// of the change, which caps it only from above.
func TestEdgeFurtherChangeActsEightRanksLater(t *testing.T) {
	h := sqFae("h", "Héron", 16, 14, 10, 10, 40, sqAffinity("épée", 2), sqAttr("éclair", feeriev1.AttributeKind_ATTRIBUTE_KIND_POWER, 2, true))
	f := sqNew(t, h, sqFae("f", "Farfadet", 12, 10, 10, 10, 40))
	f.declare([]sqD{{"h", sqMelee("f", "épée")}, {"f", sqMelee("h")}}, 1, 0)
	require.Equal(t, int32(17), f.s().GetRank())
	f.act("h", nil)
	f.advance(12, 0)
	ic := sqFind(t, f.do(sqChange("h", sqRanged("f", "éclair"))), (*feeriev1.Event).GetIntentionChanged)
	require.Equal(t, []int32{12, 17 - 8}, []int32{ic.GetRank(), ic.GetActingRank()})
	require.Equal(t, int32(9), f.cs("h").GetActingRank())
}

// FEE-044: at one rank, equal Vigilance, Attributes and tactic, the better net die of the
// Initiative roll goes first — the die, not the score: Xavière (surprised, score 10 − 8 = 2,
// net +9, Initiative 11) goes before Yvon (score 10, net −1, Initiative 9, anticipating to 11),
// though Yvon's score is higher.
func TestEdgeNetDieNotScore(t *testing.T) {
	f := sqNew(t, sqPlain("x", "Xavière", 10), sqPlain("y", "Yvon", 10))
	f.do(sqSurprise("x", 1, false))
	cs := f.declare([]sqD{{"x", sqMelee("y")}, {"y", sqMelee("x")}}, 9, -1)
	require.Equal(t, []int32{2, 11}, []int32{sqInit(t, cs, "x").GetResult().GetScore(), sqInit(t, cs, "x").GetResult().GetTotal()})
	require.Equal(t, []int32{10, 9}, []int32{sqInit(t, cs, "y").GetResult().GetScore(), sqInit(t, cs, "y").GetResult().GetTotal()})
	require.Equal(t, int32(11), f.s().GetRank())
	require.Equal(t, []int32{9, -1}, []int32{f.cs("x").GetInitiativeDie(), f.cs("y").GetInitiativeDie()})
	f.act("x", nil)
	require.Equal(t, int32(2), f.act("y", nil).GetAnticipation())
	rs := f.advance(0, 0, 0)
	require.Equal(t, []string{"x", "y"}, sqWho(rs))
}

// FEE-080: only a surprised character counts its surprised Actions down; the others stay at 0
// Action after Action.
func TestEdgeSurpriseCountsDownOnlyTheSurprised(t *testing.T) {
	f := sqNew(t, sqPlain("x", "Xavière", 10), sqPlain("y", "Yvon", 10))
	f.do(sqSurprise("x", 2, false))
	for action := 1; action <= 3; action++ {
		f.declare([]sqD{{"x", sqPassive()}, {"y", sqPassive()}}, 5, 5)
		f.nextAction()
		require.Zero(t, f.cs("y").GetSurprisedActions(), "Action %d", action+1)
	}
	require.Zero(t, f.cs("x").GetSurprisedActions())
	f.replays()
}

// The GM's removal of a combatant takes its queued activity out of the queue, and only its.
func TestEdgeRemovalTakesOnlyItsActivity(t *testing.T) {
	f := sqNew(t, sqPlain("x", "Xavière", 10), sqPlain("y", "Yvon", 10), sqPlain("z", "Zoé", 10))
	f.declare([]sqD{{"x", sqMelee("z")}, {"y", sqMelee("z")}, {"z", sqPassive()}}, 2, 2, 0)
	f.act("x", nil)
	f.act("y", nil)
	require.Len(t, f.s().GetQueue(), 2)
	f.do(&encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: "x"}}})
	require.Len(t, f.s().GetQueue(), 1)
	require.Equal(t, "y", f.s().GetQueue()[0].GetCombatantId())
}
