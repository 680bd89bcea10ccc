package loss_test

import (
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
)

// Tests of attack.go's rules, each written against a mutant that lived in a mutation run of
// rules/loss (scripts/mutation.sh, issue 26): a bound or a condition that no test told apart.

// LOS-051 (version 2): five attacking Hercule now still fill every place, so a sixth is
// refused as in version 1; the GM removes one of them and its place is free.
func TestLOS051FiveStandingAttackersStillFillEveryPlace(t *testing.T) {
	cs := []*encounterv1.Combatant{exHero()}
	for i := 1; i <= 6; i++ {
		cs = append(cs, exSailor(fmt.Sprintf("m%d", i)))
	}
	f := newFightAt(t, 2, nil, cs...)
	f.start(1, 9) // Hercule 11, the sailors 12
	for i := 1; i <= 5; i++ {
		f.do(gm, attack(fmt.Sprintf("m%d", i), "hercule", 0, nil), 1) // 10 < 15
	}
	f.refuse(gm, attack("m6", "hercule", 0, nil), engine.CodePrecondition, "LOS-051", "Hercule", "5")
	f.do(gm, removeCmd("m1"))
	f.do(gm, attack("m6", "hercule", 0, nil), 1)
	require.Len(t, f.cs("hercule").GetMeleeAttackers(), 6, "the Tour's attackers are all recorded; five count")
}

// LOS-084: point-blank is under 2 m; a shot that gives no distance is close (Difficulty 15)
// but not point-blank: no +5.
func TestLOS084NoDistanceIsNotPointBlank(t *testing.T) {
	f := newFight(t, nil, rgArcher(rgBow()), ruffian())
	f.start(5, 5)
	ar := rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "", 0), 1))
	require.Equal(t, int32(15), ar.GetTest().GetDifficulty())
	require.Empty(t, ar.GetTest().GetTestModifiers())
	require.Equal(t, int32(20+1), ar.GetTest().GetTotal())
}

// LOS-070, LOS-021: the second weapon of Two weapons on one target goes through the same armour
// and shield as the first. Hercule strikes the legionary (armour 1, scutum 3) with the dague
// (5 + 2 = 7) and the épée (4 + 3 = 7): 7 − 1 − 3 = 3 NS each.
func TestLOS070SecondWeaponThroughArmourAndShield(t *testing.T) {
	legion := with(exLegionary(), func(s *lossv1.Sheet) { s.Armour = 1 })
	f := newFight(t, nil, exHero(), legion)
	f.start(5, 1) // Hercule 15, the legionary 6
	a := exAt("legion", "dague", exTwo)
	a.SecondWeapon = "épée"
	f.do("david", exStrike("hercule", a), 1) // 36 ≥ 20
	res := find(t, f.do(gm, takeBlow("legion"), 5, 4), (*lossv1.Event).GetAttackResolved)
	for _, d := range []*lossv1.Damage{res.GetDamage(), res.GetSecondDamage()} {
		require.Equal(t, []int32{7, 1, 3, 3}, []int32{d.GetTotal(), d.GetArmour(), d.GetShield(), d.GetLevelsLost()})
	}
	require.Equal(t, []int32{0, 4, 5}, exNS(f.cs("legion")), "an Adversaire's 5 light, 5 grave, 5 fatal less 6")
}
