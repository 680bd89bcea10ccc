package loss_test

import (
	"fmt"
	"testing"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// LOS-009: the attacker rolls first; the defender then chooses parry, dodge or neither,
// knowing the attacker's result; nothing else happens until it has answered.
func TestLOS009DefenderAnswersAfterTheRoll(t *testing.T) {
	third := who("guetteur", "Guetteur", adv, 0, 3, 3, 3, 3, sword(5, 1))
	f := newFight(t, nil, diego(), ruffian(), third)
	f.start(7, 5, 9) // Diego 15, the ruffian 10, the lookout 9

	f.refuse(gm, dodge("malfrat", 0, nil), engine.CodePrecondition, "LOS-009")

	evs := f.do("david", attack("diego", "malfrat", 1, nil), 9) // 21 against 20
	ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
	require.True(t, ar.GetDefencePossible())
	none(t, evs, (*lossv1.Event).GetDefenceRolled)
	none(t, evs, (*lossv1.Event).GetAttackResolved)

	// The defender sees the attacker's result before choosing.
	p := f.St.GetLoss().GetPending()
	require.Equal(t, "diego", p.GetAttackerId())
	require.Equal(t, "malfrat", p.GetDefenderId())
	require.Equal(t, int32(21), p.GetAttackTotal())
	require.Equal(t, int32(20), p.GetDifficulty())
	require.Len(t, f.St.GetPending(), 1)
	require.Equal(t, "malfrat", f.St.GetPending()[0].GetCombatantId())
	require.Equal(t, gm, f.St.GetPending()[0].GetController())
	require.Contains(t, f.St.GetPending()[0].GetPrompt(), "21")

	// Until the defender answers, no one else acts, and only the defender reacts.
	f.refuse("david", attack("diego", "malfrat", 0, nil), engine.CodePrecondition, "LOS-009", "Malfrat")
	f.refuse(gm, pass("guetteur"), engine.CodePrecondition, "LOS-009", "Malfrat")
	f.refuse(gm, dodge("guetteur", 0, nil), engine.CodePrecondition, "LOS-009", "Malfrat")
	f.refuse(gm, react("malfrat", lossv1.Reaction_REACTION_UNSPECIFIED, 0, nil), engine.CodeInvalid, "LOS-009", "Malfrat")
	f.refuse("david", dodge("malfrat", 0, nil), engine.CodePermission, "")
	noDodge := with(ruffian(), func(s *lossv1.Sheet) { s.Dodge = nil })
	g := newFight(t, nil, diego(), noDodge)
	g.start(7, 5)
	g.do("david", attack("diego", "malfrat", 0, nil), 5)
	g.refuse(gm, dodge("malfrat", 0, nil), engine.CodePrecondition, "LOS-018", "Malfrat", "dodge")

	// Taking the blow costs no PA and no Test: the attack hits with its Exploit, 2d10 + 3.
	evs = f.do(gm, takeBlow("malfrat"), 4, 5)
	dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
	require.Equal(t, lossv1.Reaction_REACTION_NONE, dr.GetReaction())
	require.Nil(t, dr.GetTest())
	require.Equal(t, int32(0), dr.GetActionPointsSpent())
	res := find(t, evs, (*lossv1.Event).GetAttackResolved)
	require.True(t, res.GetHit())
	require.Equal(t, int32(1), res.GetExploitsStanding())
	require.Equal(t, int32(4+5+3), res.GetDamage().GetTotal())
	require.Equal(t, int32(10), f.cs("malfrat").GetActionPoints())
	require.Nil(t, f.St.GetLoss().GetPending())
	require.Empty(t, f.St.GetPending())
	f.refuse(gm, dodge("malfrat", 0, nil), engine.CodePrecondition, "LOS-009")
}

// LOS-010: the attacker's Difficulty is 15 + 5 per declared Exploit, at most 5 Exploits.
func TestLOS010AttackDifficulty(t *testing.T) {
	for n := range 6 {
		t.Run(fmt.Sprintf("%d Exploits", n), func(t *testing.T) {
			strong := who("hercule", "Hercule", pc, 10, 25, 10, 5, 5, sword(4, 0))
			f := newFight(t, nil, strong, ruffian())
			f.start(5, 1)
			evs := f.do("david", attack("hercule", "malfrat", n, nil), 5)
			ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
			require.Equal(t, int32(15+5*n), ar.GetTest().GetDifficulty())
			require.Equal(t, int32(40), ar.GetTest().GetTotal())
			require.True(t, ar.GetTest().GetSuccess())
			require.Equal(t, int32(15+5*n), f.St.GetLoss().GetPending().GetDifficulty())
		})
	}
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	f.refuse("david", attack("diego", "malfrat", 6, nil), engine.CodeInvalid, "LOS-010", "Diego", "6")
}

// LOS-011: a failed attack misses: no reaction is asked for, no damage is rolled, and the
// attacker still pays the PA.
func TestLOS011FailedAttackMisses(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	evs := f.do("david", attack("diego", "malfrat", 0, nil), 2) // 14 < 15
	ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
	require.False(t, ar.GetTest().GetSuccess())
	require.False(t, ar.GetDefencePossible())
	res := find(t, evs, (*lossv1.Event).GetAttackResolved)
	require.False(t, res.GetHit())
	require.Nil(t, res.GetDamage())
	require.Nil(t, f.St.GetLoss().GetPending())
	require.Empty(t, f.St.GetPending())
	cs := f.cs("malfrat")
	require.Equal(t, []int32{5, 5, 5}, []int32{cs.GetLight(), cs.GetGrave(), cs.GetFatal()})
	require.Equal(t, []int32{11, 10}, f.ap("diego", "malfrat"))
}

// LOS-012: the defender Tests against the attacker's Difficulty (15 + 5 per attacker
// Exploit) + its own modifiers + 5 per Exploit it declares (at most 5); the attacker's own
// modifiers (here its wounds, LOS-022) are not passed on.
func TestLOS012DefenceDifficulty(t *testing.T) {
	t.Run("attacker's and defender's Exploits add up", func(t *testing.T) {
		for n := int32(0); n <= 5; n++ {
			strong := with(ruffian(), func(s *lossv1.Sheet) { s.Talents["Esquive"] = 25 })
			f := newFight(t, nil, diego(), strong)
			f.start(7, 5)
			f.do("david", attack("diego", "malfrat", 2, nil), 10, 3) // 12 + 13 = 25
			success := 39 >= 25+5*n
			faces := []int32{9}
			if !success {
				faces = append(faces, 1) // 39 cancels both Exploits (LOS-014): a 1d10 hit
			}
			evs := f.do(gm, dodge("malfrat", n, nil), faces...)
			dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
			require.Equal(t, 25+5*n, dr.GetTest().GetDifficulty())
			require.Equal(t, n, dr.GetExploits())
			require.Equal(t, int32(39), dr.GetTest().GetTotal())
			require.Equal(t, success, dr.GetTest().GetSuccess(), "%d defence Exploits", n)
			require.Equal(t, !success, find(t, evs, (*lossv1.Event).GetAttackResolved).GetHit())
			bonus := int32(0)
			if success && n > 0 {
				bonus = 5 // LOS-016
			}
			require.Equal(t, bonus, f.cs("malfrat").GetNextActionBonus())
		}
	})
	t.Run("more than 5 defence Exploits", func(t *testing.T) {
		f := newFight(t, nil, diego(), ruffian())
		f.start(7, 5)
		f.do("david", attack("diego", "malfrat", 0, nil), 9)
		f.refuse(gm, dodge("malfrat", 6, nil), engine.CodeInvalid, "LOS-012", "Malfrat")
		f.refuse(gm, dodge("malfrat", -1, nil), engine.CodeInvalid, "LOS-012", "Malfrat")
	})
	t.Run("wounds: the defender's count, the attacker's do not", func(t *testing.T) {
		f := newFight(t, nil, diego(), ruffian())
		f.start(4, 10) // Diego 12, the ruffian 15
		// The ruffian wounds Diego unseen: 5 + 2 = 7 levels, Diego is in the grave band.
		f.do(gm, unseen("malfrat", "diego", 0), 9, 5)
		cs := f.cs("diego")
		require.Equal(t, []int32{0, 3, 5}, []int32{cs.GetLight(), cs.GetGrave(), cs.GetFatal()})

		// Both at 12. Diego attacks at 15 + 5 = 20 and makes 20.
		evs := f.do("david", attack("diego", "malfrat", 0, nil), 8)
		ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
		require.Equal(t, int32(20), ar.GetTest().GetDifficulty())
		require.True(t, ar.GetTest().GetSuccess())
		// The ruffian dodges against 15, not 20: 16 succeeds.
		require.Equal(t, int32(15), f.St.GetLoss().GetPending().GetDifficulty())
		evs = f.do(gm, dodge("malfrat", 0, nil), 4)
		dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
		require.Equal(t, int32(15), dr.GetTest().GetDifficulty())
		require.Equal(t, int32(16), dr.GetTest().GetTotal())
		require.True(t, dr.GetTest().GetSuccess())

		// The ruffian (11) attacks; wounded Diego dodges at 15 + 5 = 20 and misses with 19.
		f.do(gm, attack("malfrat", "diego", 0, nil), 7)
		evs = f.do("david", dodge("diego", 0, nil), 9, 1)
		dr = find(t, evs, (*lossv1.Event).GetDefenceRolled)
		require.Equal(t, int32(20), dr.GetTest().GetDifficulty())
		require.Equal(t, int32(19), dr.GetTest().GetTotal())
		require.False(t, dr.GetTest().GetSuccess())
		require.True(t, find(t, evs, (*lossv1.Event).GetAttackResolved).GetHit())
	})
}

// LOS-013: attacker succeeds and defender fails: a hit; both succeed: a miss.
func TestLOS013HitOrMiss(t *testing.T) {
	for _, c := range []struct {
		name      string
		dodgeFace int32
		hit       bool
	}{
		{"defender fails", 2, true},     // 12 + 2 = 14 < 15
		{"defender succeeds", 3, false}, // 12 + 3 = 15
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFight(t, nil, diego(), ruffian())
			f.start(7, 5)
			f.do("david", attack("diego", "malfrat", 0, nil), 8)
			faces := []int32{c.dodgeFace}
			if c.hit {
				faces = append(faces, 6) // the damage d10
			}
			evs := f.do(gm, dodge("malfrat", 0, nil), faces...)
			require.Equal(t, !c.hit, find(t, evs, (*lossv1.Event).GetDefenceRolled).GetTest().GetSuccess())
			res := find(t, evs, (*lossv1.Event).GetAttackResolved)
			require.Equal(t, c.hit, res.GetHit())
			cs := f.cs("malfrat")
			if c.hit {
				require.Equal(t, int32(6+3), res.GetDamage().GetLevelsLost())
				require.Equal(t, []int32{0, 1, 5}, []int32{cs.GetLight(), cs.GetGrave(), cs.GetFatal()})
			} else {
				require.Nil(t, res.GetDamage())
				require.Equal(t, []int32{5, 5, 5}, []int32{cs.GetLight(), cs.GetGrave(), cs.GetFatal()})
			}
			require.Equal(t, int32(9), cs.GetActionPoints(), "the dodge costs 1 PA either way")
		})
	}
}

