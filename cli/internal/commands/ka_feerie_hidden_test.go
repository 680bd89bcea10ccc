package commands

import (
	"bytes"
	"strings"
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
)

// The narration of Ka and Contes de Fées events and states as a player reads them when the GM
// hides a combatant: what is known is said, what is withheld is said to be, and no zero stands
// for a number the server kept.

// asPlayer is ev as the server gives it to a reader from whom the combatants of hidden are
// hidden: the rule system's own redaction, and the event marked redacted.
func asPlayer(sys engine.Redactor, ev *encounterv1.Event, hidden ...string) *encounterv1.Event {
	secret := func(id string) bool {
		for _, h := range hidden {
			if id == h {
				return true
			}
		}
		return false
	}
	sys.RedactEvent(ev, secret)
	ev.Redacted = true
	return ev
}

func hiddenNames(byID map[string]string, hidden ...string) *Names {
	n := NewNames(byID)
	for _, id := range hidden {
		n.hides(id, true)
	}
	return n
}

func TestDescribeKaWithAHiddenCombatant(t *testing.T) {
	names := hiddenNames(map[string]string{"joshua": "Joshua", "gargouille": "La gargouille"}, "gargouille")
	faceDownDraw := func(sphere string, sv int32, skill string, skv int32, position int32, cards ...*kav1.Card) *kav1.DrawResult {
		return kaDraw(sphere, sv, skill, skv, position, nil, cards...)
	}
	for _, c := range []struct {
		name string
		ev   *kav1.Event
		want string
	}{
		{"the deck: its cards, in no order (KA-003)",
			&kav1.Event{Kind: &kav1.Event_DeckShuffled{DeckShuffled: &kav1.DeckShuffled{Cards: 56}}},
			"The deck is whole: 56 cards, each card drawn at random from those left (KA-003)"},
		{"who may act, not how many actions (KA-010)",
			&kav1.Event{Kind: &kav1.Event_RoundStarted{RoundStarted: &kav1.RoundStarted{Round: 1, Actions: map[string]int32{"joshua": 2, "gargouille": 2}}}},
			"Round 1: Joshua 2 actions, La gargouille (its actions withheld) (each its lowest sphere, KA-010)"},
		{"its attack: the target, not the weapon, the modifier or the cards",
			&kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "gargouille", TargetId: "joshua", Declared: true, DefencePossible: true,
				Attack: &kav1.Attack{TargetId: "joshua", Weapon: "Serres-de-Minuit", Modifier: -3},
				Draw:   faceDownDraw(ka.Animalite, 19, "Griffes-de-Basalte", 16, 1, coupe9)}}},
			"La gargouille attacks Joshua: a draw behind the screen (1 card face down, deck position 1), its total withheld"},
		{"its dodge or parry",
			&kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: &kav1.DefenceDrawn{DefenderId: "gargouille", Defended: true,
				Draw: faceDownDraw(ka.Humanite, 17, ka.Dodge, 13, 4, valetBaton, denier3)}}},
			"La gargouille defends (one action, KA-009, KA-013): a draw behind the screen (2 cards face down, deck positions 4–5), its total withheld"},
		{"its blow: Joshua's soak, losses and what he has left (KA-022…KA-024)",
			&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "gargouille", TargetId: "joshua", Success: true,
				Margin: 25, Level: 3, Bonus: 10, WeaponDamage: 43, Damage: 53, Soak: 7, KaLost: 10, KaLeft: 4, RealityLeft: 15}}},
			"La gargouille hits Joshua (its margin and damage withheld): soak 7 → 10 Ka dice lost (KA-022…KA-024); Joshua has 4 Ka dice and 15 points de réalité left"},
		{"Joshua's blow: his own numbers and the outcome, its soak and death draw withheld (KA-025)",
			&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "gargouille", Success: true,
				Margin: 22, Level: 3, Bonus: 10, WeaponDamage: 8, Damage: 18, Soak: 17, KaLost: 1, RealityLeft: 67, Dying: true,
				DeathDraw: &kav1.DrawResult{Draw: &kav1.Draw{Cards: []*kav1.Card{epee6}, Position: 10, Positions: []int32{10}, Value: 6}, Total: 6},
				Note:      "La gargouille has lost its last Ka die and makes its death draw; the Maître de Ka rules on it (KA-025)"}}},
			"Joshua hits La gargouille: an exceptional success (damage bonus +10, KA-006): damage 10 + weapon 8 = 18, against its soak (withheld): dying; death draw: 1 card face down, deck position 10, the Maître de Ka rules on it (KA-025)"},
		{"a miss on it: no margin",
			&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "gargouille", Margin: -24, KaLeft: 1, RealityLeft: 67}}},
			"Joshua's attack on La gargouille fails: no effect (KA-005, KA-006)"},
		{"its disarm: Joshua's resistance and his pistol (KA-032)",
			&kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: &kav1.DisarmDrawn{CombatantId: "gargouille", TargetId: "joshua", Success: true, Weapon: "pistolet",
				Draw: faceDownDraw(ka.Humanite, 17, "Pétrification-Ancienne", 12, 5, baton4), Resistance: kaDraw(ka.Humanite, 3, "Arme à feu", 4, 6, nil, denier5)}}},
			"La gargouille tries to disarm Joshua of pistolet: a draw behind the screen (1 card face down, deck position 5), its total withheld against Joshua's Humanité 3 + Arme à feu 4 + cards 5 (5 de denier, deck position 6) = 12 — Joshua is disarmed: it loses pistolet until it picks it up (one action), and may fight bare-handed (KA-032)"},
		{"Joshua disarms it: which weapon it loses is withheld",
			&kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: &kav1.DisarmDrawn{CombatantId: "joshua", TargetId: "gargouille", Success: true, Weapon: "Serres-de-Minuit",
				Draw: kaDraw(ka.Humanite, 3, "Bagarre", 2, 7, nil, epee10), Resistance: faceDownDraw(ka.Humanite, 17, "Griffes-de-Basalte", 16, 8, denier3)}}},
			"Joshua tries to disarm La gargouille: Humanité 3 + Bagarre 2 + cards 10 (10 d'épée, deck position 7) = 15 against La gargouille's a draw behind the screen (1 card face down, deck position 8), its total withheld — La gargouille is disarmed: it loses its weapon until it picks it up (one action), and may fight bare-handed (KA-032)"},
		{"it picks its weapon up",
			&kav1.Event{Kind: &kav1.Event_WeaponPickedUp{WeaponPickedUp: &kav1.WeaponPickedUp{CombatantId: "gargouille", Weapon: "Serres-de-Minuit"}}},
			"La gargouille picks up its weapon, lost to a disarm (one action, KA-032)"},
		{"its terror draw: whether it falls into Abysse (KA-034)",
			&kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "gargouille", Draw: faceDownDraw(ka.Animalite, 19, "", 0, 0, baton4)}}},
			"Terror: La gargouille draws a draw behind the screen (1 card face down, deck position 0), its total withheld: La gargouille does not enter Abysse (KA-034)"},
		{"its answer: it defends, with what is withheld (KA-020)",
			&kav1.Event{Kind: &kav1.Event_DefenceAnnounced{DefenceAnnounced: &kav1.DefenceAnnounced{DefenderId: "gargouille", React: &kav1.React{Defend: true, Skill: "Griffes-de-Basalte"}}}},
			"La gargouille will defend (one action, KA-013, KA-020)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev := asPlayer(ka.New(), kaEv(9, c.ev), "gargouille")
			got := names.Describe(ev)
			require.Equal(t, "#9 "+c.want, got)
			for _, secret := range []string{"Serres", "Griffes", "Pétrification", " 19", " 16", " 17", " 13", " 43", " 53", "= 0", "margin 0"} {
				require.NotContains(t, got, secret)
			}
		})
	}
	// The GM reads the same events whole.
	gm := hiddenNames(map[string]string{"joshua": "Joshua", "gargouille": "La gargouille"}, "gargouille")
	ev := kaEv(9, &kav1.Event{Kind: &kav1.Event_WeaponPickedUp{WeaponPickedUp: &kav1.WeaponPickedUp{CombatantId: "gargouille", Weapon: "Serres-de-Minuit"}}})
	require.Equal(t, "#9 La gargouille picks up Serres-de-Minuit, lost to a disarm (one action, KA-032)", gm.Describe(ev))
}

