package loss_test

import (
	"fmt"
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"google.golang.org/protobuf/proto"
)

// The English narration of the Loss events, as the CLI's describe tests asserted it (ported
// from cli/internal/commands/describe_test.go and describe_actions_test.go, same lines).

const (
	xDamage = lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE
	xTwo    = lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS
)

// en and fr are narrators of Loss with no name learnt.
func en() *narrate.Narrator { return narrate.New(narrate.English, loss.Teller{}) }
func fr() *narrate.Narrator { return narrate.New(narrate.French, loss.Teller{}) }

// named is an English narrator of Loss that knows the names ids → names.
func named(names map[string]string) *narrate.Narrator { return namedIn(narrate.English, names) }

func namedIn(lang language.Tag, names map[string]string) *narrate.Narrator {
	n := narrate.New(lang, loss.Teller{})
	for id, name := range names {
		n.SetName(id, name)
	}
	return n
}

var loxIDs = map[string]string{"diego": "Diego", "ruffian": "Le malfrat", "canahan": "Canahan"}

func nNames() *narrate.Narrator { return named(loxIDs) }

func nD10(faces ...int32) *dicev1.Roll {
	r := &dicev1.Roll{Expression: "1d10!", Faces: faces}
	for _, f := range faces {
		r.Total += f
	}
	return r
}

func nEv(seq uint64, e *lossv1.Event) *encounterv1.Event {
	return &encounterv1.Event{Sequence: seq, RuleSystem: "loss", RulesVersion: 1, Payload: &encounterv1.Event_Loss{Loss: e}}
}

func nAttack(seq uint64, a *lossv1.AttackRolled) *encounterv1.Event {
	return nEv(seq, &lossv1.Event{Kind: &lossv1.Event_AttackRolled{AttackRolled: a}})
}

func nDefence(seq uint64, d *lossv1.DefenceRolled) *encounterv1.Event {
	return nEv(seq, &lossv1.Event{Kind: &lossv1.Event_DefenceRolled{DefenceRolled: d}})
}

func nResolved(seq uint64, r *lossv1.AttackResolved) *encounterv1.Event {
	return nEv(seq, &lossv1.Event{Kind: &lossv1.Event_AttackResolved{AttackResolved: r}})
}

func nMod(reason string, value int32, rule string) *lossv1.Modifier {
	return &lossv1.Modifier{Reason: reason, Value: value, Rule: rule}
}

func lossSheet(id, name, controller string) *encounterv1.Combatant {
	return &encounterv1.Combatant{Id: id, Name: name, Side: "pcs", Controller: controller,
		Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{Kind: lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER, Initiative: 8}}}
}

func diegoSheet() *encounterv1.Combatant   { return lossSheet("diego", "Diego", "david") }
func canahanSheet() *encounterv1.Combatant { return lossSheet("canahan", "Canahan", "florence") }

// seqOf reads the sequence number at the start of a line ("#12 ...").
func seqOf(s string, seq *uint64) (int, error) { return fmt.Sscanf(s, "#%d", seq) }

