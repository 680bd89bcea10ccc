package feerie_test

import (
	"testing"

	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
)

// TestNarrateFeerieMore: the cases the CLI's tests left out — what a hidden combatant's
// activities, strikes and rulings say and withhold, the rarer intents and circumstances, and
// the rules' own phrases (reasons, notes) in French.
func TestNarrateFeerieMore(t *testing.T) {
	stunOn := func(target string, malus int32) *feeriev1.ActivityResolved {
		return &feeriev1.ActivityResolved{CombatantId: "aude", Rank: 5, Success: true,
			Intent:  &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: target, Strikes: []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN}},
			Attack:  roll20(12, 2, fmod("Habileté", 10, "FEE-011")),
			Defense: 12, DefenseModifiers: []*feeriev1.Modifier{fmod("Habileté", 12, "FEE-013")}, Margin: 8,
			Conditions: []*feeriev1.Condition{{Strike: feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN, Malus: malus, By: "aude"}}}
	}
	strikeBy := func(by, target string, s feeriev1.SpecialStrike) *feeriev1.ActivityResolved {
		return &feeriev1.ActivityResolved{CombatantId: by, Rank: 5, Success: true,
			Intent:  &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: target, Strikes: []feeriev1.SpecialStrike{s}},
			Defense: 12, Soak: 5, EssenceLost: 4, TargetEssence: 20,
			Conditions: []*feeriev1.Condition{{Strike: s, Malus: 3, By: by}}}
	}
	for _, c := range []struct {
		name     string
		ev       *feeriev1.Event
		hidden   bool // the ogre is hidden from the reader, and the event redacted
		want, fr string
	}{
		{"its other activity: the outcome, not the roll", resolvedEv(&feeriev1.ActivityResolved{CombatantId: "ogre", Rank: 9,
			Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "Charme"}, Success: true}), true,
			"rank 9: Le Croque-Mitaine rolls Charme: its roll withheld — success",
			"rang 9 : Le Croque-Mitaine fait un jet de Charme : son jet masqué — réussite"},
		{"its failed roll to free itself", resolvedEv(&feeriev1.ActivityResolved{CombatantId: "ogre", Rank: 9,
			Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_FREE}}), true,
			"rank 9: Le Croque-Mitaine tries to free itself: its roll withheld — failure",
			"rang 9 : Le Croque-Mitaine tente de se dégager : son jet masqué — échec"},
		{"its blow on an object", resolvedEv(&feeriev1.ActivityResolved{CombatantId: "ogre", Rank: 9, Success: true, Note: "an object: Damage roll 20",
			Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "aude"}, Soak: 4, EssenceLost: 16, TargetEssence: 4}), true,
			"rank 9: Le Croque-Mitaine attacks Aude: its roll withheld, against an object (FEE-023) — a hit: Soak 4, 16 Essence lost (Aude 4 left)",
			"rang 9 : Le Croque-Mitaine attaque Aude : son jet masqué, contre un objet (FEE-023) — touché : Encaissement 4, 16 points d'Essence perdus (il reste 4 à Aude)"},
		{"its fumble", resolvedEv(&feeriev1.ActivityResolved{CombatantId: "ogre", Rank: 9, Fumble: true, SelfHarm: 3,
			Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "aude"}, Defense: 10}), true,
			"rank 9: Le Croque-Mitaine attacks Aude: its roll withheld vs Defense 10 — a fumble (FEE-004)",
			"rang 9 : Le Croque-Mitaine attaque Aude : son jet masqué contre Défense 10 — un échec critique (FEE-004)"},
		{"a fumble on it", resolvedEv(&feeriev1.ActivityResolved{CombatantId: "aude", Rank: 9, Fumble: true, SelfHarm: 3, Margin: -12,
			Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "ogre"}, Attack: roll20(1, 20, fmod("Habileté", 10, "FEE-011"))}), true,
			"rank 9: Aude attacks Le Croque-Mitaine: −9 (H 10 + d20[1]−d20[20]) vs its Defense (withheld) — a fumble (FEE-004); hurting itself would cost 3 Essence",
			"rang 9 : Aude attaque Le Croque-Mitaine : −9 (H 10 + d20[1]−d20[20]) contre sa Défense (masquée) — un échec critique (FEE-004) ; se blesser lui coûterait 3 points d'Essence"},
		{"a miss on it, with a note", resolvedEv(&feeriev1.ActivityResolved{CombatantId: "aude", Rank: 9, Margin: -2, Note: "the weapon is dislodged: the relentless strike ends (FEE-156)",
			Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "ogre"}, Attack: roll20(5, 5, fmod("Habileté", 10, "FEE-011"))}), true,
			"rank 9: Aude attacks Le Croque-Mitaine: 10 (H 10 + d20[5]−d20[5]) vs its Defense (withheld) — a miss; the weapon is dislodged: the relentless strike ends (FEE-156)",
			"rang 9 : Aude attaque Le Croque-Mitaine : 10 (H 10 + d20[5]−d20[5]) contre sa Défense (masquée) — manqué ; l'arme est délogée : l'acharnement prend fin (FEE-156)"},
		{"its blow fells Aude", resolvedEv(&feeriev1.ActivityResolved{CombatantId: "ogre", Rank: 9, Success: true, Margin: 30,
			Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "aude"}, Defense: 10, Soak: 5, EssenceLost: 35, TargetEssence: 0}), true,
			"rank 9: Le Croque-Mitaine attacks Aude: its roll withheld vs Defense 10 — a hit: Soak 5, 35 Essence lost (Aude 0 left); Aude is down and cannot act (FEE-024)",
			"rang 9 : Le Croque-Mitaine attaque Aude : son jet masqué contre Défense 10 — touché : Encaissement 5, 35 points d'Essence perdus (il reste 0 à Aude) ; Aude est hors de combat et ne peut plus agir (FEE-024)"},
		{"its stun: the malus withheld", resolvedEv(stunOn("ogre", 5)), true,
			"rank 5: Aude attacks Le Croque-Mitaine with stun: 20 (H 10 + d20[12]−d20[2]) vs its Defense (withheld) — a hit: the special strikes replace the Essence damage; stun: Le Croque-Mitaine (its malus withheld)",
			"rang 5 : Aude attaque Le Croque-Mitaine avec le coup spécial étourdir : 20 (H 10 + d20[12]−d20[2]) contre sa Défense (masquée) — touché : les coups spéciaux remplacent les pertes d'Essence ; étourdir : Le Croque-Mitaine (son malus masqué)"},
		{"its disarm: what it does is seen", resolvedEv(strikeBy("ogre", "aude", feeriev1.SpecialStrike_SPECIAL_STRIKE_DISARM)), true,
			"rank 5: Le Croque-Mitaine attacks Aude with disarm: its roll withheld vs Defense 12 — a hit: the special strikes replace the Essence damage; Aude is disarmed: its weapon flies a few steps away (FEE-150)",
			"rang 5 : Le Croque-Mitaine attaque Aude avec le coup spécial désarmer : son jet masqué contre Défense 12 — touché : les coups spéciaux remplacent les pertes d'Essence ; Aude est désarmé : son arme vole à quelques pas (FEE-150)"},
		{"its relentless strike", resolvedEv(strikeBy("ogre", "aude", feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS)), true,
			"rank 5: Le Croque-Mitaine attacks Aude with relentless: its roll withheld vs Defense 12 — a hit: Soak 5, 4 Essence lost (Aude 20 left); relentless: Le Croque-Mitaine's weapon stays in the wound, its Defense −8 until it is dislodged (FEE-156)",
			"rang 5 : Le Croque-Mitaine attaque Aude avec le coup spécial acharnement : son jet masqué contre Défense 12 — touché : Encaissement 5, 4 points d'Essence perdus (il reste 20 à Aude) ; acharnement : l'arme du Croque-Mitaine reste dans la plaie, sa Défense −8 jusqu'à ce qu'elle soit délogée (FEE-156)"},
		{"its frightening blow", resolvedEv(strikeBy("ogre", "aude", feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW)), true,
			"rank 5: Le Croque-Mitaine attacks Aude with frightening blow: its roll withheld vs Defense 12 — a hit: the special strikes replace the Essence damage; a frightening blow: Le Croque-Mitaine gains a bonus (withheld) on its next intimidation (FEE-181)",
			"rang 5 : Le Croque-Mitaine attaque Aude avec le coup spécial coup effrayant : son jet masqué contre Défense 12 — touché : les coups spéciaux remplacent les pertes d'Essence ; coup effrayant : Le Croque-Mitaine gagne un bonus (masqué) à sa prochaine intimidation (FEE-181)"},
		{"a stun shaken off", resolvedEv(stunOn("rubezahl", 0)), false,
			"rank 5: Aude attacks Rübezahl with stun: 20 (H 10 + d20[12]−d20[2]) vs Defense 12 — margin 8: the special strikes replace the Essence damage; Rübezahl shakes off the stun (FEE-153)",
			"rang 5 : Aude attaque Rübezahl avec le coup spécial étourdir : 20 (H 10 + d20[12]−d20[2]) contre Défense 12 — marge 8 : les coups spéciaux remplacent les pertes d'Essence ; Rübezahl se remet de son étourdissement (FEE-153)"},
		{"a strike unknown", resolvedEv(func() *feeriev1.ActivityResolved {
			r := strikeBy("aude", "rubezahl", feeriev1.SpecialStrike_SPECIAL_STRIKE_UNSPECIFIED)
			r.Attack, r.Margin = roll20(12, 2, fmod("Habileté", 10, "FEE-011")), 8
			return r
		}()), false,
			"rank 5: Aude attacks Rübezahl with unspecified: 20 (H 10 + d20[12]−d20[2]) vs Defense 12 — margin 8: the special strikes replace the Essence damage; unspecified: Rübezahl",
			"rang 5 : Aude attaque Rübezahl avec le coup spécial unspecified : 20 (H 10 + d20[12]−d20[2]) contre Défense 12 — marge 8 : les coups spéciaux remplacent les pertes d'Essence ; unspecified : Rübezahl"},
		{"the dissimulation against it", &feeriev1.Event{Kind: &feeriev1.Event_UnseenRolled{UnseenRolled: &feeriev1.UnseenRolled{CombatantId: "aude", VictimId: "ogre",
			Roll: roll20(15, 3, fmod("Habileté", 10, "FEE-081")), Vigilance: 23, Margin: -1, InitiativeBonus: 0}}}, true,
			"Aude attacks Le Croque-Mitaine unseen: dissimulation 22 (H 10 + d20[15]−d20[3]) vs its Vigilance (withheld): +0 Initiative this Action (FEE-081, FEE-186)",
			"Aude attaque Le Croque-Mitaine sans être vu : dissimulation 22 (H 10 + d20[15]−d20[3]) contre sa Vigilance (masquée) : +0 en Initiative pour cette Action (FEE-081, FEE-186)"},
		{"an unseen attacker without a roll", &feeriev1.Event{Kind: &feeriev1.Event_UnseenRolled{UnseenRolled: &feeriev1.UnseenRolled{CombatantId: "aude", VictimId: "rubezahl",
			InitiativeBonus: 3}}}, false,
			"Aude attacks Rübezahl unseen: +3 Initiative this Action (FEE-081)",
			"Aude attaque Rübezahl sans être vu : +3 en Initiative pour cette Action (FEE-081)"},
		{"its tactic cancelled at a rank", &feeriev1.Event{Kind: &feeriev1.Event_TacticRuled{TacticRuled: &feeriev1.TacticRuled{CombatantId: "ogre", CancelTactic: true, Rank: 12}}}, true,
			"rank 12: the GM rules: Le Croque-Mitaine's tactic is cancelled (FEE-036)",
			"rang 12 : le MJ statue : la tactique du Croque-Mitaine est annulée (FEE-036)"},
		{"a ruling that changes nothing", &feeriev1.Event{Kind: &feeriev1.Event_TacticRuled{TacticRuled: &feeriev1.TacticRuled{CombatantId: "aude", Rank: 12}}}, false,
			"rank 12: the GM rules: Aude's tactic stands (FEE-036)",
			"rang 12 : le MJ statue : la tactique d'Aude est maintenue (FEE-036)"},
		{"a roll of an Aspect against a withheld difficulty, at a pace", &feeriev1.Event{Kind: &feeriev1.Event_Declared{Declared: &feeriev1.Declared{CombatantId: "ogre",
			Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_OTHER, Aspect: "Habileté", Difficulty: 14, TargetId: "aude", Pace: feeriev1.Pace_PACE_SPRINT}}}}, true,
			"Le Croque-Mitaine declares: a Habileté roll against a difficulty withheld, at Aude, sprinting, its Attributes and tactic withheld",
			"Le Croque-Mitaine déclare : un jet d'Habileté contre une difficulté masquée, visant Aude, au sprint, ses Attributs et sa tactique masqués"},
		{"a charge at a trot, a passive activity towards someone", &feeriev1.Event{Kind: &feeriev1.Event_Declared{Declared: &feeriev1.Declared{CombatantId: "aude",
			Intent: &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE, TargetId: "rubezahl", Charge: true}}}}, false,
			"Aude declares: a passive activity, at Rübezahl, charging, tactic +0/+0/+0",
			"Aude déclare : une activité passive, visant Rübezahl, en charge, tactique +0/+0/+0"},
		{"its Initiative: it cannot act", &feeriev1.Event{Kind: &feeriev1.Event_CountdownStarted{CountdownStarted: &feeriev1.CountdownStarted{TopRank: 12,
			Initiative: []*feeriev1.InitiativeRoll{{CombatantId: "ogre"}}}}}, true,
			"Initiative: Le Croque-Mitaine rolls, withheld, cannot act; the countdown starts at 12",
			"Initiative : Le Croque-Mitaine lance les dés, résultat masqué, ne peut pas agir ; le compte à rebours part du rang 12"},
		{"no one rolls", &feeriev1.Event{Kind: &feeriev1.Event_CountdownStarted{CountdownStarted: &feeriev1.CountdownStarted{}}}, false,
			"Initiative: no one rolls",
			"Initiative : personne ne lance les dés"},
		{"its activity queued without penalties", &feeriev1.Event{Kind: &feeriev1.Event_ActivityQueued{ActivityQueued: &feeriev1.ActivityQueued{Queued: &feeriev1.Queued{
			CombatantId: "ogre", Rank: 20, Nth: 1, Act: &feeriev1.Act{Intent: melee("aude"),
				Circumstances: &feeriev1.Circumstances{Cover: &feeriev1.Cover{SemiTransparent: true, Solidity: "fragile"}, Lighting: feeriev1.Lighting_LIGHTING_STARLIGHT}}}}}}, true,
			"Le Croque-Mitaine acts at rank 20 (starlight, through cover (fragile, semi-transparent))",
			"Le Croque-Mitaine agit au rang 20 (lueur des étoiles, à travers un couvert (fragile, semi-transparent))"},
		{"a penalty of its own, and bare cover", &feeriev1.Event{Kind: &feeriev1.Event_ActivityQueued{ActivityQueued: &feeriev1.ActivityQueued{Queued: &feeriev1.Queued{
			CombatantId: "aude", Rank: 20, Nth: 1, RollPenalty: 3, Act: &feeriev1.Act{Intent: melee("rubezahl"),
				Circumstances: &feeriev1.Circumstances{Cover: &feeriev1.Cover{}, AnglesOffered: 1, TargetPace: feeriev1.Pace_PACE_TROT}}}}}}, false,
			"Aude acts at rank 20 (earlier penalties: −3; target trotting, through cover, 1 attack angle offered)",
			"Aude agit au rang 20 (malus antérieurs : −3 ; cible au trot, à travers un couvert, 1 angle d'attaque offert)"},
		{"the rules' reasons and notes", resolvedEv(&feeriev1.ActivityResolved{CombatantId: "aude", Rank: 7, Margin: -3,
			Note:    "Aude cancels Rübezahl's SPECIAL_STRIKE_KEEP_AT_BAY",
			Intent:  &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: "rubezahl", Strikes: []feeriev1.SpecialStrike{feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD}},
			Attack:  &feeriev1.RollResult{Roll: d20(10), Minus: d20(10), Score: 0, Total: 0},
			Defense: 3, DefenseModifiers: []*feeriev1.Modifier{fmod("Habileté", 10, "FEE-013"), fmod("special strike SPECIAL_STRIKE_TRIP", -6, "FEE-149"),
				fmod("mounted charge: Taille of Pégase", 2, "FEE-142"), fmod("Habileté of its mount Pégase instead of its own", -1, "FEE-141"),
				fmod("cancels SPECIAL_STRIKE_STUN", -2, "FEE-149")}}), false,
			"rank 7: Aude attacks Rübezahl with enter the guard: 0 (0 + d20[10]−d20[10]) vs Defense 3 (H 10 − special strike trip 6 + mounted charge: Taille of Pégase 2 − Habileté of its mount Pégase instead of its own 1 − cancels stun 2) — margin −3: a miss; Aude cancels Rübezahl's SPECIAL_STRIKE_KEEP_AT_BAY",
			"rang 7 : Aude attaque Rübezahl avec le coup spécial entrer dans la garde : 0 (0 + d20[10]−d20[10]) contre Défense 3 (H 10 − coup spécial faire tomber 6 + charge montée : Taille de Pégase 2 − Habileté de sa monture Pégase au lieu de la sienne 1 − cancels étourdir 2) — marge −3 : manqué ; Aude annule le coup spécial « tenir en respect » de Rübezahl"},
		{"a note of a number", resolvedEv(&feeriev1.ActivityResolved{CombatantId: "aude", Rank: 7, Note: "Rübezahl is thrown 1 distance units (FEE-158)",
			Intent: melee("rubezahl")}), false,
			"rank 7: Aude attacks Rübezahl; Rübezahl is thrown 1 distance units (FEE-158)",
			"rang 7 : Aude attaque Rübezahl ; Rübezahl est projeté à 1 unité de distance (FEE-158)"},
		{"a note of the rules not translated", resolvedEv(&feeriev1.ActivityResolved{CombatantId: "aude", Rank: 7, Note: "the activity no longer holds: no bâton",
			Intent: melee("rubezahl")}), false,
			"rank 7: Aude attacks Rübezahl; the activity no longer holds: no bâton",
			"rang 7 : Aude attaque Rübezahl ; l'activité ne tient plus : no bâton"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var hidden []string
			if c.hidden {
				hidden = []string{"ogre"}
			}
			en, fr := hiddenNarrator(narrate.English), hiddenNarrator(narrate.French)
			en.SetName("rubezahl", "Rübezahl")
			fr.SetName("rubezahl", "Rübezahl")
			ev := asPlayer(feerieEv(3, c.ev), hidden...)
			ev.Redacted = c.hidden
			require.Equal(t, "#3 "+c.want, en.Text(ev))
			require.Equal(t, "#3 "+c.fr, fr.Text(ev))
		})
	}
}
