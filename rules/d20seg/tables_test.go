package d20seg_test

import (
	"fmt"
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// D20-010: Initiative = Rapidité + the equipment modifiers, row by row.
func TestD20_010_InitiativeEquipmentTable(t *testing.T) {
	base := func() *d20segv1.Sheet {
		return &d20segv1.Sheet{Rapidite: 4, Armour: d20segv1.Armour_ARMOUR_LIGHT, Shield: d20segv1.Shield_SHIELD_NONE, WeaponClass: d20segv1.WeaponClass_WEAPON_CLASS_LIGHT}
	}
	require.Equal(t, int32(0), d20seg.New(1).EquipmentModifier(base()), "light armour, no shield, light weapon: 0")
	rows := []struct {
		name string
		edit func(*d20segv1.Sheet)
		mod  int32
	}{
		{"no armour", func(s *d20segv1.Sheet) { s.Armour = d20segv1.Armour_ARMOUR_NONE }, +1},
		{"light armour", func(s *d20segv1.Sheet) { s.Armour = d20segv1.Armour_ARMOUR_LIGHT }, 0},
		{"medium armour", func(s *d20segv1.Sheet) { s.Armour = d20segv1.Armour_ARMOUR_MEDIUM }, -1},
		{"heavy armour", func(s *d20segv1.Sheet) { s.Armour = d20segv1.Armour_ARMOUR_HEAVY }, -2},
		{"shield", func(s *d20segv1.Sheet) { s.Shield = d20segv1.Shield_SHIELD_SHIELD }, -1},
		{"pavise", func(s *d20segv1.Sheet) { s.Shield = d20segv1.Shield_SHIELD_PAVISE }, -2},
		{"unarmed", func(s *d20segv1.Sheet) { s.WeaponClass = d20segv1.WeaponClass_WEAPON_CLASS_UNARMED }, +1},
		{"light weapon", func(s *d20segv1.Sheet) { s.WeaponClass = d20segv1.WeaponClass_WEAPON_CLASS_LIGHT }, 0},
		{"one-handed weapon", func(s *d20segv1.Sheet) { s.WeaponClass = d20segv1.WeaponClass_WEAPON_CLASS_ONE_HANDED }, -1},
		{"two-handed weapon", func(s *d20segv1.Sheet) { s.WeaponClass = d20segv1.WeaponClass_WEAPON_CLASS_TWO_HANDED }, -2},
		{"ranged or thrown weapon", func(s *d20segv1.Sheet) { s.WeaponClass = d20segv1.WeaponClass_WEAPON_CLASS_RANGED }, -1},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			s := base()
			r.edit(s)
			require.Equal(t, r.mod, d20seg.New(1).EquipmentModifier(s))
			require.Equal(t, 4+r.mod, d20seg.New(1).Initiative(s))
		})
	}
	// The modifiers add up: medium armour, shield, two-handed weapon: −4.
	s := &d20segv1.Sheet{Rapidite: 6, Armour: d20segv1.Armour_ARMOUR_MEDIUM, Shield: d20segv1.Shield_SHIELD_SHIELD, WeaponClass: d20segv1.WeaponClass_WEAPON_CLASS_TWO_HANDED}
	require.Equal(t, int32(2), d20seg.New(1).Initiative(s))
}

// D20-T01 (D20-010): Rapidité 3, no armour, unarmed: Initiative 5; Rapidité 3, heavy armour,
// pavise, one-handed weapon: Initiative −2. Through a real start, which records each term, and
// the order of the first segment.
func TestD20_T01_InitiativeWorkedExample(t *testing.T) {
	brawler := sheet("lutteur", "Lutteur", func(s *d20segv1.Sheet) {
		s.Rapidite, s.Armour, s.Shield, s.WeaponClass = 3, d20segv1.Armour_ARMOUR_NONE, d20segv1.Shield_SHIELD_NONE, d20segv1.WeaponClass_WEAPON_CLASS_UNARMED
		s.Weapons = []*d20segv1.Weapon{{Name: "poings", Dice: "1d3", Critical: 2}}
	})
	knight := sheet("chevalier", "Chevalier", func(s *d20segv1.Sheet) {
		s.Rapidite, s.Armour, s.Shield, s.WeaponClass = 3, d20segv1.Armour_ARMOUR_HEAVY, d20segv1.Shield_SHIELD_PAVISE, d20segv1.WeaponClass_WEAPON_CLASS_ONE_HANDED
	})
	f := newFight(t, nil, knight, brawler)
	cs := f.start() // no tie: no die
	got := map[string]*d20segv1.InitiativeEntry{}
	for _, e := range cs.GetInitiative() {
		got[e.GetCombatantId()] = e
	}
	require.Equal(t, []int32{3, 2, 5}, []int32{got["lutteur"].GetRapidite(), got["lutteur"].GetEquipment(), got["lutteur"].GetInitiative()})
	require.Equal(t, []int32{3, -5, -2}, []int32{got["chevalier"].GetRapidite(), got["chevalier"].GetEquipment(), got["chevalier"].GetInitiative()})
	require.Empty(t, cs.GetRollOffs())
	require.Equal(t, int32(5), f.cs("lutteur").GetInitiative())
	require.Equal(t, int32(-2), f.cs("chevalier").GetInitiative())
	// At segment 0, the higher Initiative acts first (D20-015).
	require.Equal(t, "lutteur", f.upNext())
	f.refuse(gm, endTurn("chevalier"), engine.CodePrecondition, "D20-015", "Lutteur", "Chevalier")
	f.replay()
}

