package loss_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
)

// LOS-T01: Diego (Puissance 6, melee weapon 6) rolls 8: 20 ≥ 15. The ruffian (Agilité 5,
// Esquive 7) dodges with 1 Exploit (Difficulty 20) and rolls 9: 21, the attack fails and
// the Exploit becomes a +5 bonus on his next immediate action (LOS-016).
func TestWorkedExampleLOS_T01(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	ts := f.start(7, 5) // Diego 8 + 7 = 15 acts first; the ruffian 5 + 5 = 10

	evs := f.do("david", attack("diego", "malfrat", 0, nil), 8)
	ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
	require.Equal(t, int32(6), ar.GetTest().GetTrait())
	require.Equal(t, int32(6), ar.GetTest().GetTalent())
	require.Equal(t, []int32{8}, ar.GetTest().GetRoll().GetFaces())
	require.Equal(t, int32(20), ar.GetTest().GetTotal())
	require.Equal(t, int32(15), ar.GetTest().GetDifficulty())
	require.True(t, ar.GetTest().GetSuccess())
	require.True(t, ar.GetDefencePossible())
	none(t, evs, (*lossv1.Event).GetAttackResolved) // a hit unless dodged (LOS-009)
	require.Equal(t, int32(15), f.St.GetLoss().GetPending().GetDifficulty())
	require.Equal(t, int32(20), f.St.GetLoss().GetPending().GetAttackTotal())

	evs = f.do(gm, dodge("malfrat", 1, nil), 9)
	dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
	require.Equal(t, int32(5), dr.GetTest().GetTrait())
	require.Equal(t, int32(7), dr.GetTest().GetTalent())
	require.Equal(t, int32(20), dr.GetTest().GetDifficulty())
	require.Equal(t, int32(21), dr.GetTest().GetTotal())
	require.True(t, dr.GetTest().GetSuccess())
	require.Equal(t, int32(1), dr.GetExploits())
	res := find(t, evs, (*lossv1.Event).GetAttackResolved)
	require.False(t, res.GetHit(), "the attack fails")
	require.Nil(t, res.GetDamage())
	require.Equal(t, int32(5), f.cs("malfrat").GetNextActionBonus(), "LOS-016: +5 on his next action")
	require.Equal(t, []int32{15 - 4, 10 - 1}, f.ap("diego", "malfrat"))
	require.Nil(t, f.St.GetLoss().GetPending())
	require.Empty(t, f.St.GetPending())
	require.Equal(t, int32(0), f.St.GetLoss().GetGmFursa())
	require.Equal(t, int32(1), ts.GetTour())

	// The bonus goes to the ruffian's next action: his riposte adds +5, then it is used up.
	f.do("david", pass("diego"))
	evs = f.do(gm, attack("malfrat", "diego", 0, nil), 3)
	ar = find(t, evs, (*lossv1.Event).GetAttackRolled)
	require.Equal(t, int32(5), ar.GetTest().GetBonus())
	require.Equal(t, int32(5+5+3+5), ar.GetTest().GetTotal())
	require.Equal(t, int32(0), f.cs("malfrat").GetNextActionBonus())
}

// LOS-T02: Diego (Puissance 6, weapon 6, 2 Fursa, 1 Inspiration of Courage) declares 3
// extra-damage Exploits (Difficulty 30) and rolls 7: 19 + 10 + 5 = 34. The ruffian (dodge
// 12, the GM's reserve empty) spends 1 Inspiration and rolls 4: 21, misses 30 but cancels 1
// Exploit; the 2 left make the damage weapon + 3d10.
func TestWorkedExampleLOS_T02(t *testing.T) {
	d := with(diego(), func(s *lossv1.Sheet) {
		s.Fursa = 2
		s.Inspiration = map[string]int32{"Courage": 1}
	})
	r := with(ruffian(), func(s *lossv1.Sheet) {
		s.Inspiration = map[string]int32{"Honneur": 1}
		s.Armour = 2
	})
	f := newFight(t, nil, d, r)
	f.start(7, 5)
	require.Equal(t, int32(2), f.cs("diego").GetFursa())
	require.Equal(t, int32(1), f.cs("diego").GetInspiration()["Courage"])

	spend := &lossv1.Spend{Fursa: 2, Inspiration: map[string]int32{"Courage": 1}}
	evs := f.do("david", attack("diego", "malfrat", 3, spend), 7)
	ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
	require.Equal(t, int32(30), ar.GetTest().GetDifficulty())
	require.Equal(t, int32(15), ar.GetTest().GetBonus())
	require.Equal(t, int32(34), ar.GetTest().GetTotal())
	require.True(t, ar.GetTest().GetSuccess())
	require.Len(t, ar.GetExploits(), 3)
	require.Equal(t, int32(0), f.cs("diego").GetFursa(), "spent Fursa is gone")
	require.Equal(t, int32(0), f.cs("diego").GetInspiration()["Courage"])
	require.Equal(t, int32(30), f.St.GetLoss().GetPending().GetDifficulty())

	// The GM's reserve is empty: the ruffian cannot spend a Fursa (LOS-005).
	f.refuse(gm, dodge("malfrat", 0, fursa(1)), engine.CodePrecondition, "LOS-005", "Malfrat")

	evs = f.do(gm, dodge("malfrat", 0, inspiration("Honneur", 1)), 4, 2, 3, 1)
	dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
	require.Equal(t, int32(30), dr.GetTest().GetDifficulty())
	require.Equal(t, int32(5), dr.GetTest().GetBonus())
	require.Equal(t, int32(12+5+4), dr.GetTest().GetTotal())
	require.False(t, dr.GetTest().GetSuccess())
	require.Equal(t, int32(1), dr.GetExploitsCancelled())
	require.Equal(t, int32(0), f.cs("malfrat").GetInspiration()["Honneur"])

	res := find(t, evs, (*lossv1.Event).GetAttackResolved)
	require.True(t, res.GetHit())
	require.Equal(t, int32(2), res.GetExploitsStanding())
	dmg := res.GetDamage()
	require.Equal(t, "3d10", dmg.GetRoll().GetExpression())
	require.Equal(t, []int32{2, 3, 1}, dmg.GetRoll().GetFaces())
	require.Equal(t, int32(3), dmg.GetWeaponDamage())
	require.Equal(t, int32(6+3), dmg.GetTotal())
	require.Equal(t, int32(2), dmg.GetArmour())
	require.Equal(t, int32(7), dmg.GetLevelsLost())
	cs := f.cs("malfrat")
	require.Equal(t, []int32{0, 3, 5}, []int32{cs.GetLight(), cs.GetGrave(), cs.GetFatal()})
	require.False(t, cs.GetOut())
	require.Equal(t, int32(0), f.St.GetLoss().GetGmFursa())
	require.Equal(t, []int32{15 - 4, 10 - 1}, f.ap("diego", "malfrat"))
}

