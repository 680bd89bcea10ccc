package loss_test

import (
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// Ranged combat (LOS-080…LOS-086), melee modifiers (LOS-050…LOS-054), parry and dodge
// conditions (LOS-018, LOS-019) and the specialisations (LOS-090…LOS-094).

type rgE = lossv1.ExploitEffect

const (
	rgParry = lossv1.Reaction_REACTION_PARRY
	rgDodge = lossv1.Reaction_REACTION_DODGE

	rgExtra     = lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE
	rgAssaut    = lossv1.ExploitEffect_EXPLOIT_EFFECT_ASSAUT
	rgCounter   = lossv1.ExploitEffect_EXPLOIT_EFFECT_COUNTER_ATTACK
	rgTotal     = lossv1.ExploitEffect_EXPLOIT_EFFECT_TOTAL_DODGE
	rgFeint     = lossv1.ExploitEffect_EXPLOIT_EFFECT_FEINT
	rgWall      = lossv1.ExploitEffect_EXPLOIT_EFFECT_DEFENSIVE_WALL
	rgAdvantage = lossv1.ExploitEffect_EXPLOIT_EFFECT_TAKE_ADVANTAGE
	rgProtect   = lossv1.ExploitEffect_EXPLOIT_EFFECT_PROTECT
	rgLimb      = lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_LIMB
	rgTwo       = lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS
	rgMoulinet  = lossv1.ExploitEffect_EXPLOIT_EFFECT_MOULINET
	rgOverthrow = lossv1.ExploitEffect_EXPLOIT_EFFECT_OVERTHROW
	rgZone      = lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_ZONE
	rgDisarm    = lossv1.ExploitEffect_EXPLOIT_EFFECT_DISARM
	rgPoint     = lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_POINT
	rgNeutral   = lossv1.ExploitEffect_EXPLOIT_EFFECT_NEUTRALISE
	rgStorm     = lossv1.ExploitEffect_EXPLOIT_EFFECT_STORM_OF_BLADES
	rgKill      = lossv1.ExploitEffect_EXPLOIT_EFFECT_KILL_OUTRIGHT
	rgRicochet  = lossv1.ExploitEffect_EXPLOIT_EFFECT_RICOCHET
	rgThrough   = lossv1.ExploitEffect_EXPLOIT_EFFECT_SHOOT_THROUGH
	rgRain      = lossv1.ExploitEffect_EXPLOIT_EFFECT_RAIN_OF_PROJECTILES
)

// rgRanged is a ranged weapon shot with Instinct + Archerie.
func rgRanged(name, typ string, vitesse, damage, portee, limite int32) *lossv1.Weapon {
	return &lossv1.Weapon{
		Name: name, WeaponType: typ, Kind: lossv1.WeaponKind_WEAPON_KIND_RANGED, Vitesse: vitesse, Damage: damage,
		EffectiveRange: portee, Limit: limite, Attack: &lossv1.Score{Trait: "Instinct", Talent: "Archerie"},
	}
}

// rgBow: a long bow, Vitesse 4, damage 3, Portée 20 m, Limite 60 m.
func rgBow() *lossv1.Weapon {
	w := rgRanged("arc", "arc long", 4, 3, 20, 60)
	w.Bow = true
	return w
}

// rgSling: Vitesse 3, damage 2, no Portée or Limite given.
func rgSling() *lossv1.Weapon { return rgRanged("fronde", "fronde", 3, 2, 0, 0) }

// rgArcher: a player character shooting with Instinct 5 + Archerie 15 (20 + d10), Initiative
// 10, dodging with Agilité 5 + Esquive 5.
func rgArcher(ws ...*lossv1.Weapon) *encounterv1.Combatant {
	c := who("archere", "Archère", pc, 10, 3, 3, 5, 5, ws...)
	c.GetLoss().Traits["Instinct"] = 5
	c.GetLoss().Talents["Archerie"] = 15
	return c
}

// rgGrenade: an explosive thrown with Instinct + Arme de jet, Vitesse 3, damage 4, Portée 10 m,
// Limite 30 m.
func rgGrenade() *lossv1.Weapon {
	return &lossv1.Weapon{
		Name: "grenade", Kind: lossv1.WeaponKind_WEAPON_KIND_RANGED, Vitesse: 3, Damage: 4, EffectiveRange: 10, Limit: 30,
		Explosive: true, Attack: &lossv1.Score{Trait: "Instinct", Talent: "Arme de jet"},
	}
}

// rgGrenadier: an Adversaire throwing with Instinct 5 + Arme de jet 15 (20 + d10), Initiative 5.
func rgGrenadier() *encounterv1.Combatant {
	c := who("grenadier", "Grenadier", adv, 5, 5, 5, 5, 5, rgGrenade())
	c.GetLoss().Traits["Instinct"] = 5
	c.GetLoss().Talents["Arme de jet"] = 15
	return c
}

func rgSpecs(c *encounterv1.Combatant, specs ...*lossv1.Specialisation) *encounterv1.Combatant {
	return with(c, func(s *lossv1.Sheet) { s.Specialisations = specs })
}

func rgSpec(k lossv1.SpecialisationKind, weaponType string) *lossv1.Specialisation {
	return &lossv1.Specialisation{Kind: k, WeaponType: weaponType}
}

func rgAct(id string, a *lossv1.Attack) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_Attack{Attack: a}})
}

// rgShoot: a shot at m metres with the given Exploit effects.
func rgShoot(id, target, weapon string, m int32, effects ...rgE) *encounterv1.Command {
	return rgAct(id, &lossv1.Attack{TargetId: target, Weapon: weapon, Exploits: effects, Situation: &lossv1.Situation{Distance: m}})
}

func rgReact(id string, r *lossv1.React) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_React{React: r}})
}

func rgAim(id, weapon string, points int32, tour bool) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_Aim{Aim: &lossv1.Aim{Weapon: weapon, Points: points, WholeTour: tour}}})
}

func rgDisaster(id string) *encounterv1.Command {
	return action(&lossv1.Action{CombatantId: id, Kind: &lossv1.Action_Disaster{Disaster: &lossv1.Disaster{Description: "la grenade roule à ses pieds"}}})
}

// rgMods sums modifiers by rule.
func rgMods(ms []*lossv1.Modifier) map[string]int32 {
	out := map[string]int32{}
	for _, m := range ms {
		out[m.GetRule()] += m.GetValue()
	}
	return out
}

func rgRolled(t *testing.T, evs []*encounterv1.Event) *lossv1.AttackRolled {
	t.Helper()
	return find(t, evs, (*lossv1.Event).GetAttackRolled)
}

func rgDefence(t *testing.T, evs []*encounterv1.Event) *lossv1.DefenceRolled {
	t.Helper()
	return find(t, evs, (*lossv1.Event).GetDefenceRolled)
}

func rgResolved(t *testing.T, evs []*encounterv1.Event) *lossv1.AttackResolved {
	t.Helper()
	return find(t, evs, (*lossv1.Event).GetAttackResolved)
}

// LOS-080: the base Difficulty of a shot depends on the distance: 2–10 m 15, 11–20 m 20,
// 21–40 m 25, 41–60 m 30, beyond 60 m 35; it is what the defender Tests against too.
func TestLOS080RangedDifficultyByDistance(t *testing.T) {
	for _, c := range []struct{ m, diff int32 }{
		{2, 15}, {10, 15}, {11, 20}, {20, 20}, {21, 25}, {40, 25}, {41, 30}, {60, 30}, {61, 35}, {500, 35},
	} {
		require.Equal(t, c.diff, loss.RangedDifficulty(c.m), "%d m", c.m)
		t.Run(fmt.Sprintf("%d m", c.m), func(t *testing.T) {
			f := newFight(t, nil, rgArcher(rgSling()), ruffian())
			f.start(5, 5)
			ar := rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "", c.m), 5)) // 20 + 5 = 25
			require.Equal(t, c.diff, ar.GetTest().GetDifficulty())
			require.Empty(t, ar.GetTest().GetDifficultyModifiers())
			require.Empty(t, ar.GetTest().GetTestModifiers())
			require.Equal(t, int32(25), ar.GetTest().GetTotal())
			require.Equal(t, c.diff <= 25, ar.GetTest().GetSuccess())
			require.Equal(t, c.diff, ar.GetDefenceDifficulty())
			if c.diff <= 25 {
				require.Equal(t, c.diff, f.St.GetLoss().GetPending().GetDifficulty())
			} else {
				require.Nil(t, f.St.GetLoss().GetPending())
			}
		})
	}

	// Exploits add to the distance's Difficulty: 30 + 5 at 50 m, for the defender too.
	f := newFight(t, nil, rgArcher(rgSling()), ruffian())
	f.start(5, 5)
	ar := rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "", 50, rgExtra), 9))
	require.Equal(t, int32(35), ar.GetTest().GetDifficulty())
	require.Equal(t, int32(35), ar.GetDefenceDifficulty())
	require.False(t, ar.GetTest().GetSuccess())

	// A melee blow ignores the distance: 15.
	g := newFight(t, nil, diego(), ruffian())
	g.start(7, 5)
	ar = rgRolled(t, g.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Situation: &lossv1.Situation{Distance: 50}}), 1))
	require.Equal(t, int32(15), ar.GetTest().GetDifficulty())
}

// LOS-081: beyond its Portée a weapon deals half damage, rounded down, before armour; beyond
// its Limite it cannot hit.
func TestLOS081PorteeAndLimite(t *testing.T) {
	armoured := with(ruffian(), func(s *lossv1.Sheet) { s.Armour = 2 })
	f := newFight(t, nil, rgArcher(rgBow()), armoured)
	f.start(5, 1)

	// At the Portée (20 m): full damage, 8 + 3 = 11, − 2 armour: 9 NS.
	f.do("david", rgShoot("archere", "malfrat", "", 20), 5) // 25 ≥ 20
	res := rgResolved(t, f.do(gm, takeBlow("malfrat"), 8))
	require.True(t, res.GetHit())
	require.False(t, res.GetHalved())
	require.Equal(t, int32(11), res.GetDamage().GetTotal())
	require.Equal(t, int32(9), res.GetDamage().GetLevelsLost())

	// Beyond it (21 m): 11 / 2 = 5, − 2 armour: 3 NS.
	f.do("david", rgShoot("archere", "malfrat", "", 21), 5) // 25 ≥ 25
	res = rgResolved(t, f.do(gm, takeBlow("malfrat"), 8))
	require.True(t, res.GetHalved())
	require.Equal(t, int32(5), res.GetDamage().GetTotal())
	require.Equal(t, int32(2), res.GetDamage().GetArmour())
	require.Equal(t, int32(3), res.GetDamage().GetLevelsLost())
	cs := f.cs("malfrat")
	require.Equal(t, []int32{0, 0, 3}, []int32{cs.GetLight(), cs.GetGrave(), cs.GetFatal()})

	// Beyond the Limite (60 m) it cannot hit; at the Limite it may still shoot.
	f.refuse("david", rgShoot("archere", "malfrat", "", 61), engine.CodePrecondition, "LOS-081", "Malfrat", "61", "60")
	ar := rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "", 60), 9)) // 29 < 30
	require.Equal(t, int32(30), ar.GetTest().GetDifficulty())
	require.Equal(t, int32(3), f.cs("archere").GetActionPoints())
}

