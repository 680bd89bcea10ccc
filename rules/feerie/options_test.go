package feerie_test

// The house rules: each [default] reading of the catalogue that an encounter may replace at
// creation, recorded in EncounterCreated, and an outcome each option changes. The fights use
// the va helpers of values_test.go: default roll 1d20−1d20, fixed faces.

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Every option Describe lists is recorded at creation with its default filled in, and the
// default is the one Describe gives; a value outside an option's list is refused.
func TestOpDefaultsRecordedAndDescribed(t *testing.T) {
	f := vaNew(t, nil, vaLutin(), vaTroll())
	created := f.Log[0].GetEncounterCreated().GetOptions().GetFeerie()
	require.NotNil(t, created)
	require.True(t, proto.Equal(created, f.St.GetOptions().GetFeerie()))
	fields := created.ProtoReflect().Descriptor().Fields()
	described := map[string]bool{}
	for _, d := range feerie.New(1).Describe().GetOptions() {
		fd := fields.ByName(protoreflect.Name(d.GetName()))
		require.NotNil(t, fd, "Describe lists %s, which Options lacks", d.GetName())
		require.True(t, created.ProtoReflect().Has(fd), "%s is recorded", d.GetName())
		require.Equal(t, d.GetDefaultValue(), created.ProtoReflect().Get(fd).String(), "default of %s", d.GetName())
		require.NotEmpty(t, d.GetRule(), d.GetName())
		require.NotEmpty(t, d.GetDescription(), d.GetName())
		described[d.GetName()] = true
	}
	for i := range fields.Len() {
		require.True(t, described[string(fields.Get(i).Name())], "Describe lists %s", fields.Get(i).Name())
	}

	for _, c := range []struct {
		rule string
		o    *feeriev1.Options
	}{
		{"FEE-003", &feeriev1.Options{HalfMarginRounding: proto.String("sideways")}},
		{"FEE-153", &feeriev1.Options{StunMalus: proto.String("margin")}},
		{"FEE-171", &feeriev1.Options{DivisionRounding: proto.String("banker")}},
		{"FEE-176", &feeriev1.Options{DamageBeforeSoak: proto.String("soak")}},
		{"FEE-179", &feeriev1.Options{StunStacking: proto.String("min")}},
		{"FEE-185", &feeriev1.Options{ExposedRounding: proto.String("up")}},
	} {
		vaBlank(t).refuse(vaGM, vaCreateCmd(c.o), engine.CodeInvalid, c.rule)
	}
	// Given values are kept as given.
	g := vaNew(t, &feeriev1.Options{StunMalus: proto.String(feerie.StunDamage), TieSucceeds: proto.Bool(false)}, vaLutin(), vaTroll())
	o := g.Log[0].GetEncounterCreated().GetOptions().GetFeerie()
	require.Equal(t, feerie.StunDamage, o.GetStunMalus())
	require.False(t, o.GetTieSucceeds())
	require.NotNil(t, o.TieSucceeds)
	require.Equal(t, feerie.RoundDown, o.GetHalfMarginRounding())
}

// FEE-002 tie_succeeds: the Kobold's Attack 18 against the Lutin's Defense 18 succeeds by
// default (0 + 14 − 8 = 6 Essence); with tie_succeeds false it fails.
func TestOpTieSucceeds_FEE002(t *testing.T) {
	in := vaMelee("lutin", nil)
	f, r := vaDuel(t, nil, vaKobold(), vaLutin(), in, nil, nil, 16, 10)
	require.Equal(t, []int32{18, 18, 0}, []int32{r.GetAttack().GetTotal(), r.GetDefense(), r.GetMargin()})
	require.True(t, r.GetSuccess())
	require.Equal(t, int32(6), r.GetEssenceLost())
	require.Equal(t, int32(14), f.cs("lutin").GetEssence())

	f, r = vaDuel(t, &feeriev1.Options{TieSucceeds: proto.Bool(false)}, vaKobold(), vaLutin(), in, nil, nil, 16, 10)
	require.Zero(t, r.GetMargin())
	require.False(t, r.GetSuccess(), "a tie fails")
	require.Zero(t, r.GetEssenceLost())
	require.Equal(t, int32(20), f.cs("lutin").GetEssence())
	f.replays()
}