// D20-017: attack cost by BBA, for the ranges 0–5, 6–10, 11–15, 16+; at 16+ the first attack
// of the round costs 1, the following ones 2.
func TestD20_017_AttackCostByBBA(t *testing.T) {
	for b := int32(0); b <= 25; b++ {
		var first, then int32
		switch {
		case b <= 5:
			first, then = 4, 4
		case b <= 10:
			first, then = 3, 3
		case b <= 15:
			first, then = 2, 2
		default:
			first, then = 1, 2
		}
		require.Equal(t, first, d20seg.New(1).AttackCost(b, 0), "BBA %d, first attack", b)
		require.Equal(t, then, d20seg.New(1).AttackCost(b, 1), "BBA %d, second attack", b)
		require.Equal(t, then, d20seg.New(1).AttackCost(b, 2), "BBA %d, third attack", b)
	}
}

// D20-018 and D20-021: casting time by category, +1 for damaging, summoning and special spells,
// the spell's stated time prevailing; pure magic has only its stated time.
func TestD20_018_021_SpellCost(t *testing.T) {
	want := map[int32]int32{0: 1, 1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 3, 7: 4, 8: 4, 9: 4}
	for level, cost := range want {
		got, err := d20seg.New(1).SpellCost(&d20segv1.Cast{Level: level})
		require.NoError(t, err)
		require.Equal(t, cost, got, "level %d", level)
		got, err = d20seg.New(1).SpellCost(&d20segv1.Cast{Level: level, Special: true})
		require.NoError(t, err)
		require.Equal(t, cost+1, got, "special spell of level %d (D20-018: +1 unless the spell says)", level)
		got, err = d20seg.New(1).SpellCost(&d20segv1.Cast{Level: level, Special: true, StatedSegments: 6})
		require.NoError(t, err)
		require.Equal(t, int32(6), got, "the stated time prevails at level %d", level)
	}
	for _, level := range []int32{-1, 10} {
		_, err := d20seg.New(1).SpellCost(&d20segv1.Cast{Level: level})
		re, ok := engine.AsRuleError(err)
		require.True(t, ok)
		require.Equal(t, engine.CodeInvalid, re.Code)
		require.Equal(t, "D20-018", re.Rule)
	}
	// D20-021: pure magic, a fifth category with no table entry.
	_, err := d20seg.New(1).SpellCost(&d20segv1.Cast{PureMagic: true, Level: 9})
	re, ok := engine.AsRuleError(err)
	require.True(t, ok)
	require.Equal(t, engine.CodeInvalid, re.Code)
	require.Equal(t, "D20-021", re.Rule)
	got, err := d20seg.New(1).SpellCost(&d20segv1.Cast{PureMagic: true, StatedSegments: 5})
	require.NoError(t, err)
	require.Equal(t, int32(5), got)
}

