package ka_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// ntAsPlayer is ev as the server gives it to a reader from whom gargouille is hidden: the
// rule system's own redaction, and the event marked redacted.
func ntAsPlayer(ev *encounterv1.Event) *encounterv1.Event {
	ka.New(ka.Latest).RedactEvent(ev, func(id string) bool { return id == "gargouille" })
	ev.Redacted = true
	return ev
}

// The narration as a player reads it when the GM hides a combatant: what is known is said,
// what is withheld is said to be, and no zero stands for a number the server kept.
func TestNarrateKaWithAHiddenCombatant(t *testing.T) {
	faceDownDraw := func(sphere string, sv int32, skill string, skv int32, position int32, cards ...*kav1.Card) *kav1.DrawResult {
		return ntDraw(sphere, sv, skill, skv, position, nil, cards...)
	}
	for _, c := range []struct {
		name     string
		ev       *kav1.Event
		want, fr string
	}{
		{"the deck: its cards, in no order (KA-003)",
			&kav1.Event{Kind: &kav1.Event_DeckShuffled{DeckShuffled: &kav1.DeckShuffled{Cards: 56}}},
			"The deck is whole: 56 cards, each card drawn at random from those left (KA-003)",
			"Le paquet est complet : 56 cartes, chaque carte tirée au hasard parmi celles qui restent (KA-003)"},
		{"who may act, not how many actions (KA-010)",
			&kav1.Event{Kind: &kav1.Event_RoundStarted{RoundStarted: &kav1.RoundStarted{Round: 1, Actions: map[string]int32{"joshua": 2, "gargouille": 2}}}},
			"Round 1: Joshua 2 actions, La gargouille (its actions withheld) (each its lowest sphere, KA-010)",
			"Round 1 : Joshua 2 actions, La gargouille (ses actions cachées) (chacun autant d'actions que sa sphère la plus basse, KA-010)"},
		{"its attack: the target, not the weapon, the modifier or the cards",
			&kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "gargouille", TargetId: "joshua", Declared: true, DefencePossible: true,
				Attack: &kav1.Attack{TargetId: "joshua", Weapon: "Serres-de-Minuit", Modifier: -3},
				Draw:   faceDownDraw(ka.Animalite, 19, "Griffes-de-Basalte", 16, 1, ntCoupe9)}}},
			"La gargouille attacks Joshua: a draw behind the screen (1 card face down, deck position 1), its total withheld",
			"La gargouille attaque Joshua : un tirage derrière l'écran (1 carte face cachée, position 1 du paquet), son total caché"},
		{"its dodge or parry",
			&kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: &kav1.DefenceDrawn{DefenderId: "gargouille", Defended: true,
				Draw: faceDownDraw(ka.Humanite, 17, ka.Dodge, 13, 4, ntValetBaton, ntDenier3)}}},
			"La gargouille defends (one action, KA-009, KA-013): a draw behind the screen (2 cards face down, deck positions 4–5), its total withheld",
			"La gargouille se défend (une action, KA-009, KA-013) : un tirage derrière l'écran (2 cartes face cachée, positions 4–5 du paquet), son total caché"},
		{"its blow: Joshua's soak, losses and what he has left (KA-022…KA-024)",
			&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "gargouille", TargetId: "joshua", Success: true,
				Margin: 25, Level: 3, Bonus: 10, WeaponDamage: 43, Damage: 53, Soak: 7, KaLost: 10, KaLeft: 4, RealityLeft: 15}}},
			"La gargouille hits Joshua (its margin and damage withheld): soak 7 → 10 Ka dice lost (KA-022…KA-024); Joshua has 4 Ka dice and 15 points de réalité left",
			"La gargouille touche Joshua (sa marge et ses dégâts cachés) : encaissement 7 → 10 dés de Ka perdus (KA-022…KA-024) ; Joshua a encore 4 dés de Ka et 15 points de réalité"},
		{"its blow kills: Joshua's death draw is seen (KA-025)",
			&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "gargouille", TargetId: "joshua", Success: true,
				Margin: 25, Level: 3, Bonus: 10, WeaponDamage: 43, Damage: 53, Soak: 7, KaLost: 4, KaLeft: 0, RealityLeft: 15, Dying: true,
				DeathDraw: &kav1.DrawResult{Draw: &kav1.Draw{Cards: []*kav1.Card{ntEpee6}, Position: 10, Positions: []int32{10}, Value: 6}, Total: 6},
				Note:      "Joshua has lost its last Ka die and makes its death draw; the Maître de Ka rules on it (KA-025)"}}},
			"La gargouille hits Joshua (its margin and damage withheld): soak 7 → 4 Ka dice lost (KA-022…KA-024); Joshua has 0 Ka dice and 15 points de réalité left: dying; " +
				"death draw: cards 6 (6 d'épée, deck position 10) = 6, the Maître de Ka rules on it (KA-025)",
			"La gargouille touche Joshua (sa marge et ses dégâts cachés) : encaissement 7 → 4 dés de Ka perdus (KA-022…KA-024) ; Joshua a encore 0 dé de Ka et 15 points de réalité : à l'agonie ; " +
				"tirage de mort : cartes 6 (6 d'épée, position 10 du paquet) = 6, le Maître de Ka en décide (KA-025)"},
		{"its stun: the points Joshua lost, and his Ka die (KA-030, KA-031)",
			&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "gargouille", TargetId: "joshua", Success: true,
				Margin: 25, Level: 3, Bonus: 10, WeaponDamage: 5, Damage: 15, RealityLost: 15, KaLost: 1, KaLeft: 3, Unconscious: true, StillActs: true,
				Note: "15 points at once reach the seuil of 15: knocked out (KA-027, KA-031)"}}},
			"La gargouille stuns Joshua (its margin and damage withheld): 15 points de réalité lost, no soak (KA-030), and 1 Ka die (KA-031); Joshua has 3 Ka dice and 0 points de réalité left: unconscious; " +
				"Joshua acts at the same time and still takes its action this pass (KA-014); 15 points at once reach the seuil of 15: knocked out (KA-027, KA-031)",
			"La gargouille frappe Joshua pour l'assommer (sa marge et ses dégâts cachés) : 15 points de réalité en moins, sans encaissement (KA-030), et 1 dé de Ka (KA-031) ; Joshua a encore 3 dés de Ka et 0 point de réalité : sans connaissance ; " +
				"Joshua agit en même temps et fait quand même son action de ce tour de table (KA-014) ; 15 points d'un coup atteignent le seuil de 15 : hors de combat (KA-027, KA-031)"},
		{"Joshua's blow: his own numbers and the outcome, its soak and death draw withheld (KA-025)",
			&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "gargouille", Success: true,
				Margin: 22, Level: 3, Bonus: 10, WeaponDamage: 8, Damage: 18, Soak: 17, KaLost: 1, RealityLeft: 67, Dying: true,
				DeathDraw: &kav1.DrawResult{Draw: &kav1.Draw{Cards: []*kav1.Card{ntEpee6}, Position: 10, Positions: []int32{10}, Value: 6}, Total: 6},
				Note:      "La gargouille has lost its last Ka die and makes its death draw; the Maître de Ka rules on it (KA-025)"}}},
			"Joshua hits La gargouille: an exceptional success (damage bonus +10, KA-006): damage 10 + weapon 8 = 18, against its soak (withheld): dying; death draw: 1 card face down, deck position 10, the Maître de Ka rules on it (KA-025)",
			"Joshua touche La gargouille : une réussite exceptionnelle (bonus aux dégâts +10, KA-006) : dégâts 10 + arme 8 = 18, contre son encaissement (caché) : à l'agonie ; tirage de mort : 1 carte face cachée, position 10 du paquet, le Maître de Ka en décide (KA-025)"},
		{"a blow that knocks it out: its seuil in the note withheld (KA-027, KA-031)",
			&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "gargouille", Success: true,
				Margin: 3, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, RealityLost: 4, Unconscious: true,
				Note: "4 points at once reach the seuil of 4: knocked out (KA-027, KA-031)"}}},
			"Joshua hits La gargouille: a normal success (damage bonus +1, KA-006): damage 1 + weapon 3 = 4, against its soak (withheld): unconscious; the blow reaches its seuil at once: knocked out (KA-027, KA-031)",
			"Joshua touche La gargouille : une réussite normale (bonus aux dégâts +1, KA-006) : dégâts 1 + arme 3 = 4, contre son encaissement (caché) : sans connaissance ; le coup atteint son seuil d'un coup : hors de combat (KA-027, KA-031)"},
		{"a miss on it: no margin",
			&kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "gargouille", Margin: -24, KaLeft: 1, RealityLeft: 67}}},
			"Joshua's attack on La gargouille fails: no effect (KA-005, KA-006)",
			"Joshua attaque La gargouille et échoue : aucun effet (KA-005, KA-006)"},
		{"its disarm: Joshua's resistance and his pistol (KA-032)",
			&kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: &kav1.DisarmDrawn{CombatantId: "gargouille", TargetId: "joshua", Success: true, Weapon: "pistolet",
				Draw: faceDownDraw(ka.Humanite, 17, "Pétrification-Ancienne", 12, 5, ntBaton4), Resistance: ntDraw(ka.Humanite, 3, "Arme à feu", 4, 6, nil, ntDenier5)}}},
			"La gargouille tries to disarm Joshua of pistolet: a draw behind the screen (1 card face down, deck position 5), its total withheld against Joshua's Humanité 3 + Arme à feu 4 + cards 5 (5 de denier, deck position 6) = 12 — Joshua is disarmed: it loses pistolet until it picks it up (one action), and may fight bare-handed (KA-032)",
			"La gargouille tente de désarmer Joshua (arme : pistolet) : un tirage derrière l'écran (1 carte face cachée, position 5 du paquet), son total caché, contre Joshua : Humanité 3 + Arme à feu 4 + cartes 5 (5 de denier, position 6 du paquet) = 12 — Joshua lâche pistolet, à reprendre pour s'en resservir (une action), et peut se battre à mains nues (KA-032)"},
		{"its failed disarm",
			&kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: &kav1.DisarmDrawn{CombatantId: "gargouille", TargetId: "joshua", Weapon: "pistolet",
				Draw: faceDownDraw(ka.Humanite, 17, "Pétrification-Ancienne", 12, 5, ntBaton4), Resistance: ntDraw(ka.Humanite, 3, "Arme à feu", 4, 6, nil, ntDenier5)}}},
			"La gargouille tries to disarm Joshua of pistolet: a draw behind the screen (1 card face down, deck position 5), its total withheld against Joshua's Humanité 3 + Arme à feu 4 + cards 5 (5 de denier, deck position 6) = 12 — fails (KA-032)",
			"La gargouille tente de désarmer Joshua (arme : pistolet) : un tirage derrière l'écran (1 carte face cachée, position 5 du paquet), son total caché, contre Joshua : Humanité 3 + Arme à feu 4 + cartes 5 (5 de denier, position 6 du paquet) = 12 — échec (KA-032)"},
		{"Joshua disarms it: which weapon it loses is withheld",
			&kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: &kav1.DisarmDrawn{CombatantId: "joshua", TargetId: "gargouille", Success: true, Weapon: "Serres-de-Minuit",
				Draw: ntDraw(ka.Humanite, 3, "Bagarre", 2, 7, nil, ntEpee10), Resistance: faceDownDraw(ka.Humanite, 17, "Griffes-de-Basalte", 16, 8, ntDenier3)}}},
			"Joshua tries to disarm La gargouille: Humanité 3 + Bagarre 2 + cards 10 (10 d'épée, deck position 7) = 15 against La gargouille's a draw behind the screen (1 card face down, deck position 8), its total withheld — La gargouille is disarmed: it loses its weapon until it picks it up (one action), and may fight bare-handed (KA-032)",
			"Joshua tente de désarmer La gargouille : Humanité 3 + Bagarre 2 + cartes 10 (10 d'épée, position 7 du paquet) = 15, contre La gargouille : un tirage derrière l'écran (1 carte face cachée, position 8 du paquet), son total caché — La gargouille lâche son arme, à reprendre pour s'en resservir (une action), et peut se battre à mains nues (KA-032)"},
		{"it picks its weapon up",
			&kav1.Event{Kind: &kav1.Event_WeaponPickedUp{WeaponPickedUp: &kav1.WeaponPickedUp{CombatantId: "gargouille", Weapon: "Serres-de-Minuit"}}},
			"La gargouille picks up its weapon, lost to a disarm (one action, KA-032)",
			"La gargouille reprend son arme, que lui avait fait perdre un désarmement (une action, KA-032)"},
		{"its terror draw: whether it falls into Abysse (KA-034)",
			&kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "gargouille", Draw: faceDownDraw(ka.Animalite, 19, "", 0, 0, ntBaton4)}}},
			"Terror: La gargouille draws a draw behind the screen (1 card face down, deck position 0), its total withheld: La gargouille does not enter Abysse (KA-034)",
			"Terreur : La gargouille tire un tirage derrière l'écran (1 carte face cachée, position 0 du paquet), son total caché : La gargouille n'entre pas en Abysse (KA-034)"},
		{"its terror draw into Abysse (KA-034)",
			&kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "gargouille", Abysse: true, Draw: faceDownDraw(ka.Animalite, 19, "", 0, 0, ntBaton4)}}},
			"Terror: La gargouille draws a draw behind the screen (1 card face down, deck position 0), its total withheld: La gargouille enters Abysse (KA-034)",
			"Terreur : La gargouille tire un tirage derrière l'écran (1 carte face cachée, position 0 du paquet), son total caché : La gargouille entre en Abysse (KA-034)"},
		{"its answer: it defends, with what is withheld (KA-020)",
			&kav1.Event{Kind: &kav1.Event_DefenceAnnounced{DefenceAnnounced: &kav1.DefenceAnnounced{DefenderId: "gargouille", React: &kav1.React{Defend: true, Skill: "Griffes-de-Basalte"}}}},
			"La gargouille will defend (one action, KA-013, KA-020)",
			"La gargouille se défendra (une action, KA-013, KA-020)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev := ntAsPlayer(ntEv(9, proto.CloneOf(c.ev)))
			got := ntNarrator(narrate.English, "gargouille").Text(ev)
			require.Equal(t, "#9 "+c.want, got)
			require.Equal(t, "#9 "+c.fr, ntNarrator(narrate.French, "gargouille").Text(ev))
			for _, secret := range []string{"Serres", "Griffes", "Pétrification", " 19", " 16", " 17", " 13", " 43", " 53", "= 0", "margin 0"} {
				require.NotContains(t, got, secret)
			}
		})
	}
	// The GM reads the same events whole.
	ev := ntEv(9, &kav1.Event{Kind: &kav1.Event_WeaponPickedUp{WeaponPickedUp: &kav1.WeaponPickedUp{CombatantId: "gargouille", Weapon: "Serres-de-Minuit"}}})
	require.Equal(t, "#9 La gargouille picks up Serres-de-Minuit, lost to a disarm (one action, KA-032)", ntNarrator(narrate.English, "gargouille").Text(ev))
	// The stun its target takes is withheld with the target (KA-030).
	n := ntNarrator(narrate.English, "gargouille")
	n.Narrate(ntAsPlayer(ntEv(10, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "joshua", TargetId: "gargouille",
		Attack: &kav1.Attack{TargetId: "gargouille", Stun: true}, Draw: ntDraw(ka.Animalite, 4, "Bagarre", 2, 5, nil, ntBaton4)}}})))
	stun := ntAsPlayer(ntEv(11, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "gargouille", Success: true,
		Margin: 3, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, RealityLost: 4, RealityLeft: 63}}}))
	require.Equal(t, "#11 Joshua stuns La gargouille: a normal success (damage bonus +1, KA-006): damage 1 + weapon 3 = 4, in points de réalité (withheld, KA-030)", n.Text(stun))
}

