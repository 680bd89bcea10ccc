package d20seg_test

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/rules/odds/oddstest"
	"github.com/stretchr/testify/require"
)

func segFighter(id, controller string, rapidite, bba, agility, strength, ca, hp int32, w *d20segv1.Weapon, feats ...*d20segv1.Feat) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: id, Name: id, Controller: controller, Sheet: &encounterv1.Combatant_D20Seg{D20Seg: &d20segv1.Sheet{
		Rapidite: rapidite, Armour: d20segv1.Armour_ARMOUR_LIGHT, WeaponClass: d20segv1.WeaponClass_WEAPON_CLASS_LIGHT, Bba: bba, Agility: agility, Strength: strength, Ca: ca, HitPoints: hp,
		Size: d20segv1.Size_SIZE_M, Weapons: []*d20segv1.Weapon{w}, Feats: feats,
	}}}
}

// segFight: the knight (Rapidité 5) acts before the brigand (Rapidité 1).
func segFight(t testing.TB, opts *d20segv1.Options, knight, brigand *encounterv1.Combatant) *encounterv1.EncounterState {
	var ro *encounterv1.RuleOptions
	if opts != nil {
		ro = &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_D20Seg{D20Seg: opts}}
	}
	return oddstest.Play(t,
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "gué", RuleSystem: "d20seg", Options: ro}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: knight}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: brigand}}}, Faces: nil},
		oddstest.Step{Actor: oddstest.GM, Cmd: &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, Faces: nil},
	)
}

func segAttack(mod, dmgMod int32) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_D20Seg{D20Seg: &d20segv1.Action{CombatantId: "knight", Kind: &d20segv1.Action_Attack{
		Attack: &d20segv1.Attack{TargetId: "brigand", Weapon: "longsword", DistanceCm: 150, Modifier: mod, DamageModifier: dmgMod}}}}}
}

func oddsLongsword() *d20segv1.Weapon {
	return &d20segv1.Weapon{Name: "longsword", Dice: "1d8", Critical: 2}
}

// TestSegOddsAgreeWithDecide: the chance to hit, to score a critical, to fell the target and
// the damage agree with the real Decide on the dice stream (D20-040…D20-044).
func TestSegOddsAgreeWithDecide(t *testing.T) {
	oddstest.Agreement(t)
	for _, c := range []struct {
		name     string
		knight   *encounterv1.Combatant
		brigand  *encounterv1.Combatant
		cmd      *encounterv1.Command
		critical bool
	}{
		{name: "D20-T03: longsword 1d8, Strength 3, feat +2 against CA 15", critical: true,
			knight:  segFighter("knight", "david", 5, 16, 2, 3, 14, 30, oddsLongsword(), &d20segv1.Feat{Name: "force", Damage: 2}),
			brigand: segFighter("brigand", oddstest.GM, 1, 1, 1, 1, 15, 20, oddsLongsword()), cmd: segAttack(0, 0)},
		{name: "a weak blow that cannot be critical, damage modifier -3 (D20-041)",
			knight:  segFighter("knight", "david", 5, 0, 0, 0, 14, 30, &d20segv1.Weapon{Name: "longsword", Dice: "2d4+1", Critical: 3}),
			brigand: segFighter("brigand", oddstest.GM, 1, 1, 1, 1, 18, 4, oddsLongsword()), cmd: segAttack(2, -3)},
		{name: "a ×3 weapon +2, a feat +1/+2, flat-footed no: CA 12 (D20-040, D20-041, D20-042)", critical: true,
			knight: segFighter("knight", "david", 5, 11, 3, 2, 14, 30, &d20segv1.Weapon{Name: "longsword", Dice: "1d6", Critical: 3, Bonus: 2},
				&d20segv1.Feat{Name: "arme de prédilection", Attack: 1, Damage: 2}),
			brigand: segFighter("brigand", oddstest.GM, 1, 1, 1, 1, 12, 12, oddsLongsword()), cmd: segAttack(-1, 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := segFight(t, nil, c.knight, c.brigand)
			o, err := odds.Of(oddstest.Reg, st, c.cmd, "david")
			require.NoError(t, err)
			s := oddstest.Section(t, o, "attack")
			require.Equal(t, c.critical, oddstest.ChanceOf(t, s, "critical") > 0)
			tl := oddstest.NewTally()
			for i := range oddstest.Samples() {
				evs, err := oddstest.Reg.Decide(st, c.cmd, engine.Env{Actor: "david", Dice: oddstest.Stream(t, i)})
				require.NoError(t, err)
				ar := evs[0].GetD20Seg().GetAttackRolled()
				tl.N++
				if ar.GetHit() {
					tl.See("hit")
				}
				if ar.GetCritical() {
					tl.See("critical")
				}
				if ar.GetDown() {
					tl.See("down")
				}
				tl.See("damage=" + oddstest.Itoa(int64(ar.GetDamage())))
				tl.Value("damage", float64(ar.GetDamage()))
			}
			for _, ch := range s.GetChances() {
				tl.Agree(t, ch.GetKey(), ch.GetProbability())
			}
			tl.AgreeDist(t, "damage", oddstest.DistOf(t, s, "damage"))
		})
	}
}

