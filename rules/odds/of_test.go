package odds_test

import (
	"path/filepath"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/rules/odds/oddstest"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/stretchr/testify/require"
)

// Of asks the encounter's own rule system: every registered system marks in its descriptor
// the actions it has odds for, and a command of none of them is refused (InvalidArgument)
// naming those; an encounter of no known system is refused as the registry refuses it.
func TestOfAsksTheEncountersSystem(t *testing.T) {
	for _, id := range systems.IDs() {
		sys, err := oddstest.Reg.Lookup(id, 0)
		require.NoError(t, err)
		var marked []string
		for _, a := range engine.Describe(sys).GetActions() {
			if a.GetOdds() {
				marked = append(marked, a.GetName())
			}
		}
		require.Len(t, marked, len(sys.WithOdds()), "%s: Describe marks every action it has odds for, by name", id)
		require.NotEmpty(t, marked, "%s has odds for some action", id)
		_, err = odds.Of(oddstest.Reg, &encounterv1.EncounterState{RuleSystem: id}, &encounterv1.Command{}, oddstest.GM)
		var re *engine.RuleError
		require.ErrorAs(t, err, &re, id)
		require.Equal(t, engine.CodeInvalid, re.Code, id)
		require.Contains(t, re.Msg, "in "+sys.Name()+", odds are computed for: ")
		for _, name := range marked {
			require.Contains(t, re.Msg, name, id)
		}
	}
	_, err := odds.Of(oddstest.Reg, &encounterv1.EncounterState{RuleSystem: "chess"}, &encounterv1.Command{}, oddstest.GM)
	require.ErrorContains(t, err, `unknown rule system "chess"`)
}

// The actions a system's descriptor marks with odds are exactly those whose commands it has
// odds for — what a client offers odds on, with no copy of the rules: through every state of
// every golden log, each legal action with its first choices filled gets odds (or the rules'
// refusal of it) when its key is marked, and none, without an error, when it is not.
func TestTheActionsMarkedWithOddsAreThoseWithOdds(t *testing.T) {
	logs, err := filepath.Glob("../systems/testdata/golden/*.jsonl")
	require.NoError(t, err)
	require.NotEmpty(t, logs)
	for _, path := range logs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			got := map[string]int{} // odds computed, by key
			st := &encounterv1.EncounterState{}
			for _, ev := range enginetest.ReadLog(t, path) {
				require.NoError(t, oddstest.Reg.Evolve(st, ev))
				if st.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE {
					continue
				}
				sys, err := oddstest.Reg.Lookup(st.GetRuleSystem(), st.GetRulesVersion())
				require.NoError(t, err)
				marked := map[string]bool{}
				for _, a := range engine.Describe(sys).GetActions() {
					marked[a.GetName()] = a.GetOdds()
				}
				for _, c := range st.GetCombatants() {
					list, err := oddstest.Reg.LegalCommands(st, c.GetId())
					require.NoError(t, err)
					for _, l := range list {
						cmd := enginetest.FillFirst(t, l.Command, l.Action)
						o, err := sys.Odds(oddstest.Reg, st, cmd, st.GetGameMaster())
						key := l.Action.GetKey()
						if !marked[key] {
							require.NoError(t, err, "%s is not marked with odds", key)
							require.Nil(t, o, "%s is not marked with odds, yet has them", key)
							continue
						}
						require.True(t, o != nil || err != nil, "%s is marked with odds", key)
						if o != nil {
							got[key]++
						}
					}
				}
			}
			require.NotEmpty(t, got, "some legal action of the log has odds")
			t.Logf("odds computed, by key: %v", got)
		})
	}
}
