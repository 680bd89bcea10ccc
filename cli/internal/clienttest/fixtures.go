package clienttest

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

// Sheets is the directory of the example sheets (cli/testdata/sheets), from the directory of a
// package of cli/internal, where its tests run.
const Sheets = "../../testdata/sheets"

// HexID is a command id the CLI derives: 32 hex digits.
var HexID = regexp.MustCompile(`^[0-9a-f]{32}$`)

// RequireProtoEqual fails t unless want and got are equal messages, printing both.
func RequireProtoEqual(t *testing.T, want, got proto.Message) {
	t.Helper()
	require.True(t, proto.Equal(want, got), "want:\n%s\ngot:\n%s", prototext.Format(want), prototext.Format(got))
}

// MustSheet loads the example sheet name of Sheets.
func MustSheet(t *testing.T, name string) *encounterv1.Combatant {
	t.Helper()
	c, err := client.LoadCombatant(filepath.Join(Sheets, name))
	require.NoError(t, err)
	return c
}

// D10 is a roll of 1d10! with faces.
func D10(faces ...int32) *dicev1.Roll {
	r := &dicev1.Roll{Expression: "1d10!", Faces: faces}
	for _, f := range faces {
		r.Total += f
	}
	return r
}

// LossEv is event e of Les Chants de Loss, at seq.
func LossEv(seq uint64, e *lossv1.Event) *encounterv1.Event {
	return &encounterv1.Event{Sequence: seq, RuleSystem: "loss", RulesVersion: 1, Payload: &encounterv1.Event_Loss{Loss: e}}
}

// KaEv is Ka event e at seq.
func KaEv(seq uint64, e *kav1.Event) *encounterv1.Event {
	return &encounterv1.Event{Sequence: seq, Payload: &encounterv1.Event_Ka{Ka: e}}
}

// FeerieEv is Contes de Fées event e at seq.
func FeerieEv(seq uint64, e *feeriev1.Event) *encounterv1.Event {
	return &encounterv1.Event{Sequence: seq, Payload: &encounterv1.Event_Feerie{Feerie: e}}
}

// Ruelle is the LOS-T01 fight: Diego has attacked the ruffian, who must now react.
func Ruelle(t *testing.T) (*encounterv1.EncounterState, []*encounterv1.Event) {
	diego, ruffian := MustSheet(t, "diego.yaml"), MustSheet(t, "ruffian.yaml")
	st := &encounterv1.EncounterState{
		EncounterId: "enc-1", Name: "Ruelle", RuleSystem: "loss", RulesVersion: 1, GameMaster: "gm",
		Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, Sequence: 6,
		Combatants: []*encounterv1.Combatant{diego, ruffian},
		Pending: []*encounterv1.PendingReaction{{
			CombatantId: "ruffian", Controller: "gm",
			Prompt: "Diego attacks Le malfrat with épée (total 20 against 15): parry, dodge or take the blow",
		}},
		Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: &lossv1.Options{HealthBands: []int32{5, 5, 5}}}},
		System: &encounterv1.EncounterState_Loss{Loss: &lossv1.State{
			Tour: 1, Sequence: 1,
			Combatants: map[string]*lossv1.CombatantState{
				"diego":   {ActionPoints: 11, InitiativeTotal: 15, Light: 5, Grave: 5, Fatal: 5, Fursa: 2, Inspiration: map[string]int32{"Courage": 1}},
				"ruffian": {ActionPoints: 12, InitiativeTotal: 12, Light: 3, Grave: 5, Fatal: 5},
			},
			Pending: &lossv1.PendingAttack{AttackerId: "diego", DefenderId: "ruffian", Weapon: "épée", Difficulty: 15, AttackTotal: 20},
		}},
	}
	events := []*encounterv1.Event{
		{Sequence: 1, Payload: &encounterv1.Event_EncounterCreated{EncounterCreated: &encounterv1.EncounterCreated{Name: "Ruelle", GameMaster: "gm"}}},
		{Sequence: 2, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{Combatant: diego}}},
		{Sequence: 3, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{Combatant: ruffian}}},
		{Sequence: 4, Payload: &encounterv1.Event_EncounterStarted{EncounterStarted: &encounterv1.EncounterStarted{}}},
		LossEv(5, &lossv1.Event{Kind: &lossv1.Event_TourStarted{TourStarted: &lossv1.TourStarted{Tour: 1, Sequence: 1, Initiative: []*lossv1.InitiativeRoll{
			{CombatantIds: []string{"diego"}, Initiative: 8, Roll: &dicev1.Roll{Expression: "1d10", Faces: []int32{7}, Total: 7}, ActionPoints: 15},
			{CombatantIds: []string{"ruffian"}, Initiative: 6, Roll: &dicev1.Roll{Expression: "1d10", Faces: []int32{6}, Total: 6}, ActionPoints: 12},
		}}}}),
		LossEv(6, &lossv1.Event{Kind: &lossv1.Event_AttackRolled{AttackRolled: &lossv1.AttackRolled{
			AttackerId: "diego", TargetId: "ruffian", Weapon: "épée", ActionPointsSpent: 4,
			Test:            &lossv1.TestResult{Roll: D10(8), Trait: 6, Talent: 6, Total: 20, Difficulty: 15, Success: true},
			DefencePossible: true,
		}}}),
		// Recorded after the state above was read: `fray log` must not wait for it.
		LossEv(7, &lossv1.Event{Kind: &lossv1.Event_Passed{Passed: &lossv1.Passed{CombatantId: "ruffian", ActionPointsLeft: 12}}}),
	}
	return st, events
}

// LossCommand is the Command carrying a, which a test of a Les Chants de Loss command expects.
func LossCommand(a *lossv1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: a}}
}
