package loss_test

import (
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
)

// The French narration of a representative set of Loss events: the rule terms of the books
// (PA, NS, Exploit, Tour, Difficulté, Augmentation Gratuite…), French typography (a space
// before the colon and semicolon, « » quotes) and plurals.

func frNames() *narrate.Narrator { return namedIn(narrate.French, loxIDs) }

func TestNarrateInFrench(t *testing.T) {
	x := func(effects ...lossv1.ExploitEffect) []lossv1.ExploitEffect { return effects }
	for _, tc := range []struct {
		want string
		ev   *encounterv1.Event
	}{
		// The example, with its modifiers.
		{"#6 Diego attaque Le malfrat à l'épée (4 PA, 1 Exploit : dégâts supplémentaires) : 6+6+d10[6]+5 = 23 contre 20 — réussite " +
			"(+5 plus haut que l'adversaire (LOS-052) ; Difficulté 15, +5 1 Exploit (LOS-010)) ; Le malfrat peut parer ou esquiver",
			nAttack(6, &lossv1.AttackRolled{AttackerId: "diego", TargetId: "ruffian", Weapon: "épée", ActionPointsSpent: 4, Exploits: x(xDamage),
				Test: &lossv1.TestResult{Roll: nD10(6), Trait: 6, Talent: 6, Bonus: 5, Total: 23, Difficulty: 20, Success: true,
					TestModifiers: []*lossv1.Modifier{nMod("higher than the opponent", 5, "LOS-052")}, DifficultyModifiers: []*lossv1.Modifier{nMod("1 Exploit", 5, "LOS-010")}},
				DefencePossible: true, DefenceDifficulty: 20})},
		// Spending, several Exploits, a defender's own Difficulty.
		{"#12 Diego attaque Le malfrat à la dague et au gourdin (4 PA, 4 Exploits : deux armes, dégâts supplémentaires ×2) : 6+6+d10[7]+15 = 34 contre 30 — réussite " +
			"(+10 2 Fursa (LOS-004), +5 1 Inspiration de Courage (LOS-004), +5 3 Augmentations Gratuites (LOS-004)) ; Le malfrat peut parer ou esquiver à Difficulté 25",
			nAttack(12, &lossv1.AttackRolled{AttackerId: "diego", TargetId: "ruffian", Weapon: "dague", SecondWeapon: "gourdin", ActionPointsSpent: 4,
				Exploits: x(xTwo, xDamage, xDamage),
				Test: &lossv1.TestResult{Roll: nD10(7), Trait: 6, Talent: 6, Bonus: 15, Total: 34, Difficulty: 30, Success: true,
					TestModifiers: []*lossv1.Modifier{nMod("2 Fursa", 10, "LOS-004"), nMod("1 Inspiration of Courage", 5, "LOS-004"), nMod("3 free raises", 5, "LOS-004")}},
				DefencePossible: true, DefenceDifficulty: 25})},
		// Several targets, the reasons they cannot defend, a named weapon, claws.
		{"#20 griffon-1 attaque Le malfrat, Canahan et Diego aux griffes (2 PA, 2 Exploits : Moulinet) : 6+6+d10[10,3] = 25 contre 25 — réussite ; Le malfrat peut parer ou esquiver ; " +
			"pas de défense pour Canahan : Canahan ne voit pas l'attaque (LOS-017) ; pas de défense pour Diego : le mur défensif de Diego est sa défense pour ce Tour (LOS-066)",
			nAttack(20, &lossv1.AttackRolled{AttackerId: "griffon-1", TargetId: "ruffian", Weapon: "griffes", ActionPointsSpent: 2,
				Exploits: x(lossv1.ExploitEffect_EXPLOIT_EFFECT_MOULINET),
				Test:     &lossv1.TestResult{Roll: nD10(10, 3), Trait: 6, Talent: 6, Total: 25, Difficulty: 25, Success: true}, DefencePossible: true,
				MoreTargets: []*lossv1.TargetReaction{{TargetId: "canahan", NoDefenceReason: "Canahan does not see the attack (LOS-017)"},
					{TargetId: "diego", NoDefenceReason: "Diego's wall is its defence this Tour (LOS-066)"}}})},
		{"#21 Diego contre-attaque Le malfrat avec Serres-de-Minuit (3 PA) : 6+6+d10[1] = 13 contre 15 — échec",
			nAttack(21, &lossv1.AttackRolled{AttackerId: "diego", TargetId: "ruffian", Weapon: "Serres-de-Minuit", ActionPointsSpent: 3, Counter: true,
				Test: &lossv1.TestResult{Roll: nD10(1), Trait: 6, Talent: 6, Total: 13, Difficulty: 15}})},
		{"#22 Diego tente d'agripper Le malfrat (3 PA) : jet caché — réussite ; pas de défense : Le malfrat est surpris (LOS-052)",
			nAttack(22, &lossv1.AttackRolled{AttackerId: "diego", TargetId: "ruffian", ActionPointsSpent: 3, Manoeuvre: lossv1.Manoeuvre_MANOEUVRE_GRAB,
				Test: &lossv1.TestResult{Success: true}, NoDefenceReason: "Le malfrat is surprised (LOS-052)"})},
		// Defences.
		{"#30 Le malfrat pare (1 PA, 2 Exploits : contre-attaque, prendre l'avantage) : 5+5+d10[10,3] = 23 contre 25 — échec ; la défense partielle annule 1 Exploit de l'attaquant",
			nDefence(30, &lossv1.DefenceRolled{DefenderId: "ruffian", Reaction: lossv1.Reaction_REACTION_PARRY, ActionPointsSpent: 1, Exploits: 2,
				Effects: x(lossv1.ExploitEffect_EXPLOIT_EFFECT_COUNTER_ATTACK, lossv1.ExploitEffect_EXPLOIT_EFFECT_TAKE_ADVANTAGE),
				Test:    &lossv1.TestResult{Roll: nD10(10, 3), Trait: 5, Talent: 5, Total: 23, Difficulty: 25}, ExploitsCancelled: 1})},
		{"#31 Canahan esquive (1 PA, 1 Exploit : protéger Diego) : 5+6+d10[9] = 20 contre 20 — réussite ; la défense partielle annule 2 Exploits de l'attaquant",
			nDefence(31, &lossv1.DefenceRolled{DefenderId: "canahan", Reaction: lossv1.Reaction_REACTION_DODGE, ActionPointsSpent: 1, Exploits: 1,
				Effects: x(lossv1.ExploitEffect_EXPLOIT_EFFECT_PROTECT), AllyId: "diego", ExploitsCancelled: 2,
				Test: &lossv1.TestResult{Roll: nD10(9), Trait: 5, Talent: 6, Total: 20, Difficulty: 20, Success: true}})},
		{"#32 Canahan encaisse le coup",
			nDefence(32, &lossv1.DefenceRolled{DefenderId: "canahan", Reaction: lossv1.Reaction_REACTION_NONE})},
		{"#33 Canahan pare (1 PA) : 6+5+d10[2]+10 = 23 contre 15 — réussite (dépense : 1 Fursa, 1 Augmentation Gratuite)",
			nDefence(33, &lossv1.DefenceRolled{DefenderId: "canahan", Reaction: lossv1.Reaction_REACTION_PARRY, ActionPointsSpent: 1,
				Test: &lossv1.TestResult{Roll: nD10(2), Trait: 6, Talent: 5, Bonus: 10, Total: 23, Difficulty: 15, Success: true, Spend: &lossv1.Spend{Fursa: 1, FreeRaises: 1}}})},
		// Blows.
		{"#40 Diego touche Le malfrat avec 3 Exploits maintenus (dégâts supplémentaires ×2, feinte) : dégâts 3d10[6,3,9]+3 = 21, divisés par deux à 10, armure 1 → 9 NS perdus ; NS du malfrat : légères 0, graves 1, fatales 5",
			nResolved(40, &lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true, ExploitsStanding: 3, Halved: true,
				Effects: x(xDamage, xDamage, lossv1.ExploitEffect_EXPLOIT_EFFECT_FEINT),
				Damage:  &lossv1.Damage{Roll: &dicev1.Roll{Expression: "3d10", Faces: []int32{6, 3, 9}, Total: 18}, WeaponDamage: 3, Total: 10, Armour: 1, LevelsLost: 9},
				Grave:   1, Fatal: 5})},
		{"#41 Diego touche Le malfrat avec 1 Exploit maintenu (deux armes) : dégâts d10[5]+2 = 7, bouclier 1 → 6 NS perdus, et les dégâts de la seconde arme d10[1]+3 = 4 → 1 NS perdu ; Le malfrat a 5 NS",
			nResolved(41, &lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true, ExploitsStanding: 1, Effects: x(xTwo),
				Damage:       &lossv1.Damage{Roll: nD10(5), WeaponDamage: 2, Total: 7, Shield: 1, LevelsLost: 6},
				SecondDamage: &lossv1.Damage{Roll: nD10(1), WeaponDamage: 3, Total: 4, LevelsLost: 1}, Health: 5})},
		{"#42 Le malfrat touche Diego : dégâts d10[9]+2 = 11 → 11 NS perdus — Diego est à terre, agonisant (LOS-023)",
			nResolved(42, &lossv1.AttackResolved{AttackerId: "ruffian", TargetId: "diego", Hit: true, TargetOut: true, TargetDying: true,
				Damage: &lossv1.Damage{Roll: nD10(9), WeaponDamage: 2, Total: 11, LevelsLost: 11}})},
		{"#43 Diego touche Le malfrat avec 5 Exploits maintenus (tuer net) ; Le malfrat est tué net : 0 case de blessure fatale, agonisant (LOS-078) — Le malfrat est hors de combat",
			nResolved(43, &lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true, ExploitsStanding: 5, TargetOut: true,
				Effects: x(lossv1.ExploitEffect_EXPLOIT_EFFECT_KILL_OUTRIGHT), Note: "Le malfrat is killed outright: 0 fatal boxes, dying (LOS-078)"})},
		{"#44 L'attaque du malfrat contre Diego échoue : la défense partielle a annulé tous les Exploits : l'attaque échoue (option LOS-015)",
			nResolved(44, &lossv1.AttackResolved{AttackerId: "ruffian", TargetId: "diego", Note: "partial defence cancelled every Exploit: the attack misses (LOS-015 option)"})},
		{"#45 Diego fait chuter Le malfrat, divisés par deux à deux reprises ; pas d'effet automatique : le MJ applique la suite comme des situations (LOS-035)",
			nResolved(45, &lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true, Manoeuvre: lossv1.Manoeuvre_MANOEUVRE_TRIP, Halved: true, Halvings: 2,
				Note: "no automatic effect: the GM applies what follows as situations (LOS-035)"})},
		// The other actions.
		{"#50 Tour 2 (Séquence 1) : Diego 8+d10[7] = 15 PA (bonus +2 : 17 PA) ; griffon-1 et griffon-2 5+d10[8] = 13 PA (griffon-1 bonus +3 : 16 PA) ; Canahan lance, caché",
			nEv(50, &lossv1.Event{Kind: &lossv1.Event_TourStarted{TourStarted: &lossv1.TourStarted{Tour: 2, Sequence: 1, Initiative: []*lossv1.InitiativeRoll{
				{CombatantIds: []string{"diego"}, Initiative: 8, Roll: nD10(7), ActionPoints: 15, Bonus: map[string]int32{"diego": 2}},
				{CombatantIds: []string{"griffon-1", "griffon-2"}, Initiative: 5, Roll: nD10(8), ActionPoints: 13, Bonus: map[string]int32{"griffon-1": 3}},
				{CombatantIds: []string{"canahan"}},
			}}}})},
		{"#51 Tour 11 (Séquence 2) : personne ne lance l'Initiative",
			nEv(51, &lossv1.Event{Kind: &lossv1.Event_TourStarted{TourStarted: &lossv1.TourStarted{Tour: 11, Sequence: 2}}})},
		{"#52 Diego passe et garde 1 PA pour parer ou esquiver",
			nEv(52, &lossv1.Event{Kind: &lossv1.Event_Passed{Passed: &lossv1.Passed{CombatantId: "diego", ActionPointsLeft: 1}}})},
		{"#53 Canahan déclare : « Je charge le griffon »",
			nEv(53, &lossv1.Event{Kind: &lossv1.Event_Declared{Declared: &lossv1.Declared{CombatantId: "canahan", Intention: "Je charge le griffon"}}})},
		{"#54 Diego attend de la phase 12 à la phase 4 (action suivante −8 PA, minimum 2)",
			nEv(54, &lossv1.Event{Kind: &lossv1.Event_Waited{Waited: &lossv1.Waited{CombatantId: "diego", FromPhase: 12, UntilPhase: 4, Discount: 8}}})},
		{"#55 Diego vise à l'arbalète (2 PA) : +2 au prochain Test avec cette arme (LOS-035)",
			nEv(55, &lossv1.Event{Kind: &lossv1.Event_Aimed{Aimed: &lossv1.Aimed{CombatantId: "diego", Weapon: "arbalète", ActionPointsSpent: 2, Bonus: 2}}})},
		{"#56 Diego parle : « Rends-toi ! »",
			nEv(56, &lossv1.Event{Kind: &lossv1.Event_SimpleActed{SimpleActed: &lossv1.SimpleActed{CombatantId: "diego", Kind: lossv1.SimpleKind_SIMPLE_KIND_SPEAK, Description: "Rends-toi !"}}})},
		{"#57 Le malfrat se relève (4 PA)",
			nEv(57, &lossv1.Event{Kind: &lossv1.Event_SimpleActed{SimpleActed: &lossv1.SimpleActed{CombatantId: "ruffian", Kind: lossv1.SimpleKind_SIMPLE_KIND_STAND_UP, ActionPointsSpent: 4}}})},
		{"#58 le MJ transforme l'Exploit raté de Diego en Désastre : « la lame se brise » (LOS-006)",
			nEv(58, &lossv1.Event{Kind: &lossv1.Event_DisasterDeclared{DisasterDeclared: &lossv1.DisasterDeclared{CombatantId: "diego", Description: "la lame se brise"}}})},
		{"#59 Canahan prodigue des soins urgents au malfrat : Le malfrat est sauvé (LOS-023)",
			nEv(59, &lossv1.Event{Kind: &lossv1.Event_DyingResolved{DyingResolved: &lossv1.DyingResolved{CombatantId: "canahan", TargetId: "ruffian",
				Choice: lossv1.DyingChoice_DYING_CHOICE_URGENT_CARE}}})},
		{"#60 Diego sacrifie 1 Inspiration de Courage : Diego est sauvé (LOS-023)",
			nEv(60, &lossv1.Event{Kind: &lossv1.Event_DyingResolved{DyingResolved: &lossv1.DyingResolved{CombatantId: "diego", TargetId: "diego",
				Choice: lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION, Vertu: "Courage"}}})},
		{"#61 Le malfrat décide du sort de Diego : Diego est mort (LOS-023)",
			nEv(61, &lossv1.Event{Kind: &lossv1.Event_DyingResolved{DyingResolved: &lossv1.DyingResolved{CombatantId: "ruffian", TargetId: "diego", Dead: true}}})},
		{"#62 Diego reçoit 2 Augmentations Gratuites : la position haute (LOS-004)",
			nEv(62, &lossv1.Event{Kind: &lossv1.Event_FreeRaisesGranted{FreeRaisesGranted: &lossv1.FreeRaisesGranted{CombatantId: "diego", Count: 2, Reason: "la position haute"}}})},
		{"#63 Diego perd 1 Augmentation Gratuite (LOS-004)",
			nEv(63, &lossv1.Event{Kind: &lossv1.Event_FreeRaisesGranted{FreeRaisesGranted: &lossv1.FreeRaisesGranted{CombatantId: "diego", Count: -1}}})},
		{"#64 (événement de Loss vide)", nEv(64, &lossv1.Event{})},
	} {
		var seq uint64
		_, _ = seqOf(tc.want, &seq)
		require.Equal(t, tc.want, frNames().Text(tc.ev))
	}
}

