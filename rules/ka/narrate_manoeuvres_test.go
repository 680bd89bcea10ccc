package ka_test

import (
	"testing"

	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
)

func TestNarrateKaManoeuvres(t *testing.T) {
	// KA-033: a burst on three targets at −3, one of which cannot defend.
	burstDeclared := &kav1.Event{Kind: &kav1.Event_AttackDeclared{AttackDeclared: &kav1.AttackDeclared{AttackerId: "gunner",
		Attack: &kav1.Attack{TargetId: "a", MoreTargetIds: []string{"b", "c"}, Weapon: "pistolet-mitrailleur", Burst: true}, PendingIds: []string{"b", "c"}}}}
	require.Equal(t, "#19 Gunner declares a burst at Alpha, Bravo and Charlie with pistolet-mitrailleur (KA-033); "+
		"Bravo and Charlie each announce in turn whether they dodge (one action) or take it, before any card is drawn (KA-020, KA-033)", en(19, burstDeclared))
	require.Equal(t, "#19 Gunner annonce une rafale sur Alpha, Bravo et Charlie avec pistolet-mitrailleur (KA-033) ; "+
		"Bravo et Charlie annoncent chacun à son tour s'ils esquivent (une action) ou encaissent, avant qu'aucune carte ne soit tirée (KA-020, KA-033)", fr(19, burstDeclared))
	burst := &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "gunner", TargetId: "a",
		Attack: &kav1.Attack{TargetId: "a", MoreTargetIds: []string{"b", "c"}, Weapon: "pistolet-mitrailleur", Burst: true},
		Draw:   ntDraw(ka.Animalite, 3, "Arme à feu", 4, 10, []string{"-3 burst targets (KA-033)"}, ntEpee6), NoDefenceReason: "Alpha cannot defend", Declared: true}}}
	require.Equal(t, "#20 Gunner fires a burst at Alpha, Bravo and Charlie with pistolet-mitrailleur (KA-033): Animalité 3 + Arme à feu 4 − 3 burst targets (KA-033) + "+
		"cards 6 (6 d'épée, deck position 10) = 10; no defence for Alpha: Alpha cannot defend", en(20, burst))
	require.Equal(t, "#20 Gunner tire une rafale sur Alpha, Bravo et Charlie avec pistolet-mitrailleur (KA-033) : Animalité 3 + Arme à feu 4 − 3 pour les cibles de la rafale (KA-033) + "+
		"cartes 6 (6 d'épée, position 10 du paquet) = 10 ; pas de défense pour Alpha : Alpha ne peut pas se défendre", fr(20, burst))
	// KA-033: a single target, −1; a burst on several whose first has no reason given.
	require.Equal(t, "#20 Gunner fires a burst at Alpha with pistolet-mitrailleur (the whole burst on one target, KA-033): Animalité 3 + Arme à feu 4 − 1 burst targets (KA-033) + "+
		"cards 6 (6 d'épée, deck position 10) = 12",
		en(20, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "gunner", TargetId: "a",
			Attack: &kav1.Attack{TargetId: "a", Weapon: "pistolet-mitrailleur", Burst: true}, Draw: ntDraw(ka.Animalite, 3, "Arme à feu", 4, 10, []string{"-1 burst targets (KA-033)"}, ntEpee6),
			DefencePossible: true, Declared: true}}}))
	require.Equal(t, "#20 Gunner fires a burst at Bravo and Alpha (a stun, KA-030, KA-033): no draw; no defence for Bravo",
		en(20, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "gunner", TargetId: "b",
			Attack: &kav1.Attack{TargetId: "a", MoreTargetIds: []string{"b"}, Stun: true}}}}))
	require.Equal(t, "#20 Gunner attacks Alpha: cards 0 (no card) = 0; no defence",
		en(20, &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "gunner", TargetId: "a",
			Attack: &kav1.Attack{TargetId: "a"}, Draw: &kav1.DrawResult{}}}}))
	// KA-013: a parry announced and drawn; a defender without the skill draws at 0.
	parry := &kav1.Event{Kind: &kav1.Event_DefenceAnnounced{DefenceAnnounced: &kav1.DefenceAnnounced{DefenderId: "b", React: &kav1.React{Defend: true, Skill: "Bagarre"}}}}
	require.Equal(t, "#20 Bravo will parry with Bagarre (one action, KA-013, KA-020)", en(20, parry))
	require.Equal(t, "#20 Bravo parera avec Bagarre (une action, KA-013, KA-020)", fr(20, parry))
	parried := ntDraw(ka.Animalite, 3, "Épée", 0, 11, nil, ntEpee10)
	parried.SkillMissing = true
	parries := &kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: &kav1.DefenceDrawn{DefenderId: "b", Defended: true, Draw: parried}}}
	require.Equal(t, "#20 Bravo parries (one action, KA-009, KA-013): Animalité 3 + Épée 0 (lacks the skill, KA-013) + cards 10 (10 d'épée, deck position 11) = 13", en(20, parries))
	require.Equal(t, "#20 Bravo pare (une action, KA-009, KA-013) : Animalité 3 + Épée 0 (sans la compétence, KA-013) + cartes 10 (10 d'épée, position 11 du paquet) = 13", fr(20, parries))
	back := &kav1.Event{Kind: &kav1.Event_DefenceAnnounced{DefenceAnnounced: &kav1.DefenceAnnounced{DefenderId: "chien", React: &kav1.React{AttackBack: true, Weapon: "crocs"}}}}
	require.Equal(t, "#20 le chien will attack back with crocs (one action; only the winner succeeds, KA-008, KA-020)", en(20, back))
	require.Equal(t, "#20 le chien attaquera en retour avec crocs (une action ; seul le vainqueur réussit, KA-008, KA-020)", fr(20, back))
	require.Equal(t, "#20 le chien will attack back (one action; only the winner succeeds, KA-008, KA-020)",
		en(20, &kav1.Event{Kind: &kav1.Event_DefenceAnnounced{DefenceAnnounced: &kav1.DefenceAnnounced{DefenderId: "chien", React: &kav1.React{AttackBack: true}}}}))
	// KA-032: the weapon picked up.
	picked := &kav1.Event{Kind: &kav1.Event_WeaponPickedUp{WeaponPickedUp: &kav1.WeaponPickedUp{CombatantId: "gunner", Weapon: "pistolet-mitrailleur"}}}
	require.Equal(t, "#20 Gunner picks up pistolet-mitrailleur, lost to a disarm (one action, KA-032)", en(20, picked))
	require.Equal(t, "#20 Gunner reprend pistolet-mitrailleur, que lui avait fait perdre un désarmement (une action, KA-032)", fr(20, picked))
	// Each target hit by the burst takes a bullet: +6; soak below the damage: no Ka die.
	soaked := &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "gunner", TargetId: "b",
		Success: true, Level: 1, Bonus: 1, WeaponDamage: 6, Damage: 7, Soak: 9, KaLeft: 3, RealityLeft: 12}}}
	require.Equal(t, "#21 Gunner hits Bravo: margin 0, a normal success (damage bonus +1, KA-006): damage 1 + weapon 6 = 7 − soak 9: no Ka die lost (KA-022, KA-023); Bravo has 3 Ka dice and 12 points de réalité left", en(21, soaked))
	require.Equal(t, "#21 Gunner touche Bravo : marge 0, une réussite normale (bonus aux dégâts +1, KA-006) : dégâts 1 + arme 6 = 7 − encaissement 9 : aucun dé de Ka perdu (KA-022, KA-023) ; Bravo a encore 3 dés de Ka et 12 points de réalité", fr(21, soaked))
	// An undefended attack below 10; an exceptional success.
	failed := &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "gunner", TargetId: "c", Margin: -3}}}
	require.Equal(t, "#22 Gunner's attack on Charlie fails: margin −3, no effect (KA-005, KA-006)", en(22, failed))
	require.Equal(t, "#22 Gunner attaque Charlie et échoue : marge −3, aucun effet (KA-005, KA-006)", fr(22, failed))
	exceptional := &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "gunner", TargetId: "c",
		Success: true, Margin: 22, Level: 3, Bonus: 10, WeaponDamage: 12, Damage: 22, Soak: 5, KaLost: 4, KaLeft: 1, RealityLeft: 12}}}
	require.Equal(t, "#23 Gunner hits Charlie: margin 22, an exceptional success (damage bonus +10, KA-006): damage 10 + weapon 12 = 22 − soak 5 = 17 → 4 Ka dice lost (KA-022…KA-024); Charlie has 1 Ka die and 12 points de réalité left", en(23, exceptional))
	require.Equal(t, "#23 Gunner touche Charlie : marge 22, une réussite exceptionnelle (bonus aux dégâts +10, KA-006) : dégâts 10 + arme 12 = 22 − encaissement 5 = 17 → 4 dés de Ka perdus (KA-022…KA-024) ; Charlie a encore 1 dé de Ka et 12 points de réalité", fr(23, exceptional))
	require.Contains(t, en(23, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "gunner", TargetId: "c",
		Success: true, Level: 4, Damage: 6, Soak: 5, KaLost: 1, KaLeft: 1}}}), "margin 0, success level 4 (damage bonus +0, KA-006): damage 0 + weapon 0 = 6 − soak 5 = 1 → 1 Ka die lost (KA-022…KA-024)")
	require.Contains(t, fr(23, &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "gunner", TargetId: "c",
		Success: true, Level: 4, Damage: 6, Soak: 5, KaLost: 1, KaLeft: 1}}}), "marge 0, niveau de réussite 4 (bonus aux dégâts +0, KA-006) : dégâts 0 + arme 0 = 6 − encaissement 5 = 1 → 1 dé de Ka perdu (KA-022…KA-024)")

	// KA-008: attacking back, the loser's attack without effect; KA-031: a stun to 0 points
	// costs a Ka die; KA-014: put out at the same time, it still acts.
	attackedBack := &kav1.Event{Kind: &kav1.Event_DefenceDrawn{DefenceDrawn: &kav1.DefenceDrawn{DefenderId: "chien", AttackedBack: true,
		Draw: ntDraw(ka.Animalite, 3, "Morsure", 3, 12, []string{"-1 actions already taken this round (KA-011)"}, ntRoiCoupe, ntD, ntDenier3)}}}
	require.Equal(t, "#24 le chien attacks back (one action; only the winner succeeds, KA-008): Animalité 3 + Morsure 3 − 1 actions already taken this round (KA-011) + "+
		"cards 23 (roi de coupe + dame de denier + 3 de denier, deck positions 12–14) = 28", en(24, attackedBack))
	require.Equal(t, "#24 le chien attaque en retour (une action ; seul le vainqueur réussit, KA-008) : Animalité 3 + Morsure 3 − 1 pour les actions déjà faites ce round (KA-011) + "+
		"cartes 23 (roi de coupe + dame de denier + 3 de denier, positions 12–14 du paquet) = 28", fr(24, attackedBack))
	knocked := &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien",
		Success: true, Margin: 5, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, RealityLost: 4, KaLost: 1, KaLeft: 1, Unconscious: true, StillActs: true,
		Note: "no points de réalité left: knocked out, and one Ka die lost (KA-031)"}}}
	require.Equal(t, "#25 Joshua stuns le chien: margin 5, a normal success (damage bonus +1, KA-006): 1 + weapon 3 = 4 points de réalité, no soak (KA-030), and 1 Ka die (KA-031); "+
		"le chien has 1 Ka die and 0 points de réalité left: unconscious; le chien acts at the same time and still takes its action this pass (KA-014); "+
		"no points de réalité left: knocked out, and one Ka die lost (KA-031)", en(25, knocked))
	require.Equal(t, "#25 Joshua frappe le chien pour l'assommer : marge 5, une réussite normale (bonus aux dégâts +1, KA-006) : 1 + arme 3 = 4, en points de réalité, sans encaissement (KA-030), et 1 dé de Ka (KA-031) ; "+
		"le chien a encore 1 dé de Ka et 0 point de réalité : sans connaissance ; le chien agit en même temps et fait quand même son action de ce tour de table (KA-014) ; "+
		"plus de points de réalité : hors de combat, et un dé de Ka perdu (KA-031)", fr(25, knocked))

	// KA-031 with KA-025 and KA-014: the rules' notes, joined by "; ", lose the death draw's
	// sentence, which the narration of the draw replaces.
	dying := &kav1.Event{Kind: &kav1.Event_AttackResolved{AttackResolved: &kav1.AttackResolved{AttackerId: "joshua", TargetId: "chien",
		Success: true, Margin: 5, Level: 1, Bonus: 1, WeaponDamage: 3, Damage: 4, RealityLost: 4, KaLost: 1, Unconscious: true, Dying: true, StillActs: true,
		DeathDraw: &kav1.DrawResult{Draw: &kav1.Draw{Cards: []*kav1.Card{ntDenier3}, Position: 4, Positions: []int32{4}, Value: 3}, Total: 3},
		Note: "no points de réalité left: knocked out, and one Ka die lost (KA-031); le chien has lost its last Ka die and makes its death draw; " +
			"the Maître de Ka rules on it (KA-025); le chien acts at the same time as Joshua and still takes its action this pass (KA-014)"}}}
	require.Equal(t, "#25 Joshua stuns le chien: margin 5, a normal success (damage bonus +1, KA-006): 1 + weapon 3 = 4 points de réalité, no soak (KA-030), and 1 Ka die (KA-031); "+
		"le chien has 0 Ka dice and 0 points de réalité left: unconscious and dying; death draw: cards 3 (3 de denier, deck position 4) = 3, the Maître de Ka rules on it (KA-025); "+
		"no points de réalité left: knocked out, and one Ka die lost (KA-031); le chien acts at the same time as Joshua and still takes its action this pass (KA-014)", en(25, dying))
	require.Equal(t, "#25 Joshua frappe le chien pour l'assommer : marge 5, une réussite normale (bonus aux dégâts +1, KA-006) : 1 + arme 3 = 4, en points de réalité, sans encaissement (KA-030), et 1 dé de Ka (KA-031) ; "+
		"le chien a encore 0 dé de Ka et 0 point de réalité : sans connaissance et à l'agonie ; tirage de mort : cartes 3 (3 de denier, position 4 du paquet) = 3, le Maître de Ka en décide (KA-025) ; "+
		"plus de points de réalité : hors de combat, et un dé de Ka perdu (KA-031) ; le chien agit en même temps que Joshua et fait quand même son action de ce tour de table (KA-014)", fr(25, dying))

	// KA-032: the disarm against the weapon chosen; a failure below 10, one not higher.
	disarm := &kav1.DisarmDrawn{CombatantId: "joshua", TargetId: "gunner", Weapon: "pistolet-mitrailleur",
		Draw:       ntDraw(ka.Humanite, 3, "Bagarre", 2, 30, []string{"-1 actions already taken this round (KA-011)"}, ntDenier5),
		Resistance: ntDraw(ka.Humanite, 2, "Arme à feu", 4, 31, nil, ntAsEpee)}
	require.Equal(t, "#26 Joshua tries to disarm Gunner of pistolet-mitrailleur: Humanité 3 + Bagarre 2 − 1 actions already taken this round (KA-011) + "+
		"cards 5 (5 de denier, deck position 30) = 9 against Gunner's Humanité 2 + Arme à feu 4 + cards 1 (as d'épée, deck position 31) = 7 — fails: below 10 (KA-032)",
		en(26, &kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: disarm}}))
	require.Equal(t, "#26 Joshua tente de désarmer Gunner (arme : pistolet-mitrailleur) : Humanité 3 + Bagarre 2 − 1 pour les actions déjà faites ce round (KA-011) + "+
		"cartes 5 (5 de denier, position 30 du paquet) = 9, contre Gunner : Humanité 2 + Arme à feu 4 + cartes 1 (as d'épée, position 31 du paquet) = 7 — échec : sous 10 (KA-032)",
		fr(26, &kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: disarm}}))
	disarm.Draw, disarm.Success, disarm.StillActs = ntDraw(ka.Humanite, 3, "Bagarre", 2, 30, nil, ntEpee10), true, true
	require.Equal(t, "#27 Joshua tries to disarm Gunner of pistolet-mitrailleur: Humanité 3 + Bagarre 2 + cards 10 (10 d'épée, deck position 30) = 15 "+
		"against Gunner's Humanité 2 + Arme à feu 4 + cards 1 (as d'épée, deck position 31) = 7 — Gunner is disarmed: it loses pistolet-mitrailleur "+
		"until it picks it up (one action), and may fight bare-handed (KA-032); "+
		"Gunner acts at the same time and still takes its action this pass (KA-014)",
		en(27, &kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: disarm}}))
	require.Equal(t, "#27 Joshua tente de désarmer Gunner (arme : pistolet-mitrailleur) : Humanité 3 + Bagarre 2 + cartes 10 (10 d'épée, position 30 du paquet) = 15, "+
		"contre Gunner : Humanité 2 + Arme à feu 4 + cartes 1 (as d'épée, position 31 du paquet) = 7 — Gunner lâche pistolet-mitrailleur, "+
		"à reprendre pour s'en resservir (une action), et peut se battre à mains nues (KA-032) ; "+
		"Gunner agit en même temps et fait quand même son action de ce tour de table (KA-014)",
		fr(27, &kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: disarm}}))
	disarm.Success, disarm.StillActs, disarm.Resistance = false, false, ntDraw(ka.Humanite, 2, "Arme à feu", 4, 31, nil, ntCoupe9)
	require.Contains(t, en(28, &kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: disarm}}), "= 15 — fails: not strictly higher (KA-032)")
	require.Contains(t, fr(28, &kav1.Event{Kind: &kav1.Event_DisarmDrawn{DisarmDrawn: disarm}}), "= 15 — échec : pas strictement plus haut (KA-032)")

	// KA-034: a terror draw that holds, and a failure above Animalité × 3.
	holds := &kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "chien",
		Draw: ntDraw(ka.Animalite, 3, "", 0, 40, []string{"+3 encaissement"}, ntEpee6)}}}
	require.Equal(t, "#29 Terror: le chien draws Animalité 3 + 3 encaissement + cards 6 (6 d'épée, deck position 40) = 12: 10 or more, le chien holds (KA-034)", en(29, holds))
	require.Equal(t, "#29 Terreur : le chien tire Animalité 3 + 3 encaissement + cartes 6 (6 d'épée, position 40 du paquet) = 12 : 10 ou plus, le chien tient bon (KA-034)", fr(29, holds))
	require.Equal(t, "#30 Terror: Gunner draws Animalité 2 + 3 encaissement − 4 situation + cards 9 (9 de coupe, deck position 41) = 10: 10 or more, Gunner holds (KA-034)",
		en(30, &kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "gunner",
			Draw: ntDraw(ka.Animalite, 2, "", 0, 41, []string{"+3 encaissement", "-4 situation"}, ntCoupe9)}}}))
	fails := &kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "gunner",
		Draw: ntDraw(ka.Animalite, 2, "", 0, 41, []string{"+3 encaissement", "-4 situation"}, ntEpee6)}}}
	require.Equal(t, "#31 Terror: Gunner draws Animalité 2 + 3 encaissement − 4 situation + cards 6 (6 d'épée, deck position 41) = 7: "+
		"a failure, but not below Animalité × 3 = 6: no Abysse (KA-034)", en(31, fails))
	require.Equal(t, "#31 Terreur : Gunner tire Animalité 2 + 3 encaissement − 4 situation + cartes 6 (6 d'épée, position 41 du paquet) = 7 : "+
		"un échec, mais pas sous Animalité × 3 = 6 : pas d'Abysse (KA-034)", fr(31, fails))
}

