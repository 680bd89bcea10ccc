package d20seg_test

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func feats(fs ...*d20segv1.Feat) func(*d20segv1.Sheet) {
	return func(s *d20segv1.Sheet) { s.Feats = fs }
}

func weapons(ws ...*d20segv1.Weapon) func(*d20segv1.Sheet) {
	return func(s *d20segv1.Sheet) { s.Weapons = ws }
}

// D20-040, D20-041: attack roll 1d20 + BBA + Agility + weapon + feats + circumstance, a hit at
// ≥ CA; damage the weapon's die + Strength + weapon + feats + circumstance.
func TestD20_040_041_AttackRollAndDamage(t *testing.T) {
	f := newFight(t, nil,
		sheet("aldric", "Aldric", bba(6), initiative(5), func(s *d20segv1.Sheet) { s.Agility, s.Strength = 2, 3 },
			weapons(&d20segv1.Weapon{Name: "épée +1", Dice: "1d8", Bonus: 1, Critical: 2}),
			feats(&d20segv1.Feat{Name: "Arme de prédilection", Attack: 1}, &d20segv1.Feat{Name: "Spécialisation", Damage: 2})),
		sheet("berthe", "Berthe", initiative(1), ca(15), hp(30)))
	f.start()
	// 3 + 6 + 2 + 1 + 1 + 2 (circumstance) = 15 ≥ 15: a hit; 5 + 3 + 1 + 2 + 1 = 12 damage.
	ar := find(t, f.do(gm, attackCmd("aldric", &d20segv1.Attack{TargetId: "berthe", DistanceCm: 150, Modifier: 2, DamageModifier: 1}), 3, 5), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, []int32{3, 12, 15, 15}, []int32{ar.GetRoll().GetTotal(), ar.GetBonus(), ar.GetTotal(), ar.GetCa()})
	require.True(t, ar.GetHit())
	require.False(t, ar.GetCritical())
	require.Equal(t, int32(5), ar.GetDamageRoll().GetTotal())
	require.Equal(t, []int32{12, 18}, []int32{ar.GetDamage(), ar.GetHitPointsLeft()})
	require.Equal(t, int32(18), f.cs("berthe").GetHitPoints())
	f.do(gm, endTurn("berthe"))
	// 2 + 13 = 14 < 15: a miss, and no damage die.
	ar = find(t, f.do(gm, attackCmd("aldric", &d20segv1.Attack{TargetId: "berthe", DistanceCm: 150, Modifier: 2}), 2), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, int32(14), ar.GetTotal())
	require.False(t, ar.GetHit())
	require.Nil(t, ar.GetDamageRoll())
	require.Equal(t, int32(18), f.cs("berthe").GetHitPoints())
	f.replay()
}

// D20-T03 (D20-042): against CA 15 a total of 35 is a critical and 34 a normal hit; the
// stipulated longsword (×2, 1d8 + 3 Strength) with +2 feat damage deals 2 × (die + 3) + 2 on a
// critical, one die rolled.
func TestD20_T03_CriticalByMarginOf20(t *testing.T) {
	f := newFight(t, nil,
		sheet("gaston", "Gaston", bba(16), initiative(5), func(s *d20segv1.Sheet) { s.Strength = 3 },
			feats(&d20segv1.Feat{Name: "Spécialisation", Damage: 2})),
		sheet("berthe", "Berthe", initiative(1), ca(15), hp(40)))
	f.start()
	// 19 + 16 = 35: 35 − 15 = 20, a critical: 2 × (5 + 3) + 2 = 18.
	ar := find(t, f.do(gm, attack("gaston", "berthe"), 19, 5), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, []int32{35, 15}, []int32{ar.GetTotal(), ar.GetCa()})
	require.True(t, ar.GetHit())
	require.True(t, ar.GetCritical())
	require.Equal(t, []int32{5}, ar.GetDamageRoll().GetFaces(), "one die rolled")
	require.Equal(t, int32(18), ar.GetDamage())
	require.Equal(t, int32(22), f.cs("berthe").GetHitPoints())
	f.do(gm, endTurn("berthe"))
	// 18 + 16 = 34: a normal hit: 5 + 3 + 2 = 10.
	ar = find(t, f.do(gm, attack("gaston", "berthe"), 18, 5), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, int32(34), ar.GetTotal())
	require.True(t, ar.GetHit())
	require.False(t, ar.GetCritical())
	require.Equal(t, int32(10), ar.GetDamage())
	require.Equal(t, int32(12), f.cs("berthe").GetHitPoints())
	f.replay()
}