// LOS-014: a defender that misses its Difficulty but totals ≥ 20 cancels one attacker
// Exploit per full step of 5 from 20. LOS-015: if it cancels them all, the attack still hits
// as a plain attack. LOS-020: the damage roll has one d10 plus one per Exploit standing.
func TestLOS014LOS015PartialDefence(t *testing.T) {
	for _, c := range []struct {
		total, ownExploits, cancelled int32
	}{
		{19, 0, 0},
		{20, 0, 1},
		{24, 0, 1},
		{25, 0, 2},
		{29, 0, 2},
		{30, 0, 3},
		{34, 0, 3},
		{35, 0, 4},
		{39, 0, 4},
		{40, 1, 5}, // LOS-015: all five cancelled by a defender that missed 45
		{44, 1, 5},
	} {
		t.Run(fmt.Sprintf("total %d", c.total), func(t *testing.T) {
			strong := who("hercule", "Hercule", pc, 10, 25, 10, 5, 5, sword(4, 0))
			def := who("malfrat", "Malfrat", adv, 0, 5, 5, 10, c.total-15, sword(4, 0))
			f := newFight(t, nil, strong, def)
			f.start(5, 1)
			evs := f.do("david", attack("hercule", "malfrat", 5, nil), 5) // 40 against 40
			require.True(t, find(t, evs, (*lossv1.Event).GetAttackRolled).GetTest().GetSuccess())

			standing := 5 - c.cancelled
			faces := []int32{5} // the dodge d10
			for range 1 + standing {
				faces = append(faces, 1) // the damage d10s
			}
			evs = f.do(gm, dodge("malfrat", c.ownExploits, nil), faces...)
			dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
			require.Equal(t, c.total, dr.GetTest().GetTotal())
			require.Equal(t, 40+5*c.ownExploits, dr.GetTest().GetDifficulty())
			require.False(t, dr.GetTest().GetSuccess())
			require.Equal(t, c.cancelled, dr.GetExploitsCancelled())

			res := find(t, evs, (*lossv1.Event).GetAttackResolved)
			require.True(t, res.GetHit(), "LOS-015: still a hit")
			require.Equal(t, standing, res.GetExploitsStanding())
			require.Len(t, res.GetDamage().GetRoll().GetFaces(), int(1+standing))
			require.Equal(t, fmt.Sprintf("%dd10", 1+standing), res.GetDamage().GetRoll().GetExpression())
			require.Equal(t, 1+standing, res.GetDamage().GetTotal())
		})
	}
}

