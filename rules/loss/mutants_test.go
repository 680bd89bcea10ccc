package loss_test

import (
	"fmt"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// Tests at the bounds the rules draw, each written against a mutant that lived in a real
// mutation run of rules/loss (a `>` made `>=` or the like that no test told apart).

func grant(id string, n int32) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: &lossv1.GrantFreeRaises{Count: n}}})
}

// LOS-004, LOS-005: the GM grants free raises up to 20 held and takes them back down to 0;
// a Test may spend every free raise held (+5 each), and an Inspiration entry of 0 spends
// nothing and adds nothing.
func TestLOS004SpendEverythingHeld(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5) // Diego 15, the ruffian 10
	f.do(gm, grant("diego", 20))
	require.Equal(t, int32(20), f.cs("diego").GetFreeRaises())
	f.refuse(gm, grant("diego", 1), engine.CodeInvalid, "LOS-004", "Diego", "20")
	f.do(gm, grant("diego", -20))
	require.Equal(t, int32(0), f.cs("diego").GetFreeRaises())
	f.refuse(gm, grant("diego", -1), engine.CodeInvalid, "LOS-004", "Diego")
	f.do(gm, grant("diego", 2))

	sp := &lossv1.Spend{FreeRaises: 2, Inspiration: map[string]int32{"Courage": 0}}
	evs := f.do("david", attack("diego", "malfrat", 0, sp), 3)
	tr := find(t, evs, (*lossv1.Event).GetAttackRolled).GetTest()
	require.Equal(t, int32(10), tr.GetBonus(), "two free raises, +5 each; no Inspiration")
	require.Len(t, tr.GetTestModifiers(), 1)
	require.Equal(t, int32(12+3+10), tr.GetTotal())
	require.Equal(t, int32(0), f.cs("diego").GetFreeRaises())
	f.refuse("david", pass("diego"), engine.CodePrecondition, "LOS-009", "Malfrat") // the blow awaits its answer
}

// LOS-067: Take the advantage may be declared five times on one Test (5 Exploits, +5 PA at
// most); Hercule (35) rolls 5: 40 against 15 + 25.
func TestLOS067FiveTimesTakeTheAdvantage(t *testing.T) {
	f := newFight(t, nil, exHero(), ruffian())
	f.start(5, 1) // Hercule 15, the ruffian 6
	adv := lossv1.ExploitEffect_EXPLOIT_EFFECT_TAKE_ADVANTAGE
	evs := f.do("david", exStrike("hercule", exAt("malfrat", "épée", adv, adv, adv, adv, adv)), 5)
	ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
	require.Equal(t, int32(40), ar.GetTest().GetDifficulty())
	require.True(t, ar.GetTest().GetSuccess())
	res := find(t, f.do(gm, takeBlow("malfrat"), 1), (*lossv1.Event).GetAttackResolved)
	require.Len(t, res.GetEffects(), 5)
	require.Equal(t, int32(5), f.cs("hercule").GetAdvantage())
}

// LOS-012: a defender may declare up to 5 Exploits: the ruffian dodges Diego's plain attack
// with 5, at 15 + 25 = 40, and misses it with 12 + 9 = 21 (no attacker Exploit to cancel).
func TestLOS012FiveDefenceExploits(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	f.do("david", attack("diego", "malfrat", 0, nil), 5) // 17 ≥ 15
	evs := f.do(gm, dodge("malfrat", 5, nil), 9, 4)
	dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
	require.Equal(t, int32(5), dr.GetExploits())
	require.Equal(t, int32(40), dr.GetTest().GetDifficulty())
	require.Equal(t, int32(21), dr.GetTest().GetTotal())
	require.Equal(t, int32(0), dr.GetExploitsCancelled())
	res := find(t, evs, (*lossv1.Event).GetAttackResolved)
	require.True(t, res.GetHit())
	require.Equal(t, int32(4+3), res.GetDamage().GetTotal())
	require.Equal(t, []int32{15 - 4, 10 - 1}, f.ap("diego", "malfrat"))
}

