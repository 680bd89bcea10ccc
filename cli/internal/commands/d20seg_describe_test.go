package commands

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func d20Ev(seq uint64, e *d20segv1.Event) *encounterv1.Event {
	return &encounterv1.Event{Sequence: seq, Payload: &encounterv1.Event_D20Seg{D20Seg: e}}
}

var d20Names = NewNames(map[string]string{"novice": "Novice", "soldat": "Soldat", "veteran": "Vétéran", "maitre": "Maître", "mage": "Mage"})

func describeD20(seq uint64, e *d20segv1.Event) string { return d20Names.Describe(d20Ev(seq, e)) }

func die(sides, face int32) *dicev1.Roll {
	return &dicev1.Roll{Expression: "1d" + map[int32]string{6: "6", 8: "8", 20: "20"}[sides], Faces: []int32{face}, Total: face}
}

// D20-T01 and D20-T04: Initiative from Rapidité and equipment, the tie broken by a roll-off,
// rolled again while still tied.
func TestDescribeD20Initiative(t *testing.T) {
	cs := &d20segv1.CombatStarted{
		Initiative: []*d20segv1.InitiativeEntry{
			{CombatantId: "novice", Rapidite: 3, Equipment: 2, Initiative: 5},
			{CombatantId: "soldat", Rapidite: 3, Equipment: -5, Initiative: -2},
			{CombatantId: "veteran", Rapidite: 6, Equipment: -2, Initiative: 4, TieOrder: 1},
			{CombatantId: "maitre", Rapidite: 5, Equipment: -1, Initiative: 4},
		},
		RollOffs: []*d20segv1.RollOff{
			{CombatantIds: []string{"veteran", "maitre"}, Rolls: []*dicev1.Roll{die(20, 11), die(20, 11)}},
			{CombatantIds: []string{"veteran", "maitre"}, Rolls: []*dicev1.Roll{die(20, 8), die(20, 15)}},
		},
	}
	require.Equal(t, "#7 Initiative for the combat (D20-010, D20-012): Novice 5 (Rapidité 3 + 2 equipment); Maître 4 (Rapidité 5 − 1 equipment); "+
		"Vétéran 4 (Rapidité 6 − 2 equipment); Soldat −2 (Rapidité 3 − 5 equipment); roll-off: Vétéran d20[11], Maître d20[11] (D20-011); "+
		"roll-off: Vétéran d20[8], Maître d20[15] (D20-011); at a shared segment: Novice, Maître, Vétéran, Soldat",
		describeD20(7, &d20segv1.Event{Kind: &d20segv1.Event_CombatStarted{CombatStarted: cs}}))
	require.Equal(t, "#7 Initiative for the combat (D20-010, D20-012): Novice 5 (Rapidité 3 + 2 equipment)",
		describeD20(7, &d20segv1.Event{Kind: &d20segv1.Event_CombatStarted{CombatStarted: &d20segv1.CombatStarted{Initiative: cs.GetInitiative()[:1]}}}))
	require.Equal(t, "#7 Initiative for the combat (D20-010, D20-012): no one",
		describeD20(7, &d20segv1.Event{Kind: &d20segv1.Event_CombatStarted{CombatStarted: &d20segv1.CombatStarted{}}}))
}

