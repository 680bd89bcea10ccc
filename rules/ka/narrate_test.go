package ka_test

import (
	"strconv"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
)

// The narration of Ka in English (as the CLI printed it) and French.

func ntEv(seq uint64, e *kav1.Event) *encounterv1.Event {
	return &encounterv1.Event{Sequence: seq, Payload: &encounterv1.Event_Ka{Ka: e}}
}

// ntDraw is a draw of sphere + skill + the modifiers of reasons ("-2 situation") + cards, the
// cards at deck positions from position on (KA-002, KA-004).
func ntDraw(sphere string, sv int32, skill string, skv int32, position int32, reasons []string, cards ...*kav1.Card) *kav1.DrawResult {
	r := &kav1.DrawResult{Sphere: sphere, SphereValue: sv, Skill: skill, SkillValue: skv, ModifierReasons: reasons,
		Draw: &kav1.Draw{Cards: cards, Position: position}}
	for _, m := range reasons {
		v, _ := strconv.Atoi(strings.Fields(m)[0])
		r.Modifiers += int32(v)
	}
	for i, c := range cards {
		r.Draw.Value += ka.New(ka.Latest).Value(c)
		r.Draw.Positions = append(r.Draw.Positions, position+int32(i))
	}
	r.Total = sv + skv + r.GetModifiers() + r.GetDraw().GetValue()
	return r
}

func ntCard(s kav1.Suit, rank int32) *kav1.Card { return &kav1.Card{Suit: s, Rank: rank} }

var (
	ntEpee6, ntEpee10         = ntCard(kav1.Suit_SUIT_EPEE, 6), ntCard(kav1.Suit_SUIT_EPEE, 10)
	ntValetBaton, ntCoupe9    = ntCard(kav1.Suit_SUIT_BATON, 11), ntCard(kav1.Suit_SUIT_COUPE, 9)
	ntDenier3, ntBaton4       = ntCard(kav1.Suit_SUIT_DENIER, 3), ntCard(kav1.Suit_SUIT_BATON, 4)
	ntDenier5                 = ntCard(kav1.Suit_SUIT_DENIER, 5)
	ntAsEpee, ntRoiCoupe, ntD = ntCard(kav1.Suit_SUIT_EPEE, 1), ntCard(kav1.Suit_SUIT_COUPE, 14), ntCard(kav1.Suit_SUIT_DENIER, 13)
	ntCavalierBaton           = ntCard(kav1.Suit_SUIT_BATON, 12)
)

// ntNarrator narrates Ka in lang, knowing the names of the worked examples; hidden are hidden.
func ntNarrator(lang language.Tag, hidden ...string) *narrate.Narrator {
	n := narrate.New(lang, ka.Teller{})
	for id, name := range map[string]string{"joshua": "Joshua", "chien": "le chien", "gunner": "Gunner", "a": "Alpha", "b": "Bravo", "c": "Charlie",
		"gargouille": "La gargouille"} {
		n.SetName(id, name)
	}
	for _, id := range hidden {
		n.SetHidden(id, true)
	}
	return n
}

func en(seq uint64, e *kav1.Event) string { return ntNarrator(narrate.English).Text(ntEv(seq, e)) }
func fr(seq uint64, e *kav1.Event) string { return ntNarrator(narrate.French).Text(ntEv(seq, e)) }

func TestNarrateKaCards(t *testing.T) {
	for want, c := range map[string]*kav1.Card{
		"6 d'épée": ntEpee6, "as d'épée": ntAsEpee, "valet de bâton": ntValetBaton, "cavalier de bâton": ntCavalierBaton,
		"dame de denier": ntD, "roi de coupe": ntRoiCoupe, "10 d'épée": ntEpee10, "rank 15 de suit unknown": {Rank: 15},
	} {
		got := en(1, &kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "joshua",
			Draw: &kav1.DrawResult{Draw: &kav1.Draw{Cards: []*kav1.Card{c}, Positions: []int32{0}}}}}})
		require.Contains(t, got, "("+want+", deck position 0)")
	}
	require.Contains(t, fr(1, &kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "joshua",
		Draw: &kav1.DrawResult{Draw: &kav1.Draw{Cards: []*kav1.Card{{Rank: 15}}, Positions: []int32{0}}}}}}), "(rang 15 de couleur inconnue, position 0 du paquet)")
}