// D20-030: space and reach by size, in centimetres.
func TestD20_030_SpaceAndReachBySize(t *testing.T) {
	rows := []struct {
		size         d20segv1.Size
		space, reach int32
	}{
		{d20segv1.Size_SIZE_I, 15, 0},
		{d20segv1.Size_SIZE_MIN, 30, 0},
		{d20segv1.Size_SIZE_TP, 75, 0},
		{d20segv1.Size_SIZE_P, 150, 150},
		{d20segv1.Size_SIZE_M, 150, 150},
		{d20segv1.Size_SIZE_G, 300, 300},
		{d20segv1.Size_SIZE_TG, 450, 450},
		{d20segv1.Size_SIZE_GIG, 600, 600},
		{d20segv1.Size_SIZE_COL, 900, 900},
	}
	for _, r := range rows {
		require.Equal(t, r.space, d20seg.New(1).Space(r.size), "space of %v", r.size)
		require.Equal(t, r.reach, d20seg.New(1).Reach(r.size), "reach of %v", r.size)
	}
	// A sheet must give its size.
	f := newFight(t, nil)
	f.refuse(gm, addCmd(sheet("x", "Sans taille", func(s *d20segv1.Sheet) { s.Size = d20segv1.Size_SIZE_UNSPECIFIED })),
		engine.CodeInvalid, "D20-030", "Sans taille")
}

// D20-001 and D20-002: the apprehension modifier of each situation, on the default scale
// (light 2, medium 5, high 10) and on a house scale.
func TestD20_001_002_ApprehensionModifiers(t *testing.T) {
	defaults, err := d20seg.New(1).Options(nil)
	require.NoError(t, err)
	house, err := d20seg.New(1).Options(&encounterv1.RuleOptions{System: &encounterv1.RuleOptions_D20Seg{D20Seg: &d20segv1.Options{ApprehensionScale: []int32{3, 6, 12}}}})
	require.NoError(t, err)
	rows := []struct {
		sit        d20segv1.Situation
		def, house int32
	}{
		{d20segv1.Situation_SITUATION_OPEN_VIEW, +5, +6},             // medium bonus
		{d20segv1.Situation_SITUATION_CLUTTERED_VIEW, -2, -3},        // light malus
		{d20segv1.Situation_SITUATION_NIGHT, -2, -3},                 // light malus
		{d20segv1.Situation_SITUATION_DESERTED, +10, +12},            // high bonus
		{d20segv1.Situation_SITUATION_BUSY, -2, -3},                  // light malus
		{d20segv1.Situation_SITUATION_VERY_BUSY, -5, -6},             // medium malus
		{d20segv1.Situation_SITUATION_HUBBUB, -2, -3},                // light malus
		{d20segv1.Situation_SITUATION_IMPAIRED, -2, -3},              // light to medium: light unless the GM says
		{d20segv1.Situation_SITUATION_UNCONVENTIONAL_ATTACK, -5, -6}, // medium malus
		{d20segv1.Situation_SITUATION_VIGILANT, +2, +3},              // light bonus
		{d20segv1.Situation_SITUATION_UNSPECIFIED, 0, 0},             // divination/protection: Apprehension.spell_modifier
	}
	for _, r := range rows {
		require.Equal(t, r.def, d20seg.ApprehensionModifier(defaults.GetD20Seg(), r.sit), "%v", r.sit)
		require.Equal(t, r.house, d20seg.ApprehensionModifier(house.GetD20Seg(), r.sit), "%v on 3/6/12", r.sit)
	}
}

// The options (D20-000 skip_apprehension, D20-002 apprehension_scale, D20-020 carry_over,
// D20-044 down_at) are recorded in full in the creation event, defaults filled in.
func TestOptionsRecorded(t *testing.T) {
	f := newFight(t, nil)
	o := f.Log[0].GetEncounterCreated().GetOptions().GetD20Seg()
	require.Equal(t, []int32{2, 5, 10}, o.GetApprehensionScale())
	require.NotNil(t, o.CarryOver)
	require.False(t, o.GetCarryOver())
	require.NotNil(t, o.DownAt)
	require.Equal(t, int32(0), o.GetDownAt())
	require.NotNil(t, o.SkipApprehension)
	require.False(t, o.GetSkipApprehension())

	house := &d20segv1.Options{ApprehensionScale: []int32{1, 4, 8}, CarryOver: proto.Bool(true), DownAt: proto.Int32(-10), SkipApprehension: proto.Bool(true)}
	f = newFight(t, house)
	require.True(t, proto.Equal(house, f.Log[0].GetEncounterCreated().GetOptions().GetD20Seg()))
	require.True(t, proto.Equal(house, f.St.GetOptions().GetD20Seg()))
	f.replay()

	for _, bad := range [][]int32{{2, 5}, {2, 5, 10, 20}, {5, 2, 10}, {2, 10, 5}, {-2, 5, 10}} {
		b := blank(t)
		b.refuse(gm, createCmd(&d20segv1.Options{ApprehensionScale: bad}), engine.CodeInvalid, "D20-002", fmt.Sprint(bad))
	}
}
