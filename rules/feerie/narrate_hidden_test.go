package feerie_test

import (
	"testing"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"google.golang.org/protobuf/proto"
)

// The narration of Contes de Fées events as a player reads them when the GM hides a
// combatant: what is known is said, what is withheld is said to be, and no zero stands for a
// number the server kept.

// asPlayer is ev as the server gives it to a reader from whom the combatants of hidden are
// hidden: the rule system's own redaction, and the event marked redacted.
func asPlayer(ev *encounterv1.Event, hidden ...string) *encounterv1.Event {
	ev = proto.CloneOf(ev)
	feerie.New(1).RedactEvent(ev, func(id string) bool {
		for _, h := range hidden {
			if id == h {
				return true
			}
		}
		return false
	})
	ev.Redacted = true
	return ev
}

// hiddenNarrator knows Aude and the Croque-Mitaine, whom the GM hides.
func hiddenNarrator(lang language.Tag) *narrate.Narrator {
	n := narrate.New(lang, feerie.New(1).Teller())
	n.SetName("aude", "Aude")
	n.SetName("ogre", "Le Croque-Mitaine")
	n.SetHidden("ogre", true)
	return n
}

func TestNarrateFeerieWithAHiddenCombatant(t *testing.T) {
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
		name     string
		ev       *feeriev1.Event
		want, fr string
	}{
		{"its declaration: the kind and the target (FEE-175), not its Attributes or tactic",
			&feeriev1.Event{Kind: &feeriev1.Event_Declared{Declared: &feeriev1.Declared{CombatantId: "ogre", Intent: axe}}},
			"Le Croque-Mitaine declares: melee attack on Aude, its Attributes and tactic withheld",
			"Le Croque-Mitaine déclare : attaque au corps à corps contre Aude, ses Attributs et sa tactique masqués"},
		{"the Initiative: its roll withheld, the top rank called out (FEE-041)",
			&feeriev1.Event{Kind: &feeriev1.Event_CountdownStarted{CountdownStarted: &feeriev1.CountdownStarted{Action: 1, TopRank: 34, Initiative: []*feeriev1.InitiativeRoll{
				{CombatantId: "aude", CanAct: true, Result: roll(10, &feeriev1.Modifier{Reason: "Vigilance", Value: 10, Rule: "FEE-010"})},
				{CombatantId: "ogre", CanAct: true, Result: roll(34, &feeriev1.Modifier{Reason: "Vigilance", Value: 23, Rule: "FEE-010"})},
			}}}},
			"Initiative: Aude 10+d20[10]−d20[10] = 10; Le Croque-Mitaine rolls, withheld; the countdown starts at 34",
			"Initiative : Aude 10+d20[10]−d20[10] = 10 ; Le Croque-Mitaine lance les dés, résultat masqué ; le compte à rebours part du rang 34"},
		{"its activity queued: the rank, not the penalties, Essence or the GM's modifier",
			&feeriev1.Event{Kind: &feeriev1.Event_ActivityQueued{ActivityQueued: &feeriev1.ActivityQueued{Queued: &feeriev1.Queued{CombatantId: "ogre", Rank: 34, Nth: 1,
				RollPenalty: 4, ChangeOfIntention: true, Act: &feeriev1.Act{Intent: axe, Essence: 2, Circumstances: &feeriev1.Circumstances{Modifier: -3}}}}}},
			"Le Croque-Mitaine acts at rank 34, changing intention to melee attack on Aude, its Attributes and tactic withheld (change of intention: its penalties withheld)",
			"Le Croque-Mitaine agit au rang 34, en changeant d'intention : attaque au corps à corps contre Aude, ses Attributs et sa tactique masqués (changement d'intention : ses malus masqués)"},
		{"its blow: Aude's Defense, Soak and losses (FEE-020, FEE-021)",
			&feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: &feeriev1.ActivityResolved{CombatantId: "ogre", Rank: 34, Intent: axe, Success: true,
				Attack: roll(26, &feeriev1.Modifier{Reason: "Habileté", Value: 11}), Defense: 8,
				DefenseModifiers: []*feeriev1.Modifier{{Reason: "Habileté", Value: 10}, {Reason: "attack angles occupied", Value: -2}},
				Margin:           18, Damage: 29, Soak: 13, SoakModifiers: []*feeriev1.Modifier{{Reason: "Résistance", Value: 13}}, EssenceLost: 25, TargetEssence: 35}}},
			"rank 34: Le Croque-Mitaine attacks Aude: its roll withheld vs Defense 8 (H 10 − attack angles occupied 2) — a hit: Soak 13, 25 Essence lost (Aude 35 left)",
			"rang 34 : Le Croque-Mitaine attaque Aude : son jet masqué contre Défense 8 (H 10 − angles d'attaque occupés 2) — touché : Encaissement 13, 25 points d'Essence perdus (il reste 35 à Aude)"},
		{"Aude's blow: her roll and Damage; its Defense and losses withheld",
			&feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: &feeriev1.ActivityResolved{CombatantId: "aude", Rank: 10, Intent: sword, Success: true,
				Attack: roll(30, &feeriev1.Modifier{Reason: "Habileté", Value: 10}, &feeriev1.Modifier{Reason: "épée", Value: 4}), Defense: 18, Margin: 12,
				Damage: 15, DamageModifiers: []*feeriev1.Modifier{{Reason: "Puissance", Value: 15}}, Soak: 5, EssenceLost: 16, TargetEssence: 79}}},
			"rank 10: Aude attacks Le Croque-Mitaine: 30 (H 10 + épée 4 + d20[20]−d20[4]) vs its Defense (withheld) — a hit: Damage 15, the Essence Le Croque-Mitaine lost withheld",
			"rang 10 : Aude attaque Le Croque-Mitaine : 30 (H 10 + épée 4 + d20[20]−d20[4]) contre sa Défense (masquée) — touché : Dommages 15, l'Essence perdue par Le Croque-Mitaine masquée"},
		{"a stun from it on Aude: her malus is hers (FEE-153)",
			&feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: &feeriev1.ActivityResolved{CombatantId: "ogre", Rank: 20, Success: true,
				Intent:  &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "aude", Strikes: []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN}},
				Defense: 10, DefenseModifiers: []*feeriev1.Modifier{{Reason: "Habileté", Value: 10}}, TargetEssence: 35,
				Conditions: []*feeriev1.Condition{{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN, Malus: 7, By: "ogre"}}}}},
			"rank 20: Le Croque-Mitaine attacks Aude with stun: its roll withheld vs Defense 10 — a hit: the special strikes replace the Essence damage; Aude is stunned: −7 to its activities, 1 less each rank (FEE-153)",
			"rang 20 : Le Croque-Mitaine attaque Aude avec le coup spécial étourdir : son jet masqué contre Défense 10 — touché : les coups spéciaux remplacent les pertes d'Essence ; Aude est étourdi : −7 à ses activités, 1 de moins à chaque rang (FEE-153)"},
		{"an impersonal event on it (FEE-046)",
			&feeriev1.Event{Kind: &feeriev1.Event_Impersonal{Impersonal: &feeriev1.ImpersonalHappened{Description: "le feu", TargetId: "ogre", EssenceLost: 41}}},
			`rank 0: "le feu": Le Croque-Mitaine loses Essence (how much is withheld, FEE-046)`,
			"rang 0 : « le feu » : Le Croque-Mitaine perd de l'Essence (la quantité est masquée, FEE-046)"},
		{"its change of intention: the new rank comes from its Initiative (FEE-071)",
			&feeriev1.Event{Kind: &feeriev1.Event_IntentionChanged{IntentionChanged: &feeriev1.IntentionChanged{CombatantId: "ogre", Rank: 34, ActingRank: 34, Intent: axe}}},
			"rank 34: Le Croque-Mitaine changes intention: melee attack on Aude, its Attributes and tactic withheld (−4 on that activity and on Defense from now on, −4 on the next Action; FEE-070, FEE-071)",
			"rang 34 : Le Croque-Mitaine change d'intention : attaque au corps à corps contre Aude, ses Attributs et sa tactique masqués (−4 à cette activité et en Défense dès maintenant, −4 à l'Action suivante ; FEE-070, FEE-071)"},
		{"its dissimulation (FEE-081)",
			&feeriev1.Event{Kind: &feeriev1.Event_UnseenRolled{UnseenRolled: &feeriev1.UnseenRolled{CombatantId: "ogre", VictimId: "aude", Roll: roll(32), Vigilance: 10, Margin: 22, InitiativeBonus: 11}}},
			"Le Croque-Mitaine attacks Aude unseen: its dissimulation roll and the Initiative it gains withheld (FEE-081)",
			"Le Croque-Mitaine attaque Aude sans être vu : son jet de dissimulation et l'Initiative qu'il gagne masqués (FEE-081)"},
		{"the GM's ruling on its tactic (FEE-036)",
			&feeriev1.Event{Kind: &feeriev1.Event_TacticRuled{TacticRuled: &feeriev1.TacticRuled{CombatantId: "ogre", Malus: 1, Reason: "la Hache-de-Gruumsh", Tactic: &feeriev1.Tactic{Attack: 5, Defense: -5}}}},
			"the GM rules on Le Croque-Mitaine's tactic (the ruling withheld) (FEE-036)",
			"le MJ statue sur la tactique du Croque-Mitaine (sa décision masquée) (FEE-036)"},
		{"it becomes an object (FEE-026)",
			&feeriev1.Event{Kind: &feeriev1.Event_BecameObject{BecameObject: &feeriev1.BecameObject{CombatantId: "ogre", Power: "Pierre-de-Lune-Noire"}}},
			"Le Croque-Mitaine becomes an inanimate object: it takes damage as an object and renounces every activity (FEE-026)",
			"Le Croque-Mitaine devient un objet inanimé : il subit les dommages comme un objet et renonce à toute activité (FEE-026)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := hiddenNarrator(narrate.English).Text(asPlayer(feerieEv(9, c.ev), "ogre"))
			require.Equal(t, "#9 "+c.want, got)
			fr := hiddenNarrator(narrate.French).Text(asPlayer(feerieEv(9, c.ev), "ogre"))
			require.Equal(t, "#9 "+c.fr, fr)
			for _, secret := range []string{"Hache", "Pierre", " 23", " 26", " 29", " 41", "+0/", "margin 0", "marge 0", "= 0"} {
				require.NotContains(t, got, secret)
				require.NotContains(t, fr, secret)
			}
		})
	}
}
