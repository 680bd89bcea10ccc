package loss_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// Declarations (LOS-038), joining (LOS-039), waiting (LOS-040, LOS-T04) and the pursuit
// (LOS-100…LOS-108, LOS-112).

const (
	charge     = lossv1.PursuitKind_PURSUIT_KIND_CHARGE
	clothes    = lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE
	changeDist = lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE
	tackle     = lossv1.PursuitKind_PURSUIT_KIND_TACKLE
	shootLegs  = lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS
	zigzags    = lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS
)

// runner gives c a pursuit score Agilité + Course and Athletics Puissance + Athlétisme.
func runner(c *encounterv1.Combatant, course, athletisme int32) *encounterv1.Combatant {
	return with(c, func(s *lossv1.Sheet) {
		s.Talents["Course"] = course
		s.Talents["Athlétisme"] = athletisme
		s.Pursuit = &lossv1.Score{Trait: "Agilité", Talent: "Course"}
		s.Athletics = &lossv1.Score{Trait: "Puissance", Talent: "Athlétisme"}
	})
}

// fleeing is Diego on foot: pursuit Agilité 5 + Course 6 = 11, Athletics Puissance 6 +
// Athlétisme 6 = 12, dodge 10, Initiative 8, a sabre of Vitesse 4.
func fleeing() *encounterv1.Combatant { return runner(diego(), 6, 6) }

// vigile is the pursuer of the seed's example: an Adversaire with pursuit Agilité 5 + Course
// 7 = 12, Athletics Puissance 5 + Athlétisme 4 = 9, dodge Agilité 5 + Esquive 7 = 12,
// Initiative 5, a club of Vitesse 3.
func vigile() *encounterv1.Combatant {
	return runner(who("vigile", "Vigile", adv, 5, 5, 5, 5, 7,
		weapon("gourdin", lossv1.WeaponKind_WEAPON_KIND_MELEE, 3, 2)), 7, 4)
}

// archerBow is a ranged weapon of Vitesse v shot with Agilité + Archerie.
func archerBow(v int32) *lossv1.Weapon {
	w := weapon("arc", lossv1.WeaponKind_WEAPON_KIND_RANGED, v, 4)
	w.Attack = &lossv1.Score{Trait: "Agilité", Talent: "Archerie"}
	w.Bow = true
	return w
}

// archer pursues with a bow of Vitesse 4: shot Agilité 6 + Archerie 6 = 12, pursuit Agilité
// 6 + Course 4 = 10, dodge 6 + 4 = 10, Initiative 5.
func archer() *encounterv1.Combatant {
	return runner(with(who("archere", "Archère", adv, 5, 4, 4, 6, 4, archerBow(4)), func(s *lossv1.Sheet) {
		s.Talents["Archerie"] = 6
	}), 4, 2)
}

func withInit(c *encounterv1.Combatant, n int32) *encounterv1.Combatant {
	return with(c, func(s *lossv1.Sheet) { s.Initiative = n })
}

func startPursuitCmd(pursuers, pursued []string, distance int32) *encounterv1.Command {
	return action(&lossv1.Action{Kind: &lossv1.Action_StartPursuit{StartPursuit: &lossv1.StartPursuit{
		PursuerIds: pursuers, PursuedIds: pursued, Distance: distance,
	}}})
}

func pursuitCmd(id string, a *lossv1.PursuitAction) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_Pursuit{Pursuit: a}})
}

func pursue(id string, k lossv1.PursuitKind, target string, exploits int32) *encounterv1.Command {
	return pursuitCmd(id, &lossv1.PursuitAction{Kind: k, TargetId: target, Exploits: exploits})
}

func moveCloser(id string, exploits int32) *encounterv1.Command {
	return pursuitCmd(id, &lossv1.PursuitAction{Kind: changeDist, Closer: true, Exploits: exploits})
}

func pullAway(id string, exploits int32, sp *lossv1.Spend) *encounterv1.Command {
	return pursuitCmd(id, &lossv1.PursuitAction{Kind: changeDist, Exploits: exploits, Spend: sp})
}

func zigzag(id string, exploits int32, sp *lossv1.Spend) *encounterv1.Command {
	return pursuitCmd(id, &lossv1.PursuitAction{Kind: zigzags, Exploits: exploits, Spend: sp})
}

func shootTheLegs(id, target, weapon string) *encounterv1.Command {
	return pursuitCmd(id, &lossv1.PursuitAction{Kind: shootLegs, TargetId: target, Weapon: weapon})
}

func declareCmd(id, intention string) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_Declare{Declare: &lossv1.Declare{Intention: intention}}})
}

func waitCmd(id string, until int32) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_Wait{Wait: &lossv1.Wait{UntilPhase: until}}})
}

func simpleCmd(id string, k lossv1.SimpleKind) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_Simple{Simple: &lossv1.Simple{Kind: k}}})
}

func parryCmd(id string) *encounterv1.Command {
	return react(id, lossv1.Reaction_REACTION_PARRY, 0, nil)
}

func joinCmd(c *encounterv1.Combatant, watched bool) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: c, Watched: watched}}}
}

func removeCmd(id string) *encounterv1.Command { return enginetest.RemoveCmd(id) }

// pursuit returns the pursuit going on, nil if none.
func (f *fight) pursuit() *lossv1.Pursuit { return f.St.GetLoss().GetPursuit() }

// pursuitActed returns the one PursuitActed of evs.
func pursuitActed(t *testing.T, evs []*encounterv1.Event) *lossv1.PursuitActed {
	t.Helper()
	return find(t, evs, (*lossv1.Event).GetPursuitActed)
}

// modSum returns the value of the modifier citing rule in ms, 0 if none.
func modSum(ms []*lossv1.Modifier, rule string) int32 {
	var v int32
	for _, m := range ms {
		if m.GetRule() == rule {
			v += m.GetValue()
		}
	}
	return v
}

// chase is a pursuit of Diego (pursued) by the vigile at distance d; Diego rolls dDiego and
// the vigile dVigile for Initiative.
func chase(t *testing.T, opts *lossv1.Options, d, dDiego, dVigile int32) *fight {
	t.Helper()
	f := newFight(t, opts, fleeing(), vigile())
	f.start(dDiego, dVigile)
	evs := f.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, d))
	ps := find(t, evs, (*lossv1.Event).GetPursuitStarted)
	require.Equal(t, d, ps.GetPursuit().GetDistance())
	require.Equal(t, d, f.pursuit().GetDistance())
	return f
}

// LOS-038: intentions are declared and recorded; a second declaration, or one by a combatant
// who does not take part in the Tour, is refused; a new Tour clears them.
func TestLOS038DeclarationsRecorded(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5) // Diego 15, the ruffian 10
	require.False(t, f.St.GetLoss().GetDeclaring(), "without declare_low_to_high the Tour does not wait")

	evs := f.do("david", declareCmd("diego", "attaque le malfrat"))
	d := find(t, evs, (*lossv1.Event).GetDeclared)
	require.Equal(t, "diego", d.GetCombatantId())
	require.Equal(t, "attaque le malfrat", d.GetIntention())
	require.True(t, f.cs("diego").GetDeclared())
	require.Equal(t, "attaque le malfrat", f.cs("diego").GetIntention())
	require.Equal(t, []int32{15, 10}, f.ap("diego", "malfrat"), "declaring costs nothing")

	f.refuse("david", declareCmd("diego", "fuit"), engine.CodePrecondition, "LOS-038", "Diego", "already declared")
	f.refuse("david", declareCmd("malfrat", "fuit"), engine.CodePermission, "")

	// Without the option the ruffian need not declare before Diego acts.
	f.do("david", attack("diego", "malfrat", 0, nil), 1) // 13: misses
	require.Equal(t, int32(11), f.cs("diego").GetActionPoints())
	f.do("david", pass("diego"))
	evs = f.do(gm, pass("malfrat"), 2, 3)
	require.Equal(t, int32(2), find(t, evs, (*lossv1.Event).GetTourStarted).GetTour())
	require.False(t, f.cs("diego").GetDeclared())
	require.Empty(t, f.cs("diego").GetIntention())
}