// A description of a simple action or of a Disaster holds up to engine.MaxNameLength (200)
// characters (LOS-035, LOS-006).
func TestDescriptionsUpToTheLongestName(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	long := strings.Repeat("a", engine.MaxNameLength)
	social := func(d string) *encounterv1.Command {
		return action(&lossv1.Action{CombatantId: "diego", Kind: &lossv1.Action_Simple{Simple: &lossv1.Simple{
			Kind: lossv1.SimpleKind_SIMPLE_KIND_SOCIAL, Description: d,
		}}})
	}
	f.refuse("david", social(long+"a"), engine.CodeInvalid, "")
	evs := f.do("david", social(long))
	require.Equal(t, long, find(t, evs, (*lossv1.Event).GetSimpleActed).GetDescription())
	require.Equal(t, int32(14), f.cs("diego").GetActionPoints(), "a social Talent costs 1 PA")

	f.do("david", attack("diego", "malfrat", 1, nil), 1) // 13 < 20: a failed Exploit
	f.refuse(gm, exDisaster("diego", long+"a"), engine.CodeInvalid, "LOS-006")
	evs = f.do(gm, exDisaster("diego", long))
	require.Equal(t, long, find(t, evs, (*lossv1.Event).GetDisasterDeclared).GetDescription())
}

// LOS-070 with LOS-017: Two weapons on two targets that do not see the blows: each is hit at
// once, the first with the first weapon (the dague, 5 + 2), the second with the other (the
// épée, 5 + 3); on one unseeing target both weapons strike it (5 + 2, then 4 + 3).
func TestLOS070TwoWeaponsUnseen(t *testing.T) {
	f := newFight(t, nil, exHero(), ruffian(), exBrute())
	f.start(5, 1, 1) // Hercule 15
	a := exAt("malfrat", "dague", lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS)
	a.SecondWeapon, a.MoreTargetIds, a.Unseen = "épée", []string{"brute"}, true
	evs := f.do("david", exStrike("hercule", a), 1, 5, 5) // 36 ≥ 25
	var got [][]int32
	for _, ev := range evs {
		if r := ev.GetLoss().GetAttackResolved(); r != nil {
			require.True(t, r.GetHit())
			got = append(got, []int32{r.GetDamage().GetWeaponDamage(), r.GetDamage().GetTotal()})
		}
	}
	require.Equal(t, [][]int32{{2, 7}, {3, 8}}, got)
	require.Equal(t, []int32{0, 3, 5}, exNS(f.cs("malfrat")))
	require.Equal(t, []int32{0, 2, 5}, exNS(f.cs("brute")))

	g := newFight(t, nil, exHero(), ruffian())
	g.start(5, 1)
	a = exAt("malfrat", "dague", lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS)
	a.SecondWeapon, a.Unseen = "épée", true
	res := find(t, g.do("david", exStrike("hercule", a), 1, 5, 4), (*lossv1.Event).GetAttackResolved)
	require.Equal(t, []int32{2, 7}, []int32{res.GetDamage().GetWeaponDamage(), res.GetDamage().GetTotal()})
	require.Equal(t, []int32{3, 7}, []int32{res.GetSecondDamage().GetWeaponDamage(), res.GetSecondDamage().GetTotal()})
	require.Equal(t, []int32{0, 0, 1}, exNS(g.cs("malfrat")), "14 of 15 boxes lost")
}

// LOS-015 option off: only an attack whose Exploits were all cancelled misses; a plain attack
// (no Exploit to cancel) that the ruffian takes hits, 4 + 3 = 7 NS.
func TestLOS015OptionOffPlainAttackStillHits(t *testing.T) {
	f := newFight(t, &lossv1.Options{CancelledExploitsStillHit: proto.Bool(false)}, diego(), ruffian())
	f.start(7, 5)
	f.do("david", attack("diego", "malfrat", 0, nil), 9) // 21 ≥ 15
	res := find(t, f.do(gm, takeBlow("malfrat"), 4), (*lossv1.Event).GetAttackResolved)
	require.True(t, res.GetHit())
	require.Equal(t, int32(0), res.GetExploitsStanding())
	require.Equal(t, int32(7), res.GetDamage().GetLevelsLost())
	require.Equal(t, []int32{0, 3, 5}, exNS(f.cs("malfrat")))
}