// D20-042: the weapon's multiplier applies to the die, Strength, weapon and circumstance
// bonuses, not to feat damage.
func TestD20_042_CriticalMultiplier(t *testing.T) {
	f := newFight(t, nil,
		sheet("gaston", "Gaston", bba(16), initiative(5), func(s *d20segv1.Sheet) { s.Strength = 3 },
			weapons(&d20segv1.Weapon{Name: "hache +1", Dice: "1d10", Bonus: 1, Critical: 3}),
			feats(&d20segv1.Feat{Name: "Spécialisation", Damage: 2})),
		sheet("berthe", "Berthe", initiative(1), ca(15), hp(100)))
	f.start()
	// 19 + 17 = 36 ≥ 15 + 20: 3 × (4 + 3 + 1 + 1) + 2 = 29.
	ar := find(t, f.do(gm, attackCmd("gaston", &d20segv1.Attack{TargetId: "berthe", DistanceCm: 150, DamageModifier: 1}), 19, 4), (*d20segv1.Event).GetAttackRolled)
	require.True(t, ar.GetCritical())
	require.Equal(t, int32(29), ar.GetDamage())
	require.Equal(t, int32(71), f.cs("berthe").GetHitPoints())
	f.replay()
}

// D20-043: a natural 20 or 1 has no special effect.
func TestD20_043_NaturalTwentyAndOneNothingSpecial(t *testing.T) {
	f := newFight(t, nil,
		sheet("novice", "Novice", bba(0), initiative(5)),
		sheet("maitre", "Maître", bba(16), initiative(4)),
		sheet("mur", "Mur", initiative(1), ca(30), hp(100)),
		sheet("berthe", "Berthe", initiative(0), ca(15), hp(100)))
	f.start()
	// A natural 20 at BBA 0 against CA 30: 20 < 30, a miss.
	ar := find(t, f.do(gm, attack("novice", "mur"), 20), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, int32(20), ar.GetTotal())
	require.False(t, ar.GetHit())
	require.False(t, ar.GetCritical())
	// A natural 1 at BBA 16 against CA 15: 17, a hit, and an ordinary one.
	ar = find(t, f.do(gm, attack("maitre", "berthe"), 1, 6), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, int32(17), ar.GetTotal())
	require.True(t, ar.GetHit())
	require.Equal(t, int32(6), ar.GetDamage())
	f.do(gm, endTurn("mur"))
	f.do(gm, endTurn("berthe"))
	// A natural 20 at BBA 16 against CA 15: 36 − 15 = 21, a critical by the margin only;
	// against CA 30: 36 − 30 = 6, a normal hit.
	ar = find(t, f.do(gm, attack("maitre", "mur"), 20, 6), (*d20segv1.Event).GetAttackRolled)
	require.True(t, ar.GetHit())
	require.False(t, ar.GetCritical(), "a natural 20 is no critical")
	require.Equal(t, int32(6), ar.GetDamage())
	f.replay()
}

// D20-044: hit points go down with damage; at down_at (0) or below the combatant is down: it
// no longer acts nor may be attacked, and the order skips it. With down_at −10 it fights on
// below 0.
func TestD20_044_HitPointsAndDown(t *testing.T) {
	f := newFight(t, nil,
		sheet("gaston", "Gaston", bba(16), initiative(5)),
		sheet("berthe", "Berthe", initiative(4), ca(10), hp(12)),
		sheet("cedric", "Cédric", initiative(1)))
	f.start()
	// 10 + 16 = 26 ≥ 10, 26 − 10 = 16 < 20; 8 damage: 4 left.
	ar := find(t, f.do(gm, attack("gaston", "berthe"), 10, 8), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, []int32{8, 4}, []int32{ar.GetDamage(), ar.GetHitPointsLeft()})
	require.False(t, ar.GetDown())
	f.do(gm, endTurn("berthe"))
	f.do(gm, endTurn("cedric"))
	// 4 damage: exactly 0, down.
	ar = find(t, f.do(gm, attack("gaston", "berthe"), 10, 4), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, []int32{4, 0}, []int32{ar.GetDamage(), ar.GetHitPointsLeft()})
	require.True(t, ar.GetDown())
	require.True(t, f.cs("berthe").GetDown())
	f.refuse(gm, attack("gaston", "berthe"), engine.CodePrecondition, "D20-044", "Berthe is already down")
	f.do(gm, endTurn("gaston"))
	require.Equal(t, int32(2), f.round())
	f.refuse(gm, endTurn("berthe"), engine.CodePrecondition, "D20-044", "Berthe is down")
	f.do(gm, endTurn("gaston"))
	require.Equal(t, "cedric", f.upNext(), "the order skips Berthe")
	require.Equal(t, int32(3), find(t, f.do(gm, endTurn("cedric")), (*d20segv1.Event).GetRoundStarted).GetRound())
	f.replay()

	// down_at −10: at −2 Berthe still fights; at −10 she is down.
	f = newFight(t, &d20segv1.Options{DownAt: proto.Int32(-10)},
		sheet("gaston", "Gaston", bba(16), initiative(5)),
		sheet("berthe", "Berthe", initiative(4), ca(10), hp(6)))
	f.start()
	ar = find(t, f.do(gm, attack("gaston", "berthe"), 10, 8), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, int32(-2), ar.GetHitPointsLeft())
	require.False(t, ar.GetDown())
	f.do(gm, other("berthe", "reculer", 0))
	ar = find(t, f.do(gm, attack("gaston", "berthe"), 10, 8), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, int32(-10), ar.GetHitPointsLeft())
	require.True(t, ar.GetDown())
	f.replay()

	// A sheet needs hit points.
	b := newFight(t, nil)
	b.refuse(gm, addCmd(sheet("x", "Fantôme", hp(0))), engine.CodeInvalid, "D20-044", "Fantôme")
}

