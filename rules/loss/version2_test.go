package loss_test

import (
	"fmt"
	"testing"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
)

// The fixes of version 2 (issue 26), each played under version 1 and version 2 with the
// outcome of each: the difference is the assertion. Version 1 keeps deciding as it did.

// versions runs test under version 1 and version 2.
func versions(t *testing.T, test func(t *testing.T, version uint32)) {
	for _, v := range []uint32{1, 2} {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) { test(t, v) })
	}
}

// LOS-110, LOS-062: a counter blow strikes one who has just acted. Diego (15) attacks and is
// at 11; the ruffian (12) dodges with a Counter-attack (12 + 9 = 21 ≥ 20, at 11) and his
// dagger of damage 30 fells Diego at 11, the phase they share. Version 1 owed Diego his action
// there; version 2 owes him nothing: he is out.
func TestLOS110CounterBlowOwesNothing(t *testing.T) {
	versions(t, func(t *testing.T, v uint32) {
		killer := with(ruffian(), func(s *lossv1.Sheet) { s.Weapons[0].Damage = 30 })
		f := newFightAt(t, v, nil, diego(), killer)
		f.start(7, 7)                                        // Diego 15, the ruffian 12
		f.do("david", attack("diego", "malfrat", 0, nil), 5) // 17 ≥ 15; Diego 11
		f.do(gm, exReact("malfrat", &lossv1.React{Reaction: exDodge, Effects: []lossv1.ExploitEffect{exCounter}, CounterWeapon: "dague"}), 9, 9)
		require.Equal(t, []int32{11, 8}, f.ap("diego", "malfrat"))
		f.do("david", takeBlow("diego"), 5) // 35 NS
		require.True(t, f.cs("diego").GetOut())
		switch v {
		case 1:
			require.Equal(t, int32(11), f.cs("diego").GetOwedPhase())
			f.do("david", attack("diego", "malfrat", 0, nil), 1)
		case 2:
			require.Zero(t, f.cs("diego").GetOwedPhase())
			f.refuse("david", attack("diego", "malfrat", 0, nil), engine.CodePrecondition, "LOS-022", "Diego")
		}
	})
}

// LOS-110, LOS-102: the reverse gap. Diego and the vigile are both at 14; the vigile charges
// (12 + 8 = 20 ≥ 20) and Diego takes it: thrown down at his own phase, by one acting at it.
// Version 1 refused him his action there (he had to stand up first); version 2 leaves it to
// him: he pulls away at 14, prone as he is.
func TestLOS110PursuitKnockDownAtTheSharedPhase(t *testing.T) {
	versions(t, func(t *testing.T, v uint32) {
		f := newFightAt(t, v, nil, fleeing(), vigile())
		f.start(6, 9) // both at 14
		f.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 2))
		f.do(gm, pursue("vigile", charge, "diego", 0), 8)
		f.do("david", takeBlow("diego"))
		require.True(t, f.cs("diego").GetProne())
		require.Equal(t, []int32{14, 11}, f.ap("diego", "vigile"))
		switch v {
		case 1:
			require.Zero(t, f.cs("diego").GetOwedPhase())
			f.refuse("david", pullAway("diego", 0, nil), engine.CodePrecondition, "LOS-072", "Diego")
		case 2:
			require.Equal(t, int32(14), f.cs("diego").GetOwedPhase())
			evs := f.do("david", pullAway("diego", 0, nil), 9) // 11 + 9 = 20 < 25 (prone +10)
			require.False(t, pursuitActed(t, evs).GetSuccess())
			require.True(t, f.cs("diego").GetProne(), "still down: he acted without standing up")
		}
	})
}

// LOS-035: « faire chuter un adversaire : 3 PA ». Diego trips the ruffian (Athletics 12 + 5 =
// 17 ≥ 15) and the ruffian takes it. Version 1 left him standing (no automatic effect);
// version 2 throws him down, as Overthrow does: he must stand up (4 PA) before anything else,
// and Diego strikes him at +10 (LOS-052). A grab still has no automatic effect.
func TestLOS035TripMakesTheTargetFall(t *testing.T) {
	versions(t, func(t *testing.T, v uint32) {
		f := newFightAt(t, v, nil, fleeing(), ruffian())
		f.start(7, 1) // Diego 15, the ruffian 6
		f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Manoeuvre: lossv1.Manoeuvre_MANOEUVRE_GRAB}), 5)
		f.do(gm, takeBlow("malfrat"))
		require.False(t, f.cs("malfrat").GetProne(), "a grab: no automatic effect")
		f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Manoeuvre: lossv1.Manoeuvre_MANOEUVRE_TRIP}), 5) // Diego 9
		res := rgResolved(t, f.do(gm, takeBlow("malfrat")))
		require.True(t, res.GetHit())
		switch v {
		case 1:
			require.False(t, f.cs("malfrat").GetProne())
			require.Contains(t, res.GetNote(), "no automatic effect")
			f.do("david", pass("diego"))
			f.refuse(gm, exSimple("malfrat", lossv1.SimpleKind_SIMPLE_KIND_STAND_UP), engine.CodePrecondition, "LOS-072", "Malfrat")
		case 2:
			require.True(t, f.cs("malfrat").GetProne())
			require.Equal(t, "Malfrat falls and must stand up at its next action (LOS-035)", res.GetNote())
			ar := rgRolled(t, f.do("david", attack("diego", "malfrat", 0, nil), 1)) // Diego 5
			require.Equal(t, map[string]int32{"LOS-052": 10}, rgMods(ar.GetTest().GetTestModifiers()))
			f.do(gm, takeBlow("malfrat"), 1)
			f.refuse(gm, attack("malfrat", "diego", 0, nil), engine.CodePrecondition, "LOS-072", "Malfrat", "stand up")
			f.do(gm, exSimple("malfrat", lossv1.SimpleKind_SIMPLE_KIND_STAND_UP))
			require.False(t, f.cs("malfrat").GetProne())
		}
	})
}