// LOS-025 option sbire_cancelled_exploit_plain_hit off: a Sbire is felled without damage roll
// only by an attack with an Exploit; a plain hit by a player character damages its 10 NS
// (Hercule's épée, 4 + 3 = 7: 3 left).
func TestLOS025OptionOffPlainHitOnASbireDamages(t *testing.T) {
	f := newFight(t, &lossv1.Options{SbireCancelledExploitPlainHit: proto.Bool(false)}, exHero(), exSailor("m1"))
	f.start(5, 1)
	f.do("david", exStrike("hercule", exAt("m1", "épée")), 1) // 36 ≥ 15
	res := find(t, f.do(gm, takeBlow("m1"), 4), (*lossv1.Event).GetAttackResolved)
	require.True(t, res.GetHit())
	require.False(t, res.GetTargetOut())
	require.Equal(t, int32(7), res.GetDamage().GetLevelsLost())
	require.Equal(t, int32(3), f.cs("m1").GetHealth())
}

// LOS-081: a ranged weapon with no Portée given never halves its damage: the sling (damage 2)
// at 30 m (Difficulty 25) deals 5 + 2 = 7 in full.
func TestLOS081NoPorteeNoHalving(t *testing.T) {
	f := newFight(t, nil, rgArcher(rgSling()), ruffian())
	f.start(5, 1)
	ar := rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "", 30), 6)) // 26 ≥ 25
	require.Equal(t, int32(25), ar.GetTest().GetDifficulty())
	res := rgResolved(t, f.do(gm, takeBlow("malfrat"), 5))
	require.False(t, res.GetHalved())
	require.Equal(t, int32(0), res.GetHalvings())
	require.Equal(t, int32(7), res.GetDamage().GetTotal())
	require.Equal(t, int32(7), res.GetDamage().GetLevelsLost())
}

// LOS-035: a simple action must name its kind; one without is refused as invalid, and costs
// nothing.
func TestLOS035SimpleActionWithoutKind(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	f.refuse("david", exSimple("diego", lossv1.SimpleKind_SIMPLE_KIND_UNSPECIFIED), engine.CodeInvalid, "LOS-035")
	require.Equal(t, int32(15), f.cs("diego").GetActionPoints())
}

// What rules/odds reads (odds.go): a hit loses the target's armour and shield protection, +1
// with the Weapon and shield specialisation (LOS-021, LOS-053, LOS-091); an unknown target
// has none; Exploits are counted and cancelled as Decide does (LOS-010, LOS-014).
func TestOddsReadsAsDecide(t *testing.T) {
	spec := &lossv1.Specialisation{Kind: lossv1.SpecialisationKind_SPECIALISATION_KIND_WEAPON_AND_SHIELD}
	expert := with(exLegionary(), func(s *lossv1.Sheet) { s.Specialisations = []*lossv1.Specialisation{spec} })
	expert.Id, expert.Name = "expert", "Expert"
	noShield := with(ruffian(), func(s *lossv1.Sheet) {
		s.Armour, s.ShieldProtection, s.Specialisations = 2, 1, []*lossv1.Specialisation{spec}
	})
	f := newFight(t, nil, exLegionary(), expert, noShield)
	for _, c := range []struct {
		id             string
		armour, shield int32
	}{
		{"legion", 0, 3},  // the scutum's 3
		{"expert", 0, 4},  // 3 + 1 (LOS-091)
		{"malfrat", 2, 1}, // the specialisation needs a shield
		{"nobody", 0, 0},
	} {
		a, s := loss.Protection(f.St, c.id)
		require.Equal(t, []int32{c.armour, c.shield}, []int32{a, s}, c.id)
	}
	list := []lossv1.ExploitEffect{
		lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_ZONE, lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE,
		lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE,
	}
	require.Equal(t, int32(4), loss.CountExploits(list))
	require.Equal(t, list[:2], loss.Standing(list, 1))
	require.Equal(t, list[:1], loss.Standing(list, 2))
	require.Empty(t, loss.Standing(list, 3), "the zone needs both its Exploits")
	require.True(t, loss.Special(list[0]))
	require.False(t, loss.Special(list[1]))
}

// LOS-064: a Feint lasts the rest of this Tour and the next for the feinter's defences too:
// Diego feints on an attack in Tour 1; in Tour 2 his dodge of the ruffian's blow has +2,
// 10 + 3 + 2 = 15 against 15.
func TestLOS064FeintHelpsTheNextTourDefence(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)                                                     // Diego 15, the ruffian 10
	f.do("david", exStrike("diego", exAt("malfrat", "", exFeint)), 9) // 21 ≥ 20
	f.do(gm, takeBlow("malfrat"), 2)
	f.do("david", pass("diego"))
	f.do(gm, pass("malfrat"), 7, 5) // Tour 2
	require.Equal(t, int32(2), f.St.GetLoss().GetTour())
	f.do("david", pass("diego"))
	f.do(gm, attack("malfrat", "diego", 0, nil), 5) // 15 ≥ 15
	dr := find(t, f.do("david", dodge("diego", 0, nil), 3), (*lossv1.Event).GetDefenceRolled)
	require.True(t, exHas(dr.GetTest().GetTestModifiers(), "LOS-064", 2))
	require.Equal(t, int32(15), dr.GetTest().GetTotal())
	require.True(t, dr.GetTest().GetSuccess())
}

