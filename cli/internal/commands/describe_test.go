package commands

import (
	"strings"
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

func attackRolled(seq uint64, a *lossv1.AttackRolled) *encounterv1.Event {
	return lossEv(seq, &lossv1.Event{Kind: &lossv1.Event_AttackRolled{AttackRolled: a}})
}

func defenceRolled(seq uint64, d *lossv1.DefenceRolled) *encounterv1.Event {
	return lossEv(seq, &lossv1.Event{Kind: &lossv1.Event_DefenceRolled{DefenceRolled: d}})
}

func attackResolved(seq uint64, r *lossv1.AttackResolved) *encounterv1.Event {
	return lossEv(seq, &lossv1.Event{Kind: &lossv1.Event_AttackResolved{AttackResolved: r}})
}

// LOS-T01: Diego hits 20 against 15; the ruffian dodges with 1 Exploit, 21 against 20; a miss.
func TestDescribeLOST01(t *testing.T) {
	names := NewNames(map[string]string{"diego": "Diego"})
	require.Equal(t, "#7 Diego attacks ruffian with épée (4 PA): 6+6+d10[8] = 20 vs 15 — success; ruffian may parry or dodge",
		names.Describe(attackRolled(7, &lossv1.AttackRolled{
			AttackerId: "diego", TargetId: "ruffian", Weapon: "épée", ActionPointsSpent: 4,
			Test:            &lossv1.TestResult{Roll: d10(8), Trait: 6, Talent: 6, Total: 20, Difficulty: 15, Success: true},
			DefencePossible: true,
		})))
	require.Equal(t, "#8 ruffian dodges (1 PA, 1 Exploit): 5+7+d10[9] = 21 vs 20 — success",
		Describe(defenceRolled(8, &lossv1.DefenceRolled{
			DefenderId: "ruffian", Reaction: lossv1.Reaction_REACTION_DODGE, ActionPointsSpent: 1, Exploits: 1,
			Test: &lossv1.TestResult{Roll: d10(9), Trait: 5, Talent: 7, Total: 21, Difficulty: 20, Success: true},
		})))
	require.Equal(t, "#9 Diego's attack on ruffian misses",
		names.Describe(attackResolved(9, &lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", ExploitsStanding: 0, Light: 5, Grave: 5, Fatal: 5})))
}

// LOS-T02: 3 Exploits, 2 Fursa and 1 Courage spent, 34 against 30; a partial defence of 21
// cancels 1 Exploit; the 2 left add 2d10 of damage.
func TestDescribeLOST02(t *testing.T) {
	names := NewNames(map[string]string{"diego": "Diego", "ruffian": "Le malfrat"})
	extra := lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE
	require.Equal(t, "#12 Diego attacks Le malfrat with épée (4 PA, 3 Exploits: extra damage): 6+6+d10[7]+15 = 34 vs 30 — success (spent 2 Fursa, 1 Courage); Le malfrat may parry or dodge",
		names.Describe(attackRolled(12, &lossv1.AttackRolled{
			AttackerId: "diego", TargetId: "ruffian", Weapon: "épée", ActionPointsSpent: 4,
			Exploits: []lossv1.ExploitEffect{extra, extra, extra},
			Test: &lossv1.TestResult{Roll: d10(7), Trait: 6, Talent: 6, Bonus: 15, Total: 34, Difficulty: 30, Success: true,
				Spend: &lossv1.Spend{Fursa: 2, Inspiration: map[string]int32{"Courage": 1}}},
			DefencePossible: true,
		})))
	require.Equal(t, "#13 Le malfrat dodges (1 PA): 5+7+d10[4]+5 = 21 vs 30 — failure (spent 1 Honneur); the partial defence cancels 1 Exploit of the attacker",
		names.Describe(defenceRolled(13, &lossv1.DefenceRolled{
			DefenderId: "ruffian", Reaction: lossv1.Reaction_REACTION_DODGE, ActionPointsSpent: 1,
			Test: &lossv1.TestResult{Roll: d10(4), Trait: 5, Talent: 7, Bonus: 5, Total: 21, Difficulty: 30,
				Spend: &lossv1.Spend{Inspiration: map[string]int32{"Honneur": 1}}},
			ExploitsCancelled: 1,
		})))
	require.Equal(t, "#14 Diego hits Le malfrat with 2 Exploits standing: damage 3d10[6,3,9]+3 = 21, armour 1 → 20 NS lost — Le malfrat is out of the fight",
		names.Describe(attackResolved(14, &lossv1.AttackResolved{
			AttackerId: "diego", TargetId: "ruffian", Hit: true, ExploitsStanding: 2,
			Damage:    &lossv1.Damage{Roll: &dicev1.Roll{Expression: "3d10", Faces: []int32{6, 3, 9}, Total: 18}, WeaponDamage: 3, Total: 21, Armour: 1, LevelsLost: 20},
			TargetOut: true,
		})))
	// LOS-070: both weapons on one target.
	require.Equal(t, "#15 Diego hits Le malfrat with 2 Exploits standing (two weapons): damage d10[5]+2 = 7 → 7 NS lost, and the second weapon d10[4]+3 = 7 → 7 NS lost; Le malfrat has NS light 0, grave 1, fatal 5",
		names.Describe(attackResolved(15, &lossv1.AttackResolved{
			AttackerId: "diego", TargetId: "ruffian", Hit: true, ExploitsStanding: 2,
			Effects:      []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS},
			Damage:       &lossv1.Damage{Roll: d10(5), WeaponDamage: 2, Total: 7, LevelsLost: 7},
			SecondDamage: &lossv1.Damage{Roll: d10(4), WeaponDamage: 3, Total: 7, LevelsLost: 7},
			Grave:        1, Fatal: 5,
		})))
}

func TestDescribeOtherLossEvents(t *testing.T) {
	names := NewNames(map[string]string{"diego": "Diego", "canahan": "Canahan"})
	init := func(ids []string, mod, face, pa int32) *lossv1.InitiativeRoll {
		return &lossv1.InitiativeRoll{CombatantIds: ids, Initiative: mod, ActionPoints: pa,
			Roll: &dicev1.Roll{Expression: "1d10", Faces: []int32{face}, Total: face}}
	}
	// LOS-T03.
	require.Equal(t, "#5 Tour 1 (Séquence 1): Canahan 7+d10[4] = 11 PA; Diego 8+d10[7] = 15 PA; griffon-1, griffon-2 and griffon-3 5+d10[8] = 13 PA",
		names.Describe(lossEv(5, &lossv1.Event{Kind: &lossv1.Event_TourStarted{TourStarted: &lossv1.TourStarted{Tour: 1, Sequence: 1,
			Initiative: []*lossv1.InitiativeRoll{
				init([]string{"canahan"}, 7, 4, 11), init([]string{"diego"}, 8, 7, 15),
				init([]string{"griffon-1", "griffon-2", "griffon-3"}, 5, 8, 13),
			}}}})))
	require.Equal(t, "#20 Tour 11 (Séquence 2): no one rolls Initiative",
		Describe(lossEv(20, &lossv1.Event{Kind: &lossv1.Event_TourStarted{TourStarted: &lossv1.TourStarted{Tour: 11, Sequence: 2}}})))

	// An exploding d10, a LOS-016 bonus, an unseen attack.
	require.Equal(t, "#21 griffon-1 attacks Canahan with griffes (2 PA): 6+6+d10[10,4]+5 = 31 vs 15 — success (+5 from a defensive Exploit); no defence: Canahan does not see the attack (LOS-017)",
		names.Describe(attackRolled(21, &lossv1.AttackRolled{
			AttackerId: "griffon-1", TargetId: "canahan", Weapon: "griffes", ActionPointsSpent: 2,
			Test:            &lossv1.TestResult{Roll: d10(10, 4), Trait: 6, Talent: 6, Bonus: 5, Total: 31, Difficulty: 15, Success: true},
			NoDefenceReason: "Canahan does not see the attack (LOS-017)",
		})))
	require.Equal(t, "#22 Canahan takes the blow",
		names.Describe(defenceRolled(22, &lossv1.DefenceRolled{DefenderId: "canahan", Reaction: lossv1.Reaction_REACTION_NONE})))
	require.Equal(t, "#23 Canahan parries (1 PA): 6+5+d10[2] = 13 vs 15 — failure",
		names.Describe(defenceRolled(23, &lossv1.DefenceRolled{DefenderId: "canahan", Reaction: lossv1.Reaction_REACTION_PARRY, ActionPointsSpent: 1,
			Test: &lossv1.TestResult{Roll: d10(2), Trait: 6, Talent: 5, Total: 13, Difficulty: 15}})))
	require.Equal(t, "#24 griffon-1 hits Canahan: damage d10[5]+2 = 7 → 7 NS lost; Canahan has NS light 0, grave 3, fatal 5",
		names.Describe(attackResolved(24, &lossv1.AttackResolved{
			AttackerId: "griffon-1", TargetId: "canahan", Hit: true,
			Damage: &lossv1.Damage{Roll: &dicev1.Roll{Expression: "1d10", Faces: []int32{5}, Total: 5}, WeaponDamage: 2, Total: 7, LevelsLost: 7},
			Light:  0, Grave: 3, Fatal: 5,
		})))
	require.Equal(t, "#25 Canahan hits griffon-2: damage d10[1]+5 = 6, shield 1 → 5 NS lost; griffon-2 has 5 NS",
		names.Describe(attackResolved(25, &lossv1.AttackResolved{
			AttackerId: "canahan", TargetId: "griffon-2", Hit: true,
			Damage: &lossv1.Damage{Roll: &dicev1.Roll{Expression: "1d10", Faces: []int32{1}, Total: 1}, WeaponDamage: 5, Total: 6, Shield: 1, LevelsLost: 5},
			Health: 5,
		})))
	require.Equal(t, "#26 Diego passes, keeping 3 PA to parry or dodge",
		names.Describe(lossEv(26, &lossv1.Event{Kind: &lossv1.Event_Passed{Passed: &lossv1.Passed{CombatantId: "diego", ActionPointsLeft: 3}}})))
}

func TestDescribeEncounterEvents(t *testing.T) {
	diego := mustSheet(t, "diego.yaml")
	created := &encounterv1.Event{Sequence: 1, RuleSystem: "loss", RulesVersion: 1, Payload: &encounterv1.Event_EncounterCreated{
		EncounterCreated: &encounterv1.EncounterCreated{
			Name: "Ruelle", GameMaster: "gm", SeedSha256: []byte{0xab, 0xcd},
			Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: &lossv1.Options{
				ExplodeActionD10: proto.Bool(true), ExplodeDamageD10: proto.Bool(false), HealthBands: []int32{5, 5, 5},
				GmFursa: proto.Int32(0), GmFursaOnFailedExploit: proto.Bool(true),
			}}},
		},
	}}
	require.Equal(t, `#1 Encounter "Ruelle" created by gm, loss v1; rules: action d10s explode, damage d10s do not explode, health bands 5/5/5, GM Fursa 0, the GM gains a Fursa when a player character fails an Exploit; dice seed sha256 abcd`,
		Describe(created))

	names := NewNames(nil)
	added := &encounterv1.Event{Sequence: 2, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{Combatant: diego}}}
	require.Equal(t, "#2 joins: Diego (diego): player character, side pcs, controller david", names.Describe(added))
	names.Learn(added)
	require.Equal(t, "Diego", names.of("diego"))

	require.Equal(t, "#3 Diego is removed from the encounter", names.Describe(&encounterv1.Event{Sequence: 3,
		Payload: &encounterv1.Event_CombatantRemoved{CombatantRemoved: &encounterv1.CombatantRemoved{CombatantId: "diego"}}}))
	require.Equal(t, "#4 The fight starts", Describe(&encounterv1.Event{Sequence: 4,
		Payload: &encounterv1.Event_EncounterStarted{EncounterStarted: &encounterv1.EncounterStarted{}}}))
	require.Equal(t, "#5 Encounter ended (the ruffian flees); dice seed revealed: 00ff", Describe(&encounterv1.Event{Sequence: 5,
		Payload: &encounterv1.Event_EncounterEnded{EncounterEnded: &encounterv1.EncounterEnded{Reason: "the ruffian flees", Seed: []byte{0, 0xff}}}}))
	require.Equal(t, "#6 (event without payload)", Describe(&encounterv1.Event{Sequence: 6}))
	require.Equal(t, "#7 (empty Loss event)", Describe(lossEv(7, &lossv1.Event{})))
}