// LOS-T01: Diego hits 20 against 15; the ruffian dodges with 1 Exploit, 21 against 20; a miss.
func TestNarrateLOST01(t *testing.T) {
	names := named(map[string]string{"diego": "Diego"})
	require.Equal(t, "#7 Diego attacks ruffian with épée (4 PA): 6+6+d10[8] = 20 vs 15 — success; ruffian may parry or dodge",
		names.Text(nAttack(7, &lossv1.AttackRolled{
			AttackerId: "diego", TargetId: "ruffian", Weapon: "épée", ActionPointsSpent: 4,
			Test:            &lossv1.TestResult{Roll: nD10(8), Trait: 6, Talent: 6, Total: 20, Difficulty: 15, Success: true},
			DefencePossible: true,
		})))
	require.Equal(t, "#8 ruffian dodges (1 PA, 1 Exploit): 5+7+d10[9] = 21 vs 20 — success",
		en().Text(nDefence(8, &lossv1.DefenceRolled{
			DefenderId: "ruffian", Reaction: lossv1.Reaction_REACTION_DODGE, ActionPointsSpent: 1, Exploits: 1,
			Test: &lossv1.TestResult{Roll: nD10(9), Trait: 5, Talent: 7, Total: 21, Difficulty: 20, Success: true},
		})))
	require.Equal(t, "#9 Diego's attack on ruffian misses",
		names.Text(nResolved(9, &lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", ExploitsStanding: 0, Light: 5, Grave: 5, Fatal: 5})))
}

// LOS-T02: 3 Exploits, 2 Fursa and 1 Courage spent, 34 against 30; a partial defence of 21
// cancels 1 Exploit; the 2 left add 2d10 of damage.
func TestNarrateLOST02(t *testing.T) {
	names := named(map[string]string{"diego": "Diego", "ruffian": "Le malfrat"})
	extra := lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE
	require.Equal(t, "#12 Diego attacks Le malfrat with épée (4 PA, 3 Exploits: extra damage): 6+6+d10[7]+15 = 34 vs 30 — success (spent 2 Fursa, 1 Courage); Le malfrat may parry or dodge",
		names.Text(nAttack(12, &lossv1.AttackRolled{
			AttackerId: "diego", TargetId: "ruffian", Weapon: "épée", ActionPointsSpent: 4,
			Exploits: []lossv1.ExploitEffect{extra, extra, extra},
			Test: &lossv1.TestResult{Roll: nD10(7), Trait: 6, Talent: 6, Bonus: 15, Total: 34, Difficulty: 30, Success: true,
				Spend: &lossv1.Spend{Fursa: 2, Inspiration: map[string]int32{"Courage": 1}}},
			DefencePossible: true,
		})))
	require.Equal(t, "#13 Le malfrat dodges (1 PA): 5+7+d10[4]+5 = 21 vs 30 — failure (spent 1 Honneur); the partial defence cancels 1 Exploit of the attacker",
		names.Text(nDefence(13, &lossv1.DefenceRolled{
			DefenderId: "ruffian", Reaction: lossv1.Reaction_REACTION_DODGE, ActionPointsSpent: 1,
			Test: &lossv1.TestResult{Roll: nD10(4), Trait: 5, Talent: 7, Bonus: 5, Total: 21, Difficulty: 30,
				Spend: &lossv1.Spend{Inspiration: map[string]int32{"Honneur": 1}}},
			ExploitsCancelled: 1,
		})))
	require.Equal(t, "#14 Diego hits Le malfrat with 2 Exploits standing: damage 3d10[6,3,9]+3 = 21, armour 1 → 20 NS lost — Le malfrat is out of the fight",
		names.Text(nResolved(14, &lossv1.AttackResolved{
			AttackerId: "diego", TargetId: "ruffian", Hit: true, ExploitsStanding: 2,
			Damage:    &lossv1.Damage{Roll: &dicev1.Roll{Expression: "3d10", Faces: []int32{6, 3, 9}, Total: 18}, WeaponDamage: 3, Total: 21, Armour: 1, LevelsLost: 20},
			TargetOut: true,
		})))
	// LOS-070: both weapons on one target.
	require.Equal(t, "#15 Diego hits Le malfrat with 2 Exploits standing (two weapons): damage d10[5]+2 = 7 → 7 NS lost, and the second weapon d10[4]+3 = 7 → 7 NS lost; Le malfrat has NS light 0, grave 1, fatal 5",
		names.Text(nResolved(15, &lossv1.AttackResolved{
			AttackerId: "diego", TargetId: "ruffian", Hit: true, ExploitsStanding: 2,
			Effects:      []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS},
			Damage:       &lossv1.Damage{Roll: nD10(5), WeaponDamage: 2, Total: 7, LevelsLost: 7},
			SecondDamage: &lossv1.Damage{Roll: nD10(4), WeaponDamage: 3, Total: 7, LevelsLost: 7},
			Grave:        1, Fatal: 5,
		})))
}

func TestNarrateOtherLossEvents(t *testing.T) {
	names := named(map[string]string{"diego": "Diego", "canahan": "Canahan"})
	init := func(ids []string, mod, face, pa int32) *lossv1.InitiativeRoll {
		return &lossv1.InitiativeRoll{CombatantIds: ids, Initiative: mod, ActionPoints: pa,
			Roll: &dicev1.Roll{Expression: "1d10", Faces: []int32{face}, Total: face}}
	}
	// LOS-T03.
	require.Equal(t, "#5 Tour 1 (Séquence 1): Canahan 7+d10[4] = 11 PA; Diego 8+d10[7] = 15 PA; griffon-1, griffon-2 and griffon-3 5+d10[8] = 13 PA",
		names.Text(nEv(5, &lossv1.Event{Kind: &lossv1.Event_TourStarted{TourStarted: &lossv1.TourStarted{Tour: 1, Sequence: 1,
			Initiative: []*lossv1.InitiativeRoll{
				init([]string{"canahan"}, 7, 4, 11), init([]string{"diego"}, 8, 7, 15),
				init([]string{"griffon-1", "griffon-2", "griffon-3"}, 5, 8, 13),
			}}}})))
	require.Equal(t, "#20 Tour 11 (Séquence 2): no one rolls Initiative",
		en().Text(nEv(20, &lossv1.Event{Kind: &lossv1.Event_TourStarted{TourStarted: &lossv1.TourStarted{Tour: 11, Sequence: 2}}})))

	// An exploding d10, a LOS-016 bonus, an unseen attack.
	require.Equal(t, "#21 griffon-1 attacks Canahan with griffes (2 PA): 6+6+d10[10,4]+5 = 31 vs 15 — success (+5 from a defensive Exploit); no defence: Canahan does not see the attack (LOS-017)",
		names.Text(nAttack(21, &lossv1.AttackRolled{
			AttackerId: "griffon-1", TargetId: "canahan", Weapon: "griffes", ActionPointsSpent: 2,
			Test:            &lossv1.TestResult{Roll: nD10(10, 4), Trait: 6, Talent: 6, Bonus: 5, Total: 31, Difficulty: 15, Success: true},
			NoDefenceReason: "Canahan does not see the attack (LOS-017)",
		})))
	require.Equal(t, "#22 Canahan takes the blow",
		names.Text(nDefence(22, &lossv1.DefenceRolled{DefenderId: "canahan", Reaction: lossv1.Reaction_REACTION_NONE})))
	require.Equal(t, "#23 Canahan parries (1 PA): 6+5+d10[2] = 13 vs 15 — failure",
		names.Text(nDefence(23, &lossv1.DefenceRolled{DefenderId: "canahan", Reaction: lossv1.Reaction_REACTION_PARRY, ActionPointsSpent: 1,
			Test: &lossv1.TestResult{Roll: nD10(2), Trait: 6, Talent: 5, Total: 13, Difficulty: 15}})))
	require.Equal(t, "#24 griffon-1 hits Canahan: damage d10[5]+2 = 7 → 7 NS lost; Canahan has NS light 0, grave 3, fatal 5",
		names.Text(nResolved(24, &lossv1.AttackResolved{
			AttackerId: "griffon-1", TargetId: "canahan", Hit: true,
			Damage: &lossv1.Damage{Roll: &dicev1.Roll{Expression: "1d10", Faces: []int32{5}, Total: 5}, WeaponDamage: 2, Total: 7, LevelsLost: 7},
			Light:  0, Grave: 3, Fatal: 5,
		})))
	require.Equal(t, "#25 Canahan hits griffon-2: damage d10[1]+5 = 6, shield 1 → 5 NS lost; griffon-2 has 5 NS",
		names.Text(nResolved(25, &lossv1.AttackResolved{
			AttackerId: "canahan", TargetId: "griffon-2", Hit: true,
			Damage: &lossv1.Damage{Roll: &dicev1.Roll{Expression: "1d10", Faces: []int32{1}, Total: 1}, WeaponDamage: 5, Total: 6, Shield: 1, LevelsLost: 5},
			Health: 5,
		})))
	require.Equal(t, "#26 Diego passes, keeping 3 PA to parry or dodge",
		names.Text(nEv(26, &lossv1.Event{Kind: &lossv1.Event_Passed{Passed: &lossv1.Passed{CombatantId: "diego", ActionPointsLeft: 3}}})))
}

func TestNarrateEncounterEvents(t *testing.T) {
	diego := diegoSheet()
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
		en().Text(created))

	names := named(nil)
	added := &encounterv1.Event{Sequence: 2, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{Combatant: diego}}}
	require.Equal(t, "#2 joins: Diego (diego): player character, side pcs, controller david", names.Text(added))
	names.Learn(added)
	require.Equal(t, "Diego", names.Name("diego"))

	require.Equal(t, "#3 Diego is removed from the encounter", names.Text(&encounterv1.Event{Sequence: 3,
		Payload: &encounterv1.Event_CombatantRemoved{CombatantRemoved: &encounterv1.CombatantRemoved{CombatantId: "diego"}}}))
	require.Equal(t, "#4 The fight starts", en().Text(&encounterv1.Event{Sequence: 4,
		Payload: &encounterv1.Event_EncounterStarted{EncounterStarted: &encounterv1.EncounterStarted{}}}))
	require.Equal(t, "#5 Encounter ended (the ruffian flees); dice seed revealed: 00ff", en().Text(&encounterv1.Event{Sequence: 5,
		Payload: &encounterv1.Event_EncounterEnded{EncounterEnded: &encounterv1.EncounterEnded{Reason: "the ruffian flees", Seed: []byte{0, 0xff}}}}))
	require.Equal(t, "#6 (event without payload)", en().Text(&encounterv1.Event{Sequence: 6}))
	require.Equal(t, "#7 (empty Loss event)", en().Text(nEv(7, &lossv1.Event{})))
}