// LOS-038 with declare_low_to_high, LOS-110: a Tour in which no one rolls Initiative waits
// for no declaration. Hercule and Achille, both at phase 15, kill each other outright with
// unseen blows (35 + 5 = 40 against 15 + 25; Achille, at 0 fatal boxes, +10: 35 + 10 + 5 =
// 50): Achille, felled at his own phase, still strikes there; both are out, and Tour 2 starts
// with no one in it.
func TestLOS038NoOneLeftToDeclare(t *testing.T) {
	achille := exHero()
	achille.Id, achille.Name = "achille", "Achille"
	f := newFight(t, &lossv1.Options{DeclareLowToHigh: proto.Bool(true)}, exHero(), achille)
	f.start(5, 5)
	for _, d := range []string{"hercule", "achille"} {
		f.do("david", declareCmd(d, "tuer"))
	}
	kill := lossv1.ExploitEffect_EXPLOIT_EFFECT_KILL_OUTRIGHT
	a := exAt("achille", "épée", kill)
	a.Unseen = true
	f.do("david", exStrike("hercule", a), 5)
	require.True(t, f.cs("achille").GetOut())
	a = exAt("hercule", "épée", kill)
	a.Unseen = true
	evs := f.do("david", exStrike("achille", a), 10, 5) // the d10 explodes
	ts := find(t, evs, (*lossv1.Event).GetTourStarted)
	require.Equal(t, int32(2), ts.GetTour())
	require.Empty(t, ts.GetInitiative())
	require.False(t, f.St.GetLoss().GetDeclaring())
}

// LOS-038 declare_low_to_high: combatants of the same Initiative total may declare in either
// order, and what each may do says so. Diego (8 + 2) and the ruffian (5 + 5) are both at 10.
func TestLOS038TiedInitiativeDeclaresInAnyOrder(t *testing.T) {
	f := newFight(t, &lossv1.Options{DeclareLowToHigh: proto.Bool(true)}, diego(), ruffian())
	f.start(2, 5)
	require.Equal(t, []int32{10, 10}, f.ap("diego", "malfrat"))
	for _, id := range []string{"diego", "malfrat"} {
		legal, err := f.Reg.Legal(f.St, id)
		require.NoError(t, err)
		require.Len(t, legal, 1, id)
		require.Equal(t, "declare", legal[0].GetName())
	}
	f.do(gm, declareCmd("malfrat", "frappe Diego"))
	f.do("david", declareCmd("diego", "frappe le malfrat"))
	require.False(t, f.St.GetLoss().GetDeclaring())
}

// The Exploits table of Describe names where each effect may be declared, in words joined
// by commas (LOS-060, LOS-085): extra damage on a melee or a ranged attack.
func TestDescribeExploitsTable(t *testing.T) {
	on := map[string]string{}
	for _, tb := range loss.New(1).Describe().GetTables() {
		if tb.GetName() == "Exploits" {
			for _, r := range tb.GetRows() {
				on[r.GetCells()[0]] = r.GetCells()[2]
			}
		}
	}
	require.Equal(t, "melee attack, ranged attack", on["extra damage"])
	require.Equal(t, "melee attack", on["Assaut"])
	require.Equal(t, "parry, dodge", on["Counter-attack"])
}