// FEE-003 half_margin_rounding: margin 3 gives 1 + 14 − 8 = 7 rounded down, 2 + 14 − 8 = 8
// rounded up.
func TestOpHalfMarginRounding_FEE003(t *testing.T) {
	in := vaMelee("lutin", nil)
	_, r := vaDuel(t, nil, vaKobold(), vaLutin(), in, nil, nil, 19, 10)
	require.Equal(t, int32(3), r.GetMargin())
	require.Equal(t, int32(7), r.GetEssenceLost())
	_, r = vaDuel(t, &feeriev1.Options{HalfMarginRounding: proto.String(feerie.RoundUp)}, vaKobold(), vaLutin(), in, nil, nil, 19, 10)
	require.Equal(t, int32(3), r.GetMargin())
	require.Equal(t, int32(8), r.GetEssenceLost())
}

// FEE-153 stun_malus: the Kobold stuns the Lutin with margin 2: the malus is the would-be loss
// 1 + 14 − 8 = 7 by default, 1 + 14 = 15 before Soak, or the Damage 14 alone.
func TestOpStunMalus_FEE153(t *testing.T) {
	in := vaMelee("lutin", nil, vaStun)
	for _, c := range []struct {
		option string
		malus  int32
	}{{"", 7}, {feerie.StunBeforeSoak, 15}, {feerie.StunDamage, 14}} {
		var o *feeriev1.Options
		if c.option != "" {
			o = &feeriev1.Options{StunMalus: proto.String(c.option)}
		}
		f, r := vaDuel(t, o, vaKobold(), vaLutin(), in, nil, nil, 20, 8)
		require.Equal(t, int32(2), r.GetMargin())
		require.Equal(t, c.malus, vaCondition(t, r.GetConditions(), vaStun).GetMalus(), c.option)
		require.Equal(t, c.malus-1, vaCondition(t, f.cs("lutin").GetConditions(), vaStun).GetMalus(), "one rank passed")
	}
}

// FEE-171 division_rounding: the Lutin's paces (H + T = 14) and a knockback of 15 Damage before
// Soak, rounded down, up or to the nearest.
func TestOpDivisionRounding_FEE171(t *testing.T) {
	in := vaMelee("lutin", nil, vaKnockback)
	for _, c := range []struct {
		option   string
		paces    []int32
		distance int32
	}{
		{"", []int32{3, 4, 7, 14}, 3},                  // 3.5, 4.67, 7, 14; 15/4 = 3.75
		{feerie.RoundUp, []int32{4, 5, 7, 14}, 4},      // up
		{feerie.RoundNearest, []int32{4, 5, 7, 14}, 4}, // nearest, halves up
	} {
		var o *feeriev1.Options
		if c.option != "" {
			o = &feeriev1.Options{DivisionRounding: proto.String(c.option)}
		}
		f, r := vaDuel(t, o, vaKobold(), vaLutin(), in, nil, nil, 18, 1)
		require.Equal(t, int32(3), r.GetMargin(), "1 + 14 = 15 before Soak")
		require.Equal(t, c.distance, vaCondition(t, r.GetConditions(), vaKnockback).GetDistance(), c.option)
		var paces []int32
		for _, p := range []feeriev1.Pace{feeriev1.Pace_PACE_WALK, feeriev1.Pace_PACE_TROT, feeriev1.Pace_PACE_RUN, feeriev1.Pace_PACE_SPRINT} {
			paces = append(paces, feerie.Speed(f.St, "lutin", p))
		}
		require.Equal(t, c.paces, paces, c.option)
	}
}