// LOS-038 with declare_low_to_high: the Tour waits until everyone, the GM's combatants
// included, has declared, from the lowest Initiative result to the highest.
func TestLOS038DeclareLowToHigh(t *testing.T) {
	lookout := func() *encounterv1.Combatant { return who("guetteur", "Guetteur", adv, 0, 3, 3, 3, 3, sword(5, 1)) }
	opts := &lossv1.Options{DeclareLowToHigh: proto.Bool(true)}

	f := newFight(t, opts, diego(), ruffian(), lookout())
	f.start(7, 5, 4) // Diego 15, the ruffian 10, the lookout 4
	require.True(t, f.St.GetLoss().GetDeclaring())

	f.refuse("david", attack("diego", "malfrat", 0, nil), engine.CodePrecondition, "LOS-038", "lowest")
	f.refuse("david", pass("diego"), engine.CodePrecondition, "LOS-038")
	re := f.refuse("david", declareCmd("diego", "frappe"), engine.CodePrecondition, "LOS-038", "Diego", "Malfrat")
	require.Contains(t, re.Msg, "15")
	f.refuse(gm, declareCmd("malfrat", "frappe Diego"), engine.CodePrecondition, "LOS-038", "Guetteur", "Malfrat", "4", "10")

	f.do(gm, declareCmd("guetteur", "guette"))
	require.True(t, f.St.GetLoss().GetDeclaring())
	f.refuse("david", declareCmd("diego", "frappe"), engine.CodePrecondition, "LOS-038", "Malfrat")
	f.do(gm, declareCmd("malfrat", "frappe Diego"))
	require.True(t, f.St.GetLoss().GetDeclaring(), "Diego has not declared yet")
	f.refuse(gm, attack("malfrat", "diego", 0, nil), engine.CodePrecondition, "LOS-038")
	f.do("david", declareCmd("diego", "frappe le malfrat"))
	require.False(t, f.St.GetLoss().GetDeclaring(), "all have declared: the Tour begins")
	for id, want := range map[string]string{"diego": "frappe le malfrat", "malfrat": "frappe Diego", "guetteur": "guette"} {
		require.Equal(t, want, f.cs(id).GetIntention())
	}

	f.do("david", attack("diego", "malfrat", 0, nil), 1) // 13: misses; Diego 11
	f.refuse(gm, declareCmd("guetteur", "fuit"), engine.CodePrecondition, "LOS-038", "already declared")
	f.do("david", pass("diego"))
	f.do(gm, pass("malfrat"))
	evs := f.do(gm, pass("guetteur"), 1, 9, 2) // Tour 2: Diego 9, the ruffian 14, the lookout 2
	require.Equal(t, int32(2), find(t, evs, (*lossv1.Event).GetTourStarted).GetTour())
	require.True(t, f.St.GetLoss().GetDeclaring(), "every Tour waits for declarations")
	require.False(t, f.cs("diego").GetDeclared())
	f.refuse("david", declareCmd("diego", "frappe"), engine.CodePrecondition, "LOS-038", "Guetteur", "2", "9")
	f.do(gm, declareCmd("guetteur", "fuit"))
	f.do("david", declareCmd("diego", "frappe"))
	require.True(t, f.St.GetLoss().GetDeclaring())

	// The GM removes the ruffian, the last one to declare: the Tour no longer waits for it.
	f.do(gm, removeCmd("malfrat"))
	require.False(t, f.St.GetLoss().GetDeclaring(), "no one is left to declare")
	f.do("david", attack("diego", "guetteur", 0, nil), 1) // 13: misses
	require.Equal(t, int32(5), f.cs("diego").GetActionPoints())
}

// LOS-039: a newcomer to a fight in progress acts from the next Tour, with +2 to its d10 +
// Initiative if it watched the last full Tour.
func TestLOS039JoiningAFightInProgress(t *testing.T) {
	lookout := who("guetteur", "Guetteur", adv, 3, 3, 3, 3, 3, sword(5, 1))
	passer := who("passant", "Passant", adv, 3, 3, 3, 3, 3, sword(5, 1))

	early := newFight(t, nil, diego()) // not started: no one can have watched
	early.refuse(gm, joinCmd(lookout, true), engine.CodeInvalid, "", "watched")

	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5) // Diego 15, the ruffian 10
	evs := f.do(gm, joinCmd(lookout, true))
	require.True(t, evs[0].GetCombatantAdded().GetInProgress())
	require.True(t, evs[0].GetCombatantAdded().GetWatched())
	f.do(gm, joinCmd(passer, false))
	require.True(t, f.cs("guetteur").GetJoining())
	require.True(t, f.cs("guetteur").GetWatched())
	require.True(t, f.cs("passant").GetJoining())
	require.False(t, f.cs("passant").GetWatched())
	require.Equal(t, []int32{0, 0}, f.ap("guetteur", "passant"), "no PA in the Tour it joins")

	f.refuse(gm, attack("guetteur", "diego", 0, nil), engine.CodePrecondition, "LOS-039", "Guetteur")
	f.refuse(gm, pass("passant"), engine.CodePrecondition, "LOS-039", "Passant")
	f.refuse(gm, declareCmd("guetteur", "frappe"), engine.CodePrecondition, "LOS-038", "Guetteur")

	f.do("david", pass("diego"))
	evs = f.do(gm, pass("malfrat"), 3, 4, 5, 5) // the newcomers do not hold the Tour open
	ts := find(t, evs, (*lossv1.Event).GetTourStarted)
	require.Equal(t, int32(2), ts.GetTour())
	require.Len(t, ts.GetInitiative(), 4)
	g, p := ts.GetInitiative()[2], ts.GetInitiative()[3]
	require.Equal(t, []string{"guetteur"}, g.GetCombatantIds())
	require.Equal(t, int32(3+5), g.GetActionPoints())
	require.Equal(t, map[string]int32{"guetteur": 2}, g.GetBonus(), "watched: +2")
	require.Equal(t, []string{"passant"}, p.GetCombatantIds())
	require.Equal(t, int32(3+5), p.GetActionPoints())
	require.Empty(t, p.GetBonus(), "did not watch: no bonus")
	require.Equal(t, []int32{11, 9, 10, 8}, f.ap("diego", "malfrat", "guetteur", "passant"))
	require.Equal(t, int32(10), f.cs("guetteur").GetInitiativeTotal())
	require.False(t, f.cs("guetteur").GetJoining())
	require.False(t, f.cs("guetteur").GetWatched())

	// Now they act in phase order: Diego at 11, then the lookout at 10.
	f.refuse(gm, attack("guetteur", "diego", 0, nil), engine.CodePrecondition, "LOS-031", "Guetteur", "Diego")
	f.do("david", pass("diego"))
	f.do(gm, attack("guetteur", "diego", 0, nil), 1) // 7: misses
	require.Equal(t, int32(5), f.cs("guetteur").GetActionPoints())
}

// eric wields a claymore of Vitesse 6 (LOS-T04) with Puissance 6 + Arme de mêlée 6; parry
// the same, Initiative 4.
func eric() *encounterv1.Combatant {
	return who("eric", "Eric", pc, 4, 6, 6, 5, 5, weapon("claymore", lossv1.WeaponKind_WEAPON_KIND_MELEE, 6, 5))
}

// LOS-T04 (with LOS-040's erratum): Eric, Initiative total 12, waits until phase 4 (8 phases):
// at phase 4 he has 4 PA, his attack costs max(2, 6 − 8) = 2, and the 2 PA left pay for
// exactly two parries.
func TestWorkedExampleLOS_T04(t *testing.T) {
	griffon := func(id, name string) *encounterv1.Combatant {
		return with(who(id, name, adv, 0, 5, 5, 5, 5, claws(3)), func(s *lossv1.Sheet) { s.InitiativeGroup = "griffons" })
	}
	f := newFight(t, nil, eric(), griffon("g1", "Griffon 1"), griffon("g2", "Griffon 2"))
	f.start(8, 3) // Eric 4 + 8 = 12; the griffons 3 each
	require.Equal(t, []int32{12, 3, 3}, f.ap("eric", "g1", "g2"))

	evs := f.do("david", waitCmd("eric", 4))
	w := find(t, evs, (*lossv1.Event).GetWaited)
	require.Equal(t, int32(12), w.GetFromPhase())
	require.Equal(t, int32(4), w.GetUntilPhase())
	require.Equal(t, int32(8), w.GetDiscount(), "8 phases waited")
	require.Equal(t, int32(4), f.cs("eric").GetActionPoints(), "at phase 4 he has 4 PA")
	require.Equal(t, int32(8), f.cs("eric").GetWaitDiscount())

	evs = f.do("david", attackWith("eric", "g1", "claymore", 0, nil, false), 1) // 13: misses
	require.Equal(t, int32(2), find(t, evs, (*lossv1.Event).GetAttackRolled).GetActionPointsSpent(), "max(2, 6 - 8)")
	require.Equal(t, int32(2), f.cs("eric").GetActionPoints())
	require.Zero(t, f.cs("eric").GetWaitDiscount(), "the discount is used up")

	for i, g := range []string{"g1", "g2"} {
		f.do(gm, attack(g, "eric", 0, nil), 5) // 15: a hit unless parried
		evs = f.do("david", parryCmd("eric"), 5)
		dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
		require.True(t, dr.GetTest().GetSuccess(), "17 against 15")
		require.Equal(t, int32(1), dr.GetActionPointsSpent())
		require.Equal(t, int32(1-i), f.cs("eric").GetActionPoints())
	}
	require.Equal(t, []int32{0, 1, 1}, f.ap("eric", "g1", "g2"), "two parries, and no PA left for a third")
}

