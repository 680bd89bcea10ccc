package loss_test

import (
	"fmt"
	"google.golang.org/protobuf/proto"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
)

// LOS-031: the highest phase acts first, then in descending order; a combatant's phase is
// its remaining PA.
func TestLOS031HighestPhaseActsFirst(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5) // Diego 15, the ruffian 10

	re := f.refuse(gm, attack("malfrat", "diego", 0, nil), engine.CodePrecondition, "LOS-031", "Malfrat", "Diego")
	require.Contains(t, re.Msg, "10")
	require.Contains(t, re.Msg, "15")
	f.refuse(gm, pass("malfrat"), engine.CodePrecondition, "LOS-031", "Malfrat")

	f.do("david", attack("diego", "malfrat", 0, nil), 1) // misses; Diego 11, still above 10
	require.Equal(t, int32(11), f.cs("diego").GetActionPoints())
	f.refuse(gm, attack("malfrat", "diego", 0, nil), engine.CodePrecondition, "LOS-031", "Malfrat", "Diego")
	f.do("david", attack("diego", "malfrat", 0, nil), 1) // Diego 7
	// Now the ruffian at 10 is first, and Diego waits.
	f.refuse("david", attack("diego", "malfrat", 0, nil), engine.CodePrecondition, "LOS-031", "Diego", "Malfrat")
	f.do(gm, attack("malfrat", "diego", 0, nil), 1) // the ruffian 7
	require.Equal(t, []int32{7, 7}, f.ap("diego", "malfrat"))

	// Two at the highest phase: the refusal names the one who joined first.
	lookout := who("guetteur", "Guetteur", adv, 0, 3, 3, 3, 3, sword(5, 1))
	g := newFight(t, nil, diego(), ruffian(), lookout)
	g.start(1, 5, 10) // Diego 9, the ruffian 10, the lookout 10
	re = g.refuse("david", pass("diego"), engine.CodePrecondition, "LOS-031", "Diego")
	require.Contains(t, re.Msg, "Malfrat acts first at phase 10")
}

// LOS-032: a combatant with no PA left cannot act, not even defend: an attack on it hits
// without a reaction.
func TestLOS032NoPALeft(t *testing.T) {
	lookout := who("guetteur", "Guetteur", adv, 0, 3, 3, 3, 3, sword(5, 1))
	f := newFight(t, nil, with(diego(), func(s *lossv1.Sheet) { s.Initiative = 0 }), with(ruffian(), func(s *lossv1.Sheet) { s.Initiative = 9 }), lookout)
	f.start(1, 1, 5) // Diego 1 PA, the ruffian 10, the lookout 5

	f.do(gm, attack("malfrat", "diego", 0, nil), 5) // 15: a hit unless dodged
	f.do("david", dodge("diego", 0, nil), 1, 1)     // 11: fails; the dodge takes Diego's last PA
	require.Equal(t, int32(0), f.cs("diego").GetActionPoints())

	f.refuse("david", pass("diego"), engine.CodePrecondition, "LOS-032", "Diego")
	f.refuse("david", attack("diego", "malfrat", 0, nil), engine.CodePrecondition, "LOS-032", "Diego")
	legal, err := f.Reg.Legal(f.St, "diego")
	require.NoError(t, err)
	require.Empty(t, legal)

	evs := f.do(gm, attack("malfrat", "diego", 0, nil), 5, 4)
	ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
	require.True(t, ar.GetTest().GetSuccess())
	require.False(t, ar.GetDefencePossible())
	require.Contains(t, ar.GetNoDefenceReason(), "LOS-032")
	none(t, evs, (*lossv1.Event).GetDefenceRolled)
	res := find(t, evs, (*lossv1.Event).GetAttackResolved)
	require.True(t, res.GetHit())
	require.Equal(t, int32(4+2), res.GetDamage().GetLevelsLost())
	require.Nil(t, f.St.GetLoss().GetPending())
	require.Equal(t, []int32{0, 4, 5}, f.ap("diego", "malfrat", "guetteur"))
}