// LOS-015: one Exploit (Difficulty 20) against a defender that declares one itself (25) and
// totals 21: the Exploit is cancelled and the attack hits plainly, 1d10 + weapon.
func TestLOS015AllExploitsCancelledStillHits(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	f.do("david", attack("diego", "malfrat", 1, nil), 9) // 21 ≥ 20
	evs := f.do(gm, dodge("malfrat", 1, nil), 9, 4)
	dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
	require.Equal(t, int32(25), dr.GetTest().GetDifficulty())
	require.Equal(t, int32(21), dr.GetTest().GetTotal())
	require.False(t, dr.GetTest().GetSuccess())
	require.Equal(t, int32(1), dr.GetExploitsCancelled())
	res := find(t, evs, (*lossv1.Event).GetAttackResolved)
	require.True(t, res.GetHit())
	require.Equal(t, int32(0), res.GetExploitsStanding())
	require.Equal(t, "1d10", res.GetDamage().GetRoll().GetExpression())
	require.Equal(t, int32(4+3), res.GetDamage().GetTotal())
	require.Equal(t, int32(0), f.cs("malfrat").GetNextActionBonus(), "a failed Exploit gives no bonus")
}

// LOS-016: a successful defence Exploit gives +5 to the defender's next action; a
// successful defence without Exploit gives nothing; the bonus does not outlive the Tour.
func TestLOS016DefenceBonus(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	f.do("david", attack("diego", "malfrat", 0, nil), 8)
	f.do(gm, dodge("malfrat", 0, nil), 9)
	require.Equal(t, int32(0), f.cs("malfrat").GetNextActionBonus())
	f.do("david", attack("diego", "malfrat", 0, nil), 8)
	f.do(gm, dodge("malfrat", 1, nil), 9)
	require.Equal(t, int32(5), f.cs("malfrat").GetNextActionBonus())
	// Diego (7) and the ruffian (8): the ruffian's next action is a pass; the Tour ends and
	// the bonus with it.
	f.do(gm, pass("malfrat"))
	f.do("david", pass("diego"), 1, 1)
	require.Equal(t, int32(0), f.cs("malfrat").GetNextActionBonus())
}