// A pursuit told in French, event after event: the distance is followed as in English.
func TestNarrateAPursuitInFrench(t *testing.T) {
	n := frNames()
	acted := func(a *lossv1.PursuitActed) *lossv1.Event {
		return &lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: a}}
	}
	test := func(face, diff int32) *lossv1.TestResult {
		return &lossv1.TestResult{Roll: nD10(face), Trait: 5, Talent: 6, Total: 11 + face, Difficulty: diff, Success: 11+face >= diff}
	}
	for i, tc := range []struct {
		want string
		e    *lossv1.Event
	}{
		{"#1 la poursuite commence : Diego poursuit Le malfrat à distance 2, proche (LOS-100)",
			&lossv1.Event{Kind: &lossv1.Event_PursuitStarted{PursuitStarted: &lossv1.PursuitStarted{Pursuit: &lossv1.Pursuit{
				PursuerIds: []string{"diego"}, PursuedIds: []string{"ruffian"}, Distance: 2}}}}},
		{"#2 poursuite : Diego charge Le malfrat (3 PA, 1 Exploit) : 5+6+d10[9] = 20 contre 20 — réussite ; Le malfrat peut esquiver",
			acted(&lossv1.PursuitActed{CombatantId: "diego", Kind: lossv1.PursuitKind_PURSUIT_KIND_CHARGE, TargetId: "ruffian", ActionPointsSpent: 3, Exploits: 1,
				Success: true, DodgePossible: true, Distance: 2, Test: test(9, 20)})},
		{"#3 poursuite : la charge de Diego sur Le malfrat porte ; Le malfrat est désarçonné ou jeté à terre",
			acted(&lossv1.PursuitActed{CombatantId: "diego", Kind: lossv1.PursuitKind_PURSUIT_KIND_CHARGE, TargetId: "ruffian", Resolves: true, Success: true,
				TargetDown: true, Distance: 2, Note: "Le malfrat is unseated or thrown down"})},
		{"#4 poursuite : Le malfrat fait la corde-à-linge à Diego (2 PA) : 5+6+d10[8] = 19 contre 15 — réussite ; Diego tombe ; distance 2 → 3",
			acted(&lossv1.PursuitActed{CombatantId: "ruffian", Kind: lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE, TargetId: "diego", ActionPointsSpent: 2,
				Success: true, TargetDown: true, Distance: 3, Test: test(8, 15)})},
		{"#5 poursuite : Le malfrat zigzague (2 PA) : 5+6+d10[9] = 20 contre 20 — réussite ; les actions des poursuivants ont +5 en Difficulté (LOS-107)",
			acted(&lossv1.PursuitActed{CombatantId: "ruffian", Kind: lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS, ActionPointsSpent: 2, Success: true, Distance: 3, Zigzag: 5,
				Test: test(9, 20)})},
		{"#6 poursuite : Diego tire dans les jambes du malfrat (7 PA) : 5+6+d10[9] = 20 contre 15 — réussite ; le tir : 5+6+d10[4] = 15 contre 20 — échec",
			acted(&lossv1.PursuitActed{CombatantId: "diego", Kind: lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS, TargetId: "ruffian", ActionPointsSpent: 7,
				Distance: 3, Test: test(9, 15), Shot: test(4, 20)})},
		{"#7 poursuite : Le malfrat évite le plaquage de Diego",
			acted(&lossv1.PursuitActed{CombatantId: "diego", Kind: lossv1.PursuitKind_PURSUIT_KIND_TACKLE, TargetId: "ruffian", Resolves: true, Distance: 3})},
		{"#8 poursuite : Le malfrat change la distance 3 → 5 (2 PA, 2 Exploits) : 5+6+d10[10,9] = 30 contre 30 — réussite",
			acted(&lossv1.PursuitActed{CombatantId: "ruffian", Kind: lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE, ActionPointsSpent: 2, Exploits: 2, Success: true,
				Distance: 5, Test: &lossv1.TestResult{Roll: nD10(10, 9), Trait: 5, Talent: 6, Total: 30, Difficulty: 30, Success: true}})},
		{"#9 poursuite : Le malfrat change la distance depuis 5 (2 PA) : 5+6+d10[10,10] = 31 contre 30 — réussite ; on se perd de vue : la poursuite s'arrête (LOS-100)",
			acted(&lossv1.PursuitActed{CombatantId: "ruffian", Kind: lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE, ActionPointsSpent: 2, Success: true, Ended: true,
				Note: "sight is lost: the pursuit ends (LOS-100)", Test: &lossv1.TestResult{Roll: nD10(10, 10), Trait: 5, Talent: 6, Total: 31, Difficulty: 30, Success: true}})},
		{"#10 poursuite : Diego tente de changer la distance (2 PA) : 5+6+d10[1] = 12 contre 20 — échec ; la distance reste 4",
			acted(&lossv1.PursuitActed{CombatantId: "diego", Kind: lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE, ActionPointsSpent: 2, Distance: 4, Test: test(1, 20)})},
	} {
		ev := nEv(uint64(i+1), tc.e)
		require.Equal(t, tc.want, n.Narrate(ev))
	}
	require.Equal(t, int32(0), loss.Distance(n), "the pursuit has ended")
}