// KA-T01…KA-T05 in words, each draw with its cards, their place in the deck and the total of
// sphere + skill + modifiers + cards.
func TestNarrateKaWorkedExample(t *testing.T) {
	shuffled := &kav1.Event{Kind: &kav1.Event_DeckShuffled{DeckShuffled: &kav1.DeckShuffled{Cards: 56}}}
	require.Equal(t, "#5 The deck is whole: 56 cards, each card drawn at random from those left (KA-003)", en(5, shuffled))
	require.Equal(t, "#5 Le paquet est complet : 56 cartes, chaque carte tirée au hasard parmi celles qui restent (KA-003)", fr(5, shuffled))
	round := &kav1.Event{Kind: &kav1.Event_RoundStarted{RoundStarted: &kav1.RoundStarted{Round: 1, Actions: map[string]int32{"chien": 1, "joshua": 2}}}}
	require.Equal(t, "#6 Round 1: Joshua 2 actions, le chien 1 action (each its lowest sphere, KA-010)", en(6, round))
	require.Equal(t, "#6 Round 1 : Joshua 2 actions, le chien 1 action (chacun autant d'actions que sa sphère la plus basse, KA-010)", fr(6, round))

	// KA-T02 (KA-020): the shot declared, the dodge announced, then the cards.
	declared := &kav1.Event{Kind: &kav1.Event_AttackDeclared{AttackDeclared: &kav1.AttackDeclared{AttackerId: "joshua",
		Attack: &kav1.Attack{TargetId: "chien", Weapon: "pistolet", Modifier: -2}, PendingIds: []string{"chien"}}}}
	require.Equal(t, "#7 Joshua declares an attack on le chien with pistolet, −2 situation; "+
		"le chien announces whether it dodges (one action) or takes it, before any card is drawn (KA-020)", en(7, declared))
	require.Equal(t, "#7 Joshua annonce une attaque contre le chien avec pistolet, −2 de situation ; "+
		"le chien annonce s'il esquive (une action) ou encaisse, avant qu'aucune carte ne soit tirée (KA-020)", fr(7, declared))
	dodge := &kav1.Event{Kind: &kav1.Event_DefenceAnnounced{DefenceAnnounced: &kav1.DefenceAnnounced{DefenderId: "chien", React: &kav1.React{Defend: true, Skill: "Esquive"}}}}
	require.Equal(t, "#8 le chien will dodge (one action, KA-013, KA-020)", en(8, dodge))
	require.Equal(t, "#8 le chien esquivera (une action, KA-013, KA-020)", fr(8, dodge))
	shot := &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "joshua", TargetId: "chien",
		Attack: &kav1.Attack{TargetId: "chien", Weapon: "pistolet", Modifier: -2}, DefencePossible: true, Declared: true,
		Draw: ntDraw(ka.Humanite, 3, "Arme à feu", 4, 0, []string{"-2 situation"}, ntEpee6)}}}
	require.Equal(t, "#8 Joshua attacks le chien with pistolet: Humanité 3 + Arme à feu 4 − 2 situation + cards 6 (6 d'épée, deck position 0) = 11", en(8, shot))
	require.Equal(t, "#8 Joshua attaque le chien avec pistolet : Humanité 3 + Arme à feu 4 − 2 situation + cartes 6 (6 d'épée, position 0 du paquet) = 11", fr(8, shot))
	dodged := &kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: &kav1.DefenceDrawn{DefenderId: "chien", Defended: true,
		Draw: ntDraw(ka.Humanite, 1, "Esquive", 4, 1, nil, ntEpee10)}}}
	require.Equal(t, "#8 le chien dodges (one action, KA-009, KA-013): Humanité 1 + Esquive 4 + cards 10 (10 d'épée, deck position 1) = 15", en(8, dodged))
	require.Equal(t, "#8 le chien esquive (une action, KA-009, KA-013) : Humanité 1 + Esquive 4 + cartes 10 (10 d'épée, position 1 du paquet) = 15", fr(8, dodged))
	won := &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien",
		Margin: -1, KaLeft: 2, RealityLeft: 10, Note: "the defender wins: no effect (KA-021)"}}}
	require.Equal(t, "#9 Joshua's attack on le chien: the defender wins: no effect (KA-021)", en(9, won))
	require.Equal(t, "#9 Joshua attaque le chien : le défenseur l'emporte : aucun effet (KA-021)", fr(9, won))
	pass := &kav1.Event{Kind: &kav1.Event_PassStarted{PassStarted: &kav1.PassStarted{PassNumber: 2}}}
	require.Equal(t, "#10 Pass 2 round the table, from the highest Animalité: one action each (KA-014, KA-015)", en(10, pass))
	require.Equal(t, "#10 Tour de table 2, de la plus haute Animalité à la plus basse : une action chacun (KA-014, KA-015)", fr(10, pass))

	// KA-T03: a face card adds 10 and draws again; a great success; 13 − 4 = 9: 2 Ka dice, the
	// last ones: the death draw.
	second := ntDraw(ka.Humanite, 3, "Arme à feu", 4, 2, []string{"-2 situation", "-1 actions already taken this round (KA-011)"}, ntValetBaton, ntCoupe9)
	require.Equal(t, int32(23), second.GetTotal())
	secondShot := &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "joshua", TargetId: "chien",
		Attack: &kav1.Attack{TargetId: "chien", Weapon: "pistolet", Modifier: -2}, Draw: second,
		NoDefenceReason: "le chien has no action left: it can only soak (KA-012)"}}}
	require.Equal(t, "#11 Joshua attacks le chien with pistolet: Humanité 3 + Arme à feu 4 − 2 situation − 1 actions already taken this round (KA-011) + "+
		"cards 19 (valet de bâton + 9 de coupe, deck positions 2–3) = 23; no defence: le chien has no action left: it can only soak (KA-012)", en(11, secondShot))
	require.Equal(t, "#11 Joshua attaque le chien avec pistolet : Humanité 3 + Arme à feu 4 − 2 situation − 1 pour les actions déjà faites ce round (KA-011) + "+
		"cartes 19 (valet de bâton + 9 de coupe, positions 2–3 du paquet) = 23 ; pas de défense : le chien n'a plus d'action : il ne peut qu'encaisser (KA-012)", fr(11, secondShot))
	death := &kav1.DrawResult{Draw: &kav1.Draw{Cards: []*kav1.Card{ntDenier3}, Position: 4, Positions: []int32{4}, Value: 3}, Total: 3}
	hit := &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien",
		Success: true, Margin: 13, Level: 2, Bonus: 5, WeaponDamage: 8, Damage: 13, Soak: 4, KaLost: 2, KaLeft: 0, RealityLeft: 10, Dying: true,
		DeathDraw: death, Note: "le chien has lost its last Ka die and makes its death draw; the Maître de Ka rules on it (KA-025)"}}}
	require.Equal(t, "#12 Joshua hits le chien: margin 13, a great success (damage bonus +5, KA-006): damage 5 + weapon 8 = 13 − soak 4 = 9 → 2 Ka dice lost (KA-022…KA-024); "+
		"le chien has 0 Ka dice and 10 points de réalité left: dying; death draw: cards 3 (3 de denier, deck position 4) = 3, the Maître de Ka rules on it (KA-025)", en(12, hit))
	require.Equal(t, "#12 Joshua touche le chien : marge 13, une grande réussite (bonus aux dégâts +5, KA-006) : dégâts 5 + arme 8 = 13 − encaissement 4 = 9 → 2 dés de Ka perdus (KA-022…KA-024) ; "+
		"le chien a encore 0 dé de Ka et 10 points de réalité : à l'agonie ; tirage de mort : cartes 3 (3 de denier, position 4 du paquet) = 3, le Maître de Ka en décide (KA-025)", fr(12, hit))

	// KA-T04: the stun; the attack drawn tells the narration it is one.
	stun := &kav1.Event{Kind: &kav1.Event_AttackDeclared{AttackDeclared: &kav1.AttackDeclared{AttackerId: "joshua",
		Attack: &kav1.Attack{TargetId: "chien", Weapon: "crosse", Stun: true, Modifier: 3}, PendingIds: []string{"chien"}}}}
	require.Equal(t, "#13 Joshua declares a stun on le chien with crosse (KA-030), +3 situation; "+
		"le chien announces whether it dodges (one action; a stun is not parried, KA-030) or takes it, before any card is drawn (KA-020)", en(13, stun))
	require.Equal(t, "#13 Joshua annonce vouloir assommer le chien avec crosse (KA-030), +3 de situation ; "+
		"le chien annonce s'il esquive (une action ; on ne pare pas un coup pour assommer, KA-030) ou encaisse, avant qu'aucune carte ne soit tirée (KA-020)", fr(13, stun))
	takes := &kav1.Event{Kind: &kav1.Event_DefenceAnnounced{DefenceAnnounced: &kav1.DefenceAnnounced{DefenderId: "chien", React: &kav1.React{}}}}
	require.Equal(t, "#13 le chien takes it: no defence, the attacker's draw will stand alone (KA-020)", en(13, takes))
	require.Equal(t, "#13 le chien encaisse : pas de défense, le tirage de l'attaquant comptera seul (KA-020)", fr(13, takes))

	drawn := ntEv(14, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "joshua", TargetId: "chien",
		Attack: &kav1.Attack{TargetId: "chien", Weapon: "crosse", Stun: true, Modifier: 3}, Draw: ntDraw(ka.Animalite, 4, "Bagarre", 2, 5, []string{"+3 situation"}, ntBaton4),
		DefencePossible: true, Declared: true}}})
	stunned := ntEv(16, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien",
		Success: true, Margin: 3, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, RealityLost: 4, KaLeft: 2, RealityLeft: 6}}})
	emptyTrack := ntEv(17, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien",
		Success: true, Margin: 3, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, Unconscious: true}}})
	for _, c := range []struct {
		lang                  language.Tag
		drawn, stunned, empty string
	}{
		{narrate.English,
			"#14 Joshua tries to stun le chien with crosse (KA-030): Animalité 4 + Bagarre 2 + 3 situation + cards 4 (4 de bâton, deck position 5) = 13",
			"#16 Joshua stuns le chien: margin 3, a normal success (damage bonus +1, KA-006): 1 + weapon 3 = 4 points de réalité, no soak (KA-030); le chien has 2 Ka dice and 6 points de réalité left",
			// A stun on an empty track is still a stun, known from the attack drawn.
			"#17 Joshua stuns le chien: margin 3, a normal success (damage bonus +1, KA-006): 1 + weapon 3 = 4 points de réalité, no soak (KA-030), only 0 left to lose; " +
				"le chien has 0 Ka dice and 0 points de réalité left: unconscious"},
		{narrate.French,
			"#14 Joshua tente d'assommer le chien avec crosse (KA-030) : Animalité 4 + Bagarre 2 + 3 situation + cartes 4 (4 de bâton, position 5 du paquet) = 13",
			"#16 Joshua frappe le chien pour l'assommer : marge 3, une réussite normale (bonus aux dégâts +1, KA-006) : 1 + arme 3 = 4, en points de réalité, sans encaissement (KA-030) ; le chien a encore 2 dés de Ka et 6 points de réalité",
			"#17 Joshua frappe le chien pour l'assommer : marge 3, une réussite normale (bonus aux dégâts +1, KA-006) : 1 + arme 3 = 4, en points de réalité, sans encaissement (KA-030), seulement 0 à perdre ; " +
				"le chien a encore 0 dé de Ka et 0 point de réalité : sans connaissance"},
	} {
		n := ntNarrator(c.lang)
		require.Equal(t, c.drawn, n.Narrate(drawn))
		require.Equal(t, c.stunned, n.Narrate(stunned))
		require.Equal(t, c.empty, n.Narrate(emptyTrack))
	}

	// KA-T05: terror: 4 + 3 − 3 + 5 = 9, below 10 and below 12: Abysse.
	terror := &kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "joshua", Abysse: true,
		Draw: ntDraw(ka.Animalite, 4, "", 0, 6, []string{"+3 encaissement", "-3 situation"}, ntDenier5)}}}
	require.Equal(t, "#18 Terror: Joshua draws Animalité 4 + 3 encaissement − 3 situation + cards 5 (5 de denier, deck position 6) = 9: "+
		"below 10 and below Animalité × 3 = 12: Joshua enters Abysse (KA-034)", en(18, terror))
	require.Equal(t, "#18 Terreur : Joshua tire Animalité 4 + 3 encaissement − 3 situation + cartes 5 (5 de denier, position 6 du paquet) = 9 : "+
		"sous 10 et sous Animalité × 3 = 12 : Joshua entre en Abysse (KA-034)", fr(18, terror))
	passes := &kav1.Event{Kind: &kav1.Event_Passed{Passed: &kav1.Passed{CombatantId: "joshua"}}}
	require.Equal(t, "#19 Joshua passes: no more actions this round (KA-015)", en(19, passes))
	require.Equal(t, "#19 Joshua passe : plus d'action ce round (KA-015)", fr(19, passes))
}
