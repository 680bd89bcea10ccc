package loss_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// The values a newer engine may record (an enum value this narration does not know), the
// empty and the unusual: each is told, in both languages.
func TestNarrateTheUnusual(t *testing.T) {
	require.Equal(t, loss.Teller{}, loss.New(1).Teller())
	for _, tc := range []struct {
		en, fr string
		e      *lossv1.Event
	}{
		{"#1 Diego attacks Le malfrat (2 PA, 2 Exploits: effect unspecified, 99): 6+6+d10[9] = 21 vs 15 — success; no defence",
			"#1 Diego attaque Le malfrat (2 PA, 2 Exploits : effet non précisé, 99) : 6+6+d10[9] = 21 contre 15 — réussite ; pas de défense",
			&lossv1.Event{Kind: &lossv1.Event_AttackRolled{AttackRolled: &lossv1.AttackRolled{AttackerId: "diego", TargetId: "ruffian", ActionPointsSpent: 2,
				Exploits: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_UNSPECIFIED, 99},
				Test:     &lossv1.TestResult{Roll: nD10(9), Trait: 6, Talent: 6, Total: 21, Difficulty: 15, Success: true}}}}},
		{"#2 Diego attacks Le malfrat with épée (2 PA, with damage): no roll", "#2 Diego attaque Le malfrat à l'épée (2 PA, avec dégâts) : pas de jet",
			&lossv1.Event{Kind: &lossv1.Event_AttackRolled{AttackRolled: &lossv1.AttackRolled{AttackerId: "diego", TargetId: "ruffian", Weapon: "épée", ActionPointsSpent: 2, WithDamage: true}}}},
		{"#3 Canahan reacts (99) (1 PA, protecting Diego)", "#3 Canahan réagit (99) (1 PA, en protégeant Diego)",
			&lossv1.Event{Kind: &lossv1.Event_DefenceRolled{DefenceRolled: &lossv1.DefenceRolled{DefenderId: "canahan", Reaction: 99, ActionPointsSpent: 1, AllyId: "diego"}}}},
		{"#4 Canahan dodges (1 PA, 1 Exploit: feint, protecting Diego)", "#4 Canahan esquive (1 PA, 1 Exploit : feinte, en protégeant Diego)",
			&lossv1.Event{Kind: &lossv1.Event_DefenceRolled{DefenceRolled: &lossv1.DefenceRolled{DefenderId: "canahan", Reaction: lossv1.Reaction_REACTION_DODGE,
				ActionPointsSpent: 1, Exploits: 1, Effects: []lossv1.ExploitEffect{lossv1.ExploitEffect_EXPLOIT_EFFECT_FEINT}, AllyId: "diego"}}}},
		{"#5 Diego hits Le malfrat: damage d10[9]+4 = 13, halved 3 times to 1 → 1 NS lost",
			"#5 Diego touche Le malfrat : dégâts d10[9]+4 = 13, divisés par deux 3 fois à 1 → 1 NS perdu",
			&lossv1.Event{Kind: &lossv1.Event_AttackResolved{AttackResolved: &lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true, Halved: true, Halvings: 3,
				Damage: &lossv1.Damage{Roll: nD10(9), WeaponDamage: 4, Total: 1, LevelsLost: 1}}}}},
		{"#6 Diego acts (99) (2 PA)", "#6 Diego agit (99) (2 PA)",
			&lossv1.Event{Kind: &lossv1.Event_SimpleActed{SimpleActed: &lossv1.SimpleActed{CombatantId: "diego", Kind: 99, ActionPointsSpent: 2}}}},
		{"#7 Diego speaks (1 PA)", "#7 Diego parle (1 PA)",
			&lossv1.Event{Kind: &lossv1.Event_SimpleActed{SimpleActed: &lossv1.SimpleActed{CombatantId: "diego", Kind: lossv1.SimpleKind_SIMPLE_KIND_SPEAK, ActionPointsSpent: 1}}}},
		{"#8 pursuit starts: Diego pursues ? at distance 0, out of sight (LOS-100)", "#8 la poursuite commence : Diego poursuit ? à distance 0, hors de vue (LOS-100)",
			&lossv1.Event{Kind: &lossv1.Event_PursuitStarted{PursuitStarted: &lossv1.PursuitStarted{Pursuit: &lossv1.Pursuit{PursuerIds: []string{"diego"}}}}}},
		{"#9 pursuit starts: Diego pursues Le malfrat at distance 7, out of sight (LOS-100)", "#9 la poursuite commence : Diego poursuit Le malfrat à distance 7, hors de vue (LOS-100)",
			&lossv1.Event{Kind: &lossv1.Event_PursuitStarted{PursuitStarted: &lossv1.PursuitStarted{Pursuit: &lossv1.Pursuit{PursuerIds: []string{"diego"}, PursuedIds: []string{"ruffian"}, Distance: 7}}}}},
		{"#10 pursuit: Diego acts (99) (2 PA): no roll", "#10 poursuite : Diego agit (99) (2 PA) : pas de jet",
			&lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: &lossv1.PursuitActed{CombatantId: "diego", Kind: 99, ActionPointsSpent: 2}}}},
		{"#11 pursuit: Le malfrat avoids Diego's pursuit action", "#11 poursuite : Le malfrat évite l'action de poursuite de Diego",
			&lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: &lossv1.PursuitActed{CombatantId: "diego", TargetId: "ruffian", Kind: 99, Resolves: true}}}},
		{"#12 pursuit: Diego changes distance (2 PA): no roll", "#12 poursuite : Diego change la distance (2 PA) : pas de jet",
			&lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: &lossv1.PursuitActed{CombatantId: "diego", Kind: lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE,
				ActionPointsSpent: 2, Success: true, Ended: true}}}},
		{"#13 Diego decides the fate of Le malfrat: Le malfrat is saved (LOS-023)", "#13 Diego décide du sort du malfrat : Le malfrat est sauvé (LOS-023)",
			&lossv1.Event{Kind: &lossv1.Event_DyingResolved{DyingResolved: &lossv1.DyingResolved{CombatantId: "diego", TargetId: "ruffian"}}}},
		{"#14 Diego sacrifices 1 Inspiration of ?: Diego is saved (LOS-023)", "#14 Diego sacrifie 1 Inspiration de ? : Diego est sauvé (LOS-023)",
			&lossv1.Event{Kind: &lossv1.Event_DyingResolved{DyingResolved: &lossv1.DyingResolved{CombatantId: "diego", TargetId: "diego",
				Choice: lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION}}}},
		{"#15 Diego is granted 0 free raises (LOS-004)", "#15 Diego reçoit 0 Augmentation Gratuite (LOS-004)",
			&lossv1.Event{Kind: &lossv1.Event_FreeRaisesGranted{FreeRaisesGranted: &lossv1.FreeRaisesGranted{CombatantId: "diego"}}}},
		{"#16 Diego loses 3 free raises: too bold (LOS-004)", "#16 Diego perd 3 Augmentations Gratuites : too bold (LOS-004)",
			&lossv1.Event{Kind: &lossv1.Event_FreeRaisesGranted{FreeRaisesGranted: &lossv1.FreeRaisesGranted{CombatantId: "diego", Count: -3, Reason: "too bold"}}}},
		{"#17 Diego hits Le malfrat; the GM's own note", "#17 Diego touche Le malfrat ; the GM's own note",
			&lossv1.Event{Kind: &lossv1.Event_AttackResolved{AttackResolved: &lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true, Note: "the GM's own note"}}}},
		{"#18 Diego attacks Le malfrat (2 PA): 6+6+d10[9]+5 = 26 vs 25 — success (+5 GM's call; Difficulty 5, +5 5 Exploits (LOS-010), +5 2 Inspiration of Honneur (LOS-004), +5 2 free raises (LOS-004), +5 2 Fursa (LOS-004)); no defence",
			"#18 Diego attaque Le malfrat (2 PA) : 6+6+d10[9]+5 = 26 contre 25 — réussite (+5 GM's call ; Difficulté 5, +5 5 Exploits (LOS-010), +5 2 Inspirations de Honneur (LOS-004), +5 2 Augmentations Gratuites (LOS-004), +5 2 Fursa (LOS-004)) ; pas de défense",
			&lossv1.Event{Kind: &lossv1.Event_AttackRolled{AttackRolled: &lossv1.AttackRolled{AttackerId: "diego", TargetId: "ruffian", ActionPointsSpent: 2,
				Test: &lossv1.TestResult{Roll: nD10(9), Trait: 6, Talent: 6, Bonus: 5, Total: 26, Difficulty: 25, Success: true,
					TestModifiers: []*lossv1.Modifier{nMod("GM's call", 5, "")},
					DifficultyModifiers: []*lossv1.Modifier{nMod("5 Exploits", 5, "LOS-010"), nMod("2 Inspiration of Honneur", 5, "LOS-004"),
						nMod("2 free raises", 5, "LOS-004"), nMod("2 Fursa", 5, "LOS-004")}}}}}},
		{"#19 Diego passes, keeping 0 PA to parry or dodge", "#19 Diego passe et garde 0 PA pour parer ou esquiver",
			&lossv1.Event{Kind: &lossv1.Event_Passed{Passed: &lossv1.Passed{CombatantId: "diego"}}}},
		{"#20 Diego attacks Le malfrat (2 PA): 6+6+d10[9]+15 = 36 vs 15 — success (spent 1 Fursa, 1 Courage; +5 from a defensive Exploit); no defence",
			"#20 Diego attaque Le malfrat (2 PA) : 6+6+d10[9]+15 = 36 contre 15 — réussite (dépense : 1 Fursa, 1 Courage ; +5 d'un Exploit défensif) ; pas de défense",
			&lossv1.Event{Kind: &lossv1.Event_AttackRolled{AttackRolled: &lossv1.AttackRolled{AttackerId: "diego", TargetId: "ruffian", ActionPointsSpent: 2,
				Test: &lossv1.TestResult{Roll: nD10(9), Trait: 6, Talent: 6, Bonus: 15, Total: 36, Difficulty: 15, Success: true,
					Spend: &lossv1.Spend{Fursa: 1, Inspiration: map[string]int32{"Courage": 1, "Honneur": 0}}}}}}},
	} {
		require.Equal(t, tc.en, nNames().Text(nEv(seqFrom(t, tc.en), tc.e)))
		require.Equal(t, tc.fr, frNames().Text(nEv(seqFrom(t, tc.fr), tc.e)))
	}
}