// LOS-082 (with LOS-017, LOS-083): the first shot at a target that does not see its shooter
// is against a surprised target: the Difficulty stays the distance's, the shooter gets +5,
// and the target can neither parry nor dodge.
func TestLOS082UnseenShotSurprises(t *testing.T) {
	f := newFight(t, nil, rgArcher(rgBow()), ruffian())
	f.start(5, 1)
	evs := f.do("david", rgAct("archere", &lossv1.Attack{TargetId: "malfrat", Unseen: true, Situation: &lossv1.Situation{Distance: 15}}), 1, 1)
	ar := rgRolled(t, evs)
	require.Equal(t, int32(20), ar.GetTest().GetDifficulty())
	require.Equal(t, map[string]int32{"LOS-083": 5}, rgMods(ar.GetTest().GetTestModifiers()))
	require.Equal(t, int32(20+1+5), ar.GetTest().GetTotal())
	require.False(t, ar.GetDefencePossible())
	require.Contains(t, ar.GetNoDefenceReason(), "LOS-017")
	res := rgResolved(t, evs)
	require.True(t, res.GetHit())
	require.Equal(t, int32(1+3), res.GetDamage().GetLevelsLost())
	require.Nil(t, f.St.GetLoss().GetPending())
	f.refuse(gm, dodge("malfrat", 0, nil), engine.CodePrecondition, "LOS-009")

	// A surprised target (the shooter seen or not): the same bonus, no defence.
	evs = f.do("david", rgAct("archere", &lossv1.Attack{TargetId: "malfrat", Situation: &lossv1.Situation{Distance: 15, Surprised: true}}), 1, 1)
	ar = rgRolled(t, evs)
	require.Equal(t, int32(26), ar.GetTest().GetTotal())
	require.False(t, ar.GetDefencePossible())
	require.Contains(t, ar.GetNoDefenceReason(), "surprised")

	// Seen and not surprised: no bonus, and the target may dodge (LOS-018).
	ar = rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "", 15), 1))
	require.Equal(t, int32(21), ar.GetTest().GetTotal())
	require.Empty(t, ar.GetTest().GetTestModifiers())
	require.True(t, ar.GetDefencePossible())
}

// LOS-083: partial cover +10, full cover +15; the melee modifiers apply too; cover replaces
// the melee obstacle modifier; a surprised target gives +5 (LOS-082).
func TestLOS083Cover(t *testing.T) {
	for _, c := range []struct {
		name string
		sit  *lossv1.Situation
		diff int32
		mods map[string]int32
	}{
		{"no cover", &lossv1.Situation{Distance: 15}, 20, map[string]int32{}},
		{"partial cover", &lossv1.Situation{Distance: 15, Cover: lossv1.Cover_COVER_PARTIAL}, 30, map[string]int32{"LOS-083": 10}},
		{"full cover", &lossv1.Situation{Distance: 15, Cover: lossv1.Cover_COVER_FULL}, 35, map[string]int32{"LOS-083": 15}},
		{"cover replaces the obstacle", &lossv1.Situation{Distance: 15, Cover: lossv1.Cover_COVER_PARTIAL, BehindObstacle: true}, 30, map[string]int32{"LOS-083": 10}},
		{"the melee obstacle is not a cover", &lossv1.Situation{Distance: 15, BehindObstacle: true}, 20, map[string]int32{}},
		{"melee modifiers apply too", &lossv1.Situation{Distance: 15, Cover: lossv1.Cover_COVER_PARTIAL, Darkness: true, Lower: true},
			45, map[string]int32{"LOS-083": 10, "LOS-050": 15}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFight(t, nil, rgArcher(rgBow()), ruffian())
			f.start(5, 5)
			ar := rgRolled(t, f.do("david", rgAct("archere", &lossv1.Attack{TargetId: "malfrat", Situation: c.sit}), 5))
			require.Equal(t, c.diff, ar.GetTest().GetDifficulty())
			require.Equal(t, c.mods, rgMods(ar.GetTest().GetDifficultyModifiers()))
			require.Equal(t, int32(25), ar.GetTest().GetTotal())
		})
	}

	// In melee the obstacle is +10 (LOS-050).
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	ar := rgRolled(t, f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Situation: &lossv1.Situation{BehindObstacle: true}}), 1))
	require.Equal(t, int32(25), ar.GetTest().GetDifficulty())
	require.Equal(t, map[string]int32{"LOS-050": 10}, rgMods(ar.GetTest().GetDifficultyModifiers()))

	// LOS-085 Ricochet (2 Exploits) ignores the cover: 20 + 10 for the Exploits, not + 10 more.
	g := newFight(t, nil, rgArcher(rgBow()), ruffian())
	g.start(5, 5)
	ar = rgRolled(t, g.do("david", rgAct("archere", &lossv1.Attack{TargetId: "malfrat", Exploits: []rgE{rgRicochet},
		Situation: &lossv1.Situation{Distance: 15, Cover: lossv1.Cover_COVER_FULL}}), 5))
	require.Equal(t, int32(30), ar.GetTest().GetDifficulty())
	require.Equal(t, map[string]int32{"LOS-010": 10}, rgMods(ar.GetTest().GetDifficultyModifiers()))
}

// LOS-084: point-blank (< 2 m) +5 on the close Difficulty 15.
func TestLOS084PointBlank(t *testing.T) {
	f := newFight(t, nil, rgArcher(rgBow()), ruffian())
	f.start(5, 5)
	ar := rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "", 1), 1))
	require.Equal(t, int32(15), ar.GetTest().GetDifficulty())
	require.Equal(t, map[string]int32{"LOS-084": 5}, rgMods(ar.GetTest().GetTestModifiers()))
	require.Equal(t, int32(20+1+5), ar.GetTest().GetTotal())
	f.do(gm, takeBlow("malfrat"), 1)

	ar = rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "", 2), 1))
	require.Equal(t, int32(15), ar.GetTest().GetDifficulty())
	require.Empty(t, ar.GetTest().GetTestModifiers())
	require.Equal(t, int32(21), ar.GetTest().GetTotal())
}

// LOS-084, LOS-090 (Visée), LOS-094: aiming a whole Tour gives +10 on the next shot, +15
// with the Visée specialisation of that weapon type; aiming for a Séquence or out of combat
// +15 and no more; aiming with PA (LOS-035) does not stack with them unless aims_stack.
func TestLOS084Aiming(t *testing.T) {
	// shot aims as told, shoots at 15 m (Difficulty 20) with a 1 and returns the aim bonus.
	shot := func(t *testing.T, opts *lossv1.Options, archer *encounterv1.Combatant, pa int32, tour, long bool) int32 {
		t.Helper()
		f := newFight(t, opts, archer, ruffian())
		f.start(5, 5) // the archer 15 PA, the ruffian 10
		if tour {     // the first action of Tour 1, then the shot in Tour 2
			aimed := find(t, f.do("david", rgAim("archere", "arc", 0, true)), (*lossv1.Event).GetAimed)
			require.True(t, aimed.GetWholeTour())
			require.Equal(t, int32(15), aimed.GetActionPointsSpent(), "aiming a Tour spends every PA")
			require.Equal(t, int32(0), f.cs("archere").GetActionPoints())
			f.do(gm, pass("malfrat"), 5, 5) // Tour 2
			require.Equal(t, int32(2), f.St.GetLoss().GetTour())
		}
		if pa > 0 {
			f.do("david", rgAim("archere", "arc", pa, false))
		}
		ar := rgRolled(t, f.do("david", rgAct("archere", &lossv1.Attack{TargetId: "malfrat",
			Situation: &lossv1.Situation{Distance: 15, AimedLong: long}}), 1))
		bonus := rgMods(ar.GetTest().GetTestModifiers())["LOS-084"]
		require.Equal(t, 21+bonus, ar.GetTest().GetTotal())
		require.Equal(t, int32(20), ar.GetTest().GetDifficulty())
		require.Zero(t, f.cs("archere").GetAimTourBonus(), "the aim is spent on the shot")
		require.Zero(t, f.cs("archere").GetAimBonus(), "the aim is spent on the shot")
		return bonus
	}
	archer := rgArcher(rgBow())
	stack := &lossv1.Options{AimsStack: proto.Bool(true)}
	for _, c := range []struct {
		pa             int32
		tour, long     bool
		alone, stacked int32
		name           string
	}{
		{3, false, false, 3, 3, "3 PA"},
		{5, false, false, 5, 5, "5 PA"},
		{0, true, false, 10, 10, "a Tour"},
		{3, true, false, 10, 13, "3 PA and a Tour"},
		{0, false, true, 15, 15, "out of combat"},
		{3, false, true, 15, 18, "3 PA and out of combat"},
		{0, true, true, 15, 15, "a Tour and a Séquence: no more than 15"},
		{2, true, true, 15, 17, "2 PA, a Tour and a Séquence"},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.alone, shot(t, nil, archer, c.pa, c.tour, c.long), "default: the best aim only")
			require.Equal(t, c.stacked, shot(t, stack, archer, c.pa, c.tour, c.long), "aims_stack")
		})
	}

	// Visée: +15 for a Tour with the weapon type it names (LOS-090), +10 with another (LOS-094).
	visee := rgSpecs(rgArcher(rgBow()), rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_AIMING, "arc long"))
	require.Equal(t, int32(15), shot(t, nil, visee, 0, true, false))
	require.Equal(t, int32(15), shot(t, nil, visee, 0, true, true), "Visée does not go beyond 15 with a Séquence")
	other := rgSpecs(rgArcher(rgBow()), rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_AIMING, "arbalète"))
	require.Equal(t, int32(10), shot(t, nil, other, 0, true, false))
}

