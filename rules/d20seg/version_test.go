package d20seg_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
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

// A change to one version's numbers leaves the other versions alone: v2 with another critical
// margin (D20-042), attack cost (D20-017) and no-armour modifier (D20-010), registered beside
// v1, changes what v2 decides, describes and gives as odds, while v1's golden log still passes
// its audit and folds to the state it recorded, its narration is the stored one word for word,
// and the odds of its attacks are unchanged.
func TestAChangeToV2LeavesV1Alone(t *testing.T) {
	n := d20seg.New(2).Numbers()
	n.CriticalMargin, n.AttackCosts[0].First, n.Armour[d20segv1.Armour_ARMOUR_NONE] = 15, 3, +2
	changed := d20seg.WithNumbers(d20seg.New(2), n)
	require.NotEqual(t, d20seg.New(2).Describe().String(), changed.Describe().String())
	require.Equal(t, int32(3), changed.AttackCost(0, 0))
	released := engine.NewRegistry(d20seg.Released()...)
	reg := engine.NewRegistry(d20seg.New(1), changed)

	events := ntGolden(t, 1)
	rep, err := reg.Audit(events)
	require.NoError(t, err, "v1's golden log decided again beside a changed v2")
	require.Equal(t, len(events), rep.Events)
	want, err := released.Fold(events)
	require.NoError(t, err)
	got, err := reg.Fold(events)
	require.NoError(t, err)
	require.Equal(t, engine.Hash(want), engine.Hash(got), "v1's golden log folds to the same state")

	for _, lang := range narrate.Languages() {
		for _, player := range []bool{false, true} {
			view := map[bool]string{false: "gm", true: "player"}[player]
			stored, err := os.ReadFile(filepath.Join("testdata", "narration", fmt.Sprintf("d20seg-v1.%s.%s.txt", view, lang)))
			require.NoError(t, err)
			require.Equal(t, string(stored), ntNarrateLog(t, reg, d20seg.New(1), events, player, lang), "v1's narration (%s, %s) beside a changed v2", view, lang)
		}
	}
	// The changed v2 does tell its own numbers: a critical is 15 or more above the CA.
	crit := &encounterv1.Event{Sequence: 1, RuleSystem: d20seg.ID, RulesVersion: 2, Payload: &encounterv1.Event_D20Seg{D20Seg: &d20segv1.Event{
		Kind: &d20segv1.Event_AttackRolled{AttackRolled: &d20segv1.AttackRolled{Hit: true, Critical: true, Total: 30, Ca: 15}}}}}
	require.Contains(t, reg.Narrator(narrate.English).Text(crit), "15 or more above the CA")
	crit.RulesVersion = 1
	require.Contains(t, reg.Narrator(narrate.English).Text(crit), "20 or more above the CA")

	// The odds of each attack of the v1 log: the same beside the changed v2; the same state
	// pinned to the changed v2 gives other odds (its critical margin).
	attacks, differ := 0, 0
	for i, ev := range events {
		if ev.GetD20Seg().GetAttackRolled() == nil || ev.GetCommand() == nil {
			continue
		}
		st, err := released.Fold(events[:i])
		require.NoError(t, err)
		o1, err := odds.Of(released, st, ev.GetCommand(), ev.GetActor())
		require.NoError(t, err)
		o2, err := odds.Of(reg, st, ev.GetCommand(), ev.GetActor())
		require.NoError(t, err)
		require.True(t, proto.Equal(o1, o2), "the odds of event %d", ev.GetSequence())
		st.RulesVersion = 2
		o3, err := odds.Of(reg, st, ev.GetCommand(), ev.GetActor())
		require.NoError(t, err)
		if !proto.Equal(o1, o3) {
			differ++
		}
		attacks++
	}
	require.Positive(t, attacks)
	require.Positive(t, differ, "the changed v2's odds differ somewhere")
}