// The Test's bonus is the sum of its test modifiers, its Difficulty the base plus its
// difficulty modifiers: both are shown with their reasons and rules.
func TestNarrateTestModifiers(t *testing.T) {
	names := nNames()
	// LOS-T02 as the engine now records it.
	require.Equal(t, "#12 Diego attacks Le malfrat with épée (4 PA, 3 Exploits: extra damage): 6+6+d10[7]+15 = 34 vs 30 — success "+
		"(+10 2 Fursa (LOS-004), +5 1 Inspiration of Courage (LOS-004); Difficulty 15, +15 3 Exploits (LOS-010)); Le malfrat may parry or dodge",
		names.Text(nAttack(12, &lossv1.AttackRolled{
			AttackerId: "diego", TargetId: "ruffian", Weapon: "épée", ActionPointsSpent: 4,
			Exploits: []lossv1.ExploitEffect{xDamage, xDamage, xDamage},
			Test: &lossv1.TestResult{Roll: nD10(7), Trait: 6, Talent: 6, Bonus: 15, Total: 34, Difficulty: 30, Success: true,
				Spend:               &lossv1.Spend{Fursa: 2, Inspiration: map[string]int32{"Courage": 1}},
				TestModifiers:       []*lossv1.Modifier{nMod("2 Fursa", 10, "LOS-004"), nMod("1 Inspiration of Courage", 5, "LOS-004")},
				DifficultyModifiers: []*lossv1.Modifier{nMod("3 Exploits", 15, "LOS-010")}},
			DefencePossible: true, DefenceDifficulty: 30,
		})))
	// Negative modifiers, wounds, only difficulty modifiers, a modifier without a rule.
	require.Equal(t, "#13 Diego attacks Le malfrat with gourdin (3 PA): 6+6+d10[3]+3 = 18 vs 30 — failure "+
		"(+5 higher than the opponent (LOS-052), −2 improvised weapon (LOS-054); Difficulty 15, +5 wounds (LOS-022), +10 darkness or blinded (LOS-050))",
		names.Text(nAttack(13, &lossv1.AttackRolled{
			AttackerId: "diego", TargetId: "ruffian", Weapon: "gourdin", ActionPointsSpent: 3,
			Test: &lossv1.TestResult{Roll: nD10(3), Trait: 6, Talent: 6, Bonus: 3, Total: 18, Difficulty: 30,
				TestModifiers:       []*lossv1.Modifier{nMod("higher than the opponent", 5, "LOS-052"), nMod("improvised weapon", -2, "LOS-054")},
				DifficultyModifiers: []*lossv1.Modifier{nMod("wounds", 5, "LOS-022"), nMod("darkness or blinded", 10, "LOS-050")}},
		})))
	require.Equal(t, "5+7+d10[9] = 21 vs 20 — success (Difficulty 15, +5 1 Exploit (LOS-010))",
		loss.TestText(en(), &lossv1.TestResult{Roll: nD10(9), Trait: 5, Talent: 7, Total: 21, Difficulty: 20, Success: true,
			DifficultyModifiers: []*lossv1.Modifier{nMod("1 Exploit", 5, "LOS-010")}}))
	require.Equal(t, "5+7+d10[9]+5 = 26 vs 15 — success (+5 GM's call)",
		loss.TestText(en(), &lossv1.TestResult{Roll: nD10(9), Trait: 5, Talent: 7, Bonus: 5, Total: 26, Difficulty: 15, Success: true,
			TestModifiers: []*lossv1.Modifier{nMod("GM's call", 5, "")}}))
	// A Test recorded before the modifiers were (no modifiers, a bonus): the old reading.
	require.Equal(t, "6+6+d10[2]+10 = 24 vs 15 — success (spent 1 free raise; +5 from a defensive Exploit)",
		loss.TestText(en(), &lossv1.TestResult{Roll: nD10(2), Trait: 6, Talent: 6, Bonus: 10, Total: 24, Difficulty: 15, Success: true,
			Spend: &lossv1.Spend{FreeRaises: 1}}))
}