// LOS-033: the Tour ends when every combatant has spent its PA or passed; the next Tour
// starts with new rolls and the PA left are lost. A combatant that passed may still defend.
func TestLOS033EndOfTour(t *testing.T) {
	t.Run("passing", func(t *testing.T) {
		f := newFight(t, nil, diego(), ruffian())
		f.start(7, 5)
		evs := f.do("david", pass("diego"))
		p := find(t, evs, (*lossv1.Event).GetPassed)
		require.Equal(t, "diego", p.GetCombatantId())
		require.Equal(t, int32(15), p.GetActionPointsLeft())
		none(t, evs, (*lossv1.Event).GetTourStarted)
		require.True(t, f.cs("diego").GetPassed())
		f.refuse("david", attack("diego", "malfrat", 0, nil), engine.CodePrecondition, "LOS-033", "Diego")
		f.refuse("david", pass("diego"), engine.CodePrecondition, "LOS-033", "Diego")

		// Diego passed but still dodges (1 PA).
		f.do(gm, attack("malfrat", "diego", 0, nil), 5)
		f.do("david", dodge("diego", 0, nil), 9)
		require.Equal(t, []int32{14, 7}, f.ap("diego", "malfrat"))

		evs = f.do(gm, pass("malfrat"), 2, 3)
		ts := find(t, evs, (*lossv1.Event).GetTourStarted)
		require.Equal(t, int32(2), ts.GetTour())
		require.Equal(t, int32(2), f.St.GetLoss().GetTour())
		require.Equal(t, []int32{10, 8}, f.ap("diego", "malfrat"), "the 14 and 7 left are lost")
		require.False(t, f.cs("diego").GetPassed())
		require.False(t, f.cs("malfrat").GetPassed())
	})
	t.Run("spending every PA", func(t *testing.T) {
		f := newFight(t, nil, with(diego(), func(s *lossv1.Sheet) { s.Initiative = 0 }), with(ruffian(), func(s *lossv1.Sheet) { s.Initiative = 0 }))
		f.start(4, 3)
		evs := f.do("david", attack("diego", "malfrat", 0, nil), 1) // Diego 0, the ruffian 3: the Tour goes on
		none(t, evs, (*lossv1.Event).GetTourStarted)
		evs = f.do(gm, attack("malfrat", "diego", 0, nil), 1, 6, 2) // the ruffian 0: Tour 2
		ts := find(t, evs, (*lossv1.Event).GetTourStarted)
		require.Equal(t, int32(2), ts.GetTour())
		require.Equal(t, []int32{6, 2}, f.ap("diego", "malfrat"))
	})
}

// LOS-033: when the GM removes the last combatant still able to act, the Tour ends at once
// and the next one starts; it did not before, and no one could act again.
func TestLOS033RemovalEndsTour(t *testing.T) {
	remove := func(id string) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_RemoveCombatant{RemoveCombatant: &encounterv1.RemoveCombatant{CombatantId: id}}}
	}
	lookout := func() *encounterv1.Combatant { return who("guetteur", "Guetteur", adv, 0, 3, 3, 3, 3, sword(5, 1)) }

	t.Run("the last one acting", func(t *testing.T) {
		f := newFight(t, nil, diego(), ruffian(), lookout())
		f.start(7, 5, 1) // Diego 15, the ruffian 10, the lookout 1
		f.do("david", pass("diego"))
		f.do(gm, pass("malfrat"))
		evs := f.do(gm, remove("guetteur"), 2, 3)
		require.NotNil(t, evs[0].GetCombatantRemoved())
		ts := find(t, evs, (*lossv1.Event).GetTourStarted)
		require.Equal(t, int32(2), ts.GetTour())
		require.Len(t, ts.GetInitiative(), 2)
		require.Equal(t, []int32{10, 8}, f.ap("diego", "malfrat"))
		f.do("david", pass("diego"))
	})
	t.Run("one side of a pending attack", func(t *testing.T) {
		f := newFight(t, nil, diego(), ruffian(), lookout())
		f.start(7, 5, 5) // the lookout 5: enough for its sabre
		f.do("david", pass("diego"))
		f.do(gm, pass("malfrat"))
		f.do(gm, attack("guetteur", "diego", 0, nil), 9) // 15: Diego must answer
		require.NotNil(t, f.St.GetLoss().GetPending())
		evs := f.do(gm, remove("guetteur"), 4, 4)
		require.Nil(t, f.St.GetLoss().GetPending())
		require.Empty(t, f.St.GetPending())
		require.Equal(t, int32(2), find(t, evs, (*lossv1.Event).GetTourStarted).GetTour())
	})
	t.Run("others still acting", func(t *testing.T) {
		f := newFight(t, nil, diego(), ruffian(), lookout())
		f.start(7, 5, 1)
		evs := f.do(gm, remove("guetteur"))
		require.Len(t, evs, 1)
		require.Equal(t, int32(1), f.St.GetLoss().GetTour())
		f.do("david", attack("diego", "malfrat", 0, nil), 1)
	})
	t.Run("before the fight", func(t *testing.T) {
		f := newFight(t, nil, diego(), ruffian(), lookout())
		evs := f.do(gm, remove("guetteur"))
		require.Len(t, evs, 1)
		require.Equal(t, int32(0), f.St.GetLoss().GetTour())
	})
}