// FEE-172 combine_ranged_difficulty: by default a shot is either estimated globally or
// itemised; with the option both add up to the Troll's Defense: 10 + 8 (very hard) + 12 (far).
func TestOpCombineRangedDifficulty_FEE172(t *testing.T) {
	shot := &feeriev1.Act{Circumstances: &feeriev1.Circumstances{
		RangedDifficulty: feeriev1.RangedDifficulty_RANGED_DIFFICULTY_VERY_HARD, Distance: feeriev1.Range_RANGE_FAR, Lighting: feeriev1.Lighting_LIGHTING_DUSK,
	}}
	start := func(o *feeriev1.Options) *vaFight {
		f := vaNew(t, o, vaLutin(), vaTroll())
		f.declare("lutin", vaRanged("troll", vaAtt("fronde")))
		f.declare("troll", vaPassive(), 20, 1, 1, 20)
		return f
	}
	f := start(nil)
	f.refuse(vaGM, vaActCmd("lutin", shot), engine.CodeInvalid, "FEE-172", "Lutin")
	noRange := proto.CloneOf(shot)
	noRange.Circumstances.Distance = feeriev1.Range_RANGE_UNSPECIFIED
	f.refuse(vaGM, vaActCmd("lutin", noRange), engine.CodeInvalid, "FEE-172", "Lutin")

	f = start(&feeriev1.Options{CombineRangedDifficulty: proto.Bool(true)})
	f.act("lutin", shot)
	r := f.advance(0, 20, 1)[0]
	vaRequireMod(t, r.GetDefenseModifiers(), "ranged difficulty", "FEE-130", 8)
	vaRequireMod(t, r.GetDefenseModifiers(), "range", "FEE-131", 12)
	require.Equal(t, int32(30), r.GetDefense())
	vaRequireMod(t, r.GetAttack().GetModifiers(), "lighting", "FEE-120", -4)
	require.Equal(t, int32(31), r.GetAttack().GetTotal(), "14 + 2 − 4 + 19")
	require.Equal(t, int32(1), r.GetMargin())
}

// FEE-173 lighting_on_defense: under a full moon the Kobold's Attack takes −4; with the option
// the Lutin's Defense does too (18 − 4), and the margin grows from 4 to 8.
func TestOpLightingOnDefense_FEE173(t *testing.T) {
	in := vaMelee("lutin", nil)
	moon := &feeriev1.Act{Circumstances: &feeriev1.Circumstances{Lighting: feeriev1.Lighting_LIGHTING_MOONLIGHT}}
	_, r := vaDuel(t, nil, vaKobold(), vaLutin(), in, nil, moon, 20, 6)
	vaRequireMod(t, r.GetAttack().GetModifiers(), "lighting", "FEE-120", -4)
	vaNoMod(t, r.GetDefenseModifiers(), "lighting on Defense")
	require.Equal(t, []int32{22, 18, 4, 8}, []int32{r.GetAttack().GetTotal(), r.GetDefense(), r.GetMargin(), r.GetEssenceLost()})

	_, r = vaDuel(t, &feeriev1.Options{LightingOnDefense: proto.Bool(true)}, vaKobold(), vaLutin(), in, nil, moon, 20, 6)
	vaRequireMod(t, r.GetDefenseModifiers(), "lighting on Defense", "FEE-173", -4)
	require.Equal(t, []int32{22, 14, 8, 10}, []int32{r.GetAttack().GetTotal(), r.GetDefense(), r.GetMargin(), r.GetEssenceLost()})
}

// FEE-174 helpless_immobile_at_range: the Ogre shoots the undefended Troll: Defense 0 (margin
// 12, 6 + 18 − 16 = 8) by default; −8 as an immobile target with the option (margin 20, 12).
func TestOpHelplessImmobileAtRange_FEE174(t *testing.T) {
	in := vaRanged("troll", nil)
	still := &feeriev1.Act{Circumstances: &feeriev1.Circumstances{Undefended: true}}
	_, r := vaDuel(t, nil, vaOgre(), vaTroll(), in, nil, still, 10, 10)
	require.Equal(t, []int32{0, 12, 8}, []int32{r.GetDefense(), r.GetMargin(), r.GetEssenceLost()})
	_, r = vaDuel(t, &feeriev1.Options{HelplessImmobileAtRange: proto.Bool(true)}, vaOgre(), vaTroll(), in, nil, still, 10, 10)
	vaRequireMod(t, r.GetDefenseModifiers(), "helpless: an immobile target", "FEE-174", -8)
	require.Equal(t, []int32{-8, 20, 12}, []int32{r.GetDefense(), r.GetMargin(), r.GetEssenceLost()})
}