// LOS-040: waiting lowers the phase (the PA) by 1 per phase waited and the next action's cost
// by as much, to a minimum of 2; a parry made while waiting costs 1 PA as usual and does not
// end the wait.
func TestLOS040Waiting(t *testing.T) {
	t.Run("parry while waiting", func(t *testing.T) {
		f := newFight(t, nil, eric(), ruffian())
		f.start(8, 5) // Eric 12, the ruffian 10
		f.refuse(gm, waitCmd("malfrat", 5), engine.CodePrecondition, "LOS-031", "Malfrat")
		f.refuse("david", waitCmd("eric", 12), engine.CodeInvalid, "LOS-040", "Eric", "1 to 11")
		f.refuse("david", waitCmd("eric", 0), engine.CodeInvalid, "LOS-040", "Eric")

		f.do("david", waitCmd("eric", 4))
		require.Equal(t, []int32{4, 10}, f.ap("eric", "malfrat"))
		f.refuse("david", attack("eric", "malfrat", 0, nil), engine.CodePrecondition, "LOS-031", "Eric", "Malfrat")

		f.do(gm, attack("malfrat", "eric", 0, nil), 5) // 15
		evs := f.do("david", parryCmd("eric"), 5)      // 17: parried
		require.Equal(t, int32(1), find(t, evs, (*lossv1.Event).GetDefenceRolled).GetActionPointsSpent())
		require.Equal(t, int32(3), f.cs("eric").GetActionPoints())
		require.Equal(t, int32(8), f.cs("eric").GetWaitDiscount(), "the parry does not end the wait")

		f.do(gm, pass("malfrat")) // 7 PA kept
		evs = f.do("david", attack("eric", "malfrat", 0, nil), 1)
		require.Equal(t, int32(2), find(t, evs, (*lossv1.Event).GetAttackRolled).GetActionPointsSpent())
		require.Equal(t, int32(1), f.cs("eric").GetActionPoints())
		require.Zero(t, f.cs("eric").GetWaitDiscount())
	})
	t.Run("the discount is for the next action only", func(t *testing.T) {
		f := newFight(t, nil, eric(), ruffian())
		f.start(8, 1) // Eric 12, the ruffian 6
		f.do("david", waitCmd("eric", 10))
		require.Equal(t, int32(2), f.cs("eric").GetWaitDiscount())
		evs := f.do("david", attack("eric", "malfrat", 0, nil), 1) // 6 - 2
		require.Equal(t, int32(4), find(t, evs, (*lossv1.Event).GetAttackRolled).GetActionPointsSpent())
		require.Equal(t, int32(6), f.cs("eric").GetActionPoints())
		f.do(gm, pass("malfrat"))
		evs = f.do("david", attack("eric", "malfrat", 0, nil), 1, 1, 1) // Eric at 0: Tour 2
		require.Equal(t, int32(6), find(t, evs, (*lossv1.Event).GetAttackRolled).GetActionPointsSpent(), "full price again")
	})
	t.Run("a cost of 2 or less is not lowered", func(t *testing.T) {
		d := with(diego(), func(s *lossv1.Sheet) { s.Weapons = []*lossv1.Weapon{claws(1)} })
		f := newFight(t, nil, d, ruffian())
		f.start(7, 1) // Diego 15, the ruffian 6
		f.do("david", waitCmd("diego", 9))
		evs := f.do("david", attack("diego", "malfrat", 0, nil), 1)
		require.Equal(t, int32(2), find(t, evs, (*lossv1.Event).GetAttackRolled).GetActionPointsSpent())
		require.Equal(t, int32(7), f.cs("diego").GetActionPoints())
	})
}

// shoot is an attack with the bow at a target metres away (LOS-080).
func shoot(id, target string, metres int32) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
		TargetId: target, Situation: &lossv1.Situation{Distance: metres},
	}}})
}

// LOS-100: the GM opens a pursuit at 1 (contact) to 6 (out of range) units.
func TestLOS100OpeningAPursuit(t *testing.T) {
	f := newFight(t, nil, fleeing(), vigile(), archer())
	f.start(7, 5, 1) // Diego 15, the vigile 10, the archer 6

	f.refuse("david", pullAway("diego", 0, nil), engine.CodePrecondition, "LOS-100", "no pursuit")
	f.refuse("david", startPursuitCmd([]string{"vigile"}, []string{"diego"}, 2), engine.CodePermission, "")
	for _, d := range []int32{0, 7, -1} {
		f.refuse(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, d), engine.CodeInvalid, "LOS-100", "1 (contact)", "6")
	}
	f.refuse(gm, startPursuitCmd(nil, []string{"diego"}, 2), engine.CodeInvalid, "LOS-100")
	f.refuse(gm, startPursuitCmd([]string{"vigile"}, nil, 2), engine.CodeInvalid, "LOS-100")
	f.refuse(gm, startPursuitCmd([]string{"vigile", "diego"}, []string{"diego"}, 2), engine.CodeInvalid, "LOS-100", "Diego")
	f.refuse(gm, startPursuitCmd([]string{"vigile"}, []string{"personne"}, 2), engine.CodeNotFound, "", "personne")

	evs := f.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 6))
	p := find(t, evs, (*lossv1.Event).GetPursuitStarted).GetPursuit()
	require.Equal(t, []string{"vigile"}, p.GetPursuerIds())
	require.Equal(t, []string{"diego"}, p.GetPursuedIds())
	require.Equal(t, int32(6), p.GetDistance())
	require.Equal(t, []int32{15, 10, 6}, f.ap("diego", "vigile", "archere"), "opening a pursuit costs no PA")
	f.refuse(gm, startPursuitCmd([]string{"archere"}, []string{"diego"}, 3), engine.CodePrecondition, "LOS-100", "already")

	// The archer takes no part in this pursuit.
	f.refuse("david", pursue("diego", clothes, "archere", 0), engine.CodePrecondition, "LOS-100", "Archère", "not an opponent")
	f.refuse("david", pursuitCmd("diego", &lossv1.PursuitAction{}), engine.CodeInvalid, "LOS-100")
	f.do("david", pass("diego"))
	f.do(gm, pass("vigile"))
	f.refuse(gm, moveCloser("archere", 0), engine.CodePrecondition, "LOS-100", "Archère", "no part")
}

// LOS-100: beyond 6 units (out of range) the pursuit ends: sight is lost.
func TestLOS100LostSightBeyondSix(t *testing.T) {
	f := chase(t, nil, 6, 7, 5) // Diego 15, the vigile 10
	// Difficulty 35 at distance 6 (LOS-104): Course 11 + 1 Fursa 5 + d10 10 + 9 = 35.
	evs := f.do("david", pullAway("diego", 0, fursa(1)), 10, 9)
	a := pursuitActed(t, evs)
	require.Equal(t, int32(35), a.GetTest().GetDifficulty())
	require.Equal(t, int32(35), a.GetTest().GetTotal())
	require.True(t, a.GetSuccess())
	require.True(t, a.GetEnded())
	require.Zero(t, a.GetDistance())
	require.Contains(t, a.GetNote(), "LOS-100")
	require.Nil(t, f.pursuit(), "the pursuit is over")
	require.Equal(t, int32(13), f.cs("diego").GetActionPoints())
	f.refuse(gm, moveCloser("vigile", 0), engine.CodePrecondition, "LOS-031") // Diego's turn still
	f.refuse("david", pullAway("diego", 0, nil), engine.CodePrecondition, "LOS-100", "no pursuit")

	// Short of 6 it goes on: from 5, one unit away is 6.
	f = chase(t, nil, 5, 7, 5)
	evs = f.do("david", pullAway("diego", 0, fursa(1)), 10, 4) // 30 against 30
	a = pursuitActed(t, evs)
	require.False(t, a.GetEnded())
	require.Equal(t, int32(6), a.GetDistance())
	require.Equal(t, int32(6), f.pursuit().GetDistance())
}

// LOS-100, LOS-101: in a pursuit a ranged attack's base Difficulty is that of the distance in
// units (close 2: 15, in range 3: 20, far 4: 25, very far 5: 30, out of range 6: 35), and the
// attacker adds +10 for shooting in a pursuit; the defender is not passed the +10 (LOS-012).
func TestLOS100LOS101RangedDifficultyByUnits(t *testing.T) {
	for units, base := range map[int32]int32{2: 15, 3: 20, 4: 25, 5: 30, 6: 35} {
		f := newFight(t, nil, fleeing(), archer())
		f.start(1, 9) // Diego 9, the archer 14
		f.do(gm, startPursuitCmd([]string{"archere"}, []string{"diego"}, units))
		// The metres given (50 m: very far, 30) give way to the pursuit's units.
		evs := f.do(gm, shoot("archere", "diego", 50), 1) // 13: misses
		ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
		require.Equal(t, base+10, ar.GetTest().GetDifficulty(), "distance %d", units)
		require.Equal(t, int32(10), modSum(ar.GetTest().GetDifficultyModifiers(), "LOS-101"))
		require.Equal(t, base, ar.GetDefenceDifficulty(), "distance %d", units)
		require.Equal(t, int32(10), f.cs("archere").GetActionPoints(), "the bow's Vitesse 4")
	}
}