// LOS-084, LOS-035 (revised): aiming for a Tour is the combatant's first action of the Tour and
// takes all its PA; once it has acted, it cannot (before, it cost the PA left, even 1). A
// parry or a dodge before its first action is no action: the aim takes the PA left.
func TestLOS084AimForATourIsTheFirstAction(t *testing.T) {
	f := newFight(t, nil, rgArcher(rgBow()), ruffian())
	f.start(5, 1) // the archer 15, the ruffian 6
	f.do("david", rgAim("archere", "arc", 1, false))
	require.Equal(t, int32(14), f.cs("archere").GetActionPoints())
	f.refuse("david", rgAim("archere", "arc", 0, true), engine.CodePrecondition, "LOS-084", "Archère", "first action")
	legal, err := f.Reg.Legal(f.St, "archere")
	require.NoError(t, err)
	for _, l := range legal {
		require.NotEqual(t, "aim a whole Tour", l.GetName())
	}
	f.do("david", rgShoot("archere", "malfrat", "", 15), 1) // 21 + 1 ≥ 20, at 10
	f.do(gm, takeBlow("malfrat"), 1)
	f.refuse("david", rgAim("archere", "arc", 0, true), engine.CodePrecondition, "LOS-084")
	f.do("david", pass("archere"))
	f.do(gm, pass("malfrat"), 1, 9) // Tour 2: the archer 11, the ruffian 14

	// Attacked before its first action, the archer dodges (1 PA): it may still aim the Tour.
	f.do(gm, attack("malfrat", "archere", 0, nil), 9) // 19 ≥ 15, at 11
	f.do("david", dodge("archere", 0, nil), 1, 1)     // 11 < 15: hit, 1 + 2 damage
	f.do(gm, pass("malfrat"))
	require.Equal(t, int32(10), f.cs("archere").GetActionPoints())
	legal, err = f.Reg.Legal(f.St, "archere")
	require.NoError(t, err)
	var tourAim *rulesetv1.LegalAction
	for _, l := range legal {
		if l.GetName() == "aim a whole Tour" {
			tourAim = l
		}
	}
	require.NotNil(t, tourAim)
	require.Equal(t, int32(10), tourAim.GetCost())
	aimed := find(t, f.do("david", rgAim("archere", "arc", 0, true), 1, 1), (*lossv1.Event).GetAimed) // Tour 3
	require.Equal(t, int32(10), aimed.GetActionPointsSpent())
	require.Equal(t, int32(10), aimed.GetBonus())
}

// LOS-090, LOS-094 (revised): the +15 of Visée holds for the weapon type of the specialisation
// only, and a Tour's aim goes to the next shot with the weapon aimed: a shot with another
// weapon neither gets it (before: +15) nor spends it. A Visée names its weapon type.
func TestLOS090ViseeIsForItsWeaponOnly(t *testing.T) {
	visee := rgSpecs(rgArcher(rgBow(), rgSling()), rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_AIMING, "arc long"))
	f := newFight(t, nil, visee, ruffian())
	f.start(5, 5) // the archer 15, the ruffian 10
	aimed := find(t, f.do("david", rgAim("archere", "arc", 0, true)), (*lossv1.Event).GetAimed)
	require.Equal(t, int32(15), aimed.GetBonus())
	f.do(gm, pass("malfrat"), 5, 5)                                                  // Tour 2
	ar := rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "fronde", 15), 1)) // 21 ≥ 20
	require.Empty(t, rgMods(ar.GetTest().GetTestModifiers()), "the sling gets nothing of the bow's aim")
	require.Equal(t, int32(21), ar.GetTest().GetTotal())
	require.Equal(t, int32(15), f.cs("archere").GetAimTourBonus(), "and leaves it for the bow")
	f.do(gm, takeBlow("malfrat"), 1)
	ar = rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "arc", 15), 1))
	require.Equal(t, map[string]int32{"LOS-084": 15}, rgMods(ar.GetTest().GetTestModifiers()))
	require.Equal(t, int32(36), ar.GetTest().GetTotal())
	require.Zero(t, f.cs("archere").GetAimTourBonus())

	// Aiming the sling for a Tour with a Visée of the bow: +10.
	g := newFight(t, nil, visee, ruffian())
	g.start(5, 5)
	require.Equal(t, int32(10), find(t, g.do("david", rgAim("archere", "fronde", 0, true)), (*lossv1.Event).GetAimed).GetBonus())

	// A Visée without a weapon type would hold for every weapon: the sheet is refused.
	h := newFight(t, nil)
	h.refuse(gm, addCmd(rgSpecs(rgArcher(rgBow()), rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_AIMING, ""))),
		engine.CodeInvalid, "LOS-094", "Archère", "Visée")
}

// LOS-035: aiming costs 1 PA per +1 on the next Test with that ranged weapon, at most +5.
func TestLOS035AimCost(t *testing.T) {
	knife := weapon("dague", lossv1.WeaponKind_WEAPON_KIND_MELEE, 3, 2)
	f := newFight(t, nil, rgArcher(rgBow(), rgSling(), knife), ruffian())
	f.start(5, 1) // the archer 15, the ruffian 6

	aimed := find(t, f.do("david", rgAim("archere", "arc", 3, false)), (*lossv1.Event).GetAimed)
	require.Equal(t, int32(3), aimed.GetActionPointsSpent())
	require.Equal(t, int32(3), aimed.GetBonus())
	require.Equal(t, int32(12), f.cs("archere").GetActionPoints())
	require.Equal(t, int32(3), f.cs("archere").GetAimBonus())

	f.refuse("david", rgAim("archere", "arc", 3, false), engine.CodeInvalid, "LOS-035", "+5", "+3")
	f.refuse("david", rgAim("archere", "arc", 0, false), engine.CodeInvalid, "LOS-035")
	f.refuse("david", rgAim("archere", "dague", 1, false), engine.CodePrecondition, "LOS-035", "dague")
	f.do("david", rgAim("archere", "arc", 2, false))
	require.Equal(t, int32(10), f.cs("archere").GetActionPoints())
	require.Equal(t, int32(5), f.cs("archere").GetAimBonus())
	f.refuse("david", rgAim("archere", "arc", 1, false), engine.CodeInvalid, "LOS-035", "+5")

	// The aim is for the bow: a sling shot gets nothing and leaves it; the bow shot uses it.
	ar := rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "fronde", 30), 1)) // 21 < 25
	require.Equal(t, int32(21), ar.GetTest().GetTotal())
	require.Equal(t, int32(5), f.cs("archere").GetAimBonus())
	ar = rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "arc", 30), 1)) // 26 ≥ 25
	require.Equal(t, int32(26), ar.GetTest().GetTotal())
	require.Equal(t, map[string]int32{"LOS-084": 5}, rgMods(ar.GetTest().GetTestModifiers()))
	require.Equal(t, int32(0), f.cs("archere").GetAimBonus())
	f.do(gm, takeBlow("malfrat"), 1)
	f.do(gm, pass("malfrat")) // at 6, before the archer's 3

	// 3 PA left: +4 is too dear, +3 is not.
	require.Equal(t, int32(3), f.cs("archere").GetActionPoints())
	f.refuse("david", rgAim("archere", "arc", 4, false), engine.CodePrecondition, "LOS-035", "3 PA", "costs 4")
	aimed = find(t, f.do("david", rgAim("archere", "arc", 3, false), 5, 1), (*lossv1.Event).GetAimed) // the Tour ends
	require.Equal(t, int32(3), aimed.GetActionPointsSpent())
	require.Equal(t, int32(2), f.St.GetLoss().GetTour())
	require.Equal(t, int32(3), f.cs("archere").GetAimBonus(), "kept for the next Test with the bow")
}

