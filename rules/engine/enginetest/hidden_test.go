package enginetest_test

import (
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// TestLeaks: Leaks finds a word in a nested string, a number in a map value and in a list, a
// face in a Roll's faces (only there), and not in the fields it is told to ignore or the
// messages it is told to skip.
func TestLeaks(t *testing.T) {
	secrets := enginetest.Secrets{Words: []string{"Zorglub", "Gruumsh"}, Numbers: []int64{27, 83}, Faces: []int64{9}, Ignore: enginetest.Positions}
	state := func(f func(*encounterv1.EncounterState, *lossv1.Sheet)) *encounterv1.EncounterState {
		sh := &lossv1.Sheet{Traits: map[string]int32{"Puissance": 3}, Weapons: []*lossv1.Weapon{{Name: "gourdin", Damage: 4}}}
		st := &encounterv1.EncounterState{EncounterId: "e1",
			Options:    &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: &lossv1.Options{HealthBands: []int32{5, 5, 5}}}},
			Combatants: []*encounterv1.Combatant{{Id: "ogre", Name: "L'ogre", Sheet: &encounterv1.Combatant_Loss{Loss: sh}}}}
		f(st, sh)
		return st
	}
	rolled := func(r *dicev1.Roll) *encounterv1.Event {
		return &encounterv1.Event{Payload: &encounterv1.Event_Loss{Loss: &lossv1.Event{Kind: &lossv1.Event_AttackRolled{AttackRolled: &lossv1.AttackRolled{
			AttackerId: "ogre", Test: &lossv1.TestResult{Roll: r, Total: 12}}}}}}
	}
	positions := &encounterv1.Event{Sequence: 27, RulesVersion: 83,
		Payload: &encounterv1.Event_EncounterRewound{EncounterRewound: &encounterv1.EncounterRewound{ToSequence: 83, DiceOffset: 27}}}
	for _, c := range []struct {
		name    string
		m       proto.Message
		secrets enginetest.Secrets
		want    []string
	}{
		{"nothing of them", state(func(*encounterv1.EncounterState, *lossv1.Sheet) {}), secrets, nil},
		{"a word in a nested string", state(func(_ *encounterv1.EncounterState, sh *lossv1.Sheet) { sh.Weapons[0].Name = "Gourdin-de-Zorglub" }), secrets,
			[]string{`the word "Zorglub"`}},
		{"a number in a map value", state(func(_ *encounterv1.EncounterState, sh *lossv1.Sheet) { sh.Traits["Agilité"] = 83 }), secrets,
			[]string{"83 in combatants[0].loss.traits[Agilité]"}},
		{"a number in a list", state(func(st *encounterv1.EncounterState, _ *lossv1.Sheet) { st.GetOptions().GetLoss().HealthBands[1] = 27 }), secrets,
			[]string{"27 in options.loss.health_bands[1]"}},
		{"a number in a nested field", state(func(_ *encounterv1.EncounterState, sh *lossv1.Sheet) { sh.Weapons[0].Damage = 27 }), secrets,
			[]string{"27 in combatants[0].loss.weapons[0].damage"}},
		{"a face in a Roll", rolled(&dicev1.Roll{Faces: []int32{3, 9}, Total: 12}), secrets,
			[]string{"face 9 in loss.attack_rolled.test.roll.faces[1]"}},
		{"a face is only searched in the faces, a number not in them", rolled(&dicev1.Roll{Faces: []int32{27}, Modifier: 9}), secrets, nil},
		{"a number in a Roll", rolled(&dicev1.Roll{Faces: []int32{10, 10, 7}, Total: 27}), secrets,
			[]string{"27 in loss.attack_rolled.test.roll.total"}},
		{"the log's positions ignored, not the dice stream's", positions, secrets, []string{"27 in encounter_rewound.dice_offset"}},
		{"a Roll's offset and draws searched: a reader gets none", rolled(&dicev1.Roll{Offset: 27, Draws: 83}), secrets,
			[]string{"27 in loss.attack_rolled.test.roll.offset", "83 in loss.attack_rolled.test.roll.draws"}},
		{"the positional fields searched when not ignored", positions, enginetest.Secrets{Numbers: secrets.Numbers},
			[]string{"27 in sequence", "83 in rules_version", "83 in encounter_rewound.to_sequence", "27 in encounter_rewound.dice_offset"}},
		{"a map's values ignored by the name value", state(func(_ *encounterv1.EncounterState, sh *lossv1.Sheet) { sh.Traits["Agilité"] = 83 }),
			enginetest.Secrets{Numbers: secrets.Numbers, Ignore: []protoreflect.Name{"value"}}, nil},
		{"a message skipped", rolled(&dicev1.Roll{Faces: []int32{9}, Total: 27}),
			enginetest.Secrets{Numbers: secrets.Numbers, Faces: secrets.Faces, Skip: []protoreflect.FullName{"fray.dice.v1.Roll"}}, nil},
		{"every word", state(func(_ *encounterv1.EncounterState, sh *lossv1.Sheet) {
			sh.Weapons[0].Name, sh.Weapons[0].WeaponType = "Gruumsh", "Zorglub"
		}), secrets,
			[]string{`the word "Zorglub"`, `the word "Gruumsh"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.ElementsMatch(t, c.want, enginetest.Leaks(t, c.m, c.secrets))
		})
	}
}

// TestWalkInts: every integer set, by path, in field order; map keys and enums are not
// numbers of the message.
func TestWalkInts(t *testing.T) {
	m := &lossv1.Sheet{Kind: lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE, Traits: map[string]int32{"Puissance": 7},
		Initiative: 3, Weapons: []*lossv1.Weapon{{Damage: 4}, {Damage: 5}}}
	got := map[string]int64{}
	enginetest.WalkInts(m, func(path string, _ protoreflect.FieldDescriptor, v int64) { got[path] = v })
	require.Equal(t, map[string]int64{"traits[Puissance]": 7, "initiative": 3, "weapons[0].damage": 4, "weapons[1].damage": 5}, got)
}