// LOS-101: +10 on ranged attacks in a pursuit, not outside one and not on melee attacks.
func TestLOS101RangedInPursuit(t *testing.T) {
	f := newFight(t, nil, fleeing(), archer())
	f.start(1, 9)                                     // Diego 9, the archer 14
	evs := f.do(gm, shoot("archere", "diego", 15), 1) // in range: 20
	ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
	require.Equal(t, int32(20), ar.GetTest().GetDifficulty(), "no pursuit: no +10")
	require.Zero(t, modSum(ar.GetTest().GetDifficultyModifiers(), "LOS-101"))

	f.do(gm, startPursuitCmd([]string{"archere"}, []string{"diego"}, 3))
	evs = f.do(gm, shoot("archere", "diego", 15), 9) // 21 against 30: misses
	ar = find(t, evs, (*lossv1.Event).GetAttackRolled)
	require.Equal(t, int32(30), ar.GetTest().GetDifficulty())
	require.Equal(t, int32(21), ar.GetTest().GetTotal())
	require.False(t, ar.GetTest().GetSuccess())
	require.Equal(t, int32(10), modSum(ar.GetTest().GetDifficultyModifiers(), "LOS-101"))

	// A melee blow at contact has no +10.
	g := chase(t, nil, 1, 1, 9) // Diego 9, the vigile 14
	evs = g.do(gm, attack("vigile", "diego", 0, nil), 1)
	ar = find(t, evs, (*lossv1.Event).GetAttackRolled)
	require.Equal(t, int32(15), ar.GetTest().GetDifficulty())
	require.Zero(t, modSum(ar.GetTest().GetDifficultyModifiers(), "LOS-101"))
}

// LOS-102: a pursuer at close (2) Charges for 3 PA at Difficulty 20; the target avoids it only
// with a dodge at 20; otherwise it is thrown down and must stand up (4 PA).
func TestLOS102Charge(t *testing.T) {
	t.Run("not dodged", func(t *testing.T) {
		f := chase(t, nil, 2, 1, 9)                              // Diego 9, the vigile 14
		evs := f.do(gm, pursue("vigile", charge, "diego", 0), 8) // pursuit 12 + 8 = 20
		a := pursuitActed(t, evs)
		require.Equal(t, int32(3), a.GetActionPointsSpent())
		require.Equal(t, int32(20), a.GetTest().GetDifficulty())
		require.Equal(t, int32(20), a.GetTest().GetTotal())
		require.True(t, a.GetSuccess())
		require.True(t, a.GetDodgePossible())
		require.False(t, a.GetTargetDown(), "not before the dodge")
		require.Equal(t, int32(11), f.cs("vigile").GetActionPoints())
		pa := f.St.GetLoss().GetPending()
		require.Equal(t, "diego", pa.GetDefenderId())
		require.Equal(t, charge, pa.GetPursuit())
		require.Equal(t, int32(20), pa.GetDifficulty())
		require.Equal(t, "diego", f.St.GetPending()[0].GetCombatantId())

		f.refuse(gm, moveCloser("vigile", 0), engine.CodePrecondition, "LOS-009", "Diego")
		f.refuse("david", parryCmd("diego"), engine.CodePrecondition, "LOS-102", "only a dodge", "Charge")
		f.refuse("david", react("diego", lossv1.Reaction_REACTION_UNSPECIFIED, 0, nil), engine.CodePrecondition, "LOS-102")
		evs = f.do("david", dodge("diego", 0, nil), 9) // 10 + 9 = 19 against 20
		dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
		require.Equal(t, int32(20), dr.GetTest().GetDifficulty())
		require.Equal(t, int32(19), dr.GetTest().GetTotal())
		require.Equal(t, int32(1), dr.GetActionPointsSpent())
		a = pursuitActed(t, evs)
		require.True(t, a.GetResolves())
		require.True(t, a.GetSuccess())
		require.True(t, a.GetTargetDown())
		require.Equal(t, int32(2), a.GetDistance(), "a Charge does not change the distance")
		require.True(t, f.cs("diego").GetProne())
		require.Nil(t, f.St.GetLoss().GetPending())
		require.Empty(t, f.St.GetPending())
		require.Equal(t, []int32{8, 11}, f.ap("diego", "vigile"))
		require.Equal(t, int32(2), f.pursuit().GetDistance())

		f.do(gm, pass("vigile"))
		f.refuse("david", pullAway("diego", 0, nil), engine.CodePrecondition, "LOS-072", "Diego", "stand up")
		evs = f.do("david", simpleCmd("diego", lossv1.SimpleKind_SIMPLE_KIND_STAND_UP))
		require.Equal(t, int32(4), find(t, evs, (*lossv1.Event).GetSimpleActed).GetActionPointsSpent())
		require.False(t, f.cs("diego").GetProne())
		require.Equal(t, int32(4), f.cs("diego").GetActionPoints())
	})
	t.Run("dodged", func(t *testing.T) {
		f := chase(t, nil, 2, 1, 9)
		f.do(gm, pursue("vigile", charge, "diego", 0), 8)
		evs := f.do("david", dodge("diego", 0, nil), 10, 1) // 10 + 11 = 21
		a := pursuitActed(t, evs)
		require.True(t, a.GetResolves())
		require.False(t, a.GetSuccess())
		require.False(t, a.GetTargetDown())
		require.False(t, f.cs("diego").GetProne())
		require.Equal(t, []int32{8, 11}, f.ap("diego", "vigile"))
	})
	t.Run("taken", func(t *testing.T) {
		f := chase(t, nil, 2, 1, 9)
		f.do(gm, pursue("vigile", charge, "diego", 0), 8)
		evs := f.do("david", takeBlow("diego"))
		require.True(t, pursuitActed(t, evs).GetTargetDown())
		require.True(t, f.cs("diego").GetProne())
		require.Equal(t, []int32{9, 11}, f.ap("diego", "vigile"), "taking it costs nothing")
	})
	t.Run("no PA left to dodge", func(t *testing.T) {
		f := newFight(t, nil, withInit(fleeing(), 0), vigile())
		f.start(1, 9) // Diego 1, the vigile 14
		f.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 2))
		f.do(gm, pursue("vigile", charge, "diego", 0), 8)
		f.do("david", dodge("diego", 0, nil), 10, 1) // dodged, Diego at 0
		evs := f.do(gm, pursue("vigile", charge, "diego", 0), 8)
		a := pursuitActed(t, evs)
		require.False(t, a.GetDodgePossible())
		require.True(t, a.GetTargetDown())
		require.True(t, f.cs("diego").GetProne())
		require.Nil(t, f.St.GetLoss().GetPending())
		require.Equal(t, []int32{0, 8}, f.ap("diego", "vigile"))
	})
	// LOS-102 (revised): the dodge is at a flat 20, whatever the charger's Exploits (it was 20 +
	// 5 per Exploit: 25 here).
	t.Run("a Charge with an Exploit is still dodged at 20", func(t *testing.T) {
		f := chase(t, nil, 2, 1, 9)
		a := pursuitActed(t, f.do(gm, pursue("vigile", charge, "diego", 1), 10, 3)) // 12 + 13 = 25
		require.Equal(t, int32(25), a.GetTest().GetDifficulty(), "the charger's Test carries its Exploit (LOS-112)")
		require.True(t, a.GetSuccess())
		require.Equal(t, int32(20), f.St.GetLoss().GetPending().GetDifficulty())
		evs := f.do("david", dodge("diego", 0, nil), 10, 1) // 10 + 11 = 21 ≥ 20
		dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
		require.Equal(t, int32(20), dr.GetTest().GetDifficulty())
		require.True(t, dr.GetTest().GetSuccess())
		require.False(t, pursuitActed(t, evs).GetTargetDown())
		require.False(t, f.cs("diego").GetProne())
	})
	t.Run("failed", func(t *testing.T) {
		f := chase(t, nil, 2, 1, 9)
		evs := f.do(gm, pursue("vigile", charge, "diego", 0), 7) // 19
		a := pursuitActed(t, evs)
		require.False(t, a.GetSuccess())
		require.False(t, a.GetDodgePossible())
		require.Nil(t, f.St.GetLoss().GetPending())
		require.Equal(t, int32(11), f.cs("vigile").GetActionPoints(), "3 PA spent all the same")
	})
	t.Run("refused", func(t *testing.T) {
		f := chase(t, nil, 3, 1, 9)
		f.refuse(gm, pursue("vigile", charge, "diego", 0), engine.CodePrecondition, "LOS-102", "distance 2", "3")
		f = chase(t, nil, 1, 1, 9)
		f.refuse(gm, pursue("vigile", charge, "diego", 0), engine.CodePrecondition, "LOS-102")
		f = chase(t, nil, 2, 7, 5) // Diego first
		f.refuse("david", pursue("diego", charge, "vigile", 0), engine.CodePrecondition, "LOS-102", "pursuer")
		f.refuse("david", pursue("diego", charge, "diego", 0), engine.CodePrecondition, "LOS-100", "not an opponent")
		g := newFight(t, nil, fleeing(), withInit(vigile(), 0))
		g.start(1, 2) // Diego 9, the vigile 2: too few PA after Diego passes
		g.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 2))
		g.do("david", pass("diego"))
		g.refuse(gm, pursue("vigile", charge, "diego", 0), engine.CodePrecondition, "LOS-035", "2 PA", "costs 3")
	})
}

