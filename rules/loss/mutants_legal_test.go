package loss_test

import (
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
)

// More tests at bounds the rules draw (see mutants_test.go): what Legal offers, what the
// narration says.

// LOS-026: further targets are offered to choose only when there is more than one target:
// Diego facing the ruffian alone has no such choice; facing the ruffian and a brute, he has.
func TestLegalMoreTargetsOnlyWithSeveral(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	_, fields := legalNames(t, f, "diego")
	require.True(t, fields["loss.attack.target_id"])
	require.False(t, fields["loss.attack.more_target_ids"])
	g := newFight(t, nil, diego(), ruffian(), exBrute())
	g.start(7, 5, 5)
	_, fields = legalNames(t, g, "diego")
	require.True(t, fields["loss.attack.more_target_ids"])
}

// LOS-022: the narration of a blow gives the boxes left, also when exactly the light band is
// gone (light 0, grave 5, fatal 5).
func TestNarrateTheBoxesLeftAfterTheLightBand(t *testing.T) {
	n := nNames()
	got := n.Narrate(nResolved(1, &lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true,
		Damage: &lossv1.Damage{Roll: nD10(2), WeaponDamage: 3, Total: 5, LevelsLost: 5}, Light: 0, Grave: 5, Fatal: 5}))
	require.Contains(t, got, "light 0, grave 5, fatal 5", got)
}

// LOS-038: an intention of 200 characters (engine.MaxNameLength) is recorded.
func TestLOS038LongestIntention(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	long := strings.Repeat("é", engine.MaxNameLength/2)
	f.do("david", declareCmd("diego", long))
	require.Equal(t, long, f.cs("diego").GetIntention())
	f.refuse(gm, declareCmd("malfrat", long+"a"), engine.CodeInvalid, "")
}

// LOS-104, LOS-107, LOS-035: a pursuit action is offered with exactly its 2 PA left: Diego
// (0 + 2) may change distance or zigzag.
func TestLegalPursuitWithTwoPALeft(t *testing.T) {
	f := newFight(t, nil, withInit(fleeing(), 0), vigile())
	f.start(2, 9) // Diego 2, the vigile 14
	f.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 3))
	f.do(gm, pass("vigile"))
	costs, _ := legalNames(t, f, "diego")
	require.Equal(t, int32(2), costs["change distance (Difficulty 20)"])
	require.Equal(t, int32(2), costs["zigzags"])
}

// LOS-106: shooting the legs is offered at distance 3 (in range), the most it allows: the
// archer's bow, 2 + 4 PA.
func TestLegalShootTheLegsAtThree(t *testing.T) {
	f := newFight(t, nil, archer(), fleeing())
	f.start(9, 1) // the archer 14, Diego 9
	f.do(gm, startPursuitCmd([]string{"archere"}, []string{"diego"}, 3))
	costs, _ := legalNames(t, f, "archere")
	require.Equal(t, int32(6), costs["shoot the legs with arc"])
}

// LOS-100: the GM removing one of two pursuers leaves the pursuit to the other, at the same
// distance; removing one of two pursued, to the other.
func TestLOS100RemovingAPursuitMember(t *testing.T) {
	f := newFight(t, nil, fleeing(), vigile(), archer(), runner(withInit(ruffian(), 0), 5, 5))
	f.start(1, 9, 9, 1)
	f.do(gm, startPursuitCmd([]string{"vigile", "archere"}, []string{"diego", "malfrat"}, 3))
	f.do(gm, removeCmd("archere"))
	require.Equal(t, []string{"vigile"}, f.pursuit().GetPursuerIds())
	require.Equal(t, []string{"diego", "malfrat"}, f.pursuit().GetPursuedIds())
	f.do(gm, removeCmd("malfrat"))
	require.Equal(t, []string{"vigile"}, f.pursuit().GetPursuerIds())
	require.Equal(t, []string{"diego"}, f.pursuit().GetPursuedIds())
	require.Equal(t, int32(3), f.pursuit().GetDistance())
}

// LOS-103: a narrator that did not see the pursuit start tells the distance a Clothesline
// leaves.
func TestNarrateAClotheslineWithoutTheStart(t *testing.T) {
	n := nNames()
	got := n.Narrate(nEv(1, &lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: &lossv1.PursuitActed{
		CombatantId: "ruffian", Kind: lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE, TargetId: "diego", ActionPointsSpent: 2,
		Success: true, TargetDown: true, Distance: 3, Test: &lossv1.TestResult{Roll: nD10(8), Trait: 5, Talent: 6, Total: 19, Difficulty: 15, Success: true},
	}}}))
	require.Contains(t, got, "distance now 3", got)
}

// LOS-032 with LOS-062 and LOS-071: Hercule (5 PA) swings a Moulinet at the ruffian and the
// brute (1 PA left); both dodge and counter-attack. His dodge of the first counter spends
// his last PA: the second he can only take, and a dodge is refused, named as a dodge.
func TestLOS032NoPALeftForASecondDodge(t *testing.T) {
	f := newFight(t, nil, withInit(exHero(), 0), withInit(ruffian(), 0), withInit(exBrute(), 0))
	f.start(5, 4, 4)
	a := exAt("malfrat", "épée", lossv1.ExploitEffect_EXPLOIT_EFFECT_MOULINET)
	a.MoreTargetIds = []string{"brute"}
	f.do("david", exStrike("hercule", a), 1) // 36 ≥ 25
	require.Equal(t, int32(1), f.cs("hercule").GetActionPoints())
	counter := func(id, w string) *encounterv1.Command {
		return exReact(id, &lossv1.React{Reaction: exDodge, Effects: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_COUNTER_ATTACK}, CounterWeapon: w})
	}
	f.do(gm, counter("malfrat", "dague"), 10, 8, 5)     // 30 ≥ 30; the counter 15 ≥ 15
	f.do(gm, counter("brute", "gourdin"), 10, 10, 1, 5) // 31 ≥ 30; the counter 15 ≥ 15
	f.do("david", dodge("hercule", 0, nil), 1, 3)       // 11 < 15: the dague strikes
	require.Equal(t, int32(0), f.cs("hercule").GetActionPoints())
	require.Equal(t, "hercule", f.St.GetLoss().GetPending().GetDefenderId())
	f.refuse("david", dodge("hercule", 0, nil), engine.CodePrecondition, "LOS-032", "Hercule", "a dodge costs 1")
	f.refuse("david", parryCmd("hercule"), engine.CodePrecondition, "LOS-032", "Hercule", "a parry costs 1")
}