func TestDescribeD20SurpriseAndRounds(t *testing.T) {
	sr := &d20segv1.SurpriseRoundStarted{AttackerIds: []string{"veteran", "maitre"}, Apprehension: []*d20segv1.ApprehensionRolled{
		{DefenderId: "novice", Roll: die(20, 7), Modifiers: -3, Total: 4, Opposition: 18, StealthBy: "veteran", StealthRoll: die(20, 10), Surprised: true},
		{DefenderId: "soldat", Roll: die(20, 19), Modifiers: -1, Total: 18, Opposition: 17, StealthBy: "veteran", StealthRoll: die(20, 9)},
		{DefenderId: "mage", Roll: die(20, 12), Modifiers: 4, Total: 16, Opposition: 15},
	}}
	require.Equal(t, "#9 Surprise attack by Vétéran and Maître: a free action each first, in Initiative order, then segments 0–2 of the surprise round (D20-004); "+
		"Novice: apprehension d20[7] − 3 = 4 vs Vétéran's stealth d20[10] + 8 = 18: surprised, flat-footed (D20-003, D20-006); "+
		"Soldat: apprehension d20[19] − 1 = 18 vs Vétéran's stealth d20[9] + 8 = 17: not surprised (D20-003, D20-005); "+
		"Mage: apprehension d20[12] + 4 = 16 vs 15 (no stealth): not surprised (D20-003, D20-005)",
		describeD20(9, &d20segv1.Event{Kind: &d20segv1.Event_SurpriseRoundStarted{SurpriseRoundStarted: sr}}))
	// skip_apprehension: surprised without a roll (D20-000).
	require.Equal(t, "#9 Surprise attack by Maître: a free action each first, in Initiative order, then segments 0–2 of the surprise round (D20-004); "+
		"Novice is surprised without an apprehension roll, flat-footed (D20-000, D20-006)",
		describeD20(9, &d20segv1.Event{Kind: &d20segv1.Event_SurpriseRoundStarted{SurpriseRoundStarted: &d20segv1.SurpriseRoundStarted{
			AttackerIds: []string{"maitre"}, Apprehension: []*d20segv1.ApprehensionRolled{{DefenderId: "novice", Surprised: true}}}}}))
	// D20-003: those named neither attacker nor defender take no part in the surprise round.
	require.Equal(t, "#9 Surprise attack by Maître: a free action each first, in Initiative order, then segments 0–2 of the surprise round (D20-004); "+
		"Novice is surprised without an apprehension roll, flat-footed (D20-000, D20-006); "+
		"Soldat and Mage, named neither attacker nor defender, take no part in the surprise round (D20-003)",
		describeD20(9, &d20segv1.Event{Kind: &d20segv1.Event_SurpriseRoundStarted{SurpriseRoundStarted: &d20segv1.SurpriseRoundStarted{
			AttackerIds: []string{"maitre"}, Apprehension: []*d20segv1.ApprehensionRolled{{DefenderId: "novice", Surprised: true}},
			BystanderIds: []string{"soldat", "mage"}}}}))
	require.Contains(t, describeD20(9, &d20segv1.Event{Kind: &d20segv1.Event_SurpriseRoundStarted{SurpriseRoundStarted: &d20segv1.SurpriseRoundStarted{
		AttackerIds: []string{"maitre"}, BystanderIds: []string{"mage"}}}}), "; Mage, named neither attacker nor defender, takes no part in the surprise round (D20-003)")

	require.Equal(t, "#19 Round 1: segments 0 to 5 (D20-013)",
		describeD20(19, &d20segv1.Event{Kind: &d20segv1.Event_RoundStarted{RoundStarted: &d20segv1.RoundStarted{Round: 1}}}))
	// D20-019, D20-020: the spells cast for this round, the actions carried over from the last.
	require.Equal(t, "#30 Round 2: segments 0 to 5 (D20-013); taking effect now: peau de pierre, sommeil (D20-019); "+
		"carried over from the last round: Mage 2 segments, Maître 1 segment (D20-020)",
		describeD20(30, &d20segv1.Event{Kind: &d20segv1.Event_RoundStarted{RoundStarted: &d20segv1.RoundStarted{Round: 2,
			SpellsTakingEffect: []string{"peau de pierre", "sommeil"},
			Carried:            []*d20segv1.CarriedOver{{CombatantId: "mage", Segments: 2}, {CombatantId: "maitre", Segments: 1}}}}}))
}

func TestDescribeD20Attacks(t *testing.T) {
	attack := func(a *d20segv1.AttackRolled) string {
		return describeD20(12, &d20segv1.Event{Kind: &d20segv1.Event_AttackRolled{AttackRolled: a}})
	}
	// D20-T03: 34 against a flat-footed CA 10 (11 − Agility 1): a critical; 2 × (5 + 3) + 2.
	require.Equal(t, "#12 free action (D20-004): Vétéran attacks Novice with épée longue: d20[20] + 14 = 34 vs CA 10 (flat-footed, D20-006) — "+
		"a critical hit, 20 or more above the CA (D20-042): damage 18 (d8[5] and the bonuses, multiplied; feats once); Novice has −10 hit points left: down (D20-044)",
		attack(&d20segv1.AttackRolled{AttackerId: "veteran", TargetId: "novice", Weapon: "épée longue", Free: true, Roll: die(20, 20), Bonus: 14, Total: 34,
			Ca: 10, FlatFooted: true, Hit: true, Critical: true, DamageRoll: die(8, 5), Damage: 18, HitPointsLeft: -10, Down: true}))
	// A hit at segment 3 at the cost of BBA 11; a miss; a hit whose maluses leave no damage.
	require.Equal(t, "#12 segment 3: Vétéran attacks Soldat with épée longue (2 segments, D20-017): d20[14] + 14 = 28 vs CA 21 — a hit (D20-040): "+
		"damage d8[6] + 5 = 11 (D20-041); Soldat has 34 hit points left",
		attack(&d20segv1.AttackRolled{AttackerId: "veteran", TargetId: "soldat", Weapon: "épée longue", Segment: 3, Cost: 2, Roll: die(20, 14), Bonus: 14, Total: 28,
			Ca: 21, Hit: true, DamageRoll: die(8, 6), Damage: 11, HitPointsLeft: 34}))
	require.Equal(t, "#12 segment −1: Maître attacks Soldat (1 segment, D20-017): d20[1] + 20 = 21 vs CA 24 — a miss (D20-040)",
		attack(&d20segv1.AttackRolled{AttackerId: "maitre", TargetId: "soldat", Segment: -1, Cost: 1, Roll: die(20, 1), Bonus: 20, Total: 21, Ca: 24}))
	require.Equal(t, "#12 segment 0: Novice attacks Maître with poings (4 segments, D20-017): d20[20] − 2 = 18 vs CA 18 — a hit (D20-040): "+
		"damage d3[1] and the maluses: 0; Maître has 120 hit points left",
		attack(&d20segv1.AttackRolled{AttackerId: "novice", TargetId: "maitre", Weapon: "poings", Cost: 4, Roll: die(20, 20), Bonus: -2, Total: 18, Ca: 18, Hit: true,
			DamageRoll: &dicev1.Roll{Expression: "1d3", Faces: []int32{1}, Total: 1}, HitPointsLeft: 120}))
	require.Equal(t, "#12 segment 0: Novice attacks Maître with poings (4 segments, D20-017): d20[20] + 0 = 20 vs CA 18 — a hit (D20-040): "+
		"damage d3[2] = 2; Maître has 118 hit points left",
		attack(&d20segv1.AttackRolled{AttackerId: "novice", TargetId: "maitre", Weapon: "poings", Cost: 4, Roll: die(20, 20), Total: 20, Ca: 18, Hit: true,
			DamageRoll: &dicev1.Roll{Expression: "1d3", Faces: []int32{2}, Total: 2}, Damage: 2, HitPointsLeft: 118}))
}