// LOS-035, LOS-111: an action is offered when its cost is exactly the PA left. Diego (8 + 4
// = 12 PA) with a sabre of Vitesse 4 and Assaut 5, and Athletics, attacks twice: at 4 PA he
// may still attack (4), charge (Assaut, 4), grab or trip (3), move (2), pick up (2) and use a
// social Talent (1); at 3 PA, after a social Talent, he may still grab or trip; at 1 PA, after
// moving, only a social Talent, a word or passing.
func TestLegalOffersWhatCostsExactlyThePALeft(t *testing.T) {
	d := runner(with(diego(), func(s *lossv1.Sheet) { s.Weapons[0].AssautDamage = 5 }), 6, 6)
	f := newFight(t, nil, d, withInit(ruffian(), 0))
	f.start(4, 1) // Diego 12, the ruffian 1
	for range 2 {
		f.do("david", attack("diego", "malfrat", 0, nil), 1) // 13: misses
	}
	require.Equal(t, int32(4), f.cs("diego").GetActionPoints())
	costs := func() map[string]int32 {
		legal, err := f.Reg.Legal(f.St, "diego")
		require.NoError(t, err)
		out := map[string]int32{}
		for _, l := range legal {
			out[l.GetName()] = l.GetCost()
		}
		return out
	}
	require.Equal(t, map[string]int32{"attack": 4, "assaut": 4, "grab or trip": 3, "moving": 2, "picking up an object": 2,
		"a social Talent": 1, "wait": 0, "speak": 0, "pass": 0}, costs())
	f.do("david", exSimple("diego", lossv1.SimpleKind_SIMPLE_KIND_SOCIAL))
	require.Equal(t, map[string]int32{"grab or trip": 3, "moving": 2, "picking up an object": 2, "a social Talent": 1, "wait": 0, "speak": 0, "pass": 0}, costs())
	f.do("david", exSimple("diego", lossv1.SimpleKind_SIMPLE_KIND_MOVE))
	require.Equal(t, map[string]int32{"a social Talent": 1, "speak": 0, "pass": 0}, costs())
}

// LOS-102, LOS-012: a dodge in a pursuit may declare up to 5 plain Exploits: Diego dodges
// the vigile's Charge with 5, at the flat 20 + 25 = 45, and fails with 10 + 9 = 19.
func TestLOS102DodgeWithFiveExploits(t *testing.T) {
	f := chase(t, nil, 2, 1, 9)                       // Diego 9, the vigile 14
	f.do(gm, pursue("vigile", charge, "diego", 0), 8) // 20 ≥ 20
	evs := f.do("david", dodge("diego", 5, nil), 9)
	dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
	require.Equal(t, int32(5), dr.GetExploits())
	require.Equal(t, int32(45), dr.GetTest().GetDifficulty())
	require.False(t, dr.GetTest().GetSuccess())
	require.True(t, pursuitActed(t, evs).GetTargetDown())
}

// LOS-110 and LOS-072, through a reaction: both at 15, Diego throws the ruffian down
// (Overthrow, 2 Exploits: 12 + 10 + 3 = 25 against 25) and the ruffian takes the blow,
// spending nothing: felled at his own phase, he still acts at 15, prone as he is.
func TestLOS110OverthrownByADefendedBlowStillActs(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 10) // both at 15
	f.do("david", exStrike("diego", exAt("malfrat", "", lossv1.ExploitEffect_EXPLOIT_EFFECT_OVERTHROW)), 10, 3)
	require.Equal(t, int32(15), f.St.GetLoss().GetPending().GetPhase(), "Diego's phase when he attacked")
	f.do(gm, takeBlow("malfrat"))
	require.True(t, f.cs("malfrat").GetProne())
	require.Equal(t, int32(15), f.cs("malfrat").GetOwedPhase())
	evs := f.do(gm, attack("malfrat", "diego", 0, nil), 9)
	require.Equal(t, int32(15), f.cs("malfrat").GetActionPoints()+find(t, evs, (*lossv1.Event).GetAttackRolled).GetActionPointsSpent())
}

