package ka_test

// Tests of the bounds of the options, of a sheet and of the legal choices: each one kills a
// mutant that lived in a mutation run of this package (a comparison moved by one, or turned
// around), with the numbers at the edge.

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
)

// KA-006: success_levels gives the margins where each level above normal starts; a normal
// success starts at margin 0, so the first of them must be above 0: 1 is the lowest allowed,
// 0 is refused.
func TestKA006FirstLevelAboveZero(t *testing.T) {
	blank(t).refuse(gm, createCmd(&kav1.Options{SuccessLevels: []int32{0, 10}, SuccessBonus: []int32{1, 5, 10}}), engine.CodeInvalid, "KA-006")
	o, err := ka.New(ka.Latest).Options(&encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Ka{Ka: &kav1.Options{
		SuccessLevels: []int32{1, 10}, SuccessBonus: []int32{1, 5, 10}}}})
	require.NoError(t, err)
	for _, c := range []struct{ margin, level, bonus int32 }{{0, 1, 1}, {1, 2, 5}, {9, 2, 5}, {10, 3, 10}} {
		lvl, bonus := ka.Level(o.GetKa(), c.margin)
		require.Equal(t, []int32{c.level, c.bonus}, []int32{lvl, bonus}, "margin %d, levels 1/10", c.margin)
	}
}

// KA-024: ka_table gives increasing upper bounds from 1 up: a first bound of 1 is allowed
// (1 point after soak is a die, 2 points two dice with the table 1, 2), 0 is not.
func TestKA024TableFromOne(t *testing.T) {
	o, err := ka.New(ka.Latest).Options(&encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Ka{Ka: &kav1.Options{KaTable: []int32{1, 2}}}})
	require.NoError(t, err)
	require.Equal(t, []int32{1, 2}, o.GetKa().GetKaTable())
	for dmg, want := range map[int32]int32{0: 0, 1: 1, 2: 2, 3: 3, 5: 5} {
		require.Equal(t, want, ka.New(ka.Latest).KaLost(o.GetKa(), dmg), "damage %d, table 1/2: one die a point", dmg)
	}
	newFight(t, &kav1.Options{KaTable: []int32{1, 2}}) // created
}

// The ranges of a sheet: spheres and skills from 0 to 20, both ends included; at least one Ka
// die and one point de réalité (KA-029).
func TestKASheetBounds(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*kav1.Sheet)
		ok   bool
		rule string
	}{
		{"sphere 0", func(sh *kav1.Sheet) { sh.Spheres[third] = 0 }, true, ""},
		{"sphere 20", func(sh *kav1.Sheet) { sh.Spheres[ka.Animalite] = 20 }, true, ""},
		{"sphere −1", func(sh *kav1.Sheet) { sh.Spheres[third] = -1 }, false, ""},
		{"sphere 21", func(sh *kav1.Sheet) { sh.Spheres[ka.Animalite] = 21 }, false, ""},
		{"skill 0", func(sh *kav1.Sheet) { sh.Skills["Esquive"] = 0 }, true, ""},
		{"skill 20", func(sh *kav1.Sheet) { sh.Skills["Esquive"] = 20 }, true, ""},
		{"skill −1", func(sh *kav1.Sheet) { sh.Skills["Esquive"] = -1 }, false, ""},
		{"skill 21", func(sh *kav1.Sheet) { sh.Skills["Esquive"] = 21 }, false, ""},
		{"one Ka die", func(sh *kav1.Sheet) { sh.KaDice = 1 }, true, ""},
		{"one point de réalité", func(sh *kav1.Sheet) { sh.RealityPoints = 1 }, true, ""},
		{"no point de réalité", func(sh *kav1.Sheet) { sh.RealityPoints = 0 }, false, "KA-029"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFight(t, nil)
			cmd := addCmd(with(dog(), c.edit))
			if !c.ok {
				f.refuse(gm, cmd, engine.CodeInvalid, c.rule, "Le chien")
				return
			}
			f.do(gm, cmd)
			require.Equal(t, with(dog(), c.edit).GetKa().GetRealityPoints(), f.cs("chien").GetRealityPoints())
		})
	}
}

// choice is the choice of a legal action on field.
func choice(t *testing.T, legal []*rulesetv1.LegalAction, name, field string) *rulesetv1.Choice {
	t.Helper()
	for _, l := range legal {
		if l.GetName() != name {
			continue
		}
		for _, c := range l.GetChoices() {
			if c.GetField() == field {
				return c
			}
		}
	}
	require.Failf(t, "no choice", "no choice %s on %s", field, name)
	return nil
}

func values(c *rulesetv1.Choice) []string {
	var out []string
	for _, o := range c.GetOptions() {
		out = append(out, o.GetValue())
	}
	return out
}

// KA-013: a parry names a defence skill other than Esquive (a dodge is Esquive): the gorilla,
// with Bagarre and Esquive, is offered Bagarre alone to parry with.
func TestKA013ParryOffersTheOtherSkills(t *testing.T) {
	f := newFight(t, &kav1.Options{Parry: true}, joshua(), with(gorille(), func(sh *kav1.Sheet) { sh.Skills["Lutte"] = 1 }))
	f.start()
	f.do(player, attack("joshua", "gorille", "crosse", 0))
	legal, err := f.Reg.Legal(f.St, "gorille")
	require.NoError(t, err)
	require.Equal(t, []string{"Bagarre", "Lutte"}, values(choice(t, legal, "parry", "ka.react.skill")))
}