// FEE-175 angles_whole_fight: a Kobold fights the Lutin in Action 1; in Action 2 another
// Kobold attacks it: by default the first no longer occupies an angle; with the option it
// does, for −2 Defense (FEE-091).
func TestOpAnglesWholeFight_FEE175(t *testing.T) {
	kobold2 := vaWith(vaKobold(), func(*feeriev1.Sheet) {})
	kobold2.Id, kobold2.Name = "kobold2", "Kobold bis"
	for _, whole := range []bool{false, true} {
		f := vaNew(t, &feeriev1.Options{AnglesWholeFight: proto.Bool(whole)}, vaLutin(), vaKobold(), kobold2)
		f.declare("lutin", vaPassive())
		f.declare("kobold", vaMelee("lutin", nil))
		f.declare("kobold2", vaPassive(), 1, 20, 20, 1, 1, 20)
		f.act("kobold", nil)
		f.advance(0, 10, 10)
		f.nextAction()
		require.Equal(t, whole, len(f.cs("lutin").GetEngagedBy()) == 1, "still engaged")
		f.declare("lutin", vaPassive())
		f.declare("kobold", vaPassive())
		f.declare("kobold2", vaMelee("lutin", nil), 1, 20, 1, 20, 20, 1)
		f.act("kobold2", nil)
		r := f.advance(0, 10, 10)[0]
		if whole {
			vaRequireMod(t, r.GetDefenseModifiers(), "attack angles occupied", "FEE-091", -2)
			require.Equal(t, int32(16), r.GetDefense())
		} else {
			vaNoMod(t, r.GetDefenseModifiers(), "attack angles occupied")
			require.Equal(t, int32(18), r.GetDefense())
		}
		f.replays()
	}
}

// FEE-176 damage_before_soak: a knockback with margin 5: 2 + 14 = 16 before Soak, 4 units, by
// default; the Kobold's Damage 14 alone, 3 units, with the option.
func TestOpDamageBeforeSoak_FEE176(t *testing.T) {
	in := vaMelee("lutin", nil, vaKnockback)
	_, r := vaDuel(t, nil, vaKobold(), vaLutin(), in, nil, nil, 20, 1)
	require.Equal(t, int32(5), r.GetMargin())
	require.Equal(t, int32(4), vaCondition(t, r.GetConditions(), vaKnockback).GetDistance())
	_, r = vaDuel(t, &feeriev1.Options{DamageBeforeSoak: proto.String(feerie.BeforeSoakDamage)}, vaKobold(), vaLutin(), in, nil, nil, 20, 1)
	require.Equal(t, int32(5), r.GetMargin())
	require.Equal(t, int32(3), vaCondition(t, r.GetConditions(), vaKnockback).GetDistance())
}

// FEE-177 relentless_ends_with_action: the Kobold's Relentless strike in Action 2; in Action 3,
// with no failed Attack since, its Defense is still 14 − 8 by default, back to 14 with the
// option.
func TestOpRelentlessEndsWithAction_FEE177(t *testing.T) {
	lutin := vaWith(vaLutin(), func(sh *feeriev1.Sheet) { sh.Essence = 60 })
	for _, ends := range []bool{false, true} {
		f := vaNew(t, &feeriev1.Options{RelentlessEndsWithAction: proto.Bool(ends)}, lutin, vaKobold())
		for _, strikes := range [][]feeriev1.SpecialStrike{nil, {vaRelentless}} {
			f.declare("lutin", vaMelee("kobold", vaAtt("épée")))
			f.declare("kobold", vaMelee("lutin", nil, strikes...), 10, 10, 20, 1)
			f.act("kobold", nil)
			require.True(t, f.advance(14, 16, 4)[0].GetSuccess())
			f.act("lutin", nil)
			f.advance(0, 10, 10)
			f.nextAction()
		}
		require.Equal(t, !ends, f.cs("kobold").GetRelentless())
		f.declare("lutin", vaMelee("kobold", vaAtt("épée")))
		f.declare("kobold", vaPassive(), 20, 1, 1, 20)
		f.act("lutin", nil)
		r := f.advance(0, 10, 10)[0]
		if ends {
			vaNoMod(t, r.GetDefenseModifiers(), "relentless")
			require.Equal(t, int32(14), r.GetDefense())
		} else {
			vaRequireMod(t, r.GetDefenseModifiers(), "relentless", "FEE-156", -8)
			require.Equal(t, int32(6), r.GetDefense())
		}
		f.replays()
	}
}