// LOS-085: the Exploits of a shot: the ranged list is allowed, the melee-only effects are
// refused; each costs its Exploits (+5 each) on the shot's Difficulty.
func TestLOS085RangedExploits(t *testing.T) {
	t.Run("refused on a shot", func(t *testing.T) {
		f := newFight(t, nil, rgArcher(rgBow()), ruffian())
		f.start(5, 5)
		for e, rule := range map[rgE]string{
			rgAssaut: "LOS-061", rgCounter: "LOS-062", rgTotal: "LOS-063", rgFeint: "LOS-064", rgWall: "LOS-066",
			rgProtect: "LOS-068", rgMoulinet: "LOS-071", rgOverthrow: "LOS-072", rgStorm: "LOS-077",
		} {
			f.refuse("david", rgShoot("archere", "malfrat", "", 5, e), engine.CodePrecondition, rule, "a ranged attack")
		}
	})
	t.Run("allowed on a shot", func(t *testing.T) {
		for _, c := range []struct {
			e        rgE
			exploits int32
		}{
			{rgExtra, 1}, {rgAdvantage, 1}, {rgLimb, 1}, {rgTwo, 2}, {rgRicochet, 2}, {rgThrough, 2}, {rgZone, 2},
			{rgDisarm, 3}, {rgPoint, 3}, {rgNeutral, 4}, {rgRain, 4}, {rgKill, 5},
		} {
			t.Run(c.e.String(), func(t *testing.T) {
				f := newFight(t, nil, rgArcher(rgBow(), rgSling()), ruffian())
				f.start(5, 5)
				a := &lossv1.Attack{TargetId: "malfrat", Weapon: "arc", Exploits: []rgE{c.e}, Situation: &lossv1.Situation{Distance: 5}}
				if c.e == rgTwo {
					a.SecondWeapon = "fronde"
				}
				ar := rgRolled(t, f.do("david", rgAct("archere", a), 1)) // 21
				require.Equal(t, 15+5*c.exploits, ar.GetTest().GetDifficulty())
				require.Equal(t, 15+5*c.exploits, ar.GetDefenceDifficulty())
				require.Equal(t, map[string]int32{"LOS-010": 5 * c.exploits}, rgMods(ar.GetTest().GetDifficultyModifiers()))
				require.Equal(t, int32(4), ar.GetActionPointsSpent())
			})
		}
	})
	t.Run("several targets", func(t *testing.T) {
		cs := []*encounterv1.Combatant{rgArcher(rgBow(), rgSling())}
		var ids []string
		for i := 1; i <= 6; i++ {
			id := fmt.Sprintf("bandit%d", i)
			ids = append(ids, id)
			cs = append(cs, with(who(id, fmt.Sprintf("Bandit %d", i), sbire, 1, 4, 4, 4, 4, sword(4, 2)),
				func(s *lossv1.Sheet) { s.InitiativeGroup = "bande" }))
		}
		f := newFight(t, nil, cs...)
		f.start(5, 1) // the archer 15, the band 2
		rain := func(weapon string, n int, e rgE) *encounterv1.Command {
			return rgAct("archere", &lossv1.Attack{TargetId: ids[0], MoreTargetIds: ids[1:n], Weapon: weapon, Exploits: []rgE{e},
				Situation: &lossv1.Situation{Distance: 5}})
		}
		// Rain of projectiles: any ranged weapon, up to 5 targets.
		f.refuse("david", rain("fronde", 6, rgRain), engine.CodePrecondition, "LOS-085", "5")
		evs := f.do("david", rain("fronde", 5, rgRain), 9) // 29 < 35: misses all five
		ar := rgRolled(t, evs)
		require.Equal(t, int32(35), ar.GetTest().GetDifficulty())
		require.Len(t, ar.GetMoreTargets(), 4)
		n := 0
		for _, ev := range evs {
			if ev.GetLoss().GetAttackResolved() != nil {
				n++
			}
		}
		require.Equal(t, 5, n)
		// Shoot through: bows only, two aligned targets.
		f.refuse("david", rain("fronde", 2, rgThrough), engine.CodePrecondition, "LOS-085", "bows")
		f.refuse("david", rain("arc", 3, rgThrough), engine.CodePrecondition, "LOS-085", "2")
		ar = rgRolled(t, f.do("david", rain("arc", 2, rgThrough), 9)) // 29 ≥ 25
		require.Equal(t, int32(25), ar.GetTest().GetDifficulty())
		require.True(t, ar.GetDefencePossible())
		require.Len(t, ar.GetMoreTargets(), 1)
		require.True(t, ar.GetMoreTargets()[0].GetDefencePossible())
		require.Len(t, f.St.GetLoss().GetQueued(), 1)
	})
	t.Run("defending against a shot", func(t *testing.T) {
		shielded := with(ruffian(), func(s *lossv1.Sheet) {
			s.Shield = &lossv1.Shield{Name: "rondache", Size: lossv1.ShieldSize_SHIELD_SIZE_SMALL}
		})
		f := newFight(t, nil, rgArcher(rgBow()), shielded)
		f.start(5, 5)                                          // the archer 15, the ruffian 10
		f.do("david", rgShoot("archere", "malfrat", "", 5), 1) // 21 ≥ 15
		for e, rule := range map[rgE]string{rgFeint: "LOS-064", rgProtect: "LOS-068", rgOverthrow: "LOS-072", rgDisarm: "LOS-074", rgNeutral: "LOS-076", rgWall: "LOS-066"} {
			f.refuse(gm, rgReact("malfrat", &lossv1.React{Reaction: rgDodge, Effects: []rgE{e}, AllyId: "archere"}), engine.CodePrecondition, rule, "projectile")
		}
		// Counter-attack only on a dodge, not on a (shield) parry of a projectile.
		f.refuse(gm, rgReact("malfrat", &lossv1.React{Reaction: rgParry, Effects: []rgE{rgCounter}, CounterWeapon: "dague"}),
			engine.CodePrecondition, "LOS-062", "parry of a projectile")
		evs := f.do(gm, rgReact("malfrat", &lossv1.React{Reaction: rgDodge, Effects: []rgE{rgCounter}, CounterWeapon: "dague"}), 8, 7)
		dr := rgDefence(t, evs)
		require.Equal(t, int32(20), dr.GetTest().GetDifficulty(), "15 + 1 Exploit")
		require.Equal(t, int32(12+8), dr.GetTest().GetTotal())
		require.True(t, dr.GetTest().GetSuccess())
		var counter *lossv1.AttackRolled
		for _, ev := range evs {
			if a := ev.GetLoss().GetAttackRolled(); a != nil {
				counter = a
			}
		}
		require.NotNil(t, counter)
		require.True(t, counter.GetCounter())
		require.Equal(t, "archere", counter.GetTargetId())
		require.Equal(t, int32(10+7), counter.GetTest().GetTotal())
		require.Equal(t, int32(10-1-3), f.cs("malfrat").GetActionPoints())

		// Total dodge and Take the advantage stand on a dodge of a projectile.
		g := newFight(t, nil, rgArcher(rgBow()), ruffian())
		g.start(5, 5)
		g.do("david", rgShoot("archere", "malfrat", "", 5), 1)
		dr = rgDefence(t, g.do(gm, rgReact("malfrat", &lossv1.React{Reaction: rgDodge, Effects: []rgE{rgTotal, rgAdvantage}}), 8, 1))
		require.Equal(t, int32(25), dr.GetTest().GetDifficulty())
		require.Equal(t, int32(12+8), dr.GetTest().GetTotal())
		require.False(t, dr.GetTest().GetSuccess())
		h := newFight(t, nil, rgArcher(rgBow()), ruffian())
		h.start(5, 5)
		h.do("david", rgShoot("archere", "malfrat", "", 5), 1)
		dr = rgDefence(t, h.do(gm, rgReact("malfrat", &lossv1.React{Reaction: rgDodge, Effects: []rgE{rgTotal}}), 8))
		require.True(t, dr.GetTest().GetSuccess())
		require.Equal(t, int32(10), dr.GetActionPointsSpent(), "Total dodge spends every PA left")
		require.Equal(t, int32(5), h.cs("malfrat").GetWall())
	})
}

// LOS-086: explosives: a successful (shield) parry or dodge only halves the damage, rounded
// down, before armour; full cover avoids it; a failed throw with Exploits may become a Disaster.
func TestLOS086Explosives(t *testing.T) {
	t.Run("a dodge halves", func(t *testing.T) {
		f := newFight(t, nil, rgGrenadier(), ruffian())
		f.start(9, 5)                                       // the grenadier 14, the ruffian 10
		f.do(gm, rgShoot("grenadier", "malfrat", "", 8), 5) // 25 ≥ 15
		evs := f.do(gm, dodge("malfrat", 0, nil), 8, 7)     // 20 ≥ 15
		require.True(t, rgDefence(t, evs).GetTest().GetSuccess())
		res := rgResolved(t, evs)
		require.True(t, res.GetHit())
		require.True(t, res.GetHalved())
		require.Equal(t, int32(1), res.GetHalvings())
		require.Equal(t, int32((7+4)/2), res.GetDamage().GetTotal())
		require.Equal(t, int32(5), res.GetDamage().GetLevelsLost())
		require.Equal(t, int32(0), f.cs("malfrat").GetLight())
	})
	// LOS-086 (revised): halvings compound, each rounding down, before armour: beyond the
	// Portée, then dodged, a quarter (before: one halving, 5).
	t.Run("beyond the Portée and dodged: a quarter", func(t *testing.T) {
		armoured := with(ruffian(), func(s *lossv1.Sheet) { s.Armour = 1 })
		f := newFight(t, nil, rgGrenadier(), armoured)
		f.start(9, 5)                                                  // the grenadier 14, the ruffian 10
		f.do(gm, rgShoot("grenadier", "malfrat", "", 15), 5)           // 25 ≥ 20, beyond the Portée of 10 m
		res := rgResolved(t, f.do(gm, dodge("malfrat", 0, nil), 8, 9)) // 20 ≥ 20; 9 + 4 = 13
		require.True(t, res.GetHalved())
		require.Equal(t, int32(2), res.GetHalvings())
		require.Equal(t, int32(13/2/2), res.GetDamage().GetTotal())
		require.Equal(t, int32(3-1), res.GetDamage().GetLevelsLost())
		require.Equal(t, int32(3), loss.Halve(13, 2))
		require.Equal(t, int32(6), loss.Halve(13, 1))
		require.Equal(t, int32(13), loss.Halve(13, 0))
	})
	t.Run("a failed dodge takes it all", func(t *testing.T) {
		f := newFight(t, nil, rgGrenadier(), ruffian())
		f.start(9, 5)
		f.do(gm, rgShoot("grenadier", "malfrat", "", 8), 5)
		res := rgResolved(t, f.do(gm, dodge("malfrat", 0, nil), 1, 7)) // 13 < 15
		require.True(t, res.GetHit())
		require.False(t, res.GetHalved())
		require.Equal(t, int32(11), res.GetDamage().GetLevelsLost())
	})
	t.Run("a shield parry halves; a weapon cannot parry it", func(t *testing.T) {
		shielded := with(ruffian(), func(s *lossv1.Sheet) {
			s.Shield = &lossv1.Shield{Name: "rondache", Size: lossv1.ShieldSize_SHIELD_SIZE_SMALL, ParryBonus: 1}
			s.ShieldProtection = 1
		})
		f := newFight(t, nil, rgGrenadier(), shielded)
		f.start(9, 5)
		f.do(gm, rgShoot("grenadier", "malfrat", "", 8), 5)
		f.refuse(gm, rgReact("malfrat", &lossv1.React{Reaction: rgParry, WithWeapon: true}), engine.CodePrecondition, "LOS-019", "Malfrat", "shield")
		evs := f.do(gm, rgReact("malfrat", &lossv1.React{Reaction: rgParry}), 5, 9) // 10 + 5 + 1 = 16 ≥ 15
		dr := rgDefence(t, evs)
		require.Equal(t, int32(16), dr.GetTest().GetTotal())
		require.True(t, dr.GetTest().GetSuccess())
		res := rgResolved(t, evs)
		require.True(t, res.GetHalved())
		require.Equal(t, int32((9+4)/2), res.GetDamage().GetTotal())
		require.Equal(t, int32(1), res.GetDamage().GetShield())
		require.Equal(t, int32(5), res.GetDamage().GetLevelsLost())
	})
	t.Run("full cover avoids it", func(t *testing.T) {
		f := newFight(t, nil, rgGrenadier(), ruffian())
		f.start(9, 5)
		evs := f.do(gm, rgAct("grenadier", &lossv1.Attack{TargetId: "malfrat",
			Situation: &lossv1.Situation{Distance: 1, Cover: lossv1.Cover_COVER_FULL}}), 5) // 20 + 5 + 5 = 30 ≥ 15 + 15
		ar := rgRolled(t, evs)
		require.Equal(t, int32(30), ar.GetTest().GetDifficulty())
		require.True(t, ar.GetTest().GetSuccess())
		require.False(t, ar.GetDefencePossible())
		require.Contains(t, ar.GetNoDefenceReason(), "LOS-086")
		res := rgResolved(t, evs)
		require.False(t, res.GetHit())
		require.Nil(t, res.GetDamage())
		require.Equal(t, int32(5), f.cs("malfrat").GetLight())
		require.Nil(t, f.St.GetLoss().GetPending())
	})
	t.Run("a failed throw with Exploits may be a Disaster", func(t *testing.T) {
		f := newFight(t, nil, rgGrenadier(), ruffian())
		f.start(9, 5)
		ar := rgRolled(t, f.do(gm, rgShoot("grenadier", "malfrat", "", 25), 1)) // 21 < 25: misses
		require.False(t, ar.GetTest().GetSuccess())
		f.refuse(gm, rgDisaster("grenadier"), engine.CodePrecondition, "LOS-006")
		ar = rgRolled(t, f.do(gm, rgShoot("grenadier", "malfrat", "", 25, rgExtra), 1)) // 21 < 30
		require.False(t, ar.GetTest().GetSuccess())
		ev := find(t, f.do(gm, rgDisaster("grenadier")), (*lossv1.Event).GetDisasterDeclared)
		require.Equal(t, "grenadier", ev.GetCombatantId())

		// A non-player melee attacker failing an Exploit gives no Disaster (LOS-006).
		g := newFight(t, nil, diego(), ruffian())
		g.start(1, 9)                                   // Diego 9, the ruffian 14
		g.do(gm, attack("malfrat", "diego", 1, nil), 1) // 11 < 20
		g.refuse(gm, rgDisaster("malfrat"), engine.CodePrecondition, "LOS-006")
	})
	t.Run("a grab by a grenadier is no explosion", func(t *testing.T) {
		gren := with(rgGrenadier(), func(s *lossv1.Sheet) { s.Athletics = &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"} })
		f := newFight(t, nil, gren, ruffian())
		f.start(9, 5)
		grab := rgAct("grenadier", &lossv1.Attack{TargetId: "malfrat", Manoeuvre: lossv1.Manoeuvre_MANOEUVRE_GRAB})
		f.do(gm, grab, 8) // 18 ≥ 15
		require.False(t, f.St.GetLoss().GetPending().GetExplosive())
		res := rgResolved(t, f.do(gm, dodge("malfrat", 0, nil), 5)) // 17 ≥ 15: dodged
		require.False(t, res.GetHit())
		f.do(gm, grab, 8)
		res = rgResolved(t, f.do(gm, rgReact("malfrat", &lossv1.React{Reaction: rgParry, WithWeapon: true}), 5)) // 15 ≥ 15
		require.False(t, res.GetHit())
	})
}

// LOS-035 (revised), LOS-018: a grab or a bear-hug (agripper, ceinturer) and a trip (faire
// chuter) cost 3 PA and have no automatic effect: a grabbed defender may still dodge, a tripped
// one is not down; the GM applies what follows as situations (the target on the ground: +10 to
// strike it, +10 to its own Tests).
func TestLOS035GrabAndTripHaveNoAutomaticEffect(t *testing.T) {
	grappler := with(diego(), func(s *lossv1.Sheet) { s.Athletics = &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"} })
	f := newFight(t, nil, grappler, ruffian())
	f.start(7, 5) // Diego 15, the ruffian 10
	ar := rgRolled(t, f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Manoeuvre: lossv1.Manoeuvre_MANOEUVRE_GRAB}), 5))
	require.Equal(t, int32(3), ar.GetActionPointsSpent())
	require.Equal(t, int32(17), ar.GetTest().GetTotal())
	res := rgResolved(t, f.do(gm, takeBlow("malfrat")))
	require.True(t, res.GetHit())
	require.Contains(t, res.GetNote(), "LOS-035")
	require.Nil(t, res.GetDamage())

	// Grabbed, it still dodges (it could not, before LOS-035 was revised).
	f.do("david", attack("diego", "malfrat", 0, nil), 5)      // 17
	dr := rgDefence(t, f.do(gm, dodge("malfrat", 0, nil), 9)) // 21 ≥ 15
	require.True(t, dr.GetTest().GetSuccess())
	require.Equal(t, int32(9), f.cs("malfrat").GetActionPoints())

	// The GM applies a fall as situations: the one on the ground Tests at +10 Difficulty (LOS-050).
	ar = rgRolled(t, f.do(gm, rgAct("malfrat", &lossv1.Attack{TargetId: "diego", Situation: &lossv1.Situation{Prone: true}}), 9)) // 19 < 25
	require.Equal(t, int32(25), ar.GetTest().GetDifficulty())
	require.Equal(t, map[string]int32{"LOS-050": 10}, rgMods(ar.GetTest().GetDifficultyModifiers()))

	// A trip that lands leaves the target standing: nothing to stand up from.
	f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Manoeuvre: lossv1.Manoeuvre_MANOEUVRE_TRIP}), 5) // 17, at 8
	res = rgResolved(t, f.do(gm, takeBlow("malfrat")))
	require.True(t, res.GetHit())
	require.False(t, f.cs("malfrat").GetProne())
	require.Equal(t, []int32{5, 6}, f.ap("diego", "malfrat"))
	f.refuse(gm, exSimple("malfrat", lossv1.SimpleKind_SIMPLE_KIND_STAND_UP), engine.CodePrecondition, "LOS-072", "Malfrat")
	f.do(gm, pass("malfrat"))

	// Striking a target on the ground as the GM says: +10, not stacked with standing over it (LOS-052).
	ar = rgRolled(t, f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Situation: &lossv1.Situation{TargetProne: true, Higher: true}}), 1))
	require.Equal(t, map[string]int32{"LOS-052": 10}, rgMods(ar.GetTest().GetTestModifiers()))
	require.Equal(t, int32(23), ar.GetTest().GetTotal())
}

