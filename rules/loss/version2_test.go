package loss_test

import (
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
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
// (12 + 8 = 20 ≥ 20) and Diego takes it (or, with no dodge on his sheet, cannot dodge it):
// thrown down at his own phase, by one acting at it. Version 1 refused him his action there
// (he had to stand up first); version 2 leaves it to him: he pulls away at 14, prone as he is.
func TestLOS110PursuitKnockDownAtTheSharedPhase(t *testing.T) {
	for _, dodges := range []bool{true, false} {
		t.Run(fmt.Sprintf("dodge possible %v", dodges), func(t *testing.T) { pursuitKnockDown(t, dodges) })
	}
}

func pursuitKnockDown(t *testing.T, dodges bool) {
	versions(t, func(t *testing.T, v uint32) {
		runner := fleeing()
		if !dodges {
			runner = with(runner, func(s *lossv1.Sheet) { s.Dodge = nil })
		}
		f := newFightAt(t, v, nil, runner, vigile())
		f.start(6, 9) // both at 14
		f.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 2))
		evs := f.do(gm, pursue("vigile", charge, "diego", 0), 8)
		require.Equal(t, dodges, pursuitActed(t, evs).GetDodgePossible())
		if dodges {
			f.do("david", takeBlow("diego"))
		}
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

// LOS-016: the bonus of a successful defensive Exploit is for an « Action suivante
// Immédiate ». The ruffian dodges Diego with 1 Exploit (12 + 9 = 21 ≥ 20: +5, LOS-T01), then
// waits from 9 to 5 and attacks. Version 1 kept the bonus through the wait; in version 2 the
// wait forfeits it.
func TestLOS016AWaitForfeitsTheBonus(t *testing.T) {
	versions(t, func(t *testing.T, v uint32) {
		f := newFightAt(t, v, nil, diego(), ruffian())
		f.start(7, 5)                                        // Diego 15, the ruffian 10
		f.do("david", attack("diego", "malfrat", 0, nil), 8) // 20 ≥ 15
		f.do(gm, dodge("malfrat", 1, nil), 9)                // 21 ≥ 20; the ruffian 9
		require.Equal(t, int32(5), f.cs("malfrat").GetNextActionBonus())
		f.do("david", pass("diego"))
		f.do(gm, waitCmd("malfrat", 5))
		ar := rgRolled(t, f.do(gm, attack("malfrat", "diego", 0, nil), 1))
		switch v {
		case 1:
			require.Equal(t, map[string]int32{"LOS-016": 5}, rgMods(ar.GetTest().GetTestModifiers()))
		case 2:
			require.Zero(t, f.cs("malfrat").GetNextActionBonus())
			require.Empty(t, ar.GetTest().GetTestModifiers(), "the wait forfeited it")
		}
	})
}

// LOS-102: a Charge is dodged at a flat 20, so the Exploits declared on it bought nothing.
// Version 1 took them (and raised the charger's own Difficulty); version 2 refuses them and
// no longer offers them; a Charge without Exploits and a Clothesline with them stay.
func TestLOS102NoExploitsOnACharge(t *testing.T) {
	versions(t, func(t *testing.T, v uint32) {
		f := newFightAt(t, v, nil, fleeing(), vigile())
		f.start(1, 9) // Diego 9, the vigile 14
		f.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 2))
		offered := false
		legal, err := f.Reg.Legal(f.St, "vigile")
		require.NoError(t, err)
		for _, l := range legal {
			if l.GetName() == "charge" {
				for _, c := range l.GetChoices() {
					offered = offered || c.GetField() == "loss.pursuit.exploits"
				}
			}
		}
		switch v {
		case 1:
			require.True(t, offered)
			evs := f.do(gm, pursue("vigile", charge, "diego", 1), 9) // 21 < 25
			require.Equal(t, int32(25), pursuitActed(t, evs).GetTest().GetDifficulty())
		case 2:
			require.False(t, offered, "no Exploits offered on a Charge")
			f.refuse(gm, pursue("vigile", charge, "diego", 1), engine.CodePrecondition, "LOS-102", "Exploits")
			evs := f.do(gm, pursue("vigile", charge, "diego", 0), 9) // 21 ≥ 20
			require.True(t, pursuitActed(t, evs).GetSuccess())
		}
	})
}

// LOS-090: heavy weapons cannot be used mounted, « nor aimed while mounted ». Version 1
// refused the shot but let the archer aim it; version 2 refuses the aim too.
func TestLOS090NoAimingAHeavyWeaponMounted(t *testing.T) {
	versions(t, func(t *testing.T, v uint32) {
		heavy := rgBow()
		heavy.Heavy = true
		rider := with(rgArcher(heavy), func(s *lossv1.Sheet) { s.Mounted = true })
		f := newFightAt(t, v, nil, rider, ruffian())
		f.start(5, 1) // the archer 15, the ruffian 6
		f.refuse("david", rgShoot("archere", "malfrat", "arc", 12), engine.CodePrecondition, "LOS-090", "heavy")
		switch v {
		case 1:
			f.do("david", rgAim("archere", "arc", 1, false))
		case 2:
			f.refuse("david", rgAim("archere", "arc", 1, false), engine.CodePrecondition, "LOS-090", "heavy")
			f.refuse("david", rgAim("archere", "arc", 0, true), engine.CodePrecondition, "LOS-090", "heavy")
		}
	})
}