// FEE-178 activity_malus_on_defense, activity_malus_on_initiative: the Lutin, tripped, has −4
// on its activities only by default; the options extend it to its Defense and its Initiative.
func TestOpActivityMalusOnDefenseAndInitiative_FEE178(t *testing.T) {
	for _, c := range []struct {
		name                string
		o                   *feeriev1.Options
		initiative, defense int32
	}{
		{"default", nil, 14, 18},
		{"on Defense", &feeriev1.Options{ActivityMalusOnDefense: proto.Bool(true)}, 14, 14},
		{"on Initiative", &feeriev1.Options{ActivityMalusOnInitiative: proto.Bool(true)}, 10, 18},
	} {
		f, r := vaDuel(t, c.o, vaKobold(), vaLutin(), vaMelee("lutin", nil, vaTrip), nil, nil, 20, 8)
		require.True(t, r.GetSuccess(), c.name)
		require.True(t, f.cs("lutin").GetProne())
		f.nextAction()
		f.declare("kobold", vaMelee("lutin", nil))
		cd := vaCountdown(t, f.declare("lutin", vaPassive(), 20, 1, 10, 10))
		require.Equal(t, c.initiative, vaInitiative(t, cd, "lutin").GetResult().GetTotal(), c.name)
		f.act("kobold", nil)
		r = f.advance(0, 10, 10)[0]
		require.Equal(t, c.defense, r.GetDefense(), c.name)
	}
}

// FEE-179 stun_stacking: the Ogre (four of the Lutin's angles: Defense 18 − 6) stuns the
// Lutin for 22 at rank 31, 14 of it left at rank 23 when a second stun of 17 lands: 14 + 17 by
// default, the larger 17 with "max" (each then wanes by the rank passed).
func TestOpStunStacking_FEE179(t *testing.T) {
	for _, c := range []struct {
		option string
		left   int32
	}{{"", 30}, {feerie.StunMax, 16}} {
		var o *feeriev1.Options
		if c.option != "" {
			o = &feeriev1.Options{StunStacking: proto.String(c.option)}
		}
		f := vaNew(t, o, vaOgre(), vaLutin())
		f.declare("ogre", vaMelee("lutin", vaAtt("massue"), vaStun))
		f.declare("lutin", vaPassive(), 20, 1, 1, 20)
		f.act("ogre", nil)
		r := f.advance(0, 20, 4)[0]
		require.Equal(t, int32(12), r.GetDefense())
		require.Equal(t, int32(22), vaCondition(t, r.GetConditions(), vaStun).GetMalus(), "8 + 22 − 8")
		f.advance(23)
		require.Equal(t, int32(14), vaCondition(t, f.cs("lutin").GetConditions(), vaStun).GetMalus())
		f.act("ogre", nil)
		r = f.advance(0, 20, 10)[0]
		require.Equal(t, int32(17), vaCondition(t, r.GetConditions(), vaStun).GetMalus(), "3 + 22 − 8")
		require.Equal(t, c.left, vaCondition(t, f.cs("lutin").GetConditions(), vaStun).GetMalus(), c.option)
		f.replays()
	}
}

// FEE-180 guard_malus_all_attacks: the Ogre keeps the Lutin at bay; the Lutin's attack on the
// Kobold has no malus by default, −8 with the option.
func TestOpGuardMalusAllAttacks_FEE180(t *testing.T) {
	for _, all := range []bool{false, true} {
		f := vaNew(t, &feeriev1.Options{GuardMalusAllAttacks: proto.Bool(all)}, vaOgre(), vaLutin(), vaKobold())
		f.declare("ogre", vaMelee("lutin", vaAtt("massue"), vaKeepAtBay))
		f.declare("lutin", vaMelee("kobold", vaAtt("épée")))
		f.declare("kobold", vaPassive(), 20, 1, 15, 2, 1, 20)
		f.act("ogre", nil)
		require.True(t, f.advance(27, 15, 5)[0].GetSuccess())
		f.act("lutin", nil)
		r := f.advance(0, 10, 10)[0]
		if all {
			vaRequireMod(t, r.GetAttack().GetModifiers(), "kept at bay", "FEE-154", -8)
			require.Equal(t, int32(11), r.GetAttack().GetTotal())
		} else {
			vaNoMod(t, r.GetAttack().GetModifiers(), "kept at bay")
			require.Equal(t, int32(19), r.GetAttack().GetTotal())
		}
	}
}

