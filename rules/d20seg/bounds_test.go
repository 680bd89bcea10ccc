package d20seg_test

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/stretchr/testify/require"
)

// The house rules' bounds (D20-002): the apprehension scale runs from 0 up, light ≤ medium ≤
// high, equal steps allowed; another system's options are refused.
func TestD20002ApprehensionScaleBounds(t *testing.T) {
	for _, c := range []struct {
		scale []int32
		ok    bool
	}{
		{[]int32{0, 0, 0}, true},
		{[]int32{5, 5, 5}, true},
		{[]int32{1, 2, 2}, true},
		{[]int32{1, 1, 2}, true},
		{[]int32{-1, 2, 3}, false},
		{[]int32{3, 2, 4}, false},
		{[]int32{1, 4, 3}, false},
		{[]int32{1, 2}, false},
		{[]int32{1, 2, 3, 4}, false},
	} {
		o, err := d20seg.New(1).Options(&encounterv1.RuleOptions{System: &encounterv1.RuleOptions_D20Seg{D20Seg: &d20segv1.Options{ApprehensionScale: c.scale}}})
		if c.ok {
			require.NoError(t, err, "%v", c.scale)
			require.Equal(t, c.scale, o.GetD20Seg().GetApprehensionScale())
			continue
		}
		var re *engine.RuleError
		require.ErrorAs(t, err, &re, "%v", c.scale)
		require.Equal(t, "D20-002", re.Rule, "%v", c.scale)
	}
	o, err := d20seg.New(1).Options(nil)
	require.NoError(t, err)
	require.Equal(t, []int32{2, 5, 10}, o.GetD20Seg().GetApprehensionScale())
	_, err = d20seg.New(1).Options(&encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Feerie{Feerie: &feeriev1.Options{}}})
	require.ErrorContains(t, err, "not d20seg options")
	o, err = d20seg.New(1).Options(&encounterv1.RuleOptions{})
	require.NoError(t, err, "no system's options given: the defaults")
	require.Equal(t, []int32{2, 5, 10}, o.GetD20Seg().GetApprehensionScale())
}

// A sheet's bounds: at least 1 hit point (D20-044), a BBA from 0 to 40 (D20-017).
func TestD20SheetBounds(t *testing.T) {
	for _, c := range []struct {
		hp, bba int32
		rule    string
	}{
		{1, 0, ""},
		{1, 40, ""},
		{0, 0, "D20-044"},
		{1, 41, "D20-017"},
		{1, -1, "D20-017"},
	} {
		cb := sheet("ogre", "L'ogre", func(sh *d20segv1.Sheet) { sh.HitPoints, sh.Bba = c.hp, c.bba })
		err := d20seg.New(1).CheckCombatant(&encounterv1.EncounterState{}, cb)
		if c.rule == "" {
			require.NoError(t, err, "hp %d, BBA %d", c.hp, c.bba)
			continue
		}
		var re *engine.RuleError
		require.ErrorAs(t, err, &re, "hp %d, BBA %d", c.hp, c.bba)
		require.Equal(t, c.rule, re.Rule)
	}
}