// LOS-018: dodging needs seeing the attack; a seen shooter's projectile can be dodged.
func TestLOS018DodgeNeedsFreedom(t *testing.T) {
	var dr *lossv1.DefenceRolled
	// A projectile from a seen shooter can be dodged: 12 + 9 = 21 ≥ 20 at 15 m.
	g := newFight(t, nil, rgArcher(rgBow()), ruffian())
	g.start(5, 5)
	g.do("david", rgShoot("archere", "malfrat", "", 15), 1)
	dr = rgDefence(t, g.do(gm, dodge("malfrat", 0, nil), 9))
	require.Equal(t, int32(20), dr.GetTest().GetDifficulty())
	require.True(t, dr.GetTest().GetSuccess())
	require.Nil(t, g.St.GetLoss().GetPending())
}

// LOS-019: parrying needs a sturdy object: a weapon (not lost to a Disarm), a shield or an
// armoured forearm; a projectile is parried only with a shield; a large shield is cover
// (+10) against fire from an unknown direction.
func TestLOS019ParryNeedsASturdyObject(t *testing.T) {
	slingOnly := func(s *lossv1.Sheet) {
		s.Weapons = []*lossv1.Weapon{weapon("fronde", lossv1.WeaponKind_WEAPON_KIND_RANGED, 3, 2)}
	}
	t.Run("no weapon, shield or forearm", func(t *testing.T) {
		f := newFight(t, nil, diego(), with(ruffian(), slingOnly))
		f.start(7, 5)
		f.do("david", attack("diego", "malfrat", 0, nil), 5)
		f.refuse(gm, react("malfrat", rgParry, 0, nil), engine.CodePrecondition, "LOS-019", "Malfrat")
		// An armoured forearm will do.
		g := newFight(t, nil, diego(), with(with(ruffian(), slingOnly), func(s *lossv1.Sheet) { s.ArmouredForearm = true }))
		g.start(7, 5)
		g.do("david", attack("diego", "malfrat", 0, nil), 5)
		dr := rgDefence(t, g.do(gm, react("malfrat", rgParry, 0, nil), 5)) // 15 ≥ 15
		require.True(t, dr.GetTest().GetSuccess())
	})
	t.Run("disarmed", func(t *testing.T) {
		for _, forearm := range []bool{false, true} {
			strong := with(diego(), func(s *lossv1.Sheet) { s.Talents["Arme de mêlée"] = 20 })
			f := newFight(t, nil, strong, with(ruffian(), func(s *lossv1.Sheet) { s.ArmouredForearm = forearm }))
			f.start(7, 5)
			f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Exploits: []rgE{rgDisarm}}), 5) // 31 ≥ 30
			f.do(gm, takeBlow("malfrat"))                                                                    // the Disarm alone: no damage roll
			require.True(t, f.cs("malfrat").GetDisarmed())
			f.do("david", attack("diego", "malfrat", 0, nil), 5)
			if !forearm {
				f.refuse(gm, react("malfrat", rgParry, 0, nil), engine.CodePrecondition, "LOS-074", "Malfrat")
				require.True(t, rgDefence(t, f.do(gm, dodge("malfrat", 0, nil), 5)).GetTest().GetSuccess())
				continue
			}
			dr := rgDefence(t, f.do(gm, react("malfrat", rgParry, 0, nil), 5)) // 15 ≥ 15
			require.True(t, dr.GetTest().GetSuccess())
		}
	})
	t.Run("a projectile only with a shield", func(t *testing.T) {
		for _, c := range []struct {
			name       string
			shield     *lossv1.Shield
			withWeapon bool
			ok         bool
		}{
			{"a weapon", nil, false, false},
			{"a shield of no size", &lossv1.Shield{Name: "planche"}, false, false},
			{"the weapon, not the shield", &lossv1.Shield{Name: "rondache", Size: lossv1.ShieldSize_SHIELD_SIZE_SMALL}, true, false},
			{"a small shield", &lossv1.Shield{Name: "rondache", Size: lossv1.ShieldSize_SHIELD_SIZE_SMALL}, false, true},
		} {
			t.Run(c.name, func(t *testing.T) {
				f := newFight(t, nil, rgArcher(rgBow()), with(ruffian(), func(s *lossv1.Sheet) { s.Shield = c.shield }))
				f.start(5, 5)
				f.do("david", rgShoot("archere", "malfrat", "", 5), 1) // 21 ≥ 15
				parry := rgReact("malfrat", &lossv1.React{Reaction: rgParry, WithWeapon: c.withWeapon})
				if !c.ok {
					f.refuse(gm, parry, engine.CodePrecondition, "LOS-019", "Malfrat", "shield")
					return
				}
				dr := rgDefence(t, f.do(gm, parry, 5)) // 10 + 5 = 15 ≥ 15
				require.Equal(t, int32(15), dr.GetTest().GetTotal())
				require.True(t, dr.GetTest().GetSuccess())
			})
		}
	})
	t.Run("a large shield is cover against unseen fire", func(t *testing.T) {
		for _, c := range []struct {
			name   string
			size   lossv1.ShieldSize
			unseen bool
			cover  lossv1.Cover
			diff   int32
		}{
			{"large, unseen shot", lossv1.ShieldSize_SHIELD_SIZE_LARGE, true, 0, 30},
			{"small, unseen shot", lossv1.ShieldSize_SHIELD_SIZE_SMALL, true, 0, 20},
			{"large, seen shot", lossv1.ShieldSize_SHIELD_SIZE_LARGE, false, 0, 20},
			{"large, unseen shot, partial cover too", lossv1.ShieldSize_SHIELD_SIZE_LARGE, true, lossv1.Cover_COVER_PARTIAL, 30},
		} {
			t.Run(c.name, func(t *testing.T) {
				f := newFight(t, nil, rgArcher(rgBow()), with(ruffian(), func(s *lossv1.Sheet) {
					s.Shield = &lossv1.Shield{Name: "scutum", Size: c.size}
				}))
				f.start(5, 5)
				faces := []int32{1} // 21, + 5 against a surprised target
				if c.unseen && c.diff <= 26 {
					faces = append(faces, 1) // an unseen hit rolls its damage at once
				}
				ar := rgRolled(t, f.do("david", rgAct("archere", &lossv1.Attack{TargetId: "malfrat", Unseen: c.unseen,
					Situation: &lossv1.Situation{Distance: 15, Cover: c.cover}}), faces...))
				require.Equal(t, c.diff, ar.GetTest().GetDifficulty())
				require.Equal(t, c.diff-20, rgMods(ar.GetTest().GetDifficultyModifiers())["LOS-083"])
			})
		}
	})
}