// LOS-103: the pursued at close (2) turns back: Athletics at 15 (+5 per Exploit, LOS-112) for
// 2 PA; the target avoids it only with a dodge at the thrower's Difficulty; otherwise it is
// down, must stand up (4 PA), and the distance grows by one unit.
func TestLOS103Clothesline(t *testing.T) {
	f := chase(t, nil, 2, 7, 1)                                    // Diego 15, the vigile 6
	evs := f.do("david", pursue("diego", clothes, "vigile", 1), 8) // Athletics 12 + 8 = 20
	a := pursuitActed(t, evs)
	require.Equal(t, int32(2), a.GetActionPointsSpent())
	require.Equal(t, int32(20), a.GetTest().GetDifficulty(), "15 + 1 Exploit")
	require.Equal(t, int32(6), a.GetTest().GetTrait(), "Puissance")
	require.Equal(t, int32(6), a.GetTest().GetTalent(), "Athlétisme")
	require.True(t, a.GetDodgePossible())
	require.Equal(t, int32(20), f.St.GetLoss().GetPending().GetDifficulty(), "the thrower's Difficulty")

	f.refuse(gm, parryCmd("vigile"), engine.CodePrecondition, "LOS-103", "only a dodge")
	evs = f.do(gm, dodge("vigile", 0, nil), 7) // 12 + 7 = 19
	a = pursuitActed(t, evs)
	require.True(t, a.GetTargetDown())
	require.Equal(t, int32(3), a.GetDistance(), "one unit in the thrower's favour")
	require.Equal(t, int32(3), f.pursuit().GetDistance())
	require.True(t, f.cs("vigile").GetProne())
	require.Equal(t, []int32{13, 5}, f.ap("diego", "vigile"))

	f.do("david", pass("diego"))
	f.refuse(gm, moveCloser("vigile", 0), engine.CodePrecondition, "LOS-072", "Vigile")
	f.do(gm, simpleCmd("vigile", lossv1.SimpleKind_SIMPLE_KIND_STAND_UP))
	require.Equal(t, int32(1), f.cs("vigile").GetActionPoints())

	t.Run("failed", func(t *testing.T) {
		f := chase(t, nil, 2, 7, 1)
		evs := f.do("david", pursue("diego", clothes, "vigile", 0), 2) // 14
		a := pursuitActed(t, evs)
		require.False(t, a.GetSuccess())
		require.Equal(t, int32(15), a.GetTest().GetDifficulty())
		require.Nil(t, f.St.GetLoss().GetPending())
		require.Equal(t, int32(2), f.pursuit().GetDistance())
		require.Equal(t, int32(13), f.cs("diego").GetActionPoints())
	})
	t.Run("dodged", func(t *testing.T) {
		f := chase(t, nil, 2, 7, 1)
		f.do("david", pursue("diego", clothes, "vigile", 0), 3) // 15
		evs := f.do(gm, dodge("vigile", 0, nil), 3)             // 15 against 15
		a := pursuitActed(t, evs)
		require.False(t, a.GetSuccess())
		require.Equal(t, int32(2), f.pursuit().GetDistance())
		require.False(t, f.cs("vigile").GetProne())
	})
	t.Run("refused", func(t *testing.T) {
		f := chase(t, nil, 1, 7, 1)
		f.refuse("david", pursue("diego", clothes, "vigile", 0), engine.CodePrecondition, "LOS-103", "distance 2", "1")
		f = chase(t, nil, 3, 7, 1)
		f.refuse("david", pursue("diego", clothes, "vigile", 0), engine.CodePrecondition, "LOS-103")
		f = chase(t, nil, 2, 1, 9) // the vigile first
		f.refuse(gm, pursue("vigile", clothes, "diego", 0), engine.CodePrecondition, "LOS-103", "pursued")
		g := newFight(t, nil, fleeing(), with(vigile(), func(s *lossv1.Sheet) { s.Athletics = nil }))
		g.start(1, 9)
		g.do(gm, startPursuitCmd([]string{"diego"}, []string{"vigile"}, 2))
		g.refuse(gm, pursue("vigile", clothes, "diego", 0), engine.CodePrecondition, "LOS-103", "no score")
	})
}

// LOS-104: Change distance (2 PA) Tests the pursuit Talent against the Difficulty of the
// current distance: 15 at 1 or 2, then 20, 25, 30, 35.
func TestLOS104ChangeDistanceDifficulty(t *testing.T) {
	for d, want := range map[int32]int32{1: 15, 2: 15, 3: 20, 4: 25, 5: 30, 6: 35} {
		f := chase(t, nil, d, 1, 9)                 // the vigile 14 first
		evs := f.do(gm, moveCloser("vigile", 0), 1) // 12 + 1 = 13: fails everywhere
		a := pursuitActed(t, evs)
		require.Equal(t, want, a.GetTest().GetDifficulty(), "distance %d", d)
		require.Equal(t, int32(13), a.GetTest().GetTotal())
		require.False(t, a.GetSuccess())
		require.Equal(t, changeDist, a.GetKind())
		require.Equal(t, int32(2), a.GetActionPointsSpent())
		require.Equal(t, d, f.pursuit().GetDistance(), "a failure leaves the distance")
		require.Equal(t, int32(12), f.cs("vigile").GetActionPoints())
	}
}

// LOS-104 (with LOS-112): a success moves one unit closer or away; 2 Exploits (+10
// Difficulty) move one more; never more than 2 units, never closer than contact.
func TestLOS104ChangeDistanceUnits(t *testing.T) {
	f := chase(t, nil, 3, 1, 9)                 // Diego 9, the vigile 14
	evs := f.do(gm, moveCloser("vigile", 0), 8) // 20 against 20
	a := pursuitActed(t, evs)
	require.True(t, a.GetSuccess())
	require.Equal(t, int32(2), a.GetDistance())
	require.Equal(t, int32(2), f.pursuit().GetDistance())
	f.do(gm, pass("vigile"))
	evs = f.do("david", pullAway("diego", 0, nil), 4) // Course 11 + 4 = 15 against 15
	require.Equal(t, int32(3), pursuitActed(t, evs).GetDistance())
	require.Equal(t, int32(7), f.cs("diego").GetActionPoints())

	// 2 Exploits: Difficulty 15 + 10 = 25; 11 + 1 Fursa + 9 = 25: two units away.
	f = chase(t, nil, 2, 7, 5) // Diego 15, the vigile 10
	evs = f.do("david", pullAway("diego", 2, fursa(1)), 9)
	a = pursuitActed(t, evs)
	require.Equal(t, int32(25), a.GetTest().GetDifficulty())
	require.Equal(t, int32(10), modSum(a.GetTest().GetDifficultyModifiers(), "LOS-010"))
	require.Equal(t, int32(2), a.GetExploits())
	require.Equal(t, int32(4), a.GetDistance())
	require.Equal(t, int32(4), f.pursuit().GetDistance())
	require.Equal(t, int32(13), f.cs("diego").GetActionPoints(), "still 2 PA")

	// 3 Exploits: Difficulty 30, still at most 2 units.
	f = chase(t, nil, 2, 7, 5)
	evs = f.do("david", pullAway("diego", 3, fursa(1)), 10, 4) // 11 + 5 + 14 = 30
	a = pursuitActed(t, evs)
	require.Equal(t, int32(30), a.GetTest().GetDifficulty())
	require.True(t, a.GetSuccess())
	require.Equal(t, int32(4), a.GetDistance(), "at most 2 units per action")

	// 2 Exploits closer from close (2): contact (1) is as close as it gets.
	f = chase(t, nil, 2, 1, 9)
	evs = f.do(gm, moveCloser("vigile", 2), 10, 3) // 12 + 13 = 25
	a = pursuitActed(t, evs)
	require.True(t, a.GetSuccess())
	require.Equal(t, int32(1), a.GetDistance())

	// A failure with 2 Exploits changes nothing.
	f = chase(t, nil, 4, 1, 9)
	evs = f.do(gm, moveCloser("vigile", 2), 9) // 21 against 35
	a = pursuitActed(t, evs)
	require.Equal(t, int32(35), a.GetTest().GetDifficulty())
	require.False(t, a.GetSuccess())
	require.Equal(t, int32(4), f.pursuit().GetDistance())

	f.refuse(gm, moveCloser("vigile", 6), engine.CodeInvalid, "LOS-010", "Vigile", "6 Exploits")
	f.refuse(gm, moveCloser("vigile", -1), engine.CodeInvalid, "LOS-010")
	g := newFight(t, nil, fleeing(), with(vigile(), func(s *lossv1.Sheet) { s.Pursuit = nil }))
	g.start(1, 9)
	g.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 3))
	g.refuse(gm, moveCloser("vigile", 0), engine.CodePrecondition, "LOS-104", "Vigile", "no score")
}

