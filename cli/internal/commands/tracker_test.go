package commands_test

import (
	"bytes"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/commands"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/stretchr/testify/require"
)

// An encounter of a rule system this CLI has no package for (a system added to the server
// only) is shown by the tracker the server's rules drew for the caller, never by another
// system's table (issue 27).
func TestStateOfASystemWithoutACLIPackageIsTheServersTracker(t *testing.T) {
	resp := &encounterv1.GetEncounterResponse{
		State: &encounterv1.EncounterState{
			EncounterId: "e1", Name: "Duel", RuleSystem: "tiny", RulesVersion: 1, GameMaster: "gm",
			Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, Sequence: 9,
			Combatants: []*encounterv1.Combatant{{Id: "a", Name: "Aube"}, {Id: "b", Name: "Brume"}},
		},
		Tracker: &rulesetv1.Tracker{
			Turn:   "Round 2",
			Header: []string{"Pips"},
			Rows: []*rulesetv1.TrackerRow{
				{CombatantId: "a", Cells: []string{"3"}},
				{CombatantId: "b", Cells: []string{""}, Conditions: []string{"down"}},
			},
		},
		Legal: []*rulesetv1.LegalAction{{Name: "poke", Description: "poke someone", Cost: 1}},
	}
	var out bytes.Buffer
	commands.WriteState(&out, resp, "a")
	got := out.String()
	t.Log("\n" + got)
	require.Contains(t, got, "Duel (e1): active, tiny v1, GM gm, at event #9")
	require.Contains(t, got, "Round 2\n")
	require.Regexp(t, `(?m)^combatant\s+Pips\s*$`, got)
	require.Regexp(t, `(?m)^Aube\s+3\s*$`, got)
	require.Regexp(t, `(?m)^Brume\s+down$`, got)
	require.Contains(t, got, "Aube may:\n  poke")
	require.NotContains(t, got, "PA", "no other system's table")

	resp.Tracker = nil
	out.Reset()
	commands.WriteState(&out, resp, "")
	require.Contains(t, out.String(), "no combatant to show")
}