// The house rules and the sheet of a joining combatant, in French.
func TestNarrateTheCreationAndTheSheetsInFrench(t *testing.T) {
	o, err := loss.New(1).Options(nil)
	require.NoError(t, err)
	created := &encounterv1.Event{Sequence: 1, RuleSystem: "loss", RulesVersion: 1, Payload: &encounterv1.Event_EncounterCreated{
		EncounterCreated: &encounterv1.EncounterCreated{Name: "Ruelle", GameMaster: "gm", Options: o}}}
	require.Equal(t, "#1 Rencontre « Ruelle » créée par gm, loss v1 ; règles : les d10 d'action explosent, les d10 de dégâts n'explosent pas, paliers de santé 5/5/5, Fursa du MJ 0, "+
		"le MJ gagne une Fursa quand un personnage joueur rate un Exploit, les personnages joueurs sans Fursa commencent avec 1, "+
		"un Exploit défensif réussi donne +5 à l'action suivante, une attaque dont tous les Exploits sont annulés touche quand même, "+
		"les modificateurs propres à l'attaquant ne passent pas au défenseur, un Sbire qui annule l'unique Exploit subit un coup simple, "+
		"0 case de blessure fatale, c'est l'agonie, un mur défensif ou une Esquive totale est la seule défense du Tour, les visées ne se cumulent pas, "+
		"les Zigzags durent jusqu'à l'action suivante du poursuivi, pas de tour de déclaration, les actions d'une même phase sont simultanées",
		fr().Text(created))
	sbire := &encounterv1.Combatant{Id: "marin", Name: "Marin", Side: "malfrats", Hidden: true,
		Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{Kind: lossv1.CombatantKind_COMBATANT_KIND_SBIRE}}}
	require.Equal(t, "#2 rejoint la rencontre : Marin (marin) : caché par le MJ, Sbire, camp malfrats ; rejoint le combat en cours : agit dès le Tour suivant (LOS-039)",
		fr().Text(&encounterv1.Event{Sequence: 2, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{Combatant: sbire, InProgress: true}}}))
}