// LOS-034: a Séquence is 10 Tours: Tours 1–10 are Séquence 1, Tour 11 opens Séquence 2.
func TestLOS034Sequence(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	ts := f.start(7, 5)
	require.Equal(t, []int32{1, 1}, []int32{ts.GetTour(), ts.GetSequence()})
	for tour := int32(2); tour <= 21; tour++ {
		f.do("david", pass("diego"))
		evs := f.do(gm, pass("malfrat"), 7, 5)
		ts := find(t, evs, (*lossv1.Event).GetTourStarted)
		wantSeq := (tour-1)/10 + 1
		require.Equal(t, tour, ts.GetTour())
		require.Equal(t, wantSeq, ts.GetSequence(), "Tour %d", tour)
		require.Equal(t, tour, f.St.GetLoss().GetTour())
		require.Equal(t, wantSeq, f.St.GetLoss().GetSequence())
		switch tour {
		case 10:
			require.Equal(t, int32(1), wantSeq)
		case 11:
			require.Equal(t, int32(2), wantSeq)
		case 21:
			require.Equal(t, int32(3), wantSeq)
		}
	}
}

// LOS-035: PA costs: a weapon attack its Vitesse, a natural or unarmed attack 2, a parry or
// dodge 1. LOS-111: an action starts only with PA ≥ its cost.
func TestLOS035ActionCosts(t *testing.T) {
	beast := who("bete", "Bête", adv, 10, 5, 5, 5, 5,
		sword(4, 3), claws(2), weapon("poing", lossv1.WeaponKind_WEAPON_KIND_UNARMED, 0, 1))
	f := newFight(t, nil, beast, ruffian())
	f.start(5, 1) // the beast 15, the ruffian 6

	f.refuse(gm, attack("bete", "malfrat", 0, nil), engine.CodeInvalid, "", "Bête", "several weapons")
	f.refuse(gm, attackWith("bete", "malfrat", "hache", 0, nil, false), engine.CodeNotFound, "", "Bête", "hache")

	for _, c := range []struct {
		weapon string
		cost   int32
	}{{"sabre", 4}, {"griffes", 2}, {"poing", 2}} {
		before := f.cs("bete").GetActionPoints()
		evs := f.do(gm, attackWith("bete", "malfrat", c.weapon, 0, nil, false), 1) // 11: misses
		ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
		require.Equal(t, c.weapon, ar.GetWeapon())
		require.Equal(t, c.cost, ar.GetActionPointsSpent(), c.weapon)
		require.Equal(t, before-c.cost, f.cs("bete").GetActionPoints(), c.weapon)
	}
	require.Equal(t, int32(7), f.cs("bete").GetActionPoints())

	// A dodge costs 1.
	f.do(gm, attackWith("bete", "malfrat", "sabre", 0, nil, false), 9) // the beast 3
	evs := f.do(gm, dodge("malfrat", 0, nil), 1, 1)
	require.Equal(t, int32(1), find(t, evs, (*lossv1.Event).GetDefenceRolled).GetActionPointsSpent())
	require.Equal(t, []int32{3, 5}, f.ap("bete", "malfrat"))
	f.do(gm, pass("malfrat"))

	// LOS-111: 3 PA do not pay for the sabre (4); they pay for the claws (2).
	f.refuse(gm, attackWith("bete", "malfrat", "sabre", 0, nil, false), engine.CodePrecondition, "LOS-035", "Bête", "3 PA", "4")
	f.do(gm, attackWith("bete", "malfrat", "griffes", 0, nil, false), 9) // the beast 1
	// A parry costs 1 too, also for a combatant that passed.
	evs = f.do(gm, react("malfrat", lossv1.Reaction_REACTION_PARRY, 0, nil), 9)
	dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
	require.Equal(t, lossv1.Reaction_REACTION_PARRY, dr.GetReaction())
	require.Equal(t, int32(1), dr.GetActionPointsSpent())
	require.Equal(t, int32(10+9), dr.GetTest().GetTotal(), "parry: Puissance 5 + Arme de mêlée 5")
	require.Equal(t, []int32{1, 4}, f.ap("bete", "malfrat"))
	f.refuse(gm, attackWith("bete", "malfrat", "griffes", 0, nil, false), engine.CodePrecondition, "LOS-035", "Bête", "1 PA", "2")
	evs = f.do(gm, pass("bete"), 1, 1)
	require.Equal(t, int32(2), find(t, evs, (*lossv1.Event).GetTourStarted).GetTour())
}