// LOS-105: a pursuer at contact (1) Tackles for 2 PA with Athletics at 15; if not dodged the
// pursuit becomes a standard fight.
func TestLOS105Tackle(t *testing.T) {
	f := chase(t, nil, 1, 1, 9)                              // Diego 9, the vigile 14
	evs := f.do(gm, pursue("vigile", tackle, "diego", 0), 6) // Athletics 9 + 6 = 15
	a := pursuitActed(t, evs)
	require.Equal(t, int32(2), a.GetActionPointsSpent())
	require.Equal(t, int32(15), a.GetTest().GetDifficulty())
	require.Equal(t, int32(15), a.GetTest().GetTotal())
	require.True(t, a.GetDodgePossible())
	require.Equal(t, int32(15), f.St.GetLoss().GetPending().GetDifficulty())
	require.Equal(t, int32(12), f.cs("vigile").GetActionPoints())

	f.refuse("david", parryCmd("diego"), engine.CodePrecondition, "LOS-105", "only a dodge", "Tackle")
	evs = f.do("david", dodge("diego", 0, nil), 3) // 13 against 15
	a = pursuitActed(t, evs)
	require.True(t, a.GetSuccess())
	require.True(t, a.GetEnded())
	require.Zero(t, a.GetDistance())
	require.Contains(t, a.GetNote(), "standard fight")
	require.Nil(t, f.pursuit())
	require.Equal(t, []int32{8, 12}, f.ap("diego", "vigile"))

	// A standard fight now: pursuit actions are refused, blows are not.
	f.refuse(gm, pursue("vigile", tackle, "diego", 0), engine.CodePrecondition, "LOS-100", "no pursuit")
	evs = f.do(gm, attack("vigile", "diego", 0, nil), 1)
	require.Equal(t, int32(15), find(t, evs, (*lossv1.Event).GetAttackRolled).GetTest().GetDifficulty())

	t.Run("dodged", func(t *testing.T) {
		f := chase(t, nil, 1, 1, 9)
		f.do(gm, pursue("vigile", tackle, "diego", 0), 6)
		evs := f.do("david", dodge("diego", 0, nil), 5) // 15 against 15
		a := pursuitActed(t, evs)
		require.False(t, a.GetSuccess())
		require.False(t, a.GetEnded())
		require.Equal(t, int32(1), f.pursuit().GetDistance())
	})
	t.Run("with an Exploit", func(t *testing.T) { // LOS-112
		f := chase(t, nil, 1, 1, 9)
		evs := f.do(gm, pursue("vigile", tackle, "diego", 1), 10, 1) // 9 + 11 = 20
		require.Equal(t, int32(20), pursuitActed(t, evs).GetTest().GetDifficulty())
		require.Equal(t, int32(20), f.St.GetLoss().GetPending().GetDifficulty())
		evs = f.do("david", dodge("diego", 0, nil), 9) // 19 against 20
		require.Equal(t, int32(20), find(t, evs, (*lossv1.Event).GetDefenceRolled).GetTest().GetDifficulty())
		require.Nil(t, f.pursuit())
	})
	t.Run("refused", func(t *testing.T) {
		f := chase(t, nil, 2, 1, 9)
		f.refuse(gm, pursue("vigile", tackle, "diego", 0), engine.CodePrecondition, "LOS-105", "contact", "2")
		f = chase(t, nil, 1, 7, 5) // Diego first
		f.refuse("david", pursue("diego", tackle, "vigile", 0), engine.CodePrecondition, "LOS-105", "pursuer")
	})
}

// LOS-106 (and LOS-101's exception): within range (3 units or less), a pursuit Test at 15 for
// 2 PA keeps the distance; on success a shot at Difficulty 20, without the +10, at the
// weapon's PA cost; if not dodged the target is down and the distance changes by one unit
// in the shooter's favour.
func TestLOS106ShootTheLegs(t *testing.T) {
	legs := func(t *testing.T, d int32) *fight {
		f := newFight(t, nil, fleeing(), archer())
		f.start(1, 9) // Diego 9, the archer 14
		f.do(gm, startPursuitCmd([]string{"archere"}, []string{"diego"}, d))
		return f
	}
	f := legs(t, 3)
	evs := f.do(gm, shootTheLegs("archere", "diego", ""), 5, 8) // pace 10 + 5 = 15; shot 12 + 8 = 20
	a := pursuitActed(t, evs)
	require.Equal(t, shootLegs, a.GetKind())
	require.Equal(t, int32(15), a.GetTest().GetDifficulty())
	require.Equal(t, int32(15), a.GetTest().GetTotal())
	require.Equal(t, int32(20), a.GetShot().GetDifficulty())
	require.Equal(t, int32(20), a.GetShot().GetTotal())
	require.Zero(t, modSum(a.GetShot().GetDifficultyModifiers(), "LOS-101"), "Shoot the legs has no +10")
	require.Equal(t, int32(2+4), a.GetActionPointsSpent(), "2 PA and the bow's Vitesse")
	require.True(t, a.GetDodgePossible())
	require.Equal(t, int32(8), f.cs("archere").GetActionPoints())
	require.Equal(t, int32(20), f.St.GetLoss().GetPending().GetDifficulty())

	f.refuse("david", parryCmd("diego"), engine.CodePrecondition, "LOS-106", "only a dodge")
	evs = f.do("david", dodge("diego", 0, nil), 9) // 19 against 20
	a = pursuitActed(t, evs)
	require.True(t, a.GetTargetDown())
	require.Equal(t, int32(2), a.GetDistance(), "one unit closer: the shooter pursues")
	require.Equal(t, int32(2), f.pursuit().GetDistance())
	require.True(t, f.cs("diego").GetProne())
	require.Equal(t, int32(8), f.cs("diego").GetActionPoints())

	t.Run("the aim is used up by the shot", func(t *testing.T) {
		f := legs(t, 3)
		f.do(gm, rgAim("archere", "", 2, false)) // LOS-035: +2 for 2 PA
		require.Equal(t, int32(2), f.cs("archere").GetAimBonus())
		evs := f.do(gm, shootTheLegs("archere", "diego", ""), 5, 6) // shot 12 + 6 + 2 aim = 20
		a := pursuitActed(t, evs)
		require.Equal(t, int32(20), a.GetShot().GetTotal())
		require.Zero(t, f.cs("archere").GetAimBonus(), "the aim served once")
	})
	t.Run("losing pace", func(t *testing.T) {
		f := legs(t, 3)
		evs := f.do(gm, shootTheLegs("archere", "diego", ""), 1) // 11: no shot
		a := pursuitActed(t, evs)
		require.False(t, a.GetSuccess())
		require.Nil(t, a.GetShot())
		require.Equal(t, int32(2), a.GetActionPointsSpent(), "only the pursuit Test is paid")
		require.Equal(t, int32(12), f.cs("archere").GetActionPoints())
		require.Nil(t, f.St.GetLoss().GetPending())
	})
	t.Run("missing", func(t *testing.T) {
		f := legs(t, 2)
		evs := f.do(gm, shootTheLegs("archere", "diego", ""), 5, 7) // the shot 19
		a := pursuitActed(t, evs)
		require.False(t, a.GetSuccess())
		require.False(t, a.GetShot().GetSuccess())
		require.Equal(t, int32(6), a.GetActionPointsSpent())
		require.Nil(t, f.St.GetLoss().GetPending())
		require.Equal(t, int32(2), f.pursuit().GetDistance())
	})
	t.Run("by the pursued", func(t *testing.T) {
		pistol := weapon("pistolet", lossv1.WeaponKind_WEAPON_KIND_RANGED, 3, 4)
		d := with(fleeing(), func(s *lossv1.Sheet) { s.Weapons = append(s.Weapons, pistol) })
		f := newFight(t, nil, d, vigile())
		f.start(7, 5) // Diego 15, the vigile 10
		f.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 3))
		f.refuse("david", shootTheLegs("diego", "vigile", ""), engine.CodeInvalid, "", "several weapons")
		f.refuse("david", shootTheLegs("diego", "vigile", "sabre"), engine.CodePrecondition, "LOS-106", "not a ranged weapon")
		f.do("david", shootTheLegs("diego", "vigile", "pistolet"), 4, 8) // 15, then 12 + 8 = 20
		evs := f.do(gm, dodge("vigile", 0, nil), 7)                      // 19
		a := pursuitActed(t, evs)
		require.True(t, a.GetTargetDown())
		require.Equal(t, int32(4), a.GetDistance(), "one unit away: the shooter flees")
		require.Equal(t, []int32{15 - 2 - 3, 9}, f.ap("diego", "vigile"))
		require.True(t, f.cs("vigile").GetProne())
	})
	t.Run("refused", func(t *testing.T) {
		f := legs(t, 4)
		f.refuse(gm, shootTheLegs("archere", "diego", ""), engine.CodePrecondition, "LOS-106", "3 or less", "4")
		g := newFight(t, nil, fleeing(), withInit(archer(), 0))
		g.start(1, 5) // Diego 9, the archer 5: too few for 2 + 4
		g.do(gm, startPursuitCmd([]string{"archere"}, []string{"diego"}, 3))
		g.do("david", pass("diego"))
		g.refuse(gm, shootTheLegs("archere", "diego", ""), engine.CodePrecondition, "LOS-035", "5 PA", "costs 6")
	})
}