// LOS-050: melee Difficulty modifiers: darkness +10, lower +5, prone +10, off-hand +5, behind
// an obstacle +10, outnumbered +5 (not on a parry or a dodge).
func TestLOS050MeleeDifficultyModifiers(t *testing.T) {
	for _, c := range []struct {
		name string
		sit  *lossv1.Situation
		diff int32
	}{
		{"darkness", &lossv1.Situation{Darkness: true}, 25},
		{"lower", &lossv1.Situation{Lower: true}, 20},
		{"off-hand", &lossv1.Situation{OffHand: true}, 20},
		{"behind an obstacle", &lossv1.Situation{BehindObstacle: true}, 25},
		{"outnumbered", &lossv1.Situation{Outnumbered: true}, 20},
		{"all", &lossv1.Situation{Darkness: true, Lower: true, OffHand: true, BehindObstacle: true, Outnumbered: true}, 50},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFight(t, nil, diego(), ruffian())
			f.start(7, 5)
			ar := rgRolled(t, f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Situation: c.sit}), 1)) // 13
			require.Equal(t, c.diff, ar.GetTest().GetDifficulty())
			require.Equal(t, map[string]int32{"LOS-050": c.diff - 15}, rgMods(ar.GetTest().GetDifficultyModifiers()))
			require.Equal(t, int32(13), ar.GetTest().GetTotal())
			require.Equal(t, int32(15), ar.GetDefenceDifficulty(), "the attacker's own modifiers stay its own (LOS-012)")
		})
	}

	t.Run("on a defence", func(t *testing.T) {
		f := newFight(t, nil, diego(), ruffian())
		f.start(7, 5)
		// Outnumbered alone: a parry stays at 15.
		f.do("david", attack("diego", "malfrat", 0, nil), 9) // 21
		dr := rgDefence(t, f.do(gm, rgReact("malfrat", &lossv1.React{Reaction: rgParry, Situation: &lossv1.Situation{Outnumbered: true}}), 5))
		require.Equal(t, int32(15), dr.GetTest().GetDifficulty())
		require.Empty(t, dr.GetTest().GetDifficultyModifiers())
		require.True(t, dr.GetTest().GetSuccess())

		f.do("david", attack("diego", "malfrat", 0, nil), 9)
		sit := &lossv1.Situation{Darkness: true, Lower: true, Outnumbered: true, OffHand: true}
		evs := f.do(gm, rgReact("malfrat", &lossv1.React{Reaction: rgDodge, Situation: sit}), 9, 4) // 21 < 15 + 10 + 5
		dr = rgDefence(t, evs)
		require.Equal(t, int32(30), dr.GetTest().GetDifficulty())
		require.Equal(t, map[string]int32{"LOS-050": 15}, rgMods(dr.GetTest().GetDifficultyModifiers()))
		require.False(t, dr.GetTest().GetSuccess())
		require.Equal(t, int32(4+3), rgResolved(t, evs).GetDamage().GetLevelsLost())
	})

	t.Run("prone", func(t *testing.T) {
		grappler := with(diego(), func(s *lossv1.Sheet) { s.Athletics = &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"} })
		f := newFight(t, nil, grappler, ruffian())
		f.start(7, 5)
		f.do("david", overthrow("diego", "malfrat"), 9) // 12 + 9 + 5 ≥ 25
		f.do(gm, takeBlow("malfrat"))
		require.True(t, f.cs("malfrat").GetProne())
		f.do("david", attack("diego", "malfrat", 0, nil), 1)         // 13 + 10 against a prone target (LOS-052)
		dr := rgDefence(t, f.do(gm, dodge("malfrat", 0, nil), 9, 2)) // 21 < 25
		require.Equal(t, int32(25), dr.GetTest().GetDifficulty())
		require.Equal(t, map[string]int32{"LOS-050": 10}, rgMods(dr.GetTest().GetDifficultyModifiers()))
	})
}

// LOS-051: at most 5 attackers can attack one combatant in melee at once: a sixth cannot
// attack it in melee in the same Tour; it may shoot; one of the five may strike again; the
// next Tour starts afresh.
func TestLOS051AtMostFiveMeleeAttackers(t *testing.T) {
	cs := []*encounterv1.Combatant{diego()}
	for i := 1; i <= 6; i++ {
		b := who(fmt.Sprintf("b%d", i), fmt.Sprintf("Bandit %d", i), sbire, 5, 5, 5, 5, 5,
			weapon("dague", lossv1.WeaponKind_WEAPON_KIND_MELEE, 3, 2), weapon("fronde", lossv1.WeaponKind_WEAPON_KIND_RANGED, 3, 2))
		cs = append(cs, with(b, func(s *lossv1.Sheet) { s.InitiativeGroup = "bande" }))
	}
	f := newFight(t, nil, cs...)
	f.start(1, 9) // Diego 9, the band 14
	for i := 1; i <= 5; i++ {
		f.do(gm, attackWith(fmt.Sprintf("b%d", i), "diego", "dague", 0, nil, false), 1) // 11: misses
	}
	f.refuse(gm, attackWith("b6", "diego", "dague", 0, nil, false), engine.CodePrecondition, "LOS-051", "Diego", "5")
	// What the sixth may do says the same: Diego is no target for its dague, only its fronde.
	legal, err := f.Reg.Legal(f.St, "b6")
	require.NoError(t, err)
	targets := map[string][]string{}
	for _, l := range legal {
		if l.GetName() == "attack" {
			targets[l.GetWeapon()] = l.GetTargets()
		}
	}
	require.NotContains(t, targets["dague"], "diego")
	require.Contains(t, targets["fronde"], "diego")
	ar := rgRolled(t, f.do(gm, rgShoot("b6", "diego", "fronde", 15), 1)) // a shot is not a melee attack
	require.Equal(t, int32(20), ar.GetTest().GetDifficulty())
	f.do(gm, attackWith("b1", "diego", "dague", 0, nil, false), 1) // one of the five strikes again
	f.refuse(gm, attackWith("b6", "diego", "dague", 0, nil, false), engine.CodePrecondition, "LOS-051", "Diego")

	for _, id := range []string{"b2", "b3", "b4", "b5", "b6"} { // at 11
		f.do(gm, pass(id))
	}
	f.do("david", pass("diego"))
	f.do(gm, pass("b1"), 1, 9) // Tour 2
	require.Equal(t, int32(2), f.St.GetLoss().GetTour())
	f.do(gm, attackWith("b6", "diego", "dague", 0, nil, false), 1)
}

// LOS-052: added to the Test: higher +5; a prone target +10 (not stacked with standing over
// it); from behind or a surprised target +5, once; a surprised target cannot defend.
func TestLOS052MeleeTestBonuses(t *testing.T) {
	for _, c := range []struct {
		name      string
		sit       *lossv1.Situation
		surprised bool
	}{
		{"higher", &lossv1.Situation{Higher: true}, false},
		{"from behind", &lossv1.Situation{FromBehind: true}, false},
		{"surprised", &lossv1.Situation{Surprised: true}, true},
		{"from behind and surprised: once", &lossv1.Situation{FromBehind: true, Surprised: true}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFight(t, nil, diego(), ruffian())
			f.start(7, 5)
			faces := []int32{1}
			if c.surprised {
				faces = append(faces, 1) // no defence: the damage at once
			}
			ar := rgRolled(t, f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Situation: c.sit}), faces...))
			require.Equal(t, map[string]int32{"LOS-052": 5}, rgMods(ar.GetTest().GetTestModifiers()))
			require.Equal(t, int32(12+1+5), ar.GetTest().GetTotal())
			require.Equal(t, int32(15), ar.GetTest().GetDifficulty())
			require.Equal(t, !c.surprised, ar.GetDefencePossible())
			if c.surprised {
				require.Contains(t, ar.GetNoDefenceReason(), "LOS-052")
			}
		})
	}

	grappler := with(diego(), func(s *lossv1.Sheet) { s.Athletics = &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"} })
	f := newFight(t, nil, grappler, ruffian())
	f.start(7, 1) // Diego 15, the ruffian 6
	f.do("david", overthrow("diego", "malfrat"), 9)
	f.do(gm, takeBlow("malfrat"))
	ar := rgRolled(t, f.do("david", attack("diego", "malfrat", 0, nil), 1))
	require.Equal(t, map[string]int32{"LOS-052": 10}, rgMods(ar.GetTest().GetTestModifiers()))
	require.Equal(t, int32(23), ar.GetTest().GetTotal())
	f.do(gm, takeBlow("malfrat"), 1)
	ar = rgRolled(t, f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Situation: &lossv1.Situation{Higher: true}}), 1))
	require.Equal(t, map[string]int32{"LOS-052": 10}, rgMods(ar.GetTest().GetTestModifiers()), "standing over a prone target: +10, not +15")
	require.Equal(t, int32(23), ar.GetTest().GetTotal())

	// LOS-052, LOS-083 (revised): the +10 against a prone target holds at range too (it was 0),
	// still not stacked with the +5 for standing over it.
	for _, c := range []struct {
		name  string
		sit   *lossv1.Situation
		bonus int32
	}{
		{"a shot at a prone target", &lossv1.Situation{Distance: 15}, 10},
		{"from above", &lossv1.Situation{Distance: 15, Higher: true}, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newFight(t, nil, diego(), rgArcher(rgBow()), ruffian())
			g.start(7, 1, 1) // Diego 15, the archer 11, the ruffian 6
			g.do("david", overthrow("diego", "malfrat"), 9)
			g.do(gm, takeBlow("malfrat"))
			g.do("david", pass("diego"))
			ar := rgRolled(t, g.do("david", rgAct("archere", &lossv1.Attack{TargetId: "malfrat", Situation: c.sit}), 1))
			require.Equal(t, map[string]int32{"LOS-052": c.bonus}, rgMods(ar.GetTest().GetTestModifiers()))
			require.Equal(t, 21+c.bonus, ar.GetTest().GetTotal())
			require.Equal(t, int32(20), ar.GetTest().GetDifficulty())
		})
	}
}

// overthrow: an attack with Overthrow (2 Exploits, no damage) spending 1 Fursa (LOS-072).
func overthrow(id, target string) *encounterv1.Command {
	return rgAct(id, &lossv1.Attack{TargetId: target, Exploits: []rgE{rgOverthrow}, Spend: fursa(1)})
}

