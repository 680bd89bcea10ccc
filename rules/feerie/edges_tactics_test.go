package feerie_test

// Edges of tactics (FEE-030…FEE-035): each test kills a mutant that lived in a mutation run
// of this package, with the numbers at the edge.

import (
	"testing"

	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
)

// tacticRule is the rule CheckTactic cites for the tactic on in ("" when it holds).
func tacticRule(t *testing.T, sh *feeriev1.Sheet, in *feeriev1.Intent) string {
	t.Helper()
	err := feerie.CheckTactic(sh, in, "Didimus")
	if err == nil {
		return ""
	}
	re, ok := engine.AsRuleError(err)
	require.True(t, ok, "%v", err)
	return re.Rule
}

func duelist() *feeriev1.Sheet {
	return &feeriev1.Sheet{Vigilance: 10, Habilete: 12, Puissance: 10, Resistance: 10, Attributes: []*feeriev1.Attribute{
		{Name: "duel", Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY, Value: 4, Combat: true},
		{Name: "bouclier", Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_ACCESSORY, Value: 1, Combat: true},
	}}
}

func tactic(applied []string, tc *feeriev1.Tactic) *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "x", Physical: true,
		Applied: &feeriev1.Applied{Attack: applied}, Tactic: tc}
}

// FEE-034: a preset named alone takes its values (Feinte −4/+1/+3); named with values, they
// must be its own, each of the three checked.
func TestEdgePresetValues(t *testing.T) {
	in := tactic([]string{"duel"}, &feeriev1.Tactic{Preset: "Feinte"})
	require.Empty(t, tacticRule(t, duelist(), in))
	require.Equal(t, []int32{-4, 1, 3}, []int32{in.GetTactic().GetInitiative(), in.GetTactic().GetAttack(), in.GetTactic().GetDefense()})
	for _, v := range [][3]int32{{-4, 1, 3}, {4, 1, 3}, {-4, 2, 3}, {-4, 1, 4}} {
		rule := tacticRule(t, duelist(), tactic([]string{"duel"}, &feeriev1.Tactic{Preset: "Feinte", Initiative: v[0], Attack: v[1], Defense: v[2]}))
		if v == [3]int32{-4, 1, 3} {
			require.Empty(t, rule)
			continue
		}
		require.Equal(t, "FEE-034", rule, "Feinte given as %v", v)
	}
}

// FEE-030, FEE-031: a tactic of 0/0/0 is no tactic, allowed even with nothing applied; any
// other needs a combat Attribute applied and a sum of 0 (0/+2/0 does not add up).
func TestEdgeZeroTacticIsNoTactic(t *testing.T) {
	require.Empty(t, tacticRule(t, duelist(), tactic(nil, &feeriev1.Tactic{})))
	require.Equal(t, "FEE-030", tacticRule(t, duelist(), tactic(nil, &feeriev1.Tactic{Initiative: 2, Attack: -2})))
	for _, tc := range []*feeriev1.Tactic{{Attack: 2}, {Defense: 2}, {Initiative: 2}} {
		require.Equal(t, "FEE-031", tacticRule(t, duelist(), tactic([]string{"duel"}, tc)), "%v", tc)
	}
}

// FEE-032, FEE-T03: each modifier's absolute value is at most the cap, negative ones too:
// with duel +4 applied, +4/+1/−5 is refused for its −5, +4/+1/−5's mirror −4/−1/+5 for its +5.
func TestEdgeNegativeModifierOverTheCap(t *testing.T) {
	require.Equal(t, "FEE-032", tacticRule(t, duelist(), tactic([]string{"duel"}, &feeriev1.Tactic{Initiative: 4, Attack: 1, Defense: -5})))
	require.Equal(t, "FEE-032", tacticRule(t, duelist(), tactic([]string{"duel"}, &feeriev1.Tactic{Initiative: -4, Attack: -1, Defense: 5})))
	require.Empty(t, tacticRule(t, duelist(), tactic([]string{"duel"}, &feeriev1.Tactic{Initiative: 4, Attack: 0, Defense: -4})))
}

// FEE-032: the refusal names the Attributes that make the cap, in the order applied, each with
// its value: duel +4 and bouclier +1, cap 5.
func TestEdgeCapText(t *testing.T) {
	err := feerie.CheckTactic(duelist(), tactic([]string{"duel", "bouclier"}, &feeriev1.Tactic{Initiative: 6, Attack: -3, Defense: -3}), "Didimus")
	re, ok := engine.AsRuleError(err)
	require.True(t, ok)
	require.Equal(t, "FEE-032", re.Rule)
	require.Contains(t, re.Msg, "exceeds Didimus's cap of 5 (duel +4, bouclier +1)")
}

// FEE-142, FEE-184: a mounted charge adds the mount's Taille only when it is positive; a mount
// of Taille 0 gives the larger of the two: a rider of −2 on it charges at 0, on a +1 mount at −1.
func TestEdgeMountedChargeOnAMountOfTailleZero(t *testing.T) {
	require.Equal(t, []int32{0, -1, 3, -2}, []int32{
		feerie.MountedChargeTaille(-2, 0), feerie.MountedChargeTaille(-2, 1), feerie.MountedChargeTaille(2, 1), feerie.MountedChargeTaille(-2, -3),
	})
}