// LOS-111: an action can be started only with PA ≥ its cost; exactly enough is enough.
func TestLOS111EnoughPA(t *testing.T) {
	for _, c := range []struct {
		pa int32
		ok bool
	}{{3, false}, {4, true}, {5, true}} {
		t.Run(fmt.Sprintf("%d PA", c.pa), func(t *testing.T) {
			d := with(diego(), func(s *lossv1.Sheet) { s.Initiative = 0 })
			r := with(ruffian(), func(s *lossv1.Sheet) { s.Initiative = 0 })
			f := newFight(t, nil, d, r)
			f.start(c.pa, 1)
			if !c.ok {
				f.refuse("david", attack("diego", "malfrat", 0, nil), engine.CodePrecondition, "LOS-035", "Diego", "costs 4")
				return
			}
			f.do("david", attack("diego", "malfrat", 0, nil), 1)
			require.Equal(t, c.pa-4, f.cs("diego").GetActionPoints())
		})
	}
}

// LOS-036: a parry or dodge costs 1 PA even when it fails and even before the combatant's
// first action; the PA left may then be too few for the action it meant to take.
func TestLOS036DefenceCostsBeforeFirstAction(t *testing.T) {
	d := with(diego(), func(s *lossv1.Sheet) { s.Initiative = 0 })
	f := newFight(t, nil, d, ruffian())
	f.start(5, 10) // Diego 5, the ruffian 15

	f.do(gm, attack("malfrat", "diego", 0, nil), 5)    // 15
	evs := f.do("david", dodge("diego", 0, nil), 1, 1) // 11: fails
	dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
	require.False(t, dr.GetTest().GetSuccess())
	require.Equal(t, int32(1), dr.GetActionPointsSpent())
	require.Equal(t, int32(4), f.cs("diego").GetActionPoints(), "paid although it failed")

	f.do(gm, attack("malfrat", "diego", 0, nil), 5)
	evs = f.do("david", dodge("diego", 0, nil), 9) // 19: succeeds
	require.True(t, find(t, evs, (*lossv1.Event).GetDefenceRolled).GetTest().GetSuccess())
	require.Equal(t, []int32{3, 9}, f.ap("diego", "malfrat"))

	// Diego meant to strike with his sabre (4 PA): 3 are too few; he can only pass.
	f.do(gm, pass("malfrat"))
	f.refuse("david", attack("diego", "malfrat", 0, nil), engine.CodePrecondition, "LOS-035", "Diego")
	evs = f.do("david", pass("diego"), 1, 1)
	find(t, evs, (*lossv1.Event).GetTourStarted)
}