// LOS-110 and LOS-072, the other way: Diego (15) attacks and is at 11; the ruffian, at 11,
// dodges with Overthrow (2 Exploits: 12 + 10 + 3 = 25 against 25) and throws him down at the
// phase they share. Version 1 owed Diego his action at 11, prone as he is: a defender's
// Exploit strikes one who has just acted, so version 2 owes him nothing: he must stand up at
// his next action (« devra se relever à son action suivante »).
func TestLOS110OverthrownByADefenceStillActs(t *testing.T) {
	for _, c := range []struct {
		version uint32
		owed    int32
	}{{1, 11}, {2, 0}} {
		t.Run(fmt.Sprintf("v%d", c.version), func(t *testing.T) {
			f := newFightAt(t, c.version, nil, diego(), ruffian())
			f.start(7, 6)                                        // Diego 15, the ruffian 11
			f.do("david", attack("diego", "malfrat", 0, nil), 5) // 17 ≥ 15; Diego 11
			evs := f.do(gm, exDefend("malfrat", exDodge, lossv1.ExploitEffect_EXPLOIT_EFFECT_OVERTHROW), 10, 3)
			require.True(t, find(t, evs, (*lossv1.Event).GetDefenceRolled).GetTest().GetSuccess())
			require.True(t, f.cs("diego").GetProne())
			require.Equal(t, c.owed, f.cs("diego").GetOwedPhase())
			require.Equal(t, []int32{11, 10}, f.ap("diego", "malfrat"))
			if c.owed > 0 {
				f.do("david", attack("diego", "malfrat", 0, nil), 9)
				require.Equal(t, int32(0), f.cs("diego").GetOwedPhase())
				return
			}
			f.refuse("david", attack("diego", "malfrat", 0, nil), engine.CodePrecondition, "LOS-072", "Diego", "stand up")
			f.do("david", exSimple("diego", lossv1.SimpleKind_SIMPLE_KIND_STAND_UP))
			require.False(t, f.cs("diego").GetProne())
		})
	}
}

// LOS-110: an attack awaiting its dodge records the attacker's phase when it acted, a
// pursuit's Charge too: the vigile charges at 14 (3 PA).
func TestLOS110PendingChargeRecordsThePhase(t *testing.T) {
	f := chase(t, nil, 2, 1, 9)                       // Diego 9, the vigile 14
	f.do(gm, pursue("vigile", charge, "diego", 0), 8) // 20 ≥ 20
	require.Equal(t, int32(11), f.cs("vigile").GetActionPoints())
	require.Equal(t, int32(14), f.St.GetLoss().GetPending().GetPhase())
}

// The narration names the pursuit distances of LOS-100, contact (1) included.
func TestNarrateThePursuitDistances(t *testing.T) {
	for d, name := range map[int32]string{1: "contact", 2: "close", 6: "out of range"} {
		n := nNames()
		got := n.Narrate(nEv(1, &lossv1.Event{Kind: &lossv1.Event_PursuitStarted{PursuitStarted: &lossv1.PursuitStarted{Pursuit: &lossv1.Pursuit{
			PursuerIds: []string{"diego"}, PursuedIds: []string{"ruffian"}, Distance: d,
		}}}}))
		require.Contains(t, got, name, got)
		require.NotContains(t, got, "out of sight", got)
	}
}

// legalNames lists the names of what id may do now, with their choices' fields.
func legalNames(t *testing.T, f *fight, id string) (map[string]int32, map[string]bool) {
	t.Helper()
	legal, err := f.Reg.Legal(f.St, id)
	require.NoError(t, err)
	costs, fields := map[string]int32{}, map[string]bool{}
	for _, l := range legal {
		costs[l.GetName()] = l.GetCost()
		for _, c := range l.GetChoices() {
			fields[c.GetField()] = true
		}
	}
	return costs, fields
}

// LOS-004, LOS-005: what a Test may spend is offered only when held: the ruffian, with the
// GM's reserve empty and no free raise, is offered neither; once the GM holds a Fursa and
// grants him a free raise, both.
func TestLegalOffersOnlyWhatIsHeld(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(1, 9) // Diego 9, the ruffian 14
	_, fields := legalNames(t, f, "malfrat")
	require.False(t, fields["loss.attack.spend.fursa"])
	require.False(t, fields["loss.attack.spend.free_raises"])
	g := newFight(t, &lossv1.Options{GmFursa: proto.Int32(1)}, diego(), ruffian())
	g.start(1, 9)
	g.do(gm, grant("malfrat", 1))
	_, fields = legalNames(t, g, "malfrat")
	require.True(t, fields["loss.attack.spend.fursa"])
	require.True(t, fields["loss.attack.spend.free_raises"])
}

// LOS-036, LOS-032: a defender with exactly 1 PA left may still parry or dodge (1 PA).
func TestLegalDefenceWithOnePALeft(t *testing.T) {
	f := newFight(t, nil, diego(), withInit(ruffian(), 0))
	f.start(7, 1)                                        // Diego 15, the ruffian 1
	f.do("david", attack("diego", "malfrat", 0, nil), 9) // 21 ≥ 15
	costs, _ := legalNames(t, f, "malfrat")
	require.Equal(t, map[string]int32{"parry": 1, "dodge": 1, "take the blow": 0}, costs)
}