// D20-031: a melee attack needs the target within reach: the size's, or the weapon's.
func TestD20_031_Reach(t *testing.T) {
	f := newFight(t, nil,
		sheet("aldric", "Aldric", bba(16), initiative(9), weapons(longsword(), &d20segv1.Weapon{Name: "pique", Dice: "1d8", Critical: 3, ReachCm: 300})),
		sheet("ogre", "Ogre", bba(16), initiative(8), func(s *d20segv1.Sheet) { s.Size = d20segv1.Size_SIZE_G }),
		sheet("lutin", "Lutin", bba(16), initiative(7), func(s *d20segv1.Sheet) { s.Size = d20segv1.Size_SIZE_TP }),
		sheet("mur", "Mur", initiative(1), ca(100), hp(1000)))
	f.start()
	at := func(weapon string, cm int32) *d20segv1.Attack {
		return &d20segv1.Attack{TargetId: "mur", Weapon: weapon, DistanceCm: cm}
	}
	f.refuse(gm, attackCmd("aldric", at("épée longue", 151)), engine.CodePrecondition, "D20-031", "Mur is 151 cm away; Aldric reaches 150 cm")
	f.refuse(gm, attackCmd("aldric", at("pique", 301)), engine.CodePrecondition, "D20-031", "Mur is 301 cm away; Aldric reaches 300 cm")
	f.do(gm, attackCmd("aldric", at("pique", 300)), miss)
	f.refuse(gm, attackCmd("ogre", at("", 301)), engine.CodePrecondition, "D20-031", "Ogre reaches 300 cm")
	f.do(gm, attackCmd("ogre", at("", 300)), miss)
	f.refuse(gm, attackCmd("lutin", at("", 1)), engine.CodePrecondition, "D20-031", "Mur is 1 cm away; Lutin reaches 0 cm")
	f.do(gm, attackCmd("lutin", at("", 0)), miss)
	// Several weapons: name the one.
	f.do(gm, endTurn("mur"))
	f.refuse(gm, attackCmd("aldric", at("", 100)), engine.CodeInvalid, "", "Aldric has several weapons")
	f.do(gm, attackCmd("aldric", at("épée longue", 150)), miss)
	f.replay()
}

// D20-045: ranged and unarmed attacks resolve as melee ones; a ranged attack ignores reach and
// uses the ranged weapon's bonus.
func TestD20_045_RangedAndUnarmed(t *testing.T) {
	f := newFight(t, nil,
		sheet("archer", "Archère", bba(16), initiative(9), func(s *d20segv1.Sheet) { s.Agility, s.Strength = 3, 1 },
			weapons(&d20segv1.Weapon{Name: "arc long +2", Dice: "1d8", Bonus: 2, Critical: 3, Ranged: true})),
		sheet("lutteur", "Lutteur", bba(16), initiative(8), func(s *d20segv1.Sheet) { s.Agility, s.Strength = 1, 2 },
			weapons(&d20segv1.Weapon{Name: "poings", Dice: "1d3", Critical: 2})),
		sheet("cible", "Cible", initiative(1), ca(22), hp(100)))
	f.start()
	// 30 m away: 2 + 16 + 3 + 2 = 23 ≥ 22; 4 + 1 + 2 = 7.
	ar := find(t, f.do(gm, attackCmd("archer", &d20segv1.Attack{TargetId: "cible", DistanceCm: 3000}), 2, 4), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, []int32{21, 23}, []int32{ar.GetBonus(), ar.GetTotal()})
	require.True(t, ar.GetHit())
	require.Equal(t, int32(7), ar.GetDamage())
	// Unarmed, in reach: 5 + 16 + 1 = 22 ≥ 22; 3 + 2 = 5; out of reach, refused.
	f.refuse(gm, attackCmd("lutteur", &d20segv1.Attack{TargetId: "cible", DistanceCm: 200}), engine.CodePrecondition, "D20-031", "Lutteur reaches 150 cm")
	ar = find(t, f.do(gm, attackCmd("lutteur", &d20segv1.Attack{TargetId: "cible", DistanceCm: 100}), 5, 3), (*d20segv1.Event).GetAttackRolled)
	require.Equal(t, []int32{17, 22}, []int32{ar.GetBonus(), ar.GetTotal()})
	require.True(t, ar.GetHit())
	require.Equal(t, int32(5), ar.GetDamage())
	require.Equal(t, int32(88), f.cs("cible").GetHitPoints())
	f.replay()
}
