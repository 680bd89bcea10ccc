package loss_test

import (
	"testing"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// LOS-001: a Test is Trait + Talent + 1d10 + bonuses and succeeds when the total is at least
// the Difficulty.
func TestLOS001TestTotalAndThreshold(t *testing.T) {
	for _, c := range []struct {
		face    int32
		total   int32
		success bool
	}{
		{1, 13, false},
		{2, 14, false},
		{3, 15, true}, // exactly the Difficulty succeeds
		{9, 21, true},
	} {
		f := newFight(t, nil, diego(), ruffian())
		f.start(7, 5)
		evs := f.do("david", attack("diego", "malfrat", 0, nil), c.face)
		ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
		tr := ar.GetTest()
		require.Equal(t, int32(6), tr.GetTrait(), "Puissance")
		require.Equal(t, int32(6), tr.GetTalent(), "Arme de mêlée")
		require.Equal(t, int32(0), tr.GetBonus())
		require.Equal(t, c.face, tr.GetRoll().GetTotal())
		require.Equal(t, tr.GetTrait()+tr.GetTalent()+tr.GetRoll().GetTotal()+tr.GetBonus(), tr.GetTotal())
		require.Equal(t, c.total, tr.GetTotal())
		require.Equal(t, int32(15), tr.GetDifficulty())
		require.Equal(t, c.success, tr.GetSuccess(), "face %d", c.face)
	}
}

// LOS-002: the d10 of an action Test explodes (attack, dodge); a damage d10 does not, unless
// the option explode_damage_d10 is on; explode_action_d10 off stops the action explosion.
func TestLOS002ExplodingActionD10(t *testing.T) {
	t.Run("attack and dodge explode, damage does not", func(t *testing.T) {
		f := newFight(t, nil, diego(), ruffian())
		require.True(t, f.St.GetOptions().GetLoss().GetExplodeActionD10())
		require.False(t, f.St.GetOptions().GetLoss().GetExplodeDamageD10())
		f.start(7, 5)
		evs := f.do("david", attack("diego", "malfrat", 2, nil), 10, 4)
		tr := find(t, evs, (*lossv1.Event).GetAttackRolled).GetTest()
		require.Equal(t, "1d10!", tr.GetRoll().GetExpression())
		require.Equal(t, []int32{10, 4}, tr.GetRoll().GetFaces())
		require.Equal(t, int32(12+14), tr.GetTotal())
		require.True(t, tr.GetSuccess(), "26 ≥ 25")

		// The dodge d10 explodes too: 12 + 10 + 10 + 1 = 33 ≥ 25. Then the ruffian riposte
		// hits Diego unseen: its damage d10 of 10 is not rolled again.
		evs = f.do(gm, dodge("malfrat", 0, nil), 10, 10, 1)
		dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
		require.Equal(t, []int32{10, 10, 1}, dr.GetTest().GetRoll().GetFaces())
		require.Equal(t, int32(33), dr.GetTest().GetTotal())
		f.do("david", pass("diego"))
		evs = f.do(gm, unseen("malfrat", "diego", 0), 9, 10)
		dmg := find(t, evs, (*lossv1.Event).GetAttackResolved).GetDamage()
		require.Equal(t, "1d10", dmg.GetRoll().GetExpression())
		require.Equal(t, []int32{10}, dmg.GetRoll().GetFaces())
		require.Equal(t, int32(10+2), dmg.GetTotal())
	})
	t.Run("explode_damage_d10 on", func(t *testing.T) {
		f := newFight(t, &lossv1.Options{ExplodeDamageD10: proto.Bool(true)}, diego(), ruffian())
		f.start(7, 5)
		evs := f.do("david", unseen("diego", "malfrat", 1), 9, 10, 2, 3)
		dmg := find(t, evs, (*lossv1.Event).GetAttackResolved).GetDamage()
		require.Equal(t, "2d10!", dmg.GetRoll().GetExpression())
		require.Equal(t, []int32{10, 2, 3}, dmg.GetRoll().GetFaces())
		require.Equal(t, int32(15+3), dmg.GetTotal())
	})
	t.Run("explode_action_d10 off", func(t *testing.T) {
		f := newFight(t, &lossv1.Options{ExplodeActionD10: proto.Bool(false)}, diego(), ruffian())
		f.start(7, 5)
		evs := f.do("david", attack("diego", "malfrat", 0, nil), 10)
		tr := find(t, evs, (*lossv1.Event).GetAttackRolled).GetTest()
		require.Equal(t, "1d10", tr.GetRoll().GetExpression())
		require.Equal(t, []int32{10}, tr.GetRoll().GetFaces())
		require.Equal(t, int32(22), tr.GetTotal())
	})
}

// LOS-003: the Initiative d10 never explodes, even with explode_action_d10 on.
// LOS-030: each combatant's d10 + Initiative is its PA and its starting phase.
func TestLOS003LOS030Initiative(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	ts := f.start(10, 3) // a 10 is not rolled again: the 3 is the ruffian's die
	require.Equal(t, int32(1), ts.GetTour())
	require.Equal(t, int32(1), ts.GetSequence())
	require.Len(t, ts.GetInitiative(), 2)

	d, r := ts.GetInitiative()[0], ts.GetInitiative()[1]
	require.Equal(t, []string{"diego"}, d.GetCombatantIds())
	require.Equal(t, "1d10", d.GetRoll().GetExpression())
	require.Equal(t, []int32{10}, d.GetRoll().GetFaces())
	require.Equal(t, uint64(1), d.GetRoll().GetDraws())
	require.Equal(t, int32(8), d.GetInitiative())
	require.Equal(t, int32(18), d.GetActionPoints())
	require.Equal(t, []string{"malfrat"}, r.GetCombatantIds())
	require.Equal(t, []int32{3}, r.GetRoll().GetFaces())
	require.Equal(t, int32(5+3), r.GetActionPoints())

	require.Equal(t, []int32{18, 8}, f.ap("diego", "malfrat"))
	require.Equal(t, int32(18), f.cs("diego").GetInitiativeTotal())
	require.Equal(t, int32(8), f.cs("malfrat").GetInitiativeTotal())
	require.Equal(t, int32(1), f.St.GetLoss().GetTour())

	// The next Tour rolls again; the PA are the new roll, not what was left.
	f.do("david", pass("diego"))
	evs := f.do(gm, pass("malfrat"), 2, 9)
	ts = find(t, evs, (*lossv1.Event).GetTourStarted)
	require.Equal(t, int32(2), ts.GetTour())
	require.Equal(t, []int32{10, 14}, f.ap("diego", "malfrat"))
	require.Equal(t, []int32{10, 14}, []int32{f.cs("diego").GetInitiativeTotal(), f.cs("malfrat").GetInitiativeTotal()})
}

// LOS-004: each Fursa and each Inspiration spent with one's own roll adds +5.
func TestLOS004SpendingBonuses(t *testing.T) {
	d := with(diego(), func(s *lossv1.Sheet) {
		s.Fursa = 3
		s.Inspiration = map[string]int32{"Sagesse": 1, "Honneur": 2, "Courage": 1}
	})
	f := newFight(t, nil, d, with(ruffian(), func(s *lossv1.Sheet) { s.Armour = 3 }))
	f.start(7, 5)
	sp := &lossv1.Spend{Fursa: 1, Inspiration: map[string]int32{"Sagesse": 1, "Honneur": 2}}
	evs := f.do("david", attack("diego", "malfrat", 2, sp), 1)
	tr := find(t, evs, (*lossv1.Event).GetAttackRolled).GetTest()
	require.Equal(t, int32(4*5), tr.GetBonus())
	require.Equal(t, int32(12+1+20), tr.GetTotal())
	require.True(t, tr.GetSuccess(), "33 ≥ 25")
	require.True(t, proto.Equal(sp, tr.GetSpend()), "the spending is recorded with the roll")
	require.Equal(t, int32(2), f.cs("diego").GetFursa())
	require.Equal(t, map[string]int32{"Sagesse": 0, "Honneur": 0, "Courage": 1}, f.cs("diego").GetInspiration())

	// Negative spending is malformed.
	f.do(gm, takeBlow("malfrat"), 1, 1, 1)
	f.refuse("david", attack("diego", "malfrat", 0, fursa(-1)), engine.CodeInvalid, "LOS-004")
	f.refuse("david", attack("diego", "malfrat", 0, inspiration("Courage", -1)), engine.CodeInvalid, "LOS-004")

	// A defence adds its spending the same way: 12 + 5 (Inspiration) + 3 = 20.
	f.do("david", pass("diego"))
	evs = f.do(gm, attack("malfrat", "diego", 0, nil), 9)
	require.True(t, find(t, evs, (*lossv1.Event).GetAttackRolled).GetTest().GetSuccess())
	evs = f.do("david", dodge("diego", 1, inspiration("Courage", 1)), 5)
	dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
	require.Equal(t, int32(5), dr.GetTest().GetBonus())
	require.Equal(t, int32(10+5+5), dr.GetTest().GetTotal())
	require.Equal(t, int32(20), dr.GetTest().GetDifficulty())
	require.True(t, dr.GetTest().GetSuccess())
	require.Equal(t, int32(0), f.cs("diego").GetInspiration()["Courage"])
}

// LOS-005: Fursa and Inspiration are counted; a Test spends only what is held and a spent
// one is gone; the GM's reserve serves its characters; the GM gains one when a player fails
// an Exploit; Sbires have none.
func TestLOS005Resources(t *testing.T) {
	t.Run("a player spends what the character holds", func(t *testing.T) {
		d := with(diego(), func(s *lossv1.Sheet) {
			s.Fursa = 2
			s.Inspiration = map[string]int32{"Courage": 1}
		})
		f := newFight(t, nil, d, ruffian())
		f.start(7, 5)
		f.refuse("david", attack("diego", "malfrat", 0, fursa(3)), engine.CodePrecondition, "LOS-005", "Diego", "2 Fursa")
		f.refuse("david", attack("diego", "malfrat", 0, inspiration("Courage", 2)), engine.CodePrecondition, "LOS-005", "Diego", "Courage")
		f.refuse("david", attack("diego", "malfrat", 0, inspiration("Sagesse", 1)), engine.CodePrecondition, "LOS-005", "Diego", "Sagesse")
		f.do("david", attack("diego", "malfrat", 0, fursa(1)), 1) // 12 + 1 + 5 = 18: a hit unless dodged
		require.Equal(t, int32(1), f.cs("diego").GetFursa())
		f.do(gm, takeBlow("malfrat"), 1)
		f.refuse("david", attack("diego", "malfrat", 0, fursa(2)), engine.CodePrecondition, "LOS-005", "1 Fursa")
		require.Equal(t, int32(0), f.St.GetLoss().GetGmFursa(), "a successful attack gives the GM nothing")
	})
	t.Run("the GM's characters draw on the GM's reserve", func(t *testing.T) {
		f := newFight(t, &lossv1.Options{GmFursa: proto.Int32(2)}, diego(), ruffian())
		require.Equal(t, int32(2), f.St.GetLoss().GetGmFursa())
		f.start(1, 10) // the ruffian acts first: 15 against Diego's 9
		f.refuse(gm, attack("malfrat", "diego", 0, fursa(3)), engine.CodePrecondition, "LOS-005", "GM", "Malfrat")
		evs := f.do(gm, attack("malfrat", "diego", 0, fursa(1)), 2)
		require.Equal(t, int32(5), find(t, evs, (*lossv1.Event).GetAttackRolled).GetTest().GetBonus())
		require.Equal(t, int32(1), f.St.GetLoss().GetGmFursa())
		require.Equal(t, int32(0), f.cs("malfrat").GetFursa())
	})
	t.Run("the GM gains a Fursa when a player fails an Exploit", func(t *testing.T) {
		f := newFight(t, nil, diego(), ruffian())
		require.True(t, f.St.GetOptions().GetLoss().GetGmFursaOnFailedExploit())
		f.start(7, 5)
		evs := f.do("david", attack("diego", "malfrat", 1, nil), 7) // 19 < 20
		require.False(t, find(t, evs, (*lossv1.Event).GetAttackRolled).GetTest().GetSuccess())
		require.Equal(t, int32(1), f.St.GetLoss().GetGmFursa())
		// A failed attack without Exploit gives nothing.
		f.do("david", attack("diego", "malfrat", 0, nil), 1)
		require.Equal(t, int32(1), f.St.GetLoss().GetGmFursa())
		// The GM's own characters failing an Exploit give nothing either.
		f.do(gm, attack("malfrat", "diego", 1, nil), 1)
		require.Equal(t, int32(1), f.St.GetLoss().GetGmFursa())
		// A player failing a defence Exploit does: the ruffian's 5 + 5 + 5 = 15 hits, Diego
		// dodges with an Exploit at 20 and makes 10 + 4 = 14.
		f.do(gm, attack("malfrat", "diego", 0, nil), 5)
		f.do("david", dodge("diego", 1, nil), 4, 1)
		require.Equal(t, int32(2), f.St.GetLoss().GetGmFursa())
		// The GM spends it for the ruffian.
		f.do("david", pass("diego"))
		f.do(gm, attack("malfrat", "diego", 0, fursa(2)), 1)
		require.Equal(t, int32(0), f.St.GetLoss().GetGmFursa())
	})
	t.Run("gm_fursa_on_failed_exploit off", func(t *testing.T) {
		f := newFight(t, &lossv1.Options{GmFursaOnFailedExploit: proto.Bool(false)}, diego(), ruffian())
		f.start(7, 5)
		f.do("david", attack("diego", "malfrat", 1, nil), 7)
		require.Equal(t, int32(0), f.St.GetLoss().GetGmFursa())
	})
	t.Run("Sbires have none", func(t *testing.T) {
		s := who("marin", "Marin", sbire, 3, 5, 4, 5, 4, weapon("poing", lossv1.WeaponKind_WEAPON_KIND_UNARMED, 0, 0))
		f := newFight(t, &lossv1.Options{GmFursa: proto.Int32(3)}, diego(), s)
		f.start(1, 9) // the sailor acts first: 12 against 9
		f.refuse(gm, attack("marin", "diego", 0, fursa(1)), engine.CodePrecondition, "LOS-005", "Marin", "Sbire")
		f.refuse(gm, attack("marin", "diego", 0, inspiration("Courage", 1)), engine.CodePrecondition, "LOS-005", "Marin")
	})
	t.Run("malformed resources", func(t *testing.T) {
		f := newFight(t, nil)
		f.refuse(gm, addCmd(with(ruffian(), func(s *lossv1.Sheet) { s.Fursa = 1 })), engine.CodeInvalid, "LOS-005", "Malfrat")
		f.refuse(gm, addCmd(with(diego(), func(s *lossv1.Sheet) { s.Fursa = -1 })), engine.CodeInvalid, "LOS-005", "Diego")
		f.refuse(gm, addCmd(with(diego(), func(s *lossv1.Sheet) { s.Inspiration = map[string]int32{"Bravoure": 1} })), engine.CodeInvalid, "LOS-005", "Bravoure")
		f.refuse(gm, addCmd(with(diego(), func(s *lossv1.Sheet) { s.Inspiration = map[string]int32{"Courage": -1} })), engine.CodeInvalid, "LOS-005", "Diego")
		blank(t).refuse(gm, createCmd(&lossv1.Options{GmFursa: proto.Int32(-1)}), engine.CodeInvalid, "LOS-005")
	})
}