// The sheet of a joining combatant and the house rules of an encounter, as the common
// narration ("joins: …", "Encounter … created") shows them.
func TestNarrateKaSheetAndOptions(t *testing.T) {
	chien := &encounterv1.Combatant{Id: "chien", Name: "le chien", Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{
		Spheres: map[string]int32{"Spiritualité": 2, ka.Humanite: 1, ka.Animalite: 3}, Encaissement: 3, KaDice: 2, RealityPoints: 10}}}
	joshua := &encounterv1.Combatant{Id: "joshua", Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{
		Spheres: map[string]int32{"Ombres": 2, "Spiritualité": 2, ka.Humanite: 3, ka.Animalite: 4}, Encaissement: 3, Protection: 2, KaDice: 1, RealityPoints: 1, PlayerCharacter: true}}}
	for _, c := range []struct {
		n                      *narrate.Narrator
		chien, joshua, options string
	}{
		{narrate.New(narrate.English, ka.Teller{}),
			"Animalité 3, Humanité 1, Spiritualité 2, encaissement 3, 2 Ka dice, 10 points de réalité",
			"Animalité 4, Humanité 3, Ombres 2, Spiritualité 2, encaissement 3, protection 2, 1 Ka die, 1 point de réalité, player character",
			"deck tarot56, reshuffle every_draw, success levels from margins 8/16, damage bonus +1/+4/+8, Ka dice by damage up to 4/8, parries allowed"},
		{narrate.New(narrate.French, ka.Teller{}),
			"Animalité 3, Humanité 1, Spiritualité 2, encaissement 3, 2 dés de Ka, 10 points de réalité",
			"Animalité 4, Humanité 3, Ombres 2, Spiritualité 2, encaissement 3, protection 2, 1 dé de Ka, 1 point de réalité, personnage joueur",
			"paquet tarot56, remise de la défausse every_draw, niveaux de réussite dès les marges 8/16, bonus aux dégâts +1/+4/+8, dés de Ka par dégâts jusqu'à 4/8, parades permises"},
	} {
		s, ok := ka.Teller{}.Sheet(c.n, chien)
		require.True(t, ok)
		require.Equal(t, c.chien, s)
		s, ok = ka.Teller{}.Sheet(c.n, joshua)
		require.True(t, ok)
		require.Equal(t, c.joshua, s)
		s, ok = ka.Teller{}.Options(c.n, &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Ka{Ka: &kav1.Options{Deck: "tarot56", Reshuffle: "every_draw",
			SuccessLevels: []int32{8, 16}, SuccessBonus: []int32{1, 4, 8}, KaTable: []int32{4, 8}, Parry: true}}})
		require.True(t, ok)
		require.Equal(t, c.options, s)
		s, ok = ka.Teller{}.Options(c.n, &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Ka{Ka: &kav1.Options{}}})
		require.True(t, ok)
		require.Empty(t, s)
		_, ok = ka.Teller{}.Sheet(c.n, &encounterv1.Combatant{Id: "x"})
		require.False(t, ok)
		_, ok = ka.Teller{}.Options(c.n, &encounterv1.RuleOptions{})
		require.False(t, ok)
		_, ok = ka.Teller{}.Event(c.n, &encounterv1.Event{Payload: &encounterv1.Event_EncounterStarted{}})
		require.False(t, ok)
	}
	require.Equal(t, "#1 (empty Ka event)", en(1, &kav1.Event{}))
	require.Equal(t, "#1 (évènement Ka vide)", fr(1, &kav1.Event{}))
}