// KA-003: the deck runs out in the middle of a draw, and the discard goes back in; the
// narration gives the count of cards (the deck has no order).
func TestNarrateKaReshuffle(t *testing.T) {
	r := ntDraw(ka.Humanite, 3, "Arme à feu", 4, 55, nil, ntCavalierBaton, ntEpee6)
	r.Draw.Positions = []int32{55, 0}
	r.Draw.Reshuffle, r.Draw.ReshuffleAfter = &kav1.DeckShuffled{Cards: 56}, 1
	ev := &kav1.Event{Kind: &kav1.Event_AttackDrawn{AttackDrawn: &kav1.AttackDrawn{AttackerId: "joshua", TargetId: "chien",
		Attack: &kav1.Attack{TargetId: "chien"}, Draw: r, NoDefenceReason: "le chien cannot defend"}}}
	require.Equal(t, "#40 Joshua attacks le chien: Humanité 3 + Arme à feu 4 + cards 16 (cavalier de bâton + 6 d'épée, deck positions 55, 0; "+
		"the deck ran out after 1 card and the discard went back in: 56 cards (KA-003)) = 23; no defence: le chien cannot defend", en(40, ev))
	require.Equal(t, "#40 Joshua attaque le chien : Humanité 3 + Arme à feu 4 + cartes 16 (cavalier de bâton + 6 d'épée, positions 55, 0 du paquet ; "+
		"le paquet s'est épuisé après 1 carte et la défausse y est retournée : 56 cartes (KA-003)) = 23 ; pas de défense : le chien ne peut pas se défendre", fr(40, ev))
	r.Draw.ReshuffleAfter, r.Draw.Positions = 0, []int32{0, 1}
	terror := &kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: "joshua", Draw: r}}}
	require.Contains(t, en(41, terror), "deck positions 0–1; the discard back in the deck first: 56 cards (KA-003))")
	require.Contains(t, fr(41, terror), "positions 0–1 du paquet ; la défausse d'abord remise dans le paquet : 56 cartes (KA-003))")
	r.Draw.Positions = nil
	require.Contains(t, en(41, terror), "(cavalier de bâton + 6 d'épée, from deck position 55;")
	require.Contains(t, fr(41, terror), "(cavalier de bâton + 6 d'épée, à partir de la position 55 du paquet ;")
	r.Draw.Reshuffle = nil
	r.ModifierReasons, r.Modifiers = []string{"+2 situation", "five% odd"}, 3
	require.Contains(t, en(41, terror), "Humanité 3 + Arme à feu 4 + 2 situation + (five% odd) + 1 other modifiers + cards 16")
	require.Contains(t, fr(41, terror), "Humanité 3 + Arme à feu 4 + 2 situation + (five% odd) + 1 autres modificateurs + cartes 16")
	r.ModifierReasons = nil
	require.Contains(t, en(41, terror), "Humanité 3 + Arme à feu 4 + 3 modifiers + cards 16")
	require.Contains(t, fr(41, terror), "Humanité 3 + Arme à feu 4 + 3 modificateurs + cartes 16")
	r.Sphere, r.Skill, r.Modifiers = "", "", 0
	require.Contains(t, en(41, terror), "Terror: Joshua draws cards 16 (")
	round := &kav1.Event{Kind: &kav1.Event_RoundStarted{RoundStarted: &kav1.RoundStarted{Round: 4}}}
	require.Equal(t, "#42 Round 4: no one can act", en(42, round))
	require.Equal(t, "#42 Round 4 : personne ne peut agir", fr(42, round))
}