// LOS-107 (with LOS-112): Zigzags (2 PA): the pursued Tests its pursuit Talent at 15 (+5 per
// Exploit); on success every pursuer's pursuit action gets +2, +5 with 1 Exploit, +10 with 2.
func TestLOS107ZigzagsDifficulty(t *testing.T) {
	for _, c := range []struct {
		exploits, face, malus int32
		spend                 *lossv1.Spend
	}{{0, 4, 2, nil}, {1, 9, 5, nil}, {2, 9, 10, fursa(1)}} {
		f := chase(t, nil, 2, 3, 5) // Diego 11, the vigile 10
		evs := f.do("david", zigzag("diego", c.exploits, c.spend), c.face)
		a := pursuitActed(t, evs)
		require.Equal(t, zigzags, a.GetKind())
		require.Equal(t, 15+5*c.exploits, a.GetTest().GetDifficulty())
		require.True(t, a.GetSuccess(), "%d Exploits", c.exploits)
		require.Equal(t, c.malus, a.GetZigzag())
		require.Equal(t, int32(2), a.GetActionPointsSpent())
		require.Equal(t, c.malus, f.pursuit().GetZigzag())
		require.Equal(t, "diego", f.pursuit().GetZigzagBy())
		require.Equal(t, int32(9), f.cs("diego").GetActionPoints())

		evs = f.do(gm, moveCloser("vigile", 0), 1) // the pursuer's action is harder
		a = pursuitActed(t, evs)
		require.Equal(t, 15+c.malus, a.GetTest().GetDifficulty(), "%d Exploits", c.exploits)
		require.Equal(t, c.malus, modSum(a.GetTest().GetDifficultyModifiers(), "LOS-107"))
	}

	t.Run("passing is no action: the Zigzags hold", func(t *testing.T) {
		f := chase(t, nil, 2, 3, 5)               // Diego 11, the vigile 10
		f.do("david", zigzag("diego", 0, nil), 4) // Diego 9
		f.do(gm, moveCloser("vigile", 0), 1)      // the vigile 8
		f.do("david", pass("diego"))
		require.Equal(t, int32(2), f.pursuit().GetZigzag())
		evs := f.do(gm, moveCloser("vigile", 0), 1)
		require.Equal(t, int32(15+2), pursuitActed(t, evs).GetTest().GetDifficulty())
	})
	t.Run("failed", func(t *testing.T) {
		f := chase(t, nil, 2, 3, 5)
		evs := f.do("david", zigzag("diego", 0, nil), 3) // 14
		a := pursuitActed(t, evs)
		require.False(t, a.GetSuccess())
		require.Zero(t, a.GetZigzag())
		require.Zero(t, f.pursuit().GetZigzag())
		require.Equal(t, int32(9), f.cs("diego").GetActionPoints())
		evs = f.do(gm, moveCloser("vigile", 0), 3) // 15 against 15
		require.Equal(t, int32(1), pursuitActed(t, evs).GetDistance())
	})
	t.Run("not the pursuers' other actions", func(t *testing.T) {
		f := chase(t, nil, 1, 3, 5)
		f.do("david", zigzag("diego", 0, nil), 4)
		evs := f.do(gm, attack("vigile", "diego", 0, nil), 1) // a blow, not a pursuit action
		ar := find(t, evs, (*lossv1.Event).GetAttackRolled)
		require.Equal(t, int32(15), ar.GetTest().GetDifficulty())
		require.Zero(t, modSum(ar.GetTest().GetDifficultyModifiers(), "LOS-107"))
	})
	t.Run("refused", func(t *testing.T) {
		f := chase(t, nil, 2, 1, 9) // the vigile first
		f.refuse(gm, zigzag("vigile", 0, nil), engine.CodePrecondition, "LOS-107", "pursued")
	})
}

// LOS-107 with zigzag_until_next_action (the default): the Zigzags last until the pursued's
// next action, across the end of the Tour if need be, and do not burden its own actions; with
// the option off they last until the end of the Tour.
func TestLOS107ZigzagsDuration(t *testing.T) {
	for _, until := range []bool{true, false} {
		t.Run(map[bool]string{true: "until the next action", false: "until the end of the Tour"}[until], func(t *testing.T) {
			opts := &lossv1.Options{ZigzagUntilNextAction: proto.Bool(until)}
			f := chase(t, opts, 2, 4, 6)                // Diego 12, the vigile 11
			f.do("david", zigzag("diego", 0, nil), 4)   // 15: +2
			evs := f.do(gm, moveCloser("vigile", 0), 3) // 15 against 17
			require.False(t, pursuitActed(t, evs).GetSuccess())
			evs = f.do("david", pullAway("diego", 0, nil), 1) // Diego's next action: 12 against 15
			a := pursuitActed(t, evs)
			require.Equal(t, int32(15), a.GetTest().GetDifficulty(), "no Zigzags on the pursued's own action")
			evs = f.do(gm, moveCloser("vigile", 0), 3) // 15
			a = pursuitActed(t, evs)
			if until {
				require.Zero(t, f.pursuit().GetZigzag())
				require.Equal(t, int32(15), a.GetTest().GetDifficulty(), "the Zigzags ended with Diego's next action")
				require.True(t, a.GetSuccess())
				return
			}
			require.Equal(t, int32(17), a.GetTest().GetDifficulty(), "the Zigzags last the Tour")
			require.False(t, a.GetSuccess())
			f.do("david", pass("diego"))
			evs = f.do(gm, pass("vigile"), 1, 1)
			find(t, evs, (*lossv1.Event).GetTourStarted)
			require.Zero(t, f.pursuit().GetZigzag(), "a new Tour clears them")
		})
	}
	for _, until := range []bool{true, false} {
		t.Run(map[bool]string{true: "across the Tour", false: "not across the Tour"}[until], func(t *testing.T) {
			opts := &lossv1.Options{ZigzagUntilNextAction: proto.Bool(until)}
			f := newFight(t, opts, withInit(fleeing(), 0), withInit(vigile(), 0))
			f.start(4, 3) // Diego 4, the vigile 3
			f.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 2))
			f.do("david", zigzag("diego", 0, nil), 4) // 15: +2
			evs := f.do(gm, moveCloser("vigile", 0), 3)
			require.Equal(t, int32(17), pursuitActed(t, evs).GetTest().GetDifficulty())
			evs = f.do("david", zigzag("diego", 1, nil), 9) // 20 against 20: +5 replaces +2
			require.Equal(t, int32(5), pursuitActed(t, evs).GetZigzag())
			require.Equal(t, int32(5), f.pursuit().GetZigzag())
			require.Equal(t, []int32{0, 1}, f.ap("diego", "vigile"))
			evs = f.do(gm, pass("vigile"), 1, 5) // Tour 2: Diego 1, the vigile 5
			find(t, evs, (*lossv1.Event).GetTourStarted)
			evs = f.do(gm, moveCloser("vigile", 0), 8) // 20
			a := pursuitActed(t, evs)
			if until {
				require.Equal(t, int32(20), a.GetTest().GetDifficulty(), "Diego has not acted since")
				require.Equal(t, int32(5), modSum(a.GetTest().GetDifficultyModifiers(), "LOS-107"))
			} else {
				require.Equal(t, int32(15), a.GetTest().GetDifficulty())
			}
			require.True(t, a.GetSuccess())
			require.Equal(t, int32(1), f.pursuit().GetDistance())
		})
	}
}