// LOS-T03: Canahan 7 + 4 = 11 PA, Diego 8 + 7 = 15, three griffons rolling once as a group
// 13 each. Diego acts at 15, the griffons at 13; two griffons attack Canahan with natural
// attacks (2 PA), she dodges each (1 PA): she is at 9, each attacking griffon at 11.
func TestWorkedExampleLOS_T03(t *testing.T) {
	canahan := who("canahan", "Canahan", pc, 7, 7, 7, 5, 6, sword(5, 4))
	canahan.Controller = "florence"
	griffon := func(id string) *encounterv1.Combatant {
		return with(who(id, "Griffon "+id[len(id)-1:], sbire, 6, 4, 6, 5, 3, claws(3)), func(s *lossv1.Sheet) {
			s.InitiativeGroup = "griffons"
		})
	}
	f := newFight(t, nil, canahan, diego(), griffon("g1"), griffon("g2"), griffon("g3"))
	ts := f.start(4, 7, 7) // one d10 each for Canahan and Diego, one for the group

	require.Equal(t, int32(1), ts.GetTour())
	require.Len(t, ts.GetInitiative(), 3)
	want := []struct {
		ids      []string
		init, pa int32
	}{{[]string{"canahan"}, 7, 11}, {[]string{"diego"}, 8, 15}, {[]string{"g1", "g2", "g3"}, 6, 13}}
	for i, w := range want {
		r := ts.GetInitiative()[i]
		require.Equal(t, w.ids, r.GetCombatantIds())
		require.Equal(t, w.init, r.GetInitiative())
		require.Equal(t, w.pa, r.GetActionPoints())
		require.Len(t, r.GetRoll().GetFaces(), 1)
	}
	require.Equal(t, []int32{11, 15, 13, 13, 13}, f.ap("canahan", "diego", "g1", "g2", "g3"))

	// Diego acts first at 15 (he leaps at the third griffon and misses it).
	f.refuse(gm, attack("g1", "canahan", 0, nil), engine.CodePrecondition, "LOS-031", "Griffon 1", "Diego")
	f.do("david", attack("diego", "g3", 0, nil), 1)
	require.Equal(t, int32(11), f.cs("diego").GetActionPoints())

	// The griffons at 13 act before Canahan at 11.
	f.refuse("florence", pass("canahan"), engine.CodePrecondition, "LOS-031", "Canahan")
	for _, g := range []string{"g1", "g2"} {
		evs := f.do(gm, attack(g, "canahan", 0, nil), 6)
		ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
		require.Equal(t, int32(2), ar.GetActionPointsSpent(), "natural attack: 2 PA")
		require.Equal(t, int32(4+6+6), ar.GetTest().GetTotal())
		require.True(t, ar.GetTest().GetSuccess())

		evs = f.do("florence", dodge("canahan", 0, nil), 5)
		dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
		require.Equal(t, int32(1), dr.GetActionPointsSpent(), "a dodge: 1 PA")
		require.True(t, dr.GetTest().GetSuccess())
		require.False(t, find(t, evs, (*lossv1.Event).GetAttackResolved).GetHit())
	}
	require.Equal(t, int32(9), f.cs("canahan").GetActionPoints(), "Canahan acts next at 9")
	require.Equal(t, []int32{11, 11, 13}, f.ap("g1", "g2", "g3"), "each attacking griffon at 11")

	// The third griffon, at 13, attacks Diego; then at 11 the griffons attack again before
	// Canahan can act.
	f.do(gm, attack("g3", "diego", 0, nil), 1)
	f.refuse("florence", pass("canahan"), engine.CodePrecondition, "LOS-031", "Canahan")
	f.do(gm, attack("g1", "canahan", 0, nil), 1)
	require.Equal(t, []int32{9, 11, 9, 11, 11}, f.ap("canahan", "diego", "g1", "g2", "g3"))
}