func TestDescribeD20OtherEvents(t *testing.T) {
	require.Equal(t, "#20 segment 0: Maître casts peau de pierre (2 segments, D20-018); it takes effect at the start of the next round (D20-019)",
		describeD20(20, &d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{CombatantId: "maitre", Spell: "peau de pierre",
			Cost: 2, NextRound: true}}}))
	require.Equal(t, "#21 free action (D20-004): Mage casts sommeil",
		describeD20(21, &d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{CombatantId: "mage", Spell: "sommeil", Segment: 0, Free: true}}}))
	require.Equal(t, "#22 segment 4: Mage casts boule de feu (3 segments, D20-018)",
		describeD20(22, &d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{CombatantId: "mage", Spell: "boule de feu", Segment: 4, Cost: 3}}}))
	require.Equal(t, `#23 segment 2: Soldat: "climbs the wall" (3 segments, D20-022)`,
		describeD20(23, &d20segv1.Event{Kind: &d20segv1.Event_OtherDone{OtherDone: &d20segv1.OtherDone{CombatantId: "soldat", Description: "climbs the wall", Segment: 2, Cost: 3}}}))
	require.Equal(t, "#24 free action (D20-004): Maître: acts",
		describeD20(24, &d20segv1.Event{Kind: &d20segv1.Event_OtherDone{OtherDone: &d20segv1.OtherDone{CombatantId: "maitre", Free: true}}}))
	require.Equal(t, "#25 Soldat ends its turn for this round (D20-016)",
		describeD20(25, &d20segv1.Event{Kind: &d20segv1.Event_TurnEnded{TurnEnded: &d20segv1.TurnEnded{CombatantId: "soldat"}}}))
}

func TestDescribeD20Encounter(t *testing.T) {
	created := &encounterv1.Event{Sequence: 1, RuleSystem: "d20seg", RulesVersion: 1, Payload: &encounterv1.Event_EncounterCreated{
		EncounterCreated: &encounterv1.EncounterCreated{Name: "L'embuscade", GameMaster: "gm",
			Options: &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_D20Seg{D20Seg: &d20segv1.Options{ApprehensionScale: []int32{2, 5, 10},
				CarryOver: proto.Bool(true), DownAt: proto.Int32(-10), SkipApprehension: proto.Bool(true)}}}}}}
	require.Equal(t, `#1 Encounter "L'embuscade" created by gm, d20seg v1; rules: apprehension modifiers light 2, medium 5, high 10, `+
		`actions carry over into the next round, down at −10 hit points, no apprehension rolls: every defender of a surprise attack is surprised`, Describe(created))
	require.Equal(t, "#2 joins: Maître d'armes (maitre): Rapidité 5, Initiative 4, BBA 16, CA 24, 120 hit points, size G, side ambushers, controller gm",
		Describe(&encounterv1.Event{Sequence: 2, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{Combatant: mustSheet(t, "d20seg/maitre.yaml")}}}))
	require.Equal(t, "#1 (empty d20seg event)", Describe(d20Ev(1, &d20segv1.Event{})))
}