// Every payload of fray.encounter.v1.Event, and every kind of each rule system's event
// (fray.loss.v1.Event, fray.feerie.v1.Event, …), has its own wording: none falls through to
// the generic rendering. Each rule system is a subtest of its own.
func TestDescribeCoversEveryEventType(t *testing.T) {
	check := func(t *testing.T, ev *encounterv1.Event) {
		t.Helper()
		s := Describe(ev)
		for _, generic := range []string{"(event", "(Loss event", "(Contes de Fées event", "(Ka event", "(d20seg event", "(empty"} {
			require.NotContains(t, s, generic, s)
		}
		require.NotRegexp(t, `\*\w+v1\.`, s, "a Go type: the generic rendering of an event")
	}
	counts := map[string]int{}
	payload := (&encounterv1.Event{}).ProtoReflect().Descriptor().Oneofs().ByName("payload")
	require.NotNil(t, payload)
	for i := range payload.Fields().Len() {
		fd := payload.Fields().Get(i)
		kinds := fd.Message().Oneofs().ByName("kind")
		if kinds == nil { // an encounter event
			ev := &encounterv1.Event{}
			ev.ProtoReflect().Mutable(fd) // sets the payload to an empty message of its type
			check(t, ev)
			counts[""]++
			continue
		}
		// A rule system's event: each of its kinds.
		t.Run(string(fd.Name()), func(t *testing.T) {
			for j := range kinds.Fields().Len() {
				sys := dynamicKind(fd.Message(), kinds.Fields().Get(j))
				ev := &encounterv1.Event{Sequence: 1}
				ev.ProtoReflect().Set(fd, protoreflect.ValueOfMessage(sys))
				check(t, ev)
				counts[string(fd.Name())]++
			}
		})
	}
	require.Equal(t, 10, counts[""], "10 encounter events")
	require.Equal(t, 14, counts["loss"], "14 Loss events")
	require.GreaterOrEqual(t, counts["feerie"], 14, "the Contes de Fées events")
	require.GreaterOrEqual(t, counts["ka"], 9, "the Ka events")
	require.GreaterOrEqual(t, counts["d20seg"], 7, "the d20seg events")
	// The empty kinds are worded too.
	require.Equal(t, "#1 (empty Loss event)", Describe(lossEv(1, &lossv1.Event{})))
	require.Equal(t, "#1 (empty Contes de Fées event)", Describe(feerieEv(1, &feeriev1.Event{})))
	require.Equal(t, "#1 (empty Ka event)", Describe(kaEv(1, &kav1.Event{})))
	require.Equal(t, "#1 (empty d20seg event)", Describe(d20Ev(1, &d20segv1.Event{})))
}