// LOS-074, LOS-035: disarmed with exactly 2 PA left, the ruffian may pick up his weapon (2
// PA), not regain his balance (4 PA).
func TestLegalRecoverWithTwoPALeft(t *testing.T) {
	f := newFight(t, nil, exHero(), withInit(ruffian(), 0))
	f.start(5, 2)                                                                                              // Hercule 15, the ruffian 2
	f.do("david", exStrike("hercule", exAt("malfrat", "épée", lossv1.ExploitEffect_EXPLOIT_EFFECT_DISARM)), 1) // 36 ≥ 30
	f.do(gm, takeBlow("malfrat"))
	require.True(t, f.cs("malfrat").GetDisarmed())
	f.do("david", pass("hercule"))
	costs, _ := legalNames(t, f, "malfrat")
	require.Equal(t, int32(2), costs["recover weapon"])
	require.NotContains(t, costs, "stand up")
	require.NotContains(t, costs, "attack")
}

// LOS-031: a hidden combatant's PA (its phase) are shown only while it is the one acting:
// Diego acts at 15, the hidden ruffian's 10 PA stay off the table until his turn.
func TestRedactStateShowsThePhaseOnlyOfWhoActs(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5) // Diego 15, the ruffian 10
	secret := func(id string) bool { return id == "malfrat" }
	st := proto.CloneOf(f.St)
	loss.New(1).RedactState(st, secret)
	require.Equal(t, int32(0), st.GetLoss().GetCombatants()["malfrat"].GetActionPoints())
	require.Equal(t, int32(15), st.GetLoss().GetCombatants()["diego"].GetActionPoints())
	f.do("david", pass("diego"))
	st = proto.CloneOf(f.St)
	loss.New(1).RedactState(st, secret)
	require.Equal(t, int32(10), st.GetLoss().GetCombatants()["malfrat"].GetActionPoints(), "his turn")
}

// LOS-072, LOS-074, LOS-035: recovering is offered when it costs exactly the PA left: down
// with 4 PA, standing up (4); disarmed in an earlier Tour with 4 PA, regaining one's balance
// (4) as well as picking up one's weapon (2).
func TestLegalStandUpWithFourPALeft(t *testing.T) {
	t.Run("down", func(t *testing.T) {
		f := newFight(t, nil, exHero(), withInit(ruffian(), 0))
		f.start(5, 4)                                                                                                 // Hercule 15, the ruffian 4
		f.do("david", exStrike("hercule", exAt("malfrat", "épée", lossv1.ExploitEffect_EXPLOIT_EFFECT_OVERTHROW)), 1) // 36 ≥ 25
		f.do(gm, takeBlow("malfrat"))
		f.do("david", pass("hercule"))
		costs, _ := legalNames(t, f, "malfrat")
		require.Equal(t, map[string]int32{"stand up": 4, "wait": 0, "speak": 0, "pass": 0}, costs)
	})
	t.Run("disarmed", func(t *testing.T) {
		f := newFight(t, nil, exHero(), withInit(ruffian(), 0))
		f.start(5, 4)
		f.do("david", exStrike("hercule", exAt("malfrat", "épée", lossv1.ExploitEffect_EXPLOIT_EFFECT_DISARM)), 1) // 36 ≥ 30
		f.do(gm, takeBlow("malfrat"))
		f.do("david", pass("hercule"))
		f.do(gm, pass("malfrat"), 5, 4) // Tour 2: Hercule 15, the ruffian 4
		f.do("david", pass("hercule"))
		costs, _ := legalNames(t, f, "malfrat")
		require.Equal(t, map[string]int32{"recover weapon": 2, "stand up": 4, "wait": 0, "speak": 0, "pass": 0}, costs)
	})
}

// LOS-035: with no one left to strike, neither an attack nor a grab or trip is offered.
func TestLegalNoTargetNoAttack(t *testing.T) {
	killer := runner(with(diego(), func(s *lossv1.Sheet) { s.Weapons[0].Damage = 30 }), 6, 6)
	f := newFight(t, nil, killer, ruffian())
	f.start(7, 5)
	f.do("david", unseen("diego", "malfrat", 0), 9, 9)
	require.True(t, f.cs("malfrat").GetOut())
	costs, _ := legalNames(t, f, "diego")
	require.NotContains(t, costs, "attack")
	require.NotContains(t, costs, "grab or trip")
	require.Contains(t, costs, "moving")
}