// FEE-182 strikes_at_roll, target_change_is_change: the Kobold declared a plain attack on the
// Lutin. Tripping it at the roll is a change of intention by default (−4), not with
// strikes_at_roll; attacking the Troll instead is none by default, one with
// target_change_is_change.
func TestOpWhatIsAChange_FEE182(t *testing.T) {
	start := func(o *feeriev1.Options) *vaFight {
		f := vaNew(t, o, vaLutin(), vaKobold(), vaTroll())
		f.declare("lutin", vaPassive())
		f.declare("kobold", vaMelee("lutin", nil))
		f.declare("troll", vaPassive(), 1, 20, 20, 1, 1, 20)
		return f
	}
	trip := &feeriev1.Act{Intent: vaMelee("lutin", nil, vaTrip)}
	q := start(nil).act("kobold", trip)
	require.True(t, q.GetChangeOfIntention())
	require.Equal(t, int32(4), q.GetRollPenalty())

	f := start(&feeriev1.Options{StrikesAtRoll: proto.Bool(true)})
	q = f.act("kobold", trip)
	require.False(t, q.GetChangeOfIntention())
	require.Zero(t, q.GetRollPenalty())
	r := f.advance(0, 20, 8)[0]
	vaRequireMod(t, r.GetAttack().GetModifiers(), "special strike SPECIAL_STRIKE_TRIP", "FEE-149", -6)
	require.Equal(t, int32(18), r.GetAttack().GetTotal(), "12 − 6 + 12, no −4")
	require.True(t, r.GetSuccess())
	require.True(t, f.cs("lutin").GetProne())
	require.Zero(t, f.cs("kobold").GetNextAction())

	other := &feeriev1.Act{Intent: vaMelee("troll", nil)}
	q = start(nil).act("kobold", other)
	require.False(t, q.GetChangeOfIntention())
	q = start(&feeriev1.Options{TargetChangeIsChange: proto.Bool(true)}).act("kobold", other)
	require.True(t, q.GetChangeOfIntention())
	require.Equal(t, int32(4), q.GetRollPenalty())
}

// FEE-183 disarm_keeps_weapon_bonus: disarmed, the Lutin attacks with Habileté alone (16) by
// default; with the option its sword keeps its +3 (19).
func TestOpDisarmKeepsWeaponBonus_FEE183(t *testing.T) {
	for _, keeps := range []bool{false, true} {
		f := vaNew(t, &feeriev1.Options{DisarmKeepsWeaponBonus: proto.Bool(keeps)}, vaLutin(), vaKobold())
		f.declare("lutin", vaMelee("kobold", vaAtt("épée")))
		f.declare("kobold", vaMelee("lutin", nil, vaDisarm), 10, 10, 20, 1)
		f.act("kobold", nil)
		require.True(t, f.advance(14, 15, 5)[0].GetSuccess())
		require.True(t, f.cs("lutin").GetDisarmed())
		f.act("lutin", nil)
		r := f.advance(0, 10, 10)[0]
		if keeps {
			vaRequireMod(t, r.GetAttack().GetModifiers(), "épée", "FEE-011", 3)
			require.Equal(t, int32(19), r.GetAttack().GetTotal())
		} else {
			vaNoMod(t, r.GetAttack().GetModifiers(), "épée")
			require.Equal(t, int32(16), r.GetAttack().GetTotal())
		}
	}
}

// FEE-184 rider_pace_malus: the Lutin rides a trotting pony against the Kobold: no pace malus
// by default, the trot's −4 with the option.
func TestOpRiderPaceMalus_FEE184(t *testing.T) {
	rider := vaWith(vaLutin(), func(sh *feeriev1.Sheet) { sh.MountId = "poney" })
	pony := vaFey("poney", "Poney", 8, 12, 12, 12, 0, 30)
	trot := vaMelee("kobold", nil)
	trot.Pace = feeriev1.Pace_PACE_TROT
	for _, malus := range []bool{false, true} {
		f := vaNew(t, &feeriev1.Options{RiderPaceMalus: proto.Bool(malus)}, rider, pony, vaKobold())
		f.declare("lutin", trot)
		f.declare("poney", vaPassive())
		f.declare("kobold", vaPassive(), 20, 1, 1, 20, 1, 20)
		f.act("lutin", nil)
		r := f.advance(0, 10, 10)[0]
		if malus {
			vaRequireMod(t, r.GetAttack().GetModifiers(), "pace", "FEE-100", -4)
			require.Equal(t, int32(12), r.GetAttack().GetTotal())
		} else {
			vaNoMod(t, r.GetAttack().GetModifiers(), "pace")
			require.Equal(t, int32(16), r.GetAttack().GetTotal())
		}
	}
}

