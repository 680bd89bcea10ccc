package feeriecmd_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/feeriecmd"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
)

// The Contes de Fées state table as a player reads it when the GM hides a combatant:
// what is known is said, what is withheld is said to be, and no zero stands for a number the
// server kept. (Its events' narration is tested in rules/feerie.)

func TestFeerieStateWithAHiddenCombatant(t *testing.T) {
	st := &encounterv1.EncounterState{EncounterId: "enc-1", Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, RuleSystem: feerie.ID,
		Combatants: []*encounterv1.Combatant{
			{Id: "aude", Name: "Aude", Controller: "alice", Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{Vigilance: 10, Habilete: 10, Essence: 60}}},
			{Id: "ogre", Name: "Le Croque-Mitaine", Controller: "gm", Hidden: true, Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{Vigilance: 23, Essence: 97}}},
		},
		System: &encounterv1.EncounterState_Feerie{Feerie: &feeriev1.State{Action: 1, Step: feeriev1.Step_STEP_COUNTDOWN, Rank: 20, TopRank: 34,
			Combatants: map[string]*feeriev1.CombatantState{
				"aude": {Essence: 35, Initiative: 10, ActingRank: 10, CanAct: true, HasDeclared: true, Declared: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE},
					Conditions: []*feeriev1.Condition{{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN, Malus: 7, By: "ogre"}}},
				"ogre": {Essence: 79, Initiative: 34, ActingRank: 34, CanAct: true, Activities: 1, LastRank: 34, HasDeclared: true, NextAction: 4,
					Tactic:    &feeriev1.Tactic{Attack: 5, Defense: -5},
					Declared:  &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "aude", Applied: &feeriev1.Applied{Attack: []string{"Hache-de-Gruumsh"}}},
					Penalties: []*feeriev1.Penalty{{FromRank: 34, Defense: 4, Reason: "change of intention"}}},
			}}}}
	reg := engine.NewRegistry(feerie.Released()...)
	var b bytes.Buffer
	view := reg.View(st, engine.Viewer{Controls: map[string]bool{"aude": true}})
	feeriecmd.WriteState(&b, view, client.NamesOf(view))
	out := b.String()
	t.Logf("fray state:\n%s", out)
	require.Regexp(t, `  aude\s+Aude\s+-\s+alice\s+35/60\s+10\s+10\s+0\s+stunned: −7 to its activities; declared a passive activity, tactic \+0/\+0/\+0\n`, out)
	require.Regexp(t, `  ogre\s+Le Croque-Mitaine\s+-\s+gm\s+wounded\s+hidden\s+hidden\s+1 \(rank 34\)\s+hidden by the GM; declared melee attack on Aude, not physical, its Attributes and tactic withheld\n`, out)
	for _, secret := range []string{"Hache", "79", "97", "−4"} {
		require.NotContains(t, out, secret)
	}
	require.True(t, strings.Contains(out, "Action 1, countdown at rank 20 (from 34)"))
}