func seqFrom(t *testing.T, line string) uint64 {
	var seq uint64
	_, err := seqOf(line, &seq)
	require.NoError(t, err)
	return seq
}

func TestNarrateSheetsAndOptions(t *testing.T) {
	teller := loss.Teller{}
	for kind, want := range map[lossv1.CombatantKind][2]string{
		lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER: {"player character", "personnage joueur"},
		lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE:       {"adversaire", "Adversaire"},
		lossv1.CombatantKind_COMBATANT_KIND_SBIRE:            {"sbire", "Sbire"},
		lossv1.CombatantKind_COMBATANT_KIND_UNSPECIFIED:      {"kind unspecified", "type non précisé"},
	} {
		c := &encounterv1.Combatant{Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{Kind: kind}}}
		s, ok := teller.Sheet(en(), c)
		require.True(t, ok)
		require.Equal(t, want[0], s)
		s, _ = teller.Sheet(fr(), c)
		require.Equal(t, want[1], s)
	}
	_, ok := teller.Sheet(en(), &encounterv1.Combatant{})
	require.False(t, ok, "no Loss sheet")
	_, ok = teller.Options(en(), &encounterv1.RuleOptions{})
	require.False(t, ok, "no Loss options")
	_, ok = teller.Event(en(), &encounterv1.Event{Payload: &encounterv1.Event_EncounterStarted{}})
	require.False(t, ok, "not a Loss event")

	// Every option the other way round.
	off := &lossv1.Options{
		ExplodeActionD10: proto.Bool(false), ExplodeDamageD10: proto.Bool(true), GmFursaOnFailedExploit: proto.Bool(false),
		DefenceExploitBonus: proto.Int32(-2), CancelledExploitsStillHit: proto.Bool(false), PassAttackerModifiers: proto.Bool(true),
		SbireCancelledExploitPlainHit: proto.Bool(false), DyingAtZeroFatal: proto.Bool(false), WallIsOnlyDefence: proto.Bool(false),
		AimsStack: proto.Bool(true), ZigzagUntilNextAction: proto.Bool(false), DeclareLowToHigh: proto.Bool(true), SamePhaseSimultaneous: proto.Bool(false),
	}
	o := &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: off}}
	s, ok := teller.Options(en(), o)
	require.True(t, ok)
	require.Equal(t, "action d10s do not explode, damage d10s explode, no GM Fursa for failed Exploits, a successful defensive Exploit gives −2 on the next action, "+
		"an attack whose Exploits are all cancelled misses, the attacker's own modifiers pass on to the defender, a Sbire that cancels the only Exploit is felled all the same, "+
		"only Kill outright leaves a target dying, a wall or Total dodge still allows parries and dodges, aims stack, Zigzags last to the end of the Tour, "+
		"everyone declares, lowest Initiative first, actions at the same phase are not simultaneous", s)
	s, _ = teller.Options(fr(), o)
	require.Equal(t, "les d10 d'action n'explosent pas, les d10 de dégâts explosent, pas de Fursa du MJ pour les Exploits ratés, un Exploit défensif réussi donne −2 à l'action suivante, "+
		"une attaque dont tous les Exploits sont annulés échoue, les modificateurs propres à l'attaquant passent au défenseur, un Sbire qui annule l'unique Exploit tombe quand même, "+
		"seul Tuer net laisse une cible agonisante, un mur défensif ou une Esquive totale permet encore parades et esquives, les visées se cumulent, les Zigzags durent jusqu'à la fin du Tour, "+
		"chacun déclare, l'Initiative la plus basse d'abord, les actions d'une même phase ne sont pas simultanées", s)
	s, ok = teller.Options(en(), &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Loss{Loss: &lossv1.Options{}}})
	require.True(t, ok)
	require.Empty(t, s, "no option set")
}