// FEE-185 exposed_rounding: 600‰ exposed is nearer the whole (0) than a quarter (−4), and
// 120‰ nearer a tenth (−12) than a quarter; "harder" and "easier" always take the row below or
// above.
func TestOpExposedRounding_FEE185(t *testing.T) {
	in := vaMelee("lutin", nil)
	for _, c := range []struct {
		option   string
		permille int32
		mod      int32
	}{
		{"", 600, 0}, {feerie.ExposedHarder, 600, -4}, {feerie.ExposedEasier, 600, 0},
		{"", 120, -12}, {feerie.ExposedHarder, 120, -12}, {feerie.ExposedEasier, 120, -4},
	} {
		var o *feeriev1.Options
		if c.option != "" {
			o = &feeriev1.Options{ExposedRounding: proto.String(c.option)}
		}
		act := &feeriev1.Act{Circumstances: &feeriev1.Circumstances{ExposedPermille: c.permille}}
		_, r := vaDuel(t, o, vaKobold(), vaLutin(), in, nil, act, 10, 10)
		got, _ := vaMod(r.GetAttack().GetModifiers(), "exposed proportion")
		require.Equal(t, c.mod, got, "%s %d‰", c.option, c.permille)
		require.Equal(t, 12+c.mod, r.GetAttack().GetTotal())
	}
}

// FEE-186 dissimulation_opposed_roll: the Kobold's dissimulation 18 (Habileté 12 + 6) against
// the Lutin's Vigilance score 14 gives +2 Initiative by default; with the option the Lutin
// rolls its Vigilance (14 − 4 = 10) and the Kobold gains +4.
func TestOpDissimulationOpposedRoll_FEE186(t *testing.T) {
	unseen := vaCmd("kobold", &feeriev1.Action{Kind: &feeriev1.Action_Unseen{Unseen: &feeriev1.Unseen{VictimId: "lutin", Aspect: "habilete"}}})
	f := vaNew(t, nil, vaKobold(), vaLutin())
	ur := f.do(vaGM, unseen, 16, 10)[0].GetUnseenRolled()
	require.Equal(t, []int32{18, 14, 4, 2}, []int32{ur.GetRoll().GetTotal(), ur.GetVigilance(), ur.GetMargin(), ur.GetInitiativeBonus()})
	require.Nil(t, ur.GetVigilanceRoll())

	f = vaNew(t, &feeriev1.Options{DissimulationOpposedRoll: proto.Bool(true)}, vaKobold(), vaLutin())
	ur = f.do(vaGM, unseen, 16, 10, 10, 14)[0].GetUnseenRolled()
	require.Equal(t, int32(10), ur.GetVigilanceRoll().GetTotal())
	vaRequireMod(t, ur.GetVigilanceRoll().GetModifiers(), "Vigilance", "FEE-186", 14)
	require.Equal(t, []int32{18, 10, 8, 4}, []int32{ur.GetRoll().GetTotal(), ur.GetVigilance(), ur.GetMargin(), ur.GetInitiativeBonus()})
	f.declare("lutin", vaPassive())
	cd := vaCountdown(t, f.declare("kobold", vaMelee("lutin", nil), 10, 10, 10, 10))
	vaRequireMod(t, vaInitiative(t, cd, "kobold").GetResult().GetModifiers(), "attacking unseen", "FEE-081", 4)
	f.replays()
}

// An encounter recorded before the house rules existed (its options without them) reads them
// as the catalogue's choices: the same tie succeeds.
func TestOpUnsetOptionsReadAsDefaults(t *testing.T) {
	f := vaNew(t, nil, vaKobold(), vaLutin())
	created := f.Log[0].GetEncounterCreated().GetOptions().GetFeerie()
	old := &feeriev1.Options{Roll: created.GetRoll(), FumbleMargin: created.FumbleMargin, EssenceSpendCap: created.EssenceSpendCap}
	f.EditState(func(st *encounterv1.EncounterState) {
		st.Options = &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Feerie{Feerie: old}}
	})
	f.declare("kobold", vaMelee("lutin", nil))
	f.declare("lutin", vaPassive(), 20, 1, 1, 20)
	f.act("kobold", nil)
	r := f.advance(0, 16, 10)[0]
	require.Equal(t, int32(0), r.GetMargin())
	require.True(t, r.GetSuccess())
	require.Equal(t, int32(6), r.GetEssenceLost())
}