// KA-033: a burst reaches at most 5 targets, the first and 4 more: the legal attack with the
// sub-machine gun offers at most 4 further targets.
func TestKA033BurstOffersFourMoreTargets(t *testing.T) {
	f := newFight(t, nil, tireur(), joshua(), dog(), brute())
	f.start()
	legal, err := f.Reg.Legal(f.St, "tireur")
	require.NoError(t, err)
	var more *rulesetv1.Choice
	for _, l := range legal {
		if l.GetName() == "attack" && l.GetWeapon() == "pistolet-mitrailleur" {
			for _, c := range l.GetChoices() {
				if c.GetField() == "ka.attack.more_target_ids" {
					more = c
				}
			}
		}
	}
	require.NotNil(t, more)
	require.Equal(t, []int32{0, ka.New(ka.Latest).Numbers().MaxBurstTargets - 1}, []int32{more.GetMin(), more.GetMax()})
	require.Equal(t, int32(4), more.GetMax())
}

// KA-032: a disarm names the target's weapon; a hidden target's weapons are not offered (its
// sheet is secret), so when the only target holding a weapon is hidden the weapon is a name
// to give, not a required choice among none.
func TestKA032DisarmOfAHiddenTargetOnly(t *testing.T) {
	hidden := with(dog(), func(sh *kav1.Sheet) {})
	hidden.Hidden = true
	f := newFight(t, nil, with(joshua(), func(sh *kav1.Sheet) {}), hidden)
	f.start()
	legal, err := f.Reg.Legal(f.St, "joshua")
	require.NoError(t, err)
	require.Equal(t, []string{"chien"}, values(choice(t, legal, "disarm", "ka.disarm.target_id")))
	w := choice(t, legal, "disarm", "ka.disarm.weapon")
	require.Empty(t, w.GetOptions())
	require.False(t, w.GetRequired(), "no weapon to choose among")

	// A target in sight holding a weapon: its weapons are offered, and one is required.
	f = newFight(t, nil, joshua(), dog())
	f.start()
	legal, err = f.Reg.Legal(f.St, "joshua")
	require.NoError(t, err)
	w = choice(t, legal, "disarm", "ka.disarm.weapon")
	require.Equal(t, []string{"crocs"}, values(w))
	require.True(t, w.GetRequired())
}

// KA-022, KA-023, KA-033: HitNumbers, what rules/odds reads of an attack as resolve reads it:
// the weapon's damage and the first target's soak (the attack's sphere + encaissement +
// protection). The dog with protection 2: a shot (+8) meets Humanité 1 + 3 + 2 = 6; a blow of
// the gun butt (+3) Animalité 3 + 3 + 2 = 8; a burst on it alone +12, on two targets +6 a
// bullet, both against Animalité (8).
func TestKAHitNumbers(t *testing.T) {
	armoured := with(dog(), func(sh *kav1.Sheet) { sh.Protection = 2 })
	f := newFight(t, nil, joshua(), armoured, tireur())
	for _, c := range []struct {
		name         string
		attacker     string
		a            *kav1.Attack
		damage, soak int32
	}{
		{"shot", "joshua", &kav1.Attack{TargetId: "chien", Weapon: "pistolet"}, 8, 1 + 3 + 2},
		{"gun butt", "joshua", &kav1.Attack{TargetId: "chien", Weapon: "crosse"}, 3, 3 + 3 + 2},
		{"burst on one", "tireur", &kav1.Attack{TargetId: "chien", Weapon: "pistolet-mitrailleur", Burst: true}, ka.New(ka.Latest).Numbers().BurstSingle, 3 + 3 + 2},
		{"burst on two", "tireur", &kav1.Attack{TargetId: "chien", MoreTargetIds: []string{"joshua"}, Weapon: "pistolet-mitrailleur", Burst: true}, ka.New(ka.Latest).Numbers().BurstPerBullet, 3 + 3 + 2},
	} {
		damage, soak, err := ka.New(ka.Latest).HitNumbers(f.St, c.attacker, c.a)
		require.NoError(t, err, c.name)
		require.Equal(t, []int32{c.damage, c.soak}, []int32{damage, soak}, c.name)
	}
	for _, c := range []struct {
		name     string
		attacker string
		a        *kav1.Attack
	}{
		{"no such attacker", "personne", &kav1.Attack{TargetId: "chien", Weapon: "pistolet"}},
		{"no such weapon", "joshua", &kav1.Attack{TargetId: "chien", Weapon: "arbalète"}},
		{"no such target", "joshua", &kav1.Attack{TargetId: "personne", Weapon: "pistolet"}},
	} {
		damage, soak, err := ka.New(ka.Latest).HitNumbers(f.St, c.attacker, c.a)
		require.Error(t, err, c.name)
		require.Equal(t, []int32{0, 0}, []int32{damage, soak}, c.name)
	}
}