// TestSegOddsOfTheWorkedExample: D20-T03 by hand. Against CA 15 with +18 (BBA 16, Agility 2),
// a d20 hits on 1 or more (20/20) and is a critical (total 35) on 17 or more (4/20); a
// critical deals 2 × (1d8 + 3) + 2, so 10 to 24, a hit 1d8 + 3 + 2, 6 to 13.
func TestSegOddsOfTheWorkedExample(t *testing.T) {
	st := segFight(t, nil,
		segFighter("knight", "david", 5, 16, 2, 3, 14, 30, oddsLongsword(), &d20segv1.Feat{Name: "force", Damage: 2}),
		segFighter("brigand", oddstest.GM, 1, 1, 1, 1, 15, 100, oddsLongsword()))
	o, err := odds.Of(oddstest.Reg, st, segAttack(0, 0), "david")
	require.NoError(t, err)
	s := oddstest.Section(t, o, "attack")
	require.InDelta(t, 1.0, oddstest.ChanceOf(t, s, "hit"), 1e-12)
	require.InDelta(t, 4.0/20, oddstest.ChanceOf(t, s, "critical"), 1e-12)
	require.InDelta(t, 0.0, oddstest.ChanceOf(t, s, "down"), 1e-12)
	d := oddstest.DistOf(t, s, "damage")
	require.Equal(t, int64(6), d.GetOutcomes()[0].GetValue())
	require.Equal(t, int64(24), d.GetOutcomes()[len(d.GetOutcomes())-1].GetValue())
	// 6..13 at 16/20 × 1/8 each; the even critical values 10..24 at 4/20 × 1/8 each.
	require.InDelta(t, 16.0/20/8, oddstest.ProbOf(d, 6), 1e-12)
	require.InDelta(t, 16.0/20/8+4.0/20/8, oddstest.ProbOf(d, 10), 1e-12)
	require.InDelta(t, 4.0/20/8, oddstest.ProbOf(d, 24), 1e-12)
	require.InDelta(t, 0.8*9.5+0.2*(2*7.5+2), d.GetMean(), 1e-9)
	require.Equal(t, "an attack with longsword, +18 against CA 15", o.GetSummary())

	// Against 10 hit points, down at 0 or below (D20-044): a hit's d8 + 5 fells on a 5 or more
	// (4/8), a critical (10 to 24) always: 16/20 × 1/2 + 4/20 = 0.6.
	st = segFight(t, nil,
		segFighter("knight", "david", 5, 16, 2, 3, 14, 30, oddsLongsword(), &d20segv1.Feat{Name: "force", Damage: 2}),
		segFighter("brigand", oddstest.GM, 1, 1, 1, 1, 15, 10, oddsLongsword()))
	o, err = odds.Of(oddstest.Reg, st, segAttack(0, 0), "david")
	require.NoError(t, err)
	require.InDelta(t, 0.6, oddstest.ChanceOf(t, oddstest.Section(t, o, "attack"), "down"), 1e-12)
}

// TestOddsUseOnlyWhatTheCallerSees: with the target hidden from the player, the odds computed
// on the player's view are the same whatever the target's numbers are, and say its numbers
// are hidden; the GM, who sees all, gets odds that change with them (D20-040).
func TestOddsUseOnlyWhatTheCallerSees(t *testing.T) {
	oddstest.Hidden(t, segFight(t, nil, segFighter("knight", "david", 5, 6, 2, 3, 14, 30, oddsLongsword()), segFighter("brigand", oddstest.GM, 1, 1, 1, 1, 15, 20, oddsLongsword())),
		segAttack(0, 0), "knight", "brigand", func(c *encounterv1.Combatant) { c.GetD20Seg().Ca = 25 })
}