// LOS-037: a group of Sbires rolls one Initiative, and each member has the rolled PA for
// itself; every member of a group must have the same Initiative.
func TestLOS037GroupInitiative(t *testing.T) {
	sailor := func(id string) *encounterv1.Combatant {
		return with(who(id, "Marin "+id, sbire, 3, 5, 4, 5, 4, claws(1)), func(s *lossv1.Sheet) { s.InitiativeGroup = "marins" })
	}
	f := newFight(t, nil, sailor("m1"), diego(), sailor("m2"))
	ts := f.start(9, 2) // one roll for the group (when its first member comes), one for Diego
	require.Len(t, ts.GetInitiative(), 2)
	require.Equal(t, []string{"m1", "m2"}, ts.GetInitiative()[0].GetCombatantIds())
	require.Equal(t, int32(12), ts.GetInitiative()[0].GetActionPoints())
	require.Equal(t, []string{"diego"}, ts.GetInitiative()[1].GetCombatantIds())
	require.Equal(t, []int32{12, 12, 10}, f.ap("m1", "m2", "diego"))

	// Each member spends its own PA.
	f.do(gm, attack("m1", "diego", 0, nil), 1)
	require.Equal(t, []int32{10, 12}, f.ap("m1", "m2"))

	// The next Tour rolls once for the group again.
	f.do(gm, pass("m2"))
	f.do(gm, pass("m1"))
	evs := f.do("david", pass("diego"), 4, 4)
	ts = find(t, evs, (*lossv1.Event).GetTourStarted)
	require.Len(t, ts.GetInitiative(), 2)
	require.Equal(t, []int32{7, 7, 12}, f.ap("m1", "m2", "diego"))

	// A member whose Initiative differs from the group's is refused.
	g := newFight(t, nil, sailor("m1"))
	odd := with(sailor("m2"), func(s *lossv1.Sheet) { s.Initiative = 4 })
	g.refuse(gm, addCmd(odd), engine.CodeInvalid, "LOS-037", "Marin m2", "Marin m1")
}

// LOS-110: combatants at the same phase act in the order their commands arrive; the one
// that acts first does not take away the other's action at that phase.
func TestLOS110SamePhase(t *testing.T) {
	for _, first := range []string{"diego", "malfrat"} {
		t.Run(first+" first", func(t *testing.T) {
			f := newFight(t, nil, diego(), ruffian())
			f.start(4, 7) // both at 12
			ctl := map[string]string{"diego": "david", "malfrat": gm}
			other := map[string]string{"diego": "malfrat", "malfrat": "diego"}
			f.do(ctl[first], attack(first, other[first], 0, nil), 1) // misses
			require.Less(t, f.cs(first).GetActionPoints(), int32(12))
			// The other still acts at 12, before the first one's lower phase.
			f.refuse(ctl[first], pass(first), engine.CodePrecondition, "LOS-031")
			f.do(ctl[other[first]], attack(other[first], first, 0, nil), 1)
			require.Less(t, f.cs(other[first]).GetActionPoints(), int32(12))
		})
	}
	t.Run("a defence at the shared phase does not take the defender's turn away", func(t *testing.T) {
		f := newFight(t, nil, diego(), ruffian())
		f.start(4, 7)                                        // both at 12
		f.do("david", attack("diego", "malfrat", 0, nil), 8) // 20; Diego 8
		f.do(gm, dodge("malfrat", 0, nil), 9)                // the ruffian 11
		f.refuse("david", pass("diego"), engine.CodePrecondition, "LOS-031", "Diego", "Malfrat")
		f.do(gm, attack("malfrat", "diego", 0, nil), 1)
	})
	t.Run("felled at the shared phase, still acts at it", func(t *testing.T) {
		killer := with(diego(), func(s *lossv1.Sheet) { s.Weapons[0].Damage = 30 })
		f := newFight(t, nil, killer, ruffian())
		f.start(4, 7) // both at 12
		evs := f.do("david", unseen("diego", "malfrat", 0), 9, 9)
		require.True(t, find(t, evs, (*lossv1.Event).GetAttackResolved).GetTargetOut())
		require.Equal(t, int32(12), f.cs("malfrat").GetOwedPhase())
		evs = f.do(gm, attack("malfrat", "diego", 0, nil), 9)
		require.Equal(t, int32(25), find(t, evs, (*lossv1.Event).GetAttackRolled).GetTest().GetDifficulty(), "it acts with its wounds (fatal band)")
		require.Equal(t, int32(0), f.cs("malfrat").GetOwedPhase(), "its one owed action is taken")
		f.refuse(gm, pass("malfrat"), engine.CodePrecondition, "LOS-022", "Malfrat")
	})
	t.Run("option off: felled at the shared phase loses the action", func(t *testing.T) {
		killer := with(diego(), func(s *lossv1.Sheet) { s.Weapons[0].Damage = 30 })
		f := newFight(t, &lossv1.Options{SamePhaseSimultaneous: proto.Bool(false)}, killer, ruffian())
		f.start(4, 7)
		f.do("david", unseen("diego", "malfrat", 0), 9, 9)
		f.refuse(gm, attack("malfrat", "diego", 0, nil), engine.CodePrecondition, "LOS-022", "Malfrat")
	})
}