// LOS-053: a shield gives its parry bonus to shield parries, its dodge penalty to dodges, and
// its protection always, like armour (the scutum: parry +1, protection 3, dodge −3).
func TestLOS053Shield(t *testing.T) {
	scutum := with(ruffian(), func(s *lossv1.Sheet) {
		s.Shield = &lossv1.Shield{Name: "scutum", Size: lossv1.ShieldSize_SHIELD_SIZE_LARGE, ParryBonus: 1, DodgePenalty: 3}
		s.ShieldProtection = 3
	})
	f := newFight(t, nil, diego(), scutum)
	f.start(7, 1) // Diego 15, the ruffian 6
	f.do("david", attack("diego", "malfrat", 0, nil), 9)
	dr := rgDefence(t, f.do(gm, react("malfrat", rgParry, 0, nil), 4)) // 10 + 4 + 1 = 15
	require.Equal(t, map[string]int32{"LOS-053": 1}, rgMods(dr.GetTest().GetTestModifiers()))
	require.Equal(t, int32(15), dr.GetTest().GetTotal())
	require.True(t, dr.GetTest().GetSuccess())

	f.do("david", attack("diego", "malfrat", 0, nil), 9)
	evs := f.do(gm, dodge("malfrat", 0, nil), 5, 8) // 12 + 5 − 3 = 14 < 15
	dr = rgDefence(t, evs)
	require.Equal(t, map[string]int32{"LOS-053": -3}, rgMods(dr.GetTest().GetTestModifiers()))
	require.Equal(t, int32(14), dr.GetTest().GetTotal())
	d := rgResolved(t, evs).GetDamage()
	require.Equal(t, int32(3), d.GetShield())
	require.Equal(t, int32(8+3-3), d.GetLevelsLost())

	f.do("david", attack("diego", "malfrat", 0, nil), 9)
	d = rgResolved(t, f.do(gm, takeBlow("malfrat"), 2)).GetDamage()
	require.Equal(t, int32(3), d.GetShield(), "the shield protects a blow taken without a parry")
	require.Equal(t, int32(2+3-3), d.GetLevelsLost())
}

// LOS-054, LOS-091 (Improvised weapons), LOS-094: an improvised weapon gives −2 to the Test;
// the specialisation for that weapon type makes it +2.
func TestLOS054ImprovisedWeapon(t *testing.T) {
	chair := &lossv1.Weapon{Name: "chaise", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Vitesse: 3, Damage: 1, Improvised: true,
		Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}}
	for _, c := range []struct {
		name string
		spec *lossv1.Specialisation
		mods map[string]int32
	}{
		{"no specialisation", nil, map[string]int32{"LOS-054": -2}},
		{"Improvised weapons: chaise", rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_IMPROVISED_WEAPONS, "chaise"), map[string]int32{"LOS-091": 2}},
		{"Improvised weapons: tabouret", rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_IMPROVISED_WEAPONS, "tabouret"), map[string]int32{"LOS-054": -2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := who("diego", "Diego", pc, 8, 6, 6, 5, 5, chair)
			if c.spec != nil {
				d = rgSpecs(d, c.spec)
			}
			f := newFight(t, nil, d, ruffian())
			f.start(7, 5)
			ar := rgRolled(t, f.do("david", attack("diego", "malfrat", 0, nil), 1))
			require.Equal(t, c.mods, rgMods(ar.GetTest().GetTestModifiers()))
			require.Equal(t, 13+c.mods["LOS-054"]+c.mods["LOS-091"], ar.GetTest().GetTotal())
		})
	}
}

// LOS-090: ranged specialisations. Quick reload: −2 PA, at least 2, for its weapon type only
// (LOS-094); Mounted shooting: +2 in moving combat; heavy weapons cannot be used mounted;
// Fortification destruction: +5 with Exploits against a structure. (Visée: TestLOS084Aiming.
// Ambush shot only makes the shooter harder to spot, which is no Test of the fight.)
func TestLOS090RangedSpecialisations(t *testing.T) {
	crossbow := rgRanged("arbalète", "arbalète", 6, 4, 0, 0)
	sabre := &lossv1.Weapon{Name: "sabre", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Vitesse: 4, Damage: 3,
		Attack: &lossv1.Score{Trait: "Instinct", Talent: "Archerie"}}
	quick := lossv1.SpecialisationKind_SPECIALISATION_KIND_QUICK_RELOAD
	for _, c := range []struct {
		name string
		w    *lossv1.Weapon
		spec string
		cost int32
	}{
		{"crossbow", crossbow, "arbalète", 4},
		{"sling: at least 2", rgSling(), "fronde", 2},
		{"bow, specialised in crossbows", rgBow(), "arbalète", 4},
		{"crossbow, no specialisation", crossbow, "", 6},
		{"a melee weapon", sabre, "sabre", 4},
		// LOS-090 (revised): it never raises a cost (it made a Vitesse-1 weapon cost 2).
		{"Vitesse 1 stays 1", rgRanged("sarbacane", "sarbacane", 1, 1, 0, 0), "sarbacane", 1},
		{"Vitesse 3: 2", rgRanged("arc court", "arc court", 3, 2, 0, 0), "arc court", 2},
	} {
		t.Run("Quick reload: "+c.name, func(t *testing.T) {
			a := rgArcher(c.w)
			if c.spec != "" {
				a = rgSpecs(a, rgSpec(quick, c.spec))
			}
			f := newFight(t, nil, a, ruffian())
			f.start(5, 5)
			ar := rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "", 30), 1))
			require.Equal(t, c.cost, ar.GetActionPointsSpent())
			require.Equal(t, 15-c.cost, f.cs("archere").GetActionPoints())
		})
	}

	mounted := lossv1.SpecialisationKind_SPECIALISATION_KIND_MOUNTED_SHOOTING
	for _, c := range []struct {
		name   string
		spec   string
		moving bool
		bonus  int32
	}{
		{"moving", "arc long", true, 2},
		{"not moving", "arc long", false, 0},
		{"another weapon type", "arbalète", true, 0},
	} {
		t.Run("Mounted shooting: "+c.name, func(t *testing.T) {
			f := newFight(t, nil, rgSpecs(rgArcher(rgBow()), rgSpec(mounted, c.spec)), ruffian())
			f.start(5, 5)
			ar := rgRolled(t, f.do("david", rgAct("archere", &lossv1.Attack{TargetId: "malfrat",
				Situation: &lossv1.Situation{Distance: 30, Moving: c.moving}}), 1))
			require.Equal(t, c.bonus, rgMods(ar.GetTest().GetTestModifiers())["LOS-090"])
			require.Equal(t, 21+c.bonus, ar.GetTest().GetTotal())
		})
	}

	t.Run("heavy weapons mounted", func(t *testing.T) {
		gun := rgRanged("couleuvrine", "couleuvrine", 5, 8, 0, 0)
		gun.Heavy = true
		rider := with(rgArcher(gun), func(s *lossv1.Sheet) { s.Mounted = true })
		f := newFight(t, nil, rider, ruffian())
		f.start(5, 5)
		f.refuse("david", rgShoot("archere", "malfrat", "", 30), engine.CodePrecondition, "LOS-090", "couleuvrine")
		g := newFight(t, nil, rgArcher(gun), ruffian())
		g.start(5, 5)
		require.Equal(t, int32(5), rgRolled(t, g.do("david", rgShoot("archere", "malfrat", "", 30), 1)).GetActionPointsSpent())

		// Only the heavy weapon is barred: Legal lists the rider's sabre after it (it listed
		// no attack at all), and no aim with the heavy gun.
		h := newFight(t, nil, with(rgArcher(gun, sword(4, 3)), func(s *lossv1.Sheet) { s.Mounted = true }), ruffian())
		h.start(5, 5)
		legal, err := h.Reg.Legal(h.St, "archere")
		require.NoError(t, err)
		byWeapon := map[string]int32{}
		for _, l := range legal {
			if l.GetWeapon() != "" {
				byWeapon[l.GetName()+" "+l.GetWeapon()] = l.GetCost()
			}
		}
		require.Equal(t, map[string]int32{"attack sabre": 4}, byWeapon)
		h.do("david", attackWith("archere", "malfrat", "sabre", 0, nil, false), 1)
	})

	t.Run("Fortification destruction", func(t *testing.T) {
		gun := rgRanged("couleuvrine", "couleuvrine", 3, 8, 0, 0)
		gate := with(who("porte", "Porte", adv, 0, 0, 0, 0, 0), func(s *lossv1.Sheet) { s.Structure = true })
		a := rgSpecs(rgArcher(gun), rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_FORTIFICATION_DESTRUCTION, "couleuvrine"))
		f := newFight(t, nil, a, gate, ruffian())
		f.start(5, 1, 1)
		ar := rgRolled(t, f.do("david", rgShoot("archere", "porte", "", 30, rgExtra), 1)) // 21 + 5 < 30
		require.Equal(t, map[string]int32{"LOS-090": 5}, rgMods(ar.GetTest().GetTestModifiers()))
		require.Equal(t, int32(26), ar.GetTest().GetTotal())
		ar = rgRolled(t, f.do("david", rgShoot("archere", "porte", "", 30), 1)) // no Exploit: no bonus
		require.Empty(t, ar.GetTest().GetTestModifiers())
		ar = rgRolled(t, f.do("david", rgShoot("archere", "malfrat", "", 30, rgExtra), 1)) // not a structure
		require.Empty(t, ar.GetTest().GetTestModifiers())
	})
}

