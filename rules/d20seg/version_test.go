package d20seg_test

import (
	"fmt"
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
)

// D20-010 (revised 2026-12-07), D20-T01: a sheet must state its armour and its weapon class, as
// it states its size. Version 1 took a missing one for light (0): D20-T01's brawler, Rapidité
// 3, no armour and unarmed, had Initiative 3, not 5, when both were left out. Version 2
// refuses such a sheet, InvalidArgument naming the field; v1 keeps deciding as before, so
// that an encounter recorded under it still passes its audit.
func TestD20_010_SheetStatesArmourAndWeaponClass(t *testing.T) {
	brawler := func(edit func(*d20segv1.Sheet)) func(*d20segv1.Sheet) {
		return func(s *d20segv1.Sheet) {
			s.Rapidite, s.Armour, s.Shield, s.WeaponClass = 3, d20segv1.Armour_ARMOUR_NONE, d20segv1.Shield_SHIELD_NONE, d20segv1.WeaponClass_WEAPON_CLASS_UNARMED
			edit(s)
		}
	}
	rows := []struct {
		name  string
		edit  func(*d20segv1.Sheet)
		field string // refused under v2, naming it
		v1    int32  // v1's Initiative
	}{
		{"both stated (D20-T01)", func(*d20segv1.Sheet) {}, "", 5},
		{"both left out", func(s *d20segv1.Sheet) {
			s.Armour, s.WeaponClass = d20segv1.Armour_ARMOUR_UNSPECIFIED, d20segv1.WeaponClass_WEAPON_CLASS_UNSPECIFIED
		}, "armour", 3},
		{"no armour given", func(s *d20segv1.Sheet) { s.Armour = d20segv1.Armour_ARMOUR_UNSPECIFIED }, "armour", 4},
		{"no weapon class given", func(s *d20segv1.Sheet) { s.WeaponClass = d20segv1.WeaponClass_WEAPON_CLASS_UNSPECIFIED }, "weapon_class", 4},
		{"no shield given: none", func(s *d20segv1.Sheet) { s.Shield = d20segv1.Shield_SHIELD_UNSPECIFIED }, "", 5},
	}
	for _, version := range []uint32{1, 2} {
		for _, r := range rows {
			t.Run(fmt.Sprintf("v%d/%s", version, r.name), func(t *testing.T) {
				f := newFightAt(t, version, nil)
				c := sheet("lutteur", "Lutteur", brawler(r.edit))
				if version == 2 && r.field != "" {
					re := f.refuse(gm, addCmd(c), engine.CodeInvalid, "D20-010", "Lutteur", r.field)
					require.Contains(t, re.Msg, "Initiative")
					return
				}
				f.do(gm, addCmd(c))
				f.do(gm, addCmd(sheet("autre", "Autre", initiative(19)))) // no tie: no roll-off
				cs := f.start()
				require.Equal(t, r.v1, cs.GetInitiative()[0].GetInitiative(), "recorded at the start")
				require.Equal(t, r.v1, f.cs("lutteur").GetInitiative())
			})
		}
	}
}

// Each released version is a value of this package: the registry keeps them oldest first,
// New(0) and an unreleased version are a programmer's error, and v2 differs from v1 only
// where the revision says (D20-010).
func TestVersionsAreValues(t *testing.T) {
	var got []uint32
	for _, s := range d20seg.Released() {
		got = append(got, s.Version())
	}
	require.Equal(t, []uint32{1, 2}, got)
	require.Equal(t, uint32(d20seg.Latest), got[len(got)-1])
	require.Panics(t, func() { d20seg.New(0) })
	require.Panics(t, func() { d20seg.New(d20seg.Latest + 1) })
	v1, v2 := d20seg.New(1).Numbers(), d20seg.New(2).Numbers()
	require.False(t, v1.RequireEquipment)
	require.True(t, v2.RequireEquipment)
	v2.RequireEquipment = false
	require.Equal(t, v1, v2, "v2's numbers are v1's but for D20-010's switch")
	require.Equal(t, uint32(2), d20seg.New(2).Describe().GetVersion())
	require.Contains(t, d20seg.New(2).Describe().GetSheetFields()[0].GetName(), "armour (required)")
	require.NotContains(t, d20seg.New(1).Describe().GetSheetFields()[0].GetName(), "required")
}