func TestNarrateAttacksWithTheNewFields(t *testing.T) {
	names := nNames()
	// 6+6+d10 with faces, +5 per Fursa spent.
	test := func(fursa, diff int32, faces ...int32) *lossv1.TestResult {
		r := nD10(faces...)
		t := &lossv1.TestResult{Roll: r, Trait: 6, Talent: 6, Bonus: 5 * fursa, Total: 12 + r.GetTotal() + 5*fursa, Difficulty: diff}
		t.Success = t.Total >= diff
		if fursa > 0 {
			t.TestModifiers = []*lossv1.Modifier{nMod(fmt.Sprintf("%d Fursa", fursa), 5*fursa, "LOS-004")}
		}
		return t
	}
	// Moulinet: three targets, one of which cannot defend; overthrow with damage.
	require.Equal(t, "#20 Diego attacks Le malfrat, griffon-1 and griffon-2 with hallebarde (5 PA, 4 Exploits: Moulinet, overthrow, with damage): "+
		"6+6+d10[10,3]+10 = 35 vs 35 — success (+10 2 Fursa (LOS-004)); Le malfrat and griffon-1 may parry or dodge; no defence for griffon-2: Griffon 2 is surprised (LOS-052)",
		names.Text(nAttack(20, &lossv1.AttackRolled{
			AttackerId: "diego", TargetId: "ruffian", Weapon: "hallebarde", ActionPointsSpent: 5,
			Exploits:        []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_MOULINET, lossv1.ExploitEffect_EXPLOIT_EFFECT_OVERTHROW},
			WithDamage:      true,
			Test:            test(2, 35, 10, 3),
			DefencePossible: true, DefenceDifficulty: 35,
			MoreTargets: []*lossv1.TargetReaction{
				{TargetId: "griffon-1", DefencePossible: true},
				{TargetId: "griffon-2", NoDefenceReason: "Griffon 2 is surprised (LOS-052)"},
			},
		})))
	// Two weapons; mixed stacked effects show their count.
	require.Equal(t, "#21 Diego attacks Le malfrat and Canahan with épée and dague (4 PA, 4 Exploits: two weapons, extra damage ×2): "+
		"6+6+d10[10,3]+10 = 35 vs 35 — success (+10 2 Fursa (LOS-004)); no defence for Le malfrat: Le malfrat has no PA left to parry or dodge (LOS-032); no defence for Canahan",
		names.Text(nAttack(21, &lossv1.AttackRolled{
			AttackerId: "diego", TargetId: "ruffian", Weapon: "épée", SecondWeapon: "dague", ActionPointsSpent: 4,
			Exploits:        []lossv1.ExploitEffect{xTwo, xDamage, xDamage},
			Test:            test(2, 35, 10, 3),
			NoDefenceReason: "Le malfrat has no PA left to parry or dodge (LOS-032)",
			MoreTargets:     []*lossv1.TargetReaction{{TargetId: "canahan"}},
		})))
	// A counter-attack (LOS-062).
	require.Equal(t, "#22 Le malfrat counter-attacks Diego with dague (3 PA): 6+6+d10[9] = 21 vs 15 — success; Diego may parry or dodge",
		names.Text(nAttack(22, &lossv1.AttackRolled{
			AttackerId: "ruffian", TargetId: "diego", Weapon: "dague", ActionPointsSpent: 3, Counter: true,
			Test: test(0, 15, 9), DefencePossible: true, DefenceDifficulty: 15,
		})))
	// A grab and a trip: no weapon.
	require.Equal(t, "#23 Diego tries to grab Le malfrat (3 PA): 6+6+d10[9] = 21 vs 15 — success; Le malfrat may parry or dodge",
		names.Text(nAttack(23, &lossv1.AttackRolled{
			AttackerId: "diego", TargetId: "ruffian", ActionPointsSpent: 3, Manoeuvre: lossv1.Manoeuvre_MANOEUVRE_GRAB,
			Test: test(0, 15, 9), DefencePossible: true,
		})))
	require.Equal(t, "#24 Diego tries to trip Le malfrat (3 PA): 6+6+d10[2] = 14 vs 15 — failure",
		names.Text(nAttack(24, &lossv1.AttackRolled{
			AttackerId: "diego", TargetId: "ruffian", ActionPointsSpent: 3, Manoeuvre: lossv1.Manoeuvre_MANOEUVRE_TRIP, Test: test(0, 15, 2),
		})))
	// A shot at 15 m, against partial cover: the defender faces the Difficulty passed on
	// (LOS-012), not the attacker's.
	require.Equal(t, "#25 Diego attacks Le malfrat with arbalète (5 PA, at 15 m): 6+6+d10[9]+9 = 30 vs 30 — success "+
		"(+9 aim (LOS-084); Difficulty 20, +10 cover (LOS-083)); Le malfrat may parry or dodge at Difficulty 20",
		names.Text(nAttack(25, &lossv1.AttackRolled{
			AttackerId: "diego", TargetId: "ruffian", Weapon: "arbalète", ActionPointsSpent: 5,
			Situation: &lossv1.Situation{Distance: 15, Cover: lossv1.Cover_COVER_PARTIAL},
			Test: &lossv1.TestResult{Roll: nD10(9), Trait: 6, Talent: 6, Bonus: 9, Total: 30, Difficulty: 30, Success: true,
				TestModifiers: []*lossv1.Modifier{nMod("aim", 9, "LOS-084")}, DifficultyModifiers: []*lossv1.Modifier{nMod("cover", 10, "LOS-083")}},
			DefencePossible: true, DefenceDifficulty: 20,
		})))
}