// LearnState takes the pursuit distance of a state; a rewind restores it; a state without a
// pursuit forgets it.
func TestNarrationLearnsTheDistanceFromAState(t *testing.T) {
	n := nNames()
	n.LearnState(&encounterv1.EncounterState{System: &encounterv1.EncounterState_Loss{Loss: &lossv1.State{Pursuit: &lossv1.Pursuit{Distance: 4}}}})
	require.Equal(t, int32(4), loss.Distance(n))
	require.Equal(t, "#1 pursuit: Diego changes distance 4 → 3 (2 PA): no roll",
		n.Narrate(nEv(1, &lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: &lossv1.PursuitActed{CombatantId: "diego",
			Kind: lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE, ActionPointsSpent: 2, Success: true, Distance: 3}}})))
	require.Equal(t, int32(3), loss.Distance(n))
	// A dodge still possible: the distance waits for the outcome.
	n.Learn(nEv(2, &lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: &lossv1.PursuitActed{Success: true, DodgePossible: true, Distance: 1}}}))
	require.Equal(t, int32(3), loss.Distance(n))
	// A failure does not move it.
	n.Learn(nEv(3, &lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: &lossv1.PursuitActed{Distance: 5}}}))
	require.Equal(t, int32(3), loss.Distance(n))
	// The outcome of a dodge does.
	n.Learn(nEv(4, &lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: &lossv1.PursuitActed{Resolves: true, Distance: 2}}}))
	require.Equal(t, int32(2), loss.Distance(n))
	n.LearnState(&encounterv1.EncounterState{})
	require.Zero(t, loss.Distance(n))
	n.Learn(&encounterv1.Event{Payload: &encounterv1.Event_EncounterRewound{EncounterRewound: &encounterv1.EncounterRewound{
		State: &encounterv1.EncounterState{System: &encounterv1.EncounterState_Loss{Loss: &lossv1.State{Pursuit: &lossv1.Pursuit{Distance: 6}}}}}}})
	require.Equal(t, int32(6), loss.Distance(n))
	_ = narrate.English
}