// LOS-091: melee specialisations: Weapon and shield (+2 to shield parries, shield protection
// +1), Charge (+5 on Assaut), Disarm (+5 on Disarm), Two weapons (no off-hand +5 with the
// chosen weapon type, LOS-094), Parry (+2 on weapon parries only).
func TestLOS091MeleeSpecialisations(t *testing.T) {
	t.Run("Weapon and shield", func(t *testing.T) {
		r := rgSpecs(with(ruffian(), func(s *lossv1.Sheet) {
			s.Shield = &lossv1.Shield{Name: "rondache", Size: lossv1.ShieldSize_SHIELD_SIZE_MEDIUM, ParryBonus: 1}
			s.ShieldProtection = 2
		}), rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_WEAPON_AND_SHIELD, ""))
		f := newFight(t, nil, diego(), r)
		f.start(7, 5)
		f.do("david", attack("diego", "malfrat", 0, nil), 9)
		dr := rgDefence(t, f.do(gm, react("malfrat", rgParry, 0, nil), 4)) // 10 + 4 + 1 + 2 = 17
		require.Equal(t, map[string]int32{"LOS-053": 1, "LOS-091": 2}, rgMods(dr.GetTest().GetTestModifiers()))
		require.Equal(t, int32(17), dr.GetTest().GetTotal())
		f.do("david", attack("diego", "malfrat", 0, nil), 9)
		evs := f.do(gm, rgReact("malfrat", &lossv1.React{Reaction: rgParry, WithWeapon: true}), 4, 6) // 14 < 15
		dr = rgDefence(t, evs)
		require.Empty(t, dr.GetTest().GetTestModifiers(), "a weapon parry: neither the shield's bonus nor the specialisation")
		require.Equal(t, int32(14), dr.GetTest().GetTotal())
		d := rgResolved(t, evs).GetDamage()
		require.Equal(t, int32(2+1), d.GetShield())
		require.Equal(t, int32(6+3-3), d.GetLevelsLost())
	})
	t.Run("Charge", func(t *testing.T) {
		for _, typ := range []string{"sabre", "hache"} {
			d := rgSpecs(with(diego(), func(s *lossv1.Sheet) { s.Weapons[0].AssautDamage = 6 }),
				rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_CHARGE, typ))
			f := newFight(t, nil, d, ruffian())
			f.start(7, 5)
			ar := rgRolled(t, f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Exploits: []rgE{rgAssaut}}), 1))
			require.Equal(t, int32(4), ar.GetActionPointsSpent())
			want := map[string]int32{}
			if typ == "sabre" { // the weapon's name when it has no type (LOS-094)
				want["LOS-091"] = 5
			}
			require.Equal(t, want, rgMods(ar.GetTest().GetTestModifiers()))
			ar = rgRolled(t, f.do("david", attack("diego", "malfrat", 0, nil), 1))
			require.Empty(t, ar.GetTest().GetTestModifiers(), "no Assaut, no bonus")
		}
	})
	t.Run("Disarm", func(t *testing.T) {
		d := rgSpecs(diego(), rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_DISARM, "sabre"))
		f := newFight(t, nil, d, ruffian())
		f.start(7, 5)
		ar := rgRolled(t, f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Exploits: []rgE{rgDisarm}}), 1))
		require.Equal(t, map[string]int32{"LOS-091": 5}, rgMods(ar.GetTest().GetTestModifiers()))
		require.Equal(t, int32(18), ar.GetTest().GetTotal())
		ar = rgRolled(t, f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Exploits: []rgE{rgLimb}}), 1))
		require.Empty(t, ar.GetTest().GetTestModifiers())
	})
	t.Run("Two weapons", func(t *testing.T) {
		for _, c := range []struct {
			spec string
			diff int32
		}{{"sabre", 15}, {"dague", 20}, {"", 20}} {
			d := diego()
			if c.spec != "" {
				d = rgSpecs(d, rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_TWO_WEAPONS, c.spec))
			}
			f := newFight(t, nil, d, ruffian())
			f.start(7, 5)
			ar := rgRolled(t, f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Situation: &lossv1.Situation{OffHand: true}}), 1))
			require.Equal(t, c.diff, ar.GetTest().GetDifficulty(), c.spec)
		}
	})
	t.Run("Parry", func(t *testing.T) {
		for _, c := range []struct {
			name   string
			spec   string
			shield bool
			bonus  int32
		}{{"its weapon", "dague", false, 2}, {"another weapon type", "épée", false, 0}, {"a shield parry", "dague", true, 0}} {
			r := rgSpecs(ruffian(), rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_PARRY, c.spec))
			if c.shield {
				r = with(r, func(s *lossv1.Sheet) {
					s.Shield = &lossv1.Shield{Name: "rondache", Size: lossv1.ShieldSize_SHIELD_SIZE_SMALL}
				})
			}
			f := newFight(t, nil, diego(), r)
			f.start(7, 5)
			f.do("david", attack("diego", "malfrat", 0, nil), 9)
			dr := rgDefence(t, f.do(gm, react("malfrat", rgParry, 0, nil), 5))
			require.Equal(t, c.bonus, rgMods(dr.GetTest().GetTestModifiers())["LOS-091"], c.name)
			require.Equal(t, 15+c.bonus, dr.GetTest().GetTotal(), c.name)
		}
	})
}

// LOS-092: unarmed specialisations: Attack +5 on aimed Exploits, Deadly blow +5 on Neutralise,
// Disarm +5 on Disarm, Defence +5 (once) on Counter-attack, Protect, Feint; bare hands only.
func TestLOS092UnarmedSpecialisations(t *testing.T) {
	fist := weapon("poing", lossv1.WeaponKind_WEAPON_KIND_UNARMED, 0, 1)
	specs := []*lossv1.Specialisation{
		rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_UNARMED_ATTACK, ""),
		rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_UNARMED_DEADLY_BLOW, ""),
		rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_UNARMED_DEFENCE, ""),
		rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_UNARMED_DISARM, ""),
	}
	t.Run("attacks", func(t *testing.T) {
		boxer := rgSpecs(who("diego", "Diego", pc, 8, 6, 6, 5, 5, fist, sword(4, 3)), specs...)
		f := newFight(t, nil, boxer, ruffian())
		f.start(7, 1) // Diego 15, the ruffian 6
		for _, c := range []struct {
			weapon string
			e      rgE
			bonus  int32
		}{
			{"poing", rgLimb, 5}, {"poing", rgNeutral, 5}, {"poing", rgDisarm, 5}, {"poing", rgFeint, 5}, {"sabre", rgLimb, 0},
		} {
			ar := rgRolled(t, f.do("david", rgAct("diego", &lossv1.Attack{TargetId: "malfrat", Weapon: c.weapon, Exploits: []rgE{c.e}}), 1))
			require.False(t, ar.GetTest().GetSuccess())
			require.Equal(t, c.bonus, rgMods(ar.GetTest().GetTestModifiers())["LOS-092"], "%s %v", c.weapon, c.e)
			require.Equal(t, 13+c.bonus, ar.GetTest().GetTotal())
		}
		require.Equal(t, int32(15-2-4-2-2-2), f.cs("diego").GetActionPoints())
	})
	t.Run("defences", func(t *testing.T) {
		for _, c := range []struct {
			name    string
			effects []rgE
			faces   []int32
		}{
			{"Counter-attack", []rgE{rgCounter}, []int32{5, 1}},                             // 10 + 5 + 5 = 20 ≥ 20; the counter: 13 < 15
			{"Feint", []rgE{rgFeint}, []int32{5}},                                           // 20 ≥ 20
			{"Counter-attack and Feint: +5 once", []rgE{rgCounter, rgFeint}, []int32{5, 1}}, // 20 < 25: a hit for 1 + 2
		} {
			t.Run(c.name, func(t *testing.T) {
				boxer := rgSpecs(who("diego", "Diego", pc, 8, 6, 6, 5, 5, fist), specs...)
				f := newFight(t, nil, boxer, ruffian())
				f.start(1, 9)                                   // Diego 9, the ruffian 14
				f.do(gm, attack("malfrat", "diego", 0, nil), 9) // 19
				dr := rgDefence(t, f.do("david", rgReact("diego", &lossv1.React{Reaction: rgDodge, Effects: c.effects, CounterWeapon: "poing"}), c.faces...))
				require.Equal(t, map[string]int32{"LOS-092": 5}, rgMods(dr.GetTest().GetTestModifiers()))
				require.Equal(t, int32(10+5+5), dr.GetTest().GetTotal())
				require.Equal(t, 15+5*int32(len(c.effects)), dr.GetTest().GetDifficulty())
			})
		}
	})
}

// LOS-093: dodge specialisations: Total dodge +5 on a Total dodge; Take cover +5 on dodges
// against ranged attacks when cover is at hand.
func TestLOS093DodgeSpecialisations(t *testing.T) {
	dodger := rgSpecs(ruffian(),
		rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_TOTAL_DODGE, ""),
		rgSpec(lossv1.SpecialisationKind_SPECIALISATION_KIND_TAKE_COVER, ""))
	t.Run("Total dodge", func(t *testing.T) {
		f := newFight(t, nil, diego(), dodger)
		f.start(7, 5)
		f.do("david", attack("diego", "malfrat", 0, nil), 9)
		dr := rgDefence(t, f.do(gm, rgReact("malfrat", &lossv1.React{Reaction: rgDodge, Effects: []rgE{rgTotal}}), 3)) // 12 + 3 + 5 = 20
		require.Equal(t, map[string]int32{"LOS-093": 5}, rgMods(dr.GetTest().GetTestModifiers()))
		require.Equal(t, int32(20), dr.GetTest().GetTotal())
		require.True(t, dr.GetTest().GetSuccess())
		require.Equal(t, int32(0), f.cs("malfrat").GetActionPoints())
	})
	for _, c := range []struct {
		name           string
		ranged, atHand bool
		bonus          int32
	}{
		{"a shot, cover at hand", true, true, 5},
		{"a shot, no cover at hand", true, false, 0},
		{"a blow, cover at hand", false, true, 0},
	} {
		t.Run("Take cover: "+c.name, func(t *testing.T) {
			attacker, actor, sit := diego(), "diego", (*lossv1.Situation)(nil)
			if c.ranged {
				attacker, actor, sit = rgArcher(rgBow()), "archere", &lossv1.Situation{Distance: 5}
			}
			f := newFight(t, nil, attacker, dodger)
			f.start(5, 5)
			f.do("david", rgAct(actor, &lossv1.Attack{TargetId: "malfrat", Situation: sit}), 9)
			dr := rgDefence(t, f.do(gm, rgReact("malfrat", &lossv1.React{Reaction: rgDodge, Situation: &lossv1.Situation{CoverAtHand: c.atHand}}), 3))
			require.Equal(t, c.bonus, rgMods(dr.GetTest().GetTestModifiers())["LOS-093"])
			require.Equal(t, 15+c.bonus, dr.GetTest().GetTotal())
		})
	}
}

// LOS-094: a specialisation applies to the one weapon type it names: the weapon's type, or
// its name when it has none.
func TestLOS094SpecialisationWeaponType(t *testing.T) {
	parry := lossv1.SpecialisationKind_SPECIALISATION_KIND_PARRY
	for _, c := range []struct {
		name, weaponType, spec string
		bonus                  int32
	}{
		{"by name", "", "dague", 2},
		{"by type", "poignard", "poignard", 2},
		{"the type, not the name", "poignard", "dague", 0},
		{"another type", "", "rapière", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rgSpecs(with(ruffian(), func(s *lossv1.Sheet) { s.Weapons[0].WeaponType = c.weaponType }), rgSpec(parry, c.spec))
			f := newFight(t, nil, diego(), r)
			f.start(7, 5)
			f.do("david", attack("diego", "malfrat", 0, nil), 9)
			dr := rgDefence(t, f.do(gm, react("malfrat", rgParry, 0, nil), 5))
			require.Equal(t, 15+c.bonus, dr.GetTest().GetTotal())
		})
	}
}