func TestNarrateDefenceEffects(t *testing.T) {
	names := nNames()
	require.Equal(t, "#30 Le malfrat parries (1 PA, 2 Exploits: counter-attack, take the advantage): 5+5+d10[10,3] = 23 vs 25 — failure; the partial defence cancels 1 Exploit of the attacker",
		names.Text(nDefence(30, &lossv1.DefenceRolled{
			DefenderId: "ruffian", AttackerId: "diego", Reaction: lossv1.Reaction_REACTION_PARRY, ActionPointsSpent: 1, Exploits: 2,
			Effects:           []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_COUNTER_ATTACK, lossv1.ExploitEffect_EXPLOIT_EFFECT_TAKE_ADVANTAGE},
			Test:              &lossv1.TestResult{Roll: nD10(10, 3), Trait: 5, Talent: 5, Total: 23, Difficulty: 25},
			ExploitsCancelled: 1,
		})))
	require.Equal(t, "#31 Canahan dodges (1 PA, 1 Exploit: protect Diego): 5+6+d10[9] = 20 vs 20 — success",
		names.Text(nDefence(31, &lossv1.DefenceRolled{
			DefenderId: "canahan", Reaction: lossv1.Reaction_REACTION_DODGE, ActionPointsSpent: 1, Exploits: 1,
			Effects: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_PROTECT}, AllyId: "diego",
			Test: &lossv1.TestResult{Roll: nD10(9), Trait: 5, Talent: 6, Total: 20, Difficulty: 20, Success: true},
		})))
	// A Total dodge spends every PA left (LOS-063).
	require.Equal(t, "#32 Canahan dodges (9 PA, 1 Exploit: total dodge): 5+6+d10[9] = 20 vs 20 — success",
		names.Text(nDefence(32, &lossv1.DefenceRolled{
			DefenderId: "canahan", Reaction: lossv1.Reaction_REACTION_DODGE, ActionPointsSpent: 9, Exploits: 1,
			Effects: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_TOTAL_DODGE},
			Test:    &lossv1.TestResult{Roll: nD10(9), Trait: 5, Talent: 6, Total: 20, Difficulty: 20, Success: true},
		})))
}

func TestNarrateResolutionsWithTheNewFields(t *testing.T) {
	names := nNames()
	roll := func(faces ...int32) *dicev1.Roll {
		r := &dicev1.Roll{Expression: "1d10", Faces: faces}
		if len(faces) > 1 {
			r.Expression = "3d10"
		}
		for _, f := range faces {
			r.Total += f
		}
		return r
	}
	for _, tc := range []struct {
		want string
		r    *lossv1.AttackResolved
	}{
		// The effects that stood; a defended explosive deals half (LOS-086).
		{"#40 Diego hits Le malfrat with 3 Exploits standing (extra damage ×2, feint): damage 3d10[6,3,9]+3 = 21, halved to 10, armour 1 → 9 NS lost; Le malfrat has NS light 0, grave 1, fatal 5",
			&lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true, ExploitsStanding: 3, Halved: true,
				Effects: []lossv1.ExploitEffect{xDamage, xDamage, lossv1.ExploitEffect_EXPLOIT_EFFECT_FEINT},
				Damage:  &lossv1.Damage{Roll: roll(6, 3, 9), WeaponDamage: 3, Total: 10, Armour: 1, LevelsLost: 9},
				Light:   0, Grave: 1, Fatal: 5}},
		// LOS-025: a Sbire felled by a standing Exploit, without a damage roll.
		{"#41 Diego hits griffon-1 with 1 Exploit standing (extra damage); Griffon 1 is a Sbire felled by a successful Exploit (LOS-025) — griffon-1 is out of the fight",
			&lossv1.AttackResolved{AttackerId: "diego", TargetId: "griffon-1", Hit: true, ExploitsStanding: 1, TargetOut: true,
				Effects: []lossv1.ExploitEffect{xDamage}, Note: "Griffon 1 is a Sbire felled by a successful Exploit (LOS-025)"}},
		// LOS-078: killed outright, dying.
		{"#42 Diego hits Le malfrat with 5 Exploits standing (kill outright); Le malfrat is killed outright: 0 fatal boxes, dying (LOS-078) — Le malfrat is down and dying (LOS-023)",
			&lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true, ExploitsStanding: 5, TargetOut: true, TargetDying: true,
				Effects: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_KILL_OUTRIGHT},
				Note:    "Le malfrat is killed outright: 0 fatal boxes, dying (LOS-078)"}},
		// A special effect without damage: no NS change to show.
		{"#43 Diego hits Le malfrat with 2 Exploits standing (overthrow)",
			&lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true, ExploitsStanding: 2, Light: 5, Grave: 5, Fatal: 5,
				Effects: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_OVERTHROW}}},
		{"#44 Diego grabs Le malfrat; no automatic effect: the GM applies what follows as situations (LOS-035)",
			&lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true, Manoeuvre: lossv1.Manoeuvre_MANOEUVRE_GRAB, Light: 5, Grave: 5, Fatal: 5,
				Note: "no automatic effect: the GM applies what follows as situations (LOS-035)"}},
		{"#45 Diego trips Le malfrat; no automatic effect: the GM applies what follows as situations (LOS-035)",
			&lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true, Manoeuvre: lossv1.Manoeuvre_MANOEUVRE_TRIP, Light: 5, Grave: 5, Fatal: 5,
				Note: "no automatic effect: the GM applies what follows as situations (LOS-035)"}},
		// LOS-086: halvings compound: beyond the Portée and dodged, a quarter.
		{"#49 Diego hits Le malfrat: damage d10[9]+4 = 13, halved twice to 3 → 3 NS lost; Le malfrat has NS light 2, grave 5, fatal 5",
			&lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true, Halved: true, Halvings: 2,
				Damage: &lossv1.Damage{Roll: roll(9), WeaponDamage: 4, Total: 3, LevelsLost: 3}, Light: 2, Grave: 5, Fatal: 5}},
		{"#46 Diego's attack on Le malfrat misses: full cover: the blast does not reach",
			&lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Note: "full cover: the blast does not reach", Light: 5, Grave: 5, Fatal: 5}},
		// Damage to 0 fatal boxes: dying (LOS-023).
		{"#47 Le malfrat hits Diego: damage d10[9]+2 = 11 → 11 NS lost — Diego is down and dying (LOS-023)",
			&lossv1.AttackResolved{AttackerId: "ruffian", TargetId: "diego", Hit: true, TargetOut: true, TargetDying: true,
				Damage: &lossv1.Damage{Roll: roll(9), WeaponDamage: 2, Total: 11, LevelsLost: 11}}},
		// Neutralised (LOS-076): out, no damage.
		{"#48 Diego hits Le malfrat with 4 Exploits standing (neutralise) — Le malfrat is out of the fight",
			&lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true, ExploitsStanding: 4, TargetOut: true, Light: 5, Grave: 5, Fatal: 5,
				Effects: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_NEUTRALISE}}},
	} {
		var seq uint64
		_, _ = seqOf(tc.want, &seq)
		require.Equal(t, tc.want, names.Text(nResolved(seq, tc.r)))
	}
}