// dynamicKind returns an event of the rule system's message md whose "kind" is an empty
// message of the type of field kind.
func dynamicKind(md protoreflect.MessageDescriptor, kind protoreflect.FieldDescriptor) protoreflect.Message {
	mt, err := protoregistry.GlobalTypes.FindMessageByName(md.FullName())
	if err != nil {
		panic(err)
	}
	m := mt.New()
	m.Mutable(kind)
	return m
}

func TestRollText(t *testing.T) {
	for want, r := range map[string]*dicev1.Roll{
		"d10[8]":        {Expression: "1d10!", Faces: []int32{8}},
		"d10[10,10,3]":  {Expression: "1d10!", Faces: []int32{10, 10, 3}},
		"3d10[3,7,9]+4": {Expression: "3d10+4", Faces: []int32{3, 7, 9}, Modifier: 4},
		"2d6[1,2]-1":    {Expression: "2d6-1", Faces: []int32{1, 2}, Modifier: -1},
		"d20[17]":       {Expression: "d20", Faces: []int32{17}},
		"10d10[1]":      {Expression: "10d10", Faces: []int32{1}},
		"dice[4]":       {Faces: []int32{4}},
	} {
		require.Equal(t, want, rollText(r))
	}
	require.Equal(t, "?", rollText(nil))
	require.True(t, strings.HasPrefix(testText(nil), "no roll"))
}