// LOS-074: one disarmed « ne peut plus attaquer tant qu'il n'a pas récupéré son arme ». Hercule
// disarms the archer (3 Exploits: 35 + 1 = 36 ≥ 30). Version 1 let her aim before she had her
// weapon back; version 2 refuses it, and offers no aim, until she picks it up (2 PA).
func TestLOS074NoAimingDisarmed(t *testing.T) {
	versions(t, func(t *testing.T, v uint32) {
		f := newFightAt(t, v, nil, exHero(), rgArcher(rgBow()))
		f.start(5, 3) // Hercule 15, the archer 13
		f.do("david", exStrike("hercule", exAt("archere", "épée", exDisarm)), 1)
		f.do("david", takeBlow("archere"))
		require.True(t, f.cs("archere").GetDisarmed())
		costs, _ := legalNames(t, f, "archere")
		_, aimOffered := costs["aim"]
		switch v {
		case 1:
			require.True(t, aimOffered)
			f.do("david", rgAim("archere", "arc", 1, false))
		case 2:
			require.False(t, aimOffered)
			f.refuse("david", rgAim("archere", "arc", 1, false), engine.CodePrecondition, "LOS-074", "Archère", "weapon back")
			f.do("david", exSimple("archere", lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON))
			f.do("david", rgAim("archere", "arc", 1, false))
		}
	})
}

// LOS-062: a counter-attack « une seule fois par adversaire et par Tour », nothing else. The
// ruffian dodges Diego with a Counter-attack and hits; Diego, a better dodger here, dodges the
// counter blow with a Counter-attack of his own. Version 1 refused it (a counter-attack could
// not be countered); version 2 takes it, and the ruffian, who has countered Diego once this
// Tour, cannot counter again.
func TestLOS062ACounterAttackMayBeCountered(t *testing.T) {
	versions(t, func(t *testing.T, v uint32) {
		nimble := with(diego(), func(s *lossv1.Sheet) { s.Talents["Esquive"] = 9 })
		f := newFightAt(t, v, nil, nimble, ruffian())
		f.start(7, 7)                                                            // Diego 15, the ruffian 12
		f.do("david", attack("diego", "malfrat", 0, nil), 5)                     // 17 ≥ 15; Diego 11
		f.do(gm, counterDodge("malfrat", "dague"), 9, 9)                         // 21 ≥ 20, then 19 ≥ 15
		require.Equal(t, "malfrat", f.St.GetLoss().GetPending().GetAttackerId()) // the counter blow awaits Diego
		switch v {
		case 1:
			f.refuse("david", counterDodge("diego", "sabre"), engine.CodePrecondition, "LOS-062", "countered")
		case 2:
			evs := f.do("david", counterDodge("diego", "sabre"), 9, 5) // 14 + 9 = 23 ≥ 20, then 17 ≥ 15
			require.True(t, rgRolled(t, evs).GetCounter())
			require.Equal(t, "malfrat", f.St.GetLoss().GetPending().GetDefenderId())
			f.refuse(gm, counterDodge("malfrat", "dague"), engine.CodePrecondition, "LOS-062", "already counter-attacked")
		}
	})
}

func counterDodge(id, weapon string) *encounterv1.Command {
	return exReact(id, &lossv1.React{Reaction: exDodge, Effects: []lossv1.ExploitEffect{exCounter}, CounterWeapon: weapon})
}

// LOS-051: at most 5 attack one combatant in melee « à la fois ». Five sailors swing at
// Hercule and miss; he fells one (a Sbire felled by an Exploit, LOS-025); the sixth sailor
// then attacks him. Version 1 counted every attacker of the Tour and refused the sixth;
// version 2 counts those attacking him now: the felled one has freed its place.
func TestLOS051AFelledAttackerFreesItsPlace(t *testing.T) {
	versions(t, func(t *testing.T, v uint32) {
		cs := []*encounterv1.Combatant{exHero()}
		for i := 1; i <= 5; i++ {
			cs = append(cs, exSailor(fmt.Sprintf("m%d", i)))
		}
		sixth := with(exSailor("m6"), func(s *lossv1.Sheet) { s.InitiativeGroup = "" })
		f := newFightAt(t, v, nil, append(cs, sixth)...)
		f.start(1, 9, 6) // Hercule 11, the five sailors 12, the sixth 9
		for i := 1; i <= 5; i++ {
			f.do(gm, attack(fmt.Sprintf("m%d", i), "hercule", 0, nil), 1) // 10 < 15
		}
		f.do("david", attackWith("hercule", "m1", "épée", 1, nil, false), 1) // 36 ≥ 20
		f.do(gm, takeBlow("m1"))
		require.True(t, f.cs("m1").GetOut())
		for i := 2; i <= 5; i++ {
			f.do(gm, pass(fmt.Sprintf("m%d", i)))
		}
		switch v {
		case 1:
			f.refuse(gm, attack("m6", "hercule", 0, nil), engine.CodePrecondition, "LOS-051", "Hercule")
		case 2:
			f.do(gm, attack("m6", "hercule", 0, nil), 1)
			require.Len(t, f.cs("hercule").GetMeleeAttackers(), 6, "the Tour's attackers are all recorded; five count")
		}
	})
}