// KA-030: whether an attack resolved is a stun comes from the last attack drawn, or from the
// attack pending in the state a narration starts from; a rewind forgets it unless its state
// has one pending.
func TestNarrateKaStunIsLearnt(t *testing.T) {
	resolved := func(seq uint64, target string) *encounterv1.Event {
		return ntEv(seq, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: target,
			Success: true, Margin: 3, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, KaLeft: 2}}})
	}
	stunning := &kav1.Attack{TargetId: "a", MoreTargetIds: []string{"b"}, Stun: true}
	pending := &encounterv1.EncounterState{System: &encounterv1.EncounterState_Ka{Ka: &kav1.State{
		Pending: &kav1.Pending{AttackerId: "joshua", Attack: stunning}}}}
	n := ntNarrator(narrate.English)
	require.Contains(t, n.Text(resolved(2, "a")), "Joshua hits Alpha")
	n.LearnState(pending)
	require.Contains(t, n.Text(resolved(2, "a")), "Joshua stuns Alpha", "the pending attack's first target")
	require.Contains(t, n.Text(resolved(2, "b")), "Joshua stuns Bravo", "one of its other targets")
	require.Contains(t, n.Text(resolved(2, "c")), "Joshua hits Charlie", "not a target of the stun")
	require.Contains(t, ntEvText(n, 2, "gunner"), "Gunner hits Alpha", "another attacker")
	n.Narrate(&encounterv1.Event{Sequence: 3, Payload: &encounterv1.Event_EncounterRewound{EncounterRewound: &encounterv1.EncounterRewound{ToSequence: 1,
		State: &encounterv1.EncounterState{Sequence: 1}}}})
	require.Contains(t, n.Text(resolved(4, "a")), "Joshua hits Alpha", "the rewind's state has no attack pending")
	n.Narrate(ntEv(5, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "joshua", TargetId: "b", Attack: stunning}}}))
	require.Contains(t, n.Text(resolved(6, "b")), "Joshua stuns Bravo")
	require.Contains(t, n.Text(resolved(6, "a")), "Joshua stuns Alpha")
}

func ntEvText(n *narrate.Narrator, seq uint64, attacker string) string {
	return n.Text(ntEv(seq, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: attacker, TargetId: "a",
		Success: true, Margin: 3, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, KaLeft: 2}}}))
}