// LOS-017: a defender that does not see the attack cannot parry or dodge: the attack hits
// at once.
func TestLOS017UnseenAttack(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	evs := f.do("david", unseen("diego", "malfrat", 1), 8, 2, 3)
	ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
	require.True(t, ar.GetTest().GetSuccess())
	require.False(t, ar.GetDefencePossible())
	require.Contains(t, ar.GetNoDefenceReason(), "LOS-017")
	require.Contains(t, ar.GetNoDefenceReason(), "Malfrat")
	none(t, evs, (*lossv1.Event).GetDefenceRolled)
	res := find(t, evs, (*lossv1.Event).GetAttackResolved)
	require.True(t, res.GetHit())
	require.Equal(t, int32(2+3+3), res.GetDamage().GetTotal())
	require.Nil(t, f.St.GetLoss().GetPending())
	require.Equal(t, int32(10), f.cs("malfrat").GetActionPoints(), "no dodge, no PA spent")
	f.refuse(gm, dodge("malfrat", 0, nil), engine.CodePrecondition, "LOS-009")
}

// LOS-020: damage is 1d10 + weapon damage, +1d10 per successful extra-damage Exploit.
// LOS-021: levels lost = damage − armour − shield protection, at least 0.
func TestLOS020LOS021Damage(t *testing.T) {
	for _, c := range []struct {
		exploits       int
		faces          []int32
		armour, shield int32
		total, lost    int32
	}{
		{0, []int32{6}, 0, 0, 6 + 3, 9},
		{2, []int32{3, 4, 5}, 0, 0, 12 + 3, 15},
		{2, []int32{3, 4, 5}, 2, 1, 15, 12},
		{1, []int32{1, 1}, 4, 1, 5, 0},
		{0, []int32{2}, 20, 3, 5, 0}, // never below 0
	} {
		t.Run(fmt.Sprintf("%d Exploits %v armour %d shield %d", c.exploits, c.faces, c.armour, c.shield), func(t *testing.T) {
			r := with(ruffian(), func(s *lossv1.Sheet) { s.Armour, s.ShieldProtection = c.armour, c.shield })
			f := newFight(t, nil, diego(), r)
			f.start(7, 5)
			evs := f.do("david", unseen("diego", "malfrat", c.exploits), append([]int32{10, 3}, c.faces...)...) // 25 ≥ 15..25
			d := find(t, evs, (*lossv1.Event).GetAttackResolved).GetDamage()
			require.Equal(t, c.faces, d.GetRoll().GetFaces())
			require.Equal(t, fmt.Sprintf("%dd10", 1+c.exploits), d.GetRoll().GetExpression())
			require.Equal(t, int32(3), d.GetWeaponDamage())
			require.Equal(t, c.total, d.GetTotal())
			require.Equal(t, c.armour, d.GetArmour())
			require.Equal(t, c.shield, d.GetShield())
			require.Equal(t, c.lost, d.GetLevelsLost())
			cs := f.cs("malfrat")
			require.Equal(t, int32(15)-c.lost, cs.GetLight()+cs.GetGrave()+cs.GetFatal())
		})
	}
}