func TestNarrateTheNewLossEvents(t *testing.T) {
	names := nNames()
	for _, tc := range []struct {
		want string
		e    *lossv1.Event
	}{
		{`#13 Canahan declares: "I charge the griffon"`,
			&lossv1.Event{Kind: &lossv1.Event_Declared{Declared: &lossv1.Declared{CombatantId: "canahan", Intention: "I charge the griffon"}}}},
		{"#12 Diego waits from phase 12 to 4 (next action −8 PA, minimum 2)",
			&lossv1.Event{Kind: &lossv1.Event_Waited{Waited: &lossv1.Waited{CombatantId: "diego", FromPhase: 12, UntilPhase: 4, Discount: 8}}}},
		{"#14 Diego aims with arbalète (2 PA): +2 on the next Test with it (LOS-035)",
			&lossv1.Event{Kind: &lossv1.Event_Aimed{Aimed: &lossv1.Aimed{CombatantId: "diego", Weapon: "arbalète", ActionPointsSpent: 2, Bonus: 2}}}},
		{"#15 Diego aims with arbalète for the whole Tour (11 PA): +15 on the next shot with it (LOS-084)",
			&lossv1.Event{Kind: &lossv1.Event_Aimed{Aimed: &lossv1.Aimed{CombatantId: "diego", Weapon: "arbalète", ActionPointsSpent: 11, Bonus: 15, WholeTour: true}}}},
		{`#16 Diego speaks: "Rends-toi !"`,
			&lossv1.Event{Kind: &lossv1.Event_SimpleActed{SimpleActed: &lossv1.SimpleActed{CombatantId: "diego", Kind: lossv1.SimpleKind_SIMPLE_KIND_SPEAK, Description: "Rends-toi !"}}}},
		{"#17 Canahan uses a social Talent (1 PA)",
			&lossv1.Event{Kind: &lossv1.Event_SimpleActed{SimpleActed: &lossv1.SimpleActed{CombatantId: "canahan", Kind: lossv1.SimpleKind_SIMPLE_KIND_SOCIAL, ActionPointsSpent: 1}}}},
		{`#18 Diego picks up an object (2 PA): "the lantern"`,
			&lossv1.Event{Kind: &lossv1.Event_SimpleActed{SimpleActed: &lossv1.SimpleActed{CombatantId: "diego", Kind: lossv1.SimpleKind_SIMPLE_KIND_PICK_UP, ActionPointsSpent: 2, Description: "the lantern"}}}},
		{"#19 Diego moves (2 PA)",
			&lossv1.Event{Kind: &lossv1.Event_SimpleActed{SimpleActed: &lossv1.SimpleActed{CombatantId: "diego", Kind: lossv1.SimpleKind_SIMPLE_KIND_MOVE, ActionPointsSpent: 2}}}},
		{"#20 Le malfrat stands up (4 PA)",
			&lossv1.Event{Kind: &lossv1.Event_SimpleActed{SimpleActed: &lossv1.SimpleActed{CombatantId: "ruffian", Kind: lossv1.SimpleKind_SIMPLE_KIND_STAND_UP, ActionPointsSpent: 4}}}},
		{"#21 Le malfrat picks up the weapon (2 PA)",
			&lossv1.Event{Kind: &lossv1.Event_SimpleActed{SimpleActed: &lossv1.SimpleActed{CombatantId: "ruffian", Kind: lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON, ActionPointsSpent: 2}}}},
		{`#22 the GM turns Diego's failed Exploit into a Disaster: "the blade snaps" (LOS-006)`,
			&lossv1.Event{Kind: &lossv1.Event_DisasterDeclared{DisasterDeclared: &lossv1.DisasterDeclared{CombatantId: "diego", Description: "the blade snaps"}}}},
		{"#23 Diego sacrifices 1 Inspiration of Courage: Diego is saved (LOS-023)",
			&lossv1.Event{Kind: &lossv1.Event_DyingResolved{DyingResolved: &lossv1.DyingResolved{CombatantId: "diego", TargetId: "diego",
				Choice: lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION, Vertu: "Courage"}}}},
		{"#24 Canahan gives Diego urgent care: Diego is saved (LOS-023)",
			&lossv1.Event{Kind: &lossv1.Event_DyingResolved{DyingResolved: &lossv1.DyingResolved{CombatantId: "canahan", TargetId: "diego",
				Choice: lossv1.DyingChoice_DYING_CHOICE_URGENT_CARE}}}},
		{"#25 Diego receives urgent care: Diego is saved (LOS-023)",
			&lossv1.Event{Kind: &lossv1.Event_DyingResolved{DyingResolved: &lossv1.DyingResolved{CombatantId: "diego", TargetId: "diego",
				Choice: lossv1.DyingChoice_DYING_CHOICE_URGENT_CARE}}}},
		{"#26 Le malfrat finishes Diego off: Diego is dead (LOS-023)",
			&lossv1.Event{Kind: &lossv1.Event_DyingResolved{DyingResolved: &lossv1.DyingResolved{CombatantId: "ruffian", TargetId: "diego",
				Choice: lossv1.DyingChoice_DYING_CHOICE_FINISH_OFF, Dead: true}}}},
		{"#27 Diego is granted 2 free raises: the high ground (LOS-004)",
			&lossv1.Event{Kind: &lossv1.Event_FreeRaisesGranted{FreeRaisesGranted: &lossv1.FreeRaisesGranted{CombatantId: "diego", Count: 2, Reason: "the high ground"}}}},
		{"#28 Diego loses 1 free raise (LOS-004)",
			&lossv1.Event{Kind: &lossv1.Event_FreeRaisesGranted{FreeRaisesGranted: &lossv1.FreeRaisesGranted{CombatantId: "diego", Count: -1}}}},
		// LOS-039 and LOS-067 add PA to one combatant's Initiative.
		{"#29 Tour 2 (Séquence 1): Diego 8+d10[7] = 15 PA (+2 bonus: 17 PA); griffon-1, griffon-2 and griffon-3 5+d10[8] = 13 PA (griffon-1 +3 bonus: 16 PA)",
			&lossv1.Event{Kind: &lossv1.Event_TourStarted{TourStarted: &lossv1.TourStarted{Tour: 2, Sequence: 1, Initiative: []*lossv1.InitiativeRoll{
				{CombatantIds: []string{"diego"}, Initiative: 8, Roll: &dicev1.Roll{Expression: "1d10", Faces: []int32{7}, Total: 7}, ActionPoints: 15,
					Bonus: map[string]int32{"diego": 2}},
				{CombatantIds: []string{"griffon-1", "griffon-2", "griffon-3"}, Initiative: 5, Roll: &dicev1.Roll{Expression: "1d10", Faces: []int32{8}, Total: 8}, ActionPoints: 13,
					Bonus: map[string]int32{"griffon-1": 3}},
			}}}}},
	} {
		var seq uint64
		_, _ = seqOf(tc.want, &seq)
		require.Equal(t, tc.want, names.Text(nEv(seq, tc.e)))
	}
}