// LOS-108: pursuit speed is Trait + Talent + the mount's or vehicle's speed bonus: the bonus
// goes to the Tests of the pursuit Talent (Change distance, Charge, Zigzags, keeping pace),
// not to Athletics (Clothesline, Tackle).
func TestLOS108PursuitSpeed(t *testing.T) {
	mounted := func() *encounterv1.Combatant {
		return with(vigile(), func(s *lossv1.Sheet) { s.MountSpeed, s.Mounted = 3, true })
	}
	f := newFight(t, nil, fleeing(), mounted())
	f.start(1, 9) // Diego 9, the vigile 14
	f.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 3))
	evs := f.do(gm, moveCloser("vigile", 0), 5) // 5 + 7 + 3 + 5 = 20 against 20
	a := pursuitActed(t, evs)
	require.Equal(t, int32(5), a.GetTest().GetTrait())
	require.Equal(t, int32(7), a.GetTest().GetTalent())
	require.Equal(t, int32(3), a.GetTest().GetBonus())
	require.Equal(t, int32(3), modSum(a.GetTest().GetTestModifiers(), "LOS-108"))
	require.Equal(t, int32(20), a.GetTest().GetTotal())
	require.True(t, a.GetSuccess())
	require.Equal(t, int32(2), f.pursuit().GetDistance())

	evs = f.do(gm, pursue("vigile", charge, "diego", 0), 5) // 20 against 20
	a = pursuitActed(t, evs)
	require.Equal(t, int32(20), a.GetTest().GetTotal())
	require.True(t, a.GetSuccess())
	f.do("david", takeBlow("diego"))

	// Athletics gets no speed bonus: 9 + 6 = 15.
	g := newFight(t, nil, fleeing(), mounted())
	g.start(1, 9)
	g.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 1))
	evs = g.do(gm, pursue("vigile", tackle, "diego", 0), 6)
	a = pursuitActed(t, evs)
	require.Equal(t, int32(15), a.GetTest().GetTotal())
	require.Zero(t, a.GetTest().GetBonus())

	// Diego on foot has no bonus.
	h := chase(t, nil, 2, 7, 5)
	evs = h.do("david", zigzag("diego", 0, nil), 4)
	require.Zero(t, pursuitActed(t, evs).GetTest().GetBonus())
	require.Equal(t, int32(15), pursuitActed(t, evs).GetTest().GetTotal())

	// A mounted archer keeps pace with the bonus too: 10 + 3 + 2 = 15.
	k := newFight(t, nil, fleeing(), with(archer(), func(s *lossv1.Sheet) { s.MountSpeed = 3 }))
	k.start(1, 9)
	k.do(gm, startPursuitCmd([]string{"archere"}, []string{"diego"}, 3))
	evs = k.do(gm, shootTheLegs("archere", "diego", ""), 2, 1)
	a = pursuitActed(t, evs)
	require.Equal(t, int32(15), a.GetTest().GetTotal())
	require.True(t, a.GetTest().GetSuccess())
	require.Zero(t, a.GetShot().GetBonus(), "the shot is not a pursuit Talent Test")
}

// LOS-112: each Exploit raises the Difficulty of the pursuit action that declares it by 5;
// the Difficulty of the dodge of a Clothesline or Tackle is the attacker's; a dodge in a
// pursuit takes plain Exploits of its own (LOS-012) and no effects.
func TestLOS112ExploitsInPursuit(t *testing.T) {
	for _, c := range []struct {
		kind        lossv1.PursuitKind
		who, target string
		dist, base  int32
		diegoFirst  bool
		dodgeable   bool
	}{
		{changeDist, "vigile", "", 4, 25, false, false},
		{charge, "vigile", "diego", 2, 20, false, true},
		{tackle, "vigile", "diego", 1, 15, false, true},
		{clothes, "diego", "vigile", 2, 15, true, true},
		{zigzags, "diego", "", 3, 15, true, false},
	} {
		for e := int32(0); e <= 5; e++ {
			dDiego, dVigile := int32(1), int32(9)
			actor := gm
			if c.diegoFirst {
				dDiego, dVigile, actor = 7, 5, "david"
			}
			f := chase(t, nil, c.dist, dDiego, dVigile)
			evs := f.do(actor, pursuitCmd(c.who, &lossv1.PursuitAction{Kind: c.kind, TargetId: c.target, Exploits: e, Closer: true}), 1)
			a := pursuitActed(t, evs)
			require.Equal(t, c.base+5*e, a.GetTest().GetDifficulty(), "%v with %d Exploits", c.kind, e)
			require.Equal(t, 5*e, modSum(a.GetTest().GetDifficultyModifiers(), "LOS-010"))
		}
	}

	// The vigile dodges Diego's Clothesline at 15 + 5 and declares an Exploit of its own: 25.
	f := chase(t, nil, 2, 7, 1)
	f.do("david", pursue("diego", clothes, "vigile", 1), 8) // 20
	f.refuse(gm, action(&lossv1.Action{CombatantId: "vigile", Kind: &lossv1.Action_React{React: &lossv1.React{
		Reaction: lossv1.Reaction_REACTION_DODGE, Exploits: 1,
		Effects: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_COUNTER_ATTACK},
	}}}), engine.CodeInvalid, "LOS-012", "plain Exploits")
	f.refuse(gm, dodge("vigile", 6, nil), engine.CodeInvalid, "LOS-012")
	f.refuse("david", dodge("diego", 0, nil), engine.CodePrecondition, "LOS-009", "Vigile")
	evs := f.do(gm, dodge("vigile", 1, nil), 9) // 21 against 25
	dr := find(t, evs, (*lossv1.Event).GetDefenceRolled)
	require.Equal(t, int32(25), dr.GetTest().GetDifficulty())
	require.False(t, dr.GetTest().GetSuccess())
	require.True(t, pursuitActed(t, evs).GetTargetDown())

	// A player character's failed Exploit in a pursuit feeds the GM's reserve (LOS-005).
	g := chase(t, nil, 2, 7, 5)
	g.do("david", zigzag("diego", 1, nil), 1) // 12 against 20
	require.Equal(t, int32(1), g.St.GetLoss().GetGmFursa())
}

// LOS-108: the pursuit score and Athletics name a Trait and a Talent of the sheet.
func TestLOS108MalformedPursuitScores(t *testing.T) {
	f := newFight(t, nil)
	f.refuse(gm, addCmd(with(fleeing(), func(s *lossv1.Sheet) { s.Pursuit.Trait = "Agilite" })), engine.CodeInvalid, "LOS-001", "Diego", "pursuit", "Agilite")
	f.refuse(gm, addCmd(with(fleeing(), func(s *lossv1.Sheet) { s.Pursuit.Talent = "Équitation" })), engine.CodeInvalid, "LOS-001", "Diego", "Équitation")
	f.refuse(gm, addCmd(with(fleeing(), func(s *lossv1.Sheet) { s.Athletics.Talent = "Athletisme" })), engine.CodeInvalid, "LOS-001", "Diego", "athletics", "Athletisme")
	f.do(gm, addCmd(fleeing()))
}

// LOS-016 (revised): the +5 of a successful defensive Exploit is for the defender's very next
// action in the Tour, whatever it is: a move, an aim, a pursuit action uses it up (before, they
// left it for a later action); a pursuit Test gets it, and Shoot the legs on its first Test only
// (before, on both).
func TestLOS016AnyNextActionUsesTheBonus(t *testing.T) {
	defender := func() *encounterv1.Combatant {
		return with(fleeing(), func(s *lossv1.Sheet) {
			s.Talents["Archerie"] = 6
			s.Weapons = append(s.Weapons, archerBow(4))
		})
	}
	for _, c := range []struct {
		name  string
		cmd   *encounterv1.Command
		faces []int32
		// the LOS-016 bonus on the action's Test and on its shot
		test, shot int32
	}{
		{"a move", simpleCmd("diego", lossv1.SimpleKind_SIMPLE_KIND_MOVE), nil, 0, 0},
		{"an aim", rgAim("diego", "arc", 1, false), nil, 0, 0},
		{"a pursuit action", pullAway("diego", 0, nil), []int32{1}, 5, 0},
		{"shooting the legs", shootTheLegs("diego", "vigile", "arc"), []int32{1, 1}, 5, 0},
		{"an attack", attackWith("diego", "vigile", "sabre", 0, nil, false), []int32{1}, 5, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFight(t, nil, defender(), vigile())
			f.start(1, 9) // Diego 9, the vigile 14
			f.do(gm, startPursuitCmd([]string{"vigile"}, []string{"diego"}, 3))
			f.do(gm, attack("vigile", "diego", 0, nil), 9) // 19 ≥ 15
			f.do("david", dodge("diego", 1, nil), 10, 1)   // 10 + 11 = 21 ≥ 20
			require.Equal(t, int32(5), f.cs("diego").GetNextActionBonus())
			f.do(gm, pass("vigile"))
			evs := f.do("david", c.cmd, c.faces...)
			require.Zero(t, f.cs("diego").GetNextActionBonus(), "used up")
			if a := findOr(evs, (*lossv1.Event).GetPursuitActed); a != nil {
				require.Equal(t, c.test, modSum(a.GetTest().GetTestModifiers(), "LOS-016"))
				require.Equal(t, c.shot, modSum(a.GetShot().GetTestModifiers(), "LOS-016"))
			}
			if a := findOr(evs, (*lossv1.Event).GetAttackRolled); a != nil {
				require.Equal(t, c.test, modSum(a.GetTest().GetTestModifiers(), "LOS-016"))
			}
		})
	}
}

// findOr returns the first event of evs that get picks out, nil if none.
func findOr[T any](evs []*encounterv1.Event, get func(*lossv1.Event) *T) *T {
	for _, ev := range evs {
		if x := get(ev.GetLoss()); x != nil {
			return x
		}
	}
	return nil
}