func TestKaStateWithAHiddenCombatant(t *testing.T) {
	st := &encounterv1.EncounterState{EncounterId: "enc-1", Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, RuleSystem: ka.ID,
		Combatants: []*encounterv1.Combatant{
			{Id: "joshua", Name: "Joshua", Controller: "david", Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{
				Spheres: map[string]int32{ka.Animalite: 4, ka.Humanite: 3, "Spiritualité": 2}, Encaissement: 3, KaDice: 14, RealityPoints: 15, PlayerCharacter: true}}},
			{Id: "gargouille", Name: "La gargouille", Controller: "gm", Hidden: true, Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{
				Spheres: map[string]int32{ka.Animalite: 19, ka.Humanite: 17, "Ombres": 2}, KaDice: 1, RealityPoints: 67}}},
		},
		System: &encounterv1.EncounterState_Ka{Ka: &kav1.State{Round: 2, PassNumber: 1, UpNext: []string{"joshua"},
			DeckCount: 54,
			Discard:   []*kav1.Card{{Suit: kav1.Suit_SUIT_BATON, Rank: 2, DrawnBy: "gargouille"}, {Suit: kav1.Suit_SUIT_COUPE, Rank: 4, DrawnBy: "joshua"}},
			Combatants: map[string]*kav1.CombatantState{
				"joshua":     {KaDice: 4, RealityPoints: 15, ActionsLeft: 2},
				"gargouille": {KaDice: 1, RealityPoints: 67, ActionsLeft: 1, ActionsTaken: 1, ActedThisPass: true, WeaponsLost: []string{"Serres-de-Minuit"}},
			}}}}
	reg := engine.NewRegistry(ka.New())
	var b bytes.Buffer
	view := reg.View(st, engine.Viewer{Controls: map[string]bool{"joshua": true}})
	writeKaState(&b, view, NamesOf(view))
	out := b.String()
	t.Logf("fray state:\n%s", out)
	require.Contains(t, out, "Deck: 54 cards left, 2 in the discard (KA-003), 1 of them face down (drawn behind the screen)\n"+
		"Discard, in the order drawn: face down, 4 de coupe\n")
	require.Regexp(t, `  joshua\s+Joshua\s+-\s+david\s+4\s+4/14\s+15/15\s+2 left, 0 taken\s+player character, seuil 15\n`, out)
	require.Regexp(t, `  gargouille\s+La gargouille\s+-\s+gm\s+hidden\s+hidden\s+hidden\s+hidden, 1 taken\s+unhurt, disarmed of 1 weapon \(KA-032\), acted this pass\n`, out)
	require.Contains(t, out, "Pass 1: Joshua acts next: fray ka attack|disarm|pass enc-1 joshua ...\n", "the order of the pass, as the state gives it (KA-014)")
	for _, secret := range []string{"Serres", "19", "67"} {
		require.NotContains(t, out, secret)
	}
	// The GM: every number, every card of the discard.
	b.Reset()
	view = reg.View(st, engine.Viewer{SeesAll: true})
	writeKaState(&b, view, NamesOf(view))
	require.Regexp(t, `  gargouille\s+La gargouille\s+-\s+gm\s+19\s+1/1\s+67/67\s+1 left, 1 taken\s+disarmed of Serres-de-Minuit \(KA-032\), acted this pass, seuil 6\n`, b.String())
	require.Contains(t, b.String(), "Deck: 54 cards left, 2 in the discard (KA-003)\nDiscard, in the order drawn: 2 de bâton, 4 de coupe\n")
}