func TestNarrateEncounterEventsOfTheNewAPI(t *testing.T) {
	canahan := canahanSheet()
	require.Equal(t, "#31 joins: Canahan (canahan): player character, side pcs, controller florence; joins the fight in progress: acts from the next Tour (LOS-039)",
		en().Text(&encounterv1.Event{Sequence: 31, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{Combatant: canahan, InProgress: true}}}))

	// A rewind restores the names and the pursuit distance of its state.
	names := named(nil)
	rewound := &encounterv1.Event{Sequence: 30, Payload: &encounterv1.Event_EncounterRewound{EncounterRewound: &encounterv1.EncounterRewound{
		ToSequence: 12, Reason: "a misclick",
		State: &encounterv1.EncounterState{Combatants: []*encounterv1.Combatant{canahan}, System: &encounterv1.EncounterState_Loss{Loss: &lossv1.State{
			Pursuit: &lossv1.Pursuit{PursuerIds: []string{"canahan"}, PursuedIds: []string{"ruffian"}, Distance: 4},
		}}},
	}}}
	require.Equal(t, "#30 Rewound to #12: the events after it are undone (a misclick)", names.Text(rewound))
	names.Learn(rewound)
	require.Equal(t, "Canahan", names.Name("canahan"))
	require.Equal(t, int32(4), loss.Distance(names))

	// Every option of the [default] rules, as EncounterCreated records them.
	o, err := loss.New(1).Options(nil)
	require.NoError(t, err)
	created := &encounterv1.Event{Sequence: 1, RuleSystem: "loss", RulesVersion: 1, Payload: &encounterv1.Event_EncounterCreated{
		EncounterCreated: &encounterv1.EncounterCreated{Name: "Ruelle", GameMaster: "gm", Options: o}}}
	require.Equal(t, `#1 Encounter "Ruelle" created by gm, loss v1; rules: action d10s explode, damage d10s do not explode, health bands 5/5/5, GM Fursa 0, `+
		"the GM gains a Fursa when a player character fails an Exploit, player characters without Fursa start with 1, "+
		"a successful defensive Exploit gives +5 on the next action, an attack whose Exploits are all cancelled still hits, "+
		"the attacker's own modifiers do not pass on to the defender, a Sbire that cancels the only Exploit takes a plain hit, "+
		"0 fatal boxes means dying, a wall or Total dodge is the only defence of the Tour, aims do not stack, "+
		"Zigzags last until the pursued's next action, no declaration round, actions at the same phase are simultaneous",
		en().Text(created))
}

