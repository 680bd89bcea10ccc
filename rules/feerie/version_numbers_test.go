package feerie_test

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/stretchr/testify/require"
)

// A number of version 2 is version 2's alone: a registry whose version 2 makes a change of
// intention cost −6 (FEE-070, the released −4) decides, folds, audits, narrates and computes
// the odds of version 1 exactly as the released one — the golden log of version 1 folds to its
// stored hash and passes the audit, its narration (told by the registry's latest Teller, the
// edited one) is the stored one, the odds of a version 1 attack are the same — while version 2
// does read the new number: its description and the odds of its attacks change.
func TestAVersion2NumberLeavesVersion1Alone(t *testing.T) {
	edited := feerie.WithNumbers(feerie.New(2), func(n *feerie.Numbers) { n.ChangeMalus = 6 })
	released := engine.NewRegistry(feerie.Released()...)
	alt := engine.NewRegistry(feerie.New(1), edited)

	change := func(s feerie.System) string {
		i := slices.IndexFunc(s.Describe().GetActions(), func(a *rulesetv1.ActionDescriptor) bool { return a.GetName() == "change" })
		return s.Describe().GetActions()[i].GetCost()
	}
	require.Equal(t, "−6", change(edited), "version 2 reads its number")
	require.Equal(t, "−4", change(feerie.New(2)))

	// The golden log of version 1: the same state, the same decisions.
	events := readLog(t, "../systems/testdata/golden/feerie-v1.jsonl")
	sum, err := os.ReadFile("../systems/testdata/golden/feerie-v1.sha256")
	require.NoError(t, err)
	st, err := alt.Fold(events)
	require.NoError(t, err)
	require.Equal(t, strings.TrimSpace(string(sum)), hex.EncodeToString(engine.Hash(st)))
	_, err = alt.Audit(events)
	require.NoError(t, err)
	changes := slices.IndexFunc(events, func(ev *encounterv1.Event) bool { return ev.GetFeerie().GetIntentionChanged() != nil })
	require.Positive(t, changes, "the log holds a change of intention, whose narration states the −4")

	// Its narration, by the registry's Narrator.
	for _, lang := range narrate.Languages() {
		want, err := os.ReadFile(filepath.Join("../systems/testdata/narration", "feerie-v1."+lang.String()+".txt"))
		require.NoError(t, err)
		n := alt.Narrator(lang)
		var b strings.Builder
		for _, ev := range events {
			b.WriteString(n.Narrate(ev) + "\n")
		}
		require.Equal(t, string(want), b.String(), lang.String())
	}

	// The odds of an attack that is a change of intention (−4 on the roll, FEE-070): the same
	// under version 1, 2 more against under the edited version 2.
	chance := func(reg *engine.Registry, version uint32) float64 {
		f := &vaFight{enginetest.NewFight(t, reg)}
		f.do(vaGM, &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "La clairière", RuleSystem: feerie.ID, RulesVersion: version}}})
		f.do(vaGM, vaAddCmd(vaLutin()))
		f.do(vaGM, vaAddCmd(vaKobold()))
		f.do(vaGM, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
		f.declare("kobold", vaPassive())
		f.declare("lutin", vaMelee("kobold", vaAtt("épée")), 20, 1, 1, 20)
		o, err := odds.Of(reg, f.St, vaActCmd("lutin", &feeriev1.Act{Intent: vaMelee("kobold", vaAtt("vivacité"))}), vaGM)
		require.NoError(t, err)
		require.Equal(t, "chosen", o.GetSections()[0].GetKey())
		require.Equal(t, "hit", o.GetSections()[0].GetChances()[0].GetKey())
		return o.GetSections()[0].GetChances()[0].GetProbability()
	}
	require.Equal(t, chance(released, 1), chance(alt, 1), "version 1's odds")
	require.Greater(t, chance(released, 2), chance(alt, 2), "version 2's odds read its number")
}