// LOS-022: 15 NS boxes in bands of 5 (light, grave, fatal), lost in that order; +5
// Difficulty in the grave band, +10 in the fatal band; down at 0 fatal boxes. The option
// health_bands changes the bands.
func TestLOS022HealthBands(t *testing.T) {
	t.Run("default bands", func(t *testing.T) {
		f := newFight(t, nil, diego(), ruffian())
		require.Equal(t, []int32{5, 5, 5}, f.St.GetOptions().GetLoss().GetHealthBands())
		cs := f.cs("diego")
		require.Equal(t, []int32{5, 5, 5}, []int32{cs.GetLight(), cs.GetGrave(), cs.GetFatal()})
		f.start(1, 10) // Diego 9, the ruffian 15
		for _, c := range []struct {
			face                int32
			light, grave, fatal int32
			out                 bool
		}{
			{2, 1, 5, 5, false}, // 4 levels
			{5, 0, 0, 4, false}, // 7 levels: light, then grave, then fatal
			{10, 0, 0, 0, true}, // 12 levels, only 4 left (at 9, tied with Diego)
		} {
			evs := f.do(gm, unseen("malfrat", "diego", 0), 9, c.face)
			res := find(t, evs, (*lossv1.Event).GetAttackResolved)
			require.Equal(t, []int32{c.light, c.grave, c.fatal}, []int32{res.GetLight(), res.GetGrave(), res.GetFatal()})
			require.Equal(t, c.out, res.GetTargetOut())
			cs := f.cs("diego")
			require.Equal(t, []int32{c.light, c.grave, c.fatal}, []int32{cs.GetLight(), cs.GetGrave(), cs.GetFatal()})
			require.Equal(t, c.out, cs.GetOut())
		}
		// LOS-110: felled at the phase he shares with the ruffian, Diego still has his
		// action there; he passes.
		require.Equal(t, int32(9), f.cs("diego").GetOwedPhase())
		f.do("david", pass("diego"))
		// Down: Diego can neither act nor be attacked, and rolls no Initiative.
		f.refuse("david", pass("diego"), engine.CodePrecondition, "LOS-022", "Diego")
		f.refuse(gm, unseen("malfrat", "diego", 0), engine.CodePrecondition, "", "Diego")
		evs := f.do(gm, pass("malfrat"), 6)
		ts := find(t, evs, (*lossv1.Event).GetTourStarted)
		require.Len(t, ts.GetInitiative(), 1)
		require.Equal(t, []string{"malfrat"}, ts.GetInitiative()[0].GetCombatantIds())
		require.Equal(t, int32(0), f.cs("diego").GetActionPoints())
	})
	t.Run("penalties of the grave and fatal bands", func(t *testing.T) {
		f := newFight(t, &lossv1.Options{HealthBands: []int32{2, 2, 2}}, diego(), with(ruffian(), func(s *lossv1.Sheet) {
			s.Weapons[0].Damage = 0
			s.Armour = 3
		}))
		cs := f.cs("diego")
		require.Equal(t, []int32{2, 2, 2}, []int32{cs.GetLight(), cs.GetGrave(), cs.GetFatal()})
		f.start(4, 10)                                // Diego 12, the ruffian 15
		f.do(gm, unseen("malfrat", "diego", 0), 5, 3) // 3 levels: light 0, grave 1
		require.Equal(t, []int32{0, 1, 2}, []int32{f.cs("diego").GetLight(), f.cs("diego").GetGrave(), f.cs("diego").GetFatal()})

		// Grave band: Diego's attack is at 20.
		evs := f.do("david", attack("diego", "malfrat", 0, nil), 8)
		ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
		require.Equal(t, int32(20), ar.GetTest().GetDifficulty())
		require.True(t, ar.GetTest().GetSuccess())
		f.do(gm, takeBlow("malfrat"), 1) // 1 + 3 − 3 armour: 1 level
		require.Equal(t, int32(1), f.cs("malfrat").GetLight())

		// The ruffian (12) wounds Diego (8) again: fatal band.
		f.do(gm, unseen("malfrat", "diego", 0), 5, 2)
		require.Equal(t, []int32{0, 0, 1}, []int32{f.cs("diego").GetLight(), f.cs("diego").GetGrave(), f.cs("diego").GetFatal()})

		// Fatal band: Diego dodges at 15 + 10 = 25; 19 fails and the last box goes.
		f.do(gm, attack("malfrat", "diego", 0, nil), 5)
		evs = f.do("david", dodge("diego", 0, nil), 9, 1)
		dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
		require.Equal(t, int32(25), dr.GetTest().GetDifficulty())
		require.False(t, dr.GetTest().GetSuccess())
		res := find(t, evs, (*lossv1.Event).GetAttackResolved)
		require.True(t, res.GetTargetOut())
		require.True(t, f.cs("diego").GetOut())
	})
	t.Run("the band is the one the damage has reached", func(t *testing.T) {
		f := newFight(t, &lossv1.Options{HealthBands: []int32{2, 2, 2}}, diego(), with(ruffian(), func(s *lossv1.Sheet) {
			s.Weapons[0].Damage = 0
		}))
		f.start(4, 10)                                // Diego 12, the ruffian 15
		f.do(gm, unseen("malfrat", "diego", 0), 5, 2) // exactly the light band: 2 levels
		require.Equal(t, []int32{0, 2, 2}, []int32{f.cs("diego").GetLight(), f.cs("diego").GetGrave(), f.cs("diego").GetFatal()})
		// No grave box lost yet: Diego's attack is still at 15.
		evs := f.do("david", attack("diego", "malfrat", 0, nil), 8)
		require.Equal(t, int32(15), find(t, evs, (*lossv1.Event).GetAttackRolled).GetTest().GetDifficulty())
	})
	t.Run("malformed bands", func(t *testing.T) {
		for _, b := range [][]int32{{5, 5}, {5, 5, 5, 5}, {0, 5, 5}, {5, 5, 21}} {
			blank(t).refuse(gm, createCmd(&lossv1.Options{HealthBands: b}), engine.CodeInvalid, "LOS-022")
		}
	})
	t.Run("sbires have 10 NS and no bands", func(t *testing.T) {
		s := who("marin", "Marin", sbire, 3, 5, 4, 5, 4, claws(0))
		f := newFight(t, nil, diego(), s)
		cs := f.cs("marin")
		require.Equal(t, int32(10), cs.GetHealth())
		require.Equal(t, []int32{0, 0, 0}, []int32{cs.GetLight(), cs.GetGrave(), cs.GetFatal()})
		f.start(7, 1)
		evs := f.do("david", unseen("diego", "marin", 0), 9, 4)
		res := find(t, evs, (*lossv1.Event).GetAttackResolved)
		require.Equal(t, int32(3), res.GetHealth())
		require.False(t, res.GetTargetOut())
		evs = f.do("david", unseen("diego", "marin", 0), 9, 1)
		require.True(t, find(t, evs, (*lossv1.Event).GetAttackResolved).GetTargetOut())
		require.Equal(t, int32(0), f.cs("marin").GetHealth())
	})
}

// The default options are recorded in the creation event, so a replay uses the same rules.
func TestDefaultOptionsAreRecorded(t *testing.T) {
	f := newFight(t, nil)
	created := f.Log[0].GetEncounterCreated()
	want := &lossv1.Options{
		ExplodeActionD10: proto.Bool(true), ExplodeDamageD10: proto.Bool(false),
		HealthBands: []int32{5, 5, 5}, GmFursa: proto.Int32(0), GmFursaOnFailedExploit: proto.Bool(true),
		PcStartingFursa: proto.Int32(1), DefenceExploitBonus: proto.Int32(5),
		CancelledExploitsStillHit: proto.Bool(true), PassAttackerModifiers: proto.Bool(false),
		SbireCancelledExploitPlainHit: proto.Bool(true), DyingAtZeroFatal: proto.Bool(true),
		WallIsOnlyDefence: proto.Bool(true), AimsStack: proto.Bool(false), ZigzagUntilNextAction: proto.Bool(true),
		DeclareLowToHigh: proto.Bool(false), SamePhaseSimultaneous: proto.Bool(true),
	}
	require.True(t, proto.Equal(want, created.GetOptions().GetLoss()), "%v", created.GetOptions())
}