// A pursuit described event after event: Names follows the distance, which PursuitActed gives
// only after the action.
func TestNarrateAPursuit(t *testing.T) {
	names := nNames()
	tr := func(face, trait, talent, bonus, diff int32, mods ...*lossv1.Modifier) *lossv1.TestResult {
		total := trait + talent + face + bonus
		t := &lossv1.TestResult{Roll: nD10(face), Trait: trait, Talent: talent, Bonus: bonus, Total: total, Difficulty: diff, Success: total >= diff}
		for _, m := range mods {
			if m.GetRule() == "LOS-010" || m.GetRule() == "LOS-107" {
				t.DifficultyModifiers = append(t.DifficultyModifiers, m)
			} else {
				t.TestModifiers = append(t.TestModifiers, m)
			}
		}
		return t
	}
	acted := func(a *lossv1.PursuitActed) *lossv1.Event {
		return &lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: a}}
	}
	const (
		change = lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE
		charge = lossv1.PursuitKind_PURSUIT_KIND_CHARGE
	)
	for _, tc := range []struct {
		want string
		e    *lossv1.Event
	}{
		{"#40 pursuit starts: Diego and Canahan pursue Le malfrat at distance 3, in range (LOS-100)",
			&lossv1.Event{Kind: &lossv1.Event_PursuitStarted{PursuitStarted: &lossv1.PursuitStarted{Pursuit: &lossv1.Pursuit{
				PursuerIds: []string{"diego", "canahan"}, PursuedIds: []string{"ruffian"}, Distance: 3}}}}},
		{"#41 pursuit: Diego changes distance 3 → 2 (2 PA): 5+6+d10[7]+3 = 21 vs 20 — success (+3 mount or vehicle speed (LOS-108))",
			acted(&lossv1.PursuitActed{CombatantId: "diego", Kind: change, ActionPointsSpent: 2, Success: true, Distance: 2,
				Test: tr(7, 5, 6, 3, 20, nMod("mount or vehicle speed", 3, "LOS-108"))})},
		{"#42 pursuit: Le malfrat zigzags (2 PA, 1 Exploit): 6+6+d10[9] = 21 vs 20 — success (Difficulty 15, +5 1 Exploit (LOS-010)); the pursuers' actions have +5 Difficulty (LOS-107)",
			acted(&lossv1.PursuitActed{CombatantId: "ruffian", Kind: lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS, ActionPointsSpent: 2, Exploits: 1, Success: true, Distance: 2, Zigzag: 5,
				Test: tr(9, 6, 6, 0, 20, nMod("1 Exploit", 5, "LOS-010"))})},
		{"#43 pursuit: Diego charges Le malfrat (3 PA): 5+6+d10[9]+5 = 25 vs 25 — success (+5 1 Fursa (LOS-004); Difficulty 20, +5 the pursued zigzags (LOS-107)); Le malfrat may dodge",
			acted(&lossv1.PursuitActed{CombatantId: "diego", Kind: charge, TargetId: "ruffian", ActionPointsSpent: 3, Success: true, DodgePossible: true, Distance: 2,
				Test: tr(9, 5, 6, 5, 25, nMod("1 Fursa", 5, "LOS-004"), nMod("the pursued zigzags", 5, "LOS-107"))})},
		{"#44 pursuit: Diego's charge on Le malfrat lands; Le malfrat is unseated or thrown down",
			acted(&lossv1.PursuitActed{CombatantId: "diego", Kind: charge, TargetId: "ruffian", Resolves: true, Success: true, TargetDown: true, Distance: 2,
				Note: "Le malfrat is unseated or thrown down"})},
		{"#45 pursuit: Le malfrat clotheslines Canahan (2 PA): 5+6+d10[8] = 19 vs 15 — success; Canahan falls; distance 2 → 3",
			acted(&lossv1.PursuitActed{CombatantId: "ruffian", Kind: lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE, TargetId: "canahan", ActionPointsSpent: 2,
				Success: true, TargetDown: true, Distance: 3, Test: tr(8, 5, 6, 0, 15)})},
		{"#46 pursuit: Canahan tries to change distance (2 PA): 5+6+d10[2] = 13 vs 20 — failure; the distance stays 3",
			acted(&lossv1.PursuitActed{CombatantId: "canahan", Kind: change, ActionPointsSpent: 2, Distance: 3, Test: tr(2, 5, 6, 0, 20)})},
		{"#47 pursuit: Le malfrat changes distance 3 → 5 (2 PA, 2 Exploits): 6+6+d10[10,8] = 30 vs 30 — success",
			acted(&lossv1.PursuitActed{CombatantId: "ruffian", Kind: change, ActionPointsSpent: 2, Exploits: 2, Success: true, Distance: 5,
				Test: &lossv1.TestResult{Roll: nD10(10, 8), Trait: 6, Talent: 6, Total: 30, Difficulty: 30, Success: true}})},
		{"#48 pursuit: Le malfrat changes distance from 5 (2 PA, 2 Exploits): 6+6+d10[10,10,3] = 35 vs 35 — success; sight is lost: the pursuit ends (LOS-100)",
			acted(&lossv1.PursuitActed{CombatantId: "ruffian", Kind: change, ActionPointsSpent: 2, Exploits: 2, Success: true, Ended: true,
				Note: "sight is lost: the pursuit ends (LOS-100)",
				Test: &lossv1.TestResult{Roll: nD10(10, 10, 3), Trait: 6, Talent: 6, Total: 35, Difficulty: 35, Success: true}})},
		// The pursuit has ended: the distance is unknown again.
		{"#49 pursuit: Diego changes distance to 2 (2 PA): 5+6+d10[9] = 20 vs 15 — success",
			acted(&lossv1.PursuitActed{CombatantId: "diego", Kind: change, ActionPointsSpent: 2, Success: true, Distance: 2, Test: tr(9, 5, 6, 0, 15)})},
	} {
		var seq uint64
		_, _ = seqOf(tc.want, &seq)
		require.Equal(t, tc.want, names.Text(nEv(seq, tc.e)), "as of distance %d", loss.Distance(names))
		names.Learn(nEv(seq, tc.e))
	}

	// Without the events before: the distance after only.
	fresh := nNames()
	require.Equal(t, "#50 pursuit: Diego shoots at Le malfrat's legs (7 PA): 5+6+d10[9] = 20 vs 15 — success; the shot: 6+7+d10[8] = 21 vs 20 — success; Le malfrat may dodge",
		fresh.Text(nEv(50, acted(&lossv1.PursuitActed{CombatantId: "diego", Kind: lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS, TargetId: "ruffian",
			ActionPointsSpent: 7, Success: true, DodgePossible: true, Distance: 2, Test: tr(9, 5, 6, 0, 15), Shot: tr(8, 6, 7, 0, 20)}))))
	require.Equal(t, "#51 pursuit: Diego's shot at the legs on Le malfrat lands; Le malfrat falls; distance now 1",
		fresh.Text(nEv(51, acted(&lossv1.PursuitActed{CombatantId: "diego", Kind: lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS, TargetId: "ruffian",
			Resolves: true, Success: true, TargetDown: true, Distance: 1}))))
	require.Equal(t, "#52 pursuit: Le malfrat avoids Diego's tackle",
		fresh.Text(nEv(52, acted(&lossv1.PursuitActed{CombatantId: "diego", Kind: lossv1.PursuitKind_PURSUIT_KIND_TACKLE, TargetId: "ruffian", Resolves: true, Distance: 1}))))
	require.Equal(t, "#53 pursuit: Diego tackles Le malfrat (2 PA): 6+6+d10[5] = 17 vs 15 — success; the pursuit becomes a standard fight (LOS-105)",
		fresh.Text(nEv(53, acted(&lossv1.PursuitActed{CombatantId: "diego", Kind: lossv1.PursuitKind_PURSUIT_KIND_TACKLE, TargetId: "ruffian",
			ActionPointsSpent: 2, Success: true, Ended: true, Note: "the pursuit becomes a standard fight (LOS-105)", Test: tr(5, 6, 6, 0, 15)}))))
}