func TestDescribeFeerieWithAHiddenCombatant(t *testing.T) {
	names := hiddenNames(map[string]string{"aude": "Aude", "ogre": "Le Croque-Mitaine"}, "ogre")
	axe := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "aude", Physical: true,
		Applied: &feeriev1.Applied{Attack: []string{"Hache-de-Gruumsh"}}, Tactic: &feeriev1.Tactic{Attack: 5, Defense: -5}}
	sword := &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "ogre", Physical: true, Applied: &feeriev1.Applied{Attack: []string{"épée"}}}
	// roll: a d20 − d20 roll (FEE-001) whose net makes total.
	roll := func(total int32, terms ...*feeriev1.Modifier) *feeriev1.RollResult {
		var score int32
		for _, m := range terms {
			score += m.GetValue()
		}
		net := total - score
		plus, minus := int32(10)+net, int32(10)
		if plus > 20 {
			plus, minus = 20, 30-plus
		}
		return &feeriev1.RollResult{Score: score, Modifiers: terms, Total: total,
			Roll: &dicev1.Roll{Expression: "d20", Faces: []int32{plus}, Total: plus}, Minus: &dicev1.Roll{Expression: "d20", Faces: []int32{minus}, Total: minus}}
	}
	for _, c := range []struct {
		name string
		ev   *feeriev1.Event
		want string
	}{
		{"its declaration: the kind and the target (FEE-175), not its Attributes or tactic",
			&feeriev1.Event{Kind: &feeriev1.Event_Declared{Declared: &feeriev1.Declared{CombatantId: "ogre", Intent: axe}}},
			"Le Croque-Mitaine declares: melee attack on Aude, its Attributes and tactic withheld"},
		{"the Initiative: its roll withheld, the top rank called out (FEE-041)",
			&feeriev1.Event{Kind: &feeriev1.Event_CountdownStarted{CountdownStarted: &feeriev1.CountdownStarted{Action: 1, TopRank: 34, Initiative: []*feeriev1.InitiativeRoll{
				{CombatantId: "aude", CanAct: true, Result: roll(10, &feeriev1.Modifier{Reason: "Vigilance", Value: 10, Rule: "FEE-010"})},
				{CombatantId: "ogre", CanAct: true, Result: roll(34, &feeriev1.Modifier{Reason: "Vigilance", Value: 23, Rule: "FEE-010"})},
			}}}},
			"Initiative: Aude 10+d20[10]−d20[10] = 10; Le Croque-Mitaine rolls, withheld; the countdown starts at 34"},
		{"its activity queued: the rank, not the penalties, Essence or the GM's modifier",
			&feeriev1.Event{Kind: &feeriev1.Event_ActivityQueued{ActivityQueued: &feeriev1.ActivityQueued{Queued: &feeriev1.Queued{CombatantId: "ogre", Rank: 34, Nth: 1,
				RollPenalty: 4, ChangeOfIntention: true, Act: &feeriev1.Act{Intent: axe, Essence: 2, Circumstances: &feeriev1.Circumstances{Modifier: -3}}}}}},
			"Le Croque-Mitaine acts at rank 34, changing intention to melee attack on Aude, its Attributes and tactic withheld (change of intention: its penalties withheld)"},
		{"its blow: Aude's Defense, Soak and losses (FEE-020, FEE-021)",
			&feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: &feeriev1.ActivityResolved{CombatantId: "ogre", Rank: 34, Intent: axe, Success: true,
				Attack: roll(26, &feeriev1.Modifier{Reason: "Habileté", Value: 11}), Defense: 8,
				DefenseModifiers: []*feeriev1.Modifier{{Reason: "Habileté", Value: 10}, {Reason: "attack angles occupied", Value: -2}},
				Margin:           18, Damage: 29, Soak: 13, SoakModifiers: []*feeriev1.Modifier{{Reason: "Résistance", Value: 13}}, EssenceLost: 25, TargetEssence: 35}}},
			"rank 34: Le Croque-Mitaine attacks Aude: its roll withheld vs Defense 8 (H 10 − attack angles occupied 2) — a hit: Soak 13, 25 Essence lost (Aude 35 left)"},
		{"Aude's blow: her roll and Damage; its Defense and losses withheld",
			&feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: &feeriev1.ActivityResolved{CombatantId: "aude", Rank: 10, Intent: sword, Success: true,
				Attack: roll(30, &feeriev1.Modifier{Reason: "Habileté", Value: 10}, &feeriev1.Modifier{Reason: "épée", Value: 4}), Defense: 18, Margin: 12,
				Damage: 15, DamageModifiers: []*feeriev1.Modifier{{Reason: "Puissance", Value: 15}}, Soak: 5, EssenceLost: 16, TargetEssence: 79}}},
			"rank 10: Aude attacks Le Croque-Mitaine: 30 (H 10 + épée 4 + d20[20]−d20[4]) vs its Defense (withheld) — a hit: Damage 15, the Essence Le Croque-Mitaine lost withheld"},
		{"a stun from it on Aude: her malus is hers (FEE-153)",
			&feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: &feeriev1.ActivityResolved{CombatantId: "ogre", Rank: 20, Success: true,
				Intent:  &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "aude", Strikes: []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN}},
				Defense: 10, DefenseModifiers: []*feeriev1.Modifier{{Reason: "Habileté", Value: 10}}, TargetEssence: 35,
				Conditions: []*feeriev1.Condition{{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN, Malus: 7, By: "ogre"}}}}},
			"rank 20: Le Croque-Mitaine attacks Aude with stun: its roll withheld vs Defense 10 — a hit: the special strikes replace the Essence damage; Aude is stunned: −7 to its activities, 1 less each rank (FEE-153)"},
		{"an impersonal event on it (FEE-046)",
			&feeriev1.Event{Kind: &feeriev1.Event_Impersonal{Impersonal: &feeriev1.ImpersonalHappened{Description: "le feu", TargetId: "ogre", EssenceLost: 41}}},
			`rank 0: "le feu": Le Croque-Mitaine loses Essence (how much is withheld, FEE-046)`},
		{"its change of intention: the new rank comes from its Initiative (FEE-071)",
			&feeriev1.Event{Kind: &feeriev1.Event_IntentionChanged{IntentionChanged: &feeriev1.IntentionChanged{CombatantId: "ogre", Rank: 34, ActingRank: 34, Intent: axe}}},
			"rank 34: Le Croque-Mitaine changes intention: melee attack on Aude, its Attributes and tactic withheld (−4 on that activity and on Defense from now on, −4 on the next Action; FEE-070, FEE-071)"},
		{"its dissimulation (FEE-081)",
			&feeriev1.Event{Kind: &feeriev1.Event_UnseenRolled{UnseenRolled: &feeriev1.UnseenRolled{CombatantId: "ogre", VictimId: "aude", Roll: roll(32), Vigilance: 10, Margin: 22, InitiativeBonus: 11}}},
			"Le Croque-Mitaine attacks Aude unseen: its dissimulation roll and the Initiative it gains withheld (FEE-081)"},
		{"the GM's ruling on its tactic (FEE-036)",
			&feeriev1.Event{Kind: &feeriev1.Event_TacticRuled{TacticRuled: &feeriev1.TacticRuled{CombatantId: "ogre", Malus: 1, Reason: "la Hache-de-Gruumsh", Tactic: &feeriev1.Tactic{Attack: 5, Defense: -5}}}},
			"the GM rules on Le Croque-Mitaine's tactic (the ruling withheld) (FEE-036)"},
		{"it becomes an object (FEE-026)",
			&feeriev1.Event{Kind: &feeriev1.Event_BecameObject{BecameObject: &feeriev1.BecameObject{CombatantId: "ogre", Power: "Pierre-de-Lune-Noire"}}},
			"Le Croque-Mitaine becomes an inanimate object: it takes damage as an object and renounces every activity (FEE-026)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := names.Describe(asPlayer(feerie.New(), feerieEv(9, c.ev), "ogre"))
			require.Equal(t, "#9 "+c.want, got)
			for _, secret := range []string{"Hache", "Pierre", " 23", " 26", " 29", " 41", "+0/", "margin 0", "= 0"} {
				require.NotContains(t, got, secret)
			}
		})
	}
}

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
	reg := engine.NewRegistry(feerie.New())
	var b bytes.Buffer
	view := reg.View(st, engine.Viewer{Controls: map[string]bool{"aude": true}})
	writeFeerieState(&b, view, NamesOf(view))
	out := b.String()
	t.Logf("fray state:\n%s", out)
	require.Regexp(t, `  aude\s+Aude\s+-\s+alice\s+35/60\s+10\s+10\s+0\s+stunned: −7 to its activities; declared a passive activity, tactic \+0/\+0/\+0\n`, out)
	require.Regexp(t, `  ogre\s+Le Croque-Mitaine\s+-\s+gm\s+wounded\s+hidden\s+hidden\s+1 \(rank 34\)\s+hidden by the GM; declared melee attack on Aude, not physical, its Attributes and tactic withheld\n`, out)
	for _, secret := range []string{"Hache", "79", "97", "−4"} {
		require.NotContains(t, out, secret)
	}
	require.True(t, strings.Contains(out, "Action 1, countdown at rank 20 (from 34)"))
}
