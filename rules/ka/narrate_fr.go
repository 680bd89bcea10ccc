package ka

import (
	"github.com/fray-rpg/fray/rules/narrate"
)

// The catalogue of the narration of Ka: the plural forms of both languages, and the French of
// every message, in the words of the game (tirage, cartes, paquet, défausse, dés de Ka, points
// de réalité, encaissement, seuil, Maître de Ka, Abysse), with French typography (a space
// before « : ; »).
func init() {
	counts := []struct{ key, one, other, un, autres string }{
		{"%[2]s cards", "%[2]s card", "%[2]s cards", "%[2]s carte", "%[2]s cartes"},
		{"%[2]s actions", "%[2]s action", "%[2]s actions", "%[2]s action", "%[2]s actions"},
		{"%[2]s Ka dice", "%[2]s Ka die", "%[2]s Ka dice", "%[2]s dé de Ka", "%[2]s dés de Ka"},
		{"%[2]s Ka dice lost", "%[2]s Ka die lost", "%[2]s Ka dice lost", "%[2]s dé de Ka perdu", "%[2]s dés de Ka perdus"},
		{"%[2]s points de réalité", "%[2]s point de réalité", "%[2]s points de réalité", "%[2]s point de réalité", "%[2]s points de réalité"},
	}
	for _, c := range counts {
		narrate.Plural(c.key, c.one, c.other, c.un, c.autres)
	}
	for _, pairs := range [][]string{frEvents, frSheets, frDraws, frAttacks, frOutcomes, frDisarmsTerror, frNotes} {
		narrate.Fr(pairs...)
	}
}

// frEvents: the French of the events of the round and its passes.
var frEvents = []string{
	"The deck is whole: %s, each card drawn at random from those left (KA-003)",
	"Le paquet est complet : %s, chaque carte tirée au hasard parmi celles qui restent (KA-003)",
	"Pass %s round the table, from the highest Animalité: one action each (KA-014, KA-015)",
	"Tour de table %s, de la plus haute Animalité à la plus basse : une action chacun (KA-014, KA-015)",
	"its weapon", "son arme",
	"%s picks up %s, lost to a disarm (one action, KA-032)",
	"%s reprend %s, que lui avait fait perdre un désarmement (une action, KA-032)",
	"%s passes: no more actions this round (KA-015)", "%s passe : plus d'action ce round (KA-015)",
	"(empty Ka event)", "(évènement Ka vide)",
	"(Ka event %s)", "(évènement Ka %s)",
	"Round %s: no one can act", "Round %s : personne ne peut agir",
	"%s (its actions withheld)", "%s (ses actions cachées)",
	"Round %s: %s (each its lowest sphere, KA-010)", "Round %s : %s (chacun autant d'actions que sa sphère la plus basse, KA-010)",
}

// frSheets: the French of sheets and house rules.
var frSheets = []string{
	", encaissement %s", ", encaissement %s",
	", protection %s", ", protection %s",
	", player character", ", personnage joueur",
	"deck %s", "paquet %s",
	"reshuffle %s", "remise de la défausse %s",
	"success levels from margins %s", "niveaux de réussite dès les marges %s",
	"damage bonus %s", "bonus aux dégâts %s",
	"Ka dice by damage up to %s", "dés de Ka par dégâts jusqu'à %s",
	"parries allowed", "parades permises",
}

// frDraws: the French of draws.
var frDraws = []string{
	"suit unknown", "couleur inconnue",
	"rank %s", "rang %s",
	"from deck position %s", "à partir de la position %s du paquet",
	"deck position %s", "position %s du paquet",
	"deck positions %s–%s", "positions %s–%s du paquet",
	"deck positions %s", "positions %s du paquet",
	"no card", "aucune carte",
	"%s face down, %s", "%s face cachée, %s",
	"; the discard back in the deck first: %s (KA-003)", " ; la défausse d'abord remise dans le paquet : %s (KA-003)",
	"; the deck ran out after %s and the discard went back in: %s (KA-003)",
	" ; le paquet s'est épuisé après %s et la défausse y est retournée : %s (KA-003)",
	"actions already taken this round (KA-011)", "pour les actions déjà faites ce round (KA-011)",
	"burst targets (KA-033)", "pour les cibles de la rafale (KA-033)",
	"modifiers", "modificateurs",
	"other modifiers", "autres modificateurs",
	"no draw", "pas de tirage",
	"a draw behind the screen (%s), its total withheld", "un tirage derrière l'écran (%s), son total caché",
	" (lacks the skill, KA-013)", " (sans la compétence, KA-013)",
	"cards %s (%s)", "cartes %s (%s)",
}

// frAttacks: the French of attacks.
var frAttacks = []string{
	"%s declares a burst at %s", "%s annonce une rafale sur %s",
	"%s declares a stun on %s", "%s annonce vouloir assommer %s",
	"%s declares an attack on %s", "%s annonce une attaque contre %s",
	"%s fires a burst at %s", "%s tire une rafale sur %s",
	"%s tries to stun %s", "%s tente d'assommer %s",
	"%s attacks %s", "%s attaque %s",
	" with %s", " avec %s",
	" (a stun, KA-030, KA-033)", " (pour assommer, KA-030, KA-033)",
	" (the whole burst on one target, KA-033)", " (toute la rafale sur une seule cible, KA-033)",
	", %s situation", ", %s de situation",
	"; %s each announce in turn whether they dodge (one action) or take it, before any card is drawn (KA-020, KA-033)",
	" ; %s annoncent chacun à son tour s'ils esquivent (une action) ou encaissent, avant qu'aucune carte ne soit tirée (KA-020, KA-033)",
	"; %s announces whether it dodges (one action; a stun is not parried, KA-030) or takes it, before any card is drawn (KA-020)",
	" ; %s annonce s'il esquive (une action ; on ne pare pas un coup pour assommer, KA-030) ou encaisse, avant qu'aucune carte ne soit tirée (KA-020)",
	"; %s announces whether it dodges (one action) or takes it, before any card is drawn (KA-020)",
	" ; %s annonce s'il esquive (une action) ou encaisse, avant qu'aucune carte ne soit tirée (KA-020)",
	"%s will attack back with %s (one action; only the winner succeeds, KA-008, KA-020)",
	"%s attaquera en retour avec %s (une action ; seul le vainqueur réussit, KA-008, KA-020)",
	"%s will attack back (one action; only the winner succeeds, KA-008, KA-020)",
	"%s attaquera en retour (une action ; seul le vainqueur réussit, KA-008, KA-020)",
	"%s will parry with %s (one action, KA-013, KA-020)", "%s parera avec %s (une action, KA-013, KA-020)",
	"%s will defend (one action, KA-013, KA-020)", "%s se défendra (une action, KA-013, KA-020)",
	"%s will dodge (one action, KA-013, KA-020)", "%s esquivera (une action, KA-013, KA-020)",
	"%s takes it: no defence, the attacker's draw will stand alone (KA-020)",
	"%s encaisse : pas de défense, le tirage de l'attaquant comptera seul (KA-020)",
	"%s: %s", "%s : %s",
	"; no defence for %s: %s", " ; pas de défense pour %s : %s",
	"; no defence for %s", " ; pas de défense pour %s",
	"; no defence: %s", " ; pas de défense : %s",
	"; no defence", " ; pas de défense",
	"%s attacks back (one action; only the winner succeeds, KA-008): %s",
	"%s attaque en retour (une action ; seul le vainqueur réussit, KA-008) : %s",
	"%s parries (one action, KA-009, KA-013): %s", "%s pare (une action, KA-009, KA-013) : %s",
	"%s defends (one action, KA-009, KA-013): %s", "%s se défend (une action, KA-009, KA-013) : %s",
	"%s dodges (one action, KA-009, KA-013): %s", "%s esquive (une action, KA-009, KA-013) : %s",
	"%s takes it: no defence, the attacker's draw stands alone (KA-020)",
	"%s encaisse : pas de défense, le tirage de l'attaquant compte seul (KA-020)",
}

// frOutcomes: the French of outcomes.
var frOutcomes = []string{
	"a normal success", "une réussite normale",
	"a great success", "une grande réussite",
	"an exceptional success", "une réussite exceptionnelle",
	"success level %s", "niveau de réussite %s",
	"%s's attack on %s: %s", "%s attaque %s : %s",
	"%s's attack on %s fails: no effect (KA-005, KA-006)", "%s attaque %s et échoue : aucun effet (KA-005, KA-006)",
	"%s's attack on %s fails: margin %s, no effect (KA-005, KA-006)",
	"%s attaque %s et échoue : marge %s, aucun effet (KA-005, KA-006)",
	"%s stuns %s: margin %s, %s (damage bonus %s, KA-006)", "%s frappe %s pour l'assommer : marge %s, %s (bonus aux dégâts %s, KA-006)",
	"%s hits %s: margin %s, %s (damage bonus %s, KA-006)", "%s touche %s : marge %s, %s (bonus aux dégâts %s, KA-006)",
	": %s + weapon %s = %s points de réalité, no soak (KA-030)",
	" : %s + arme %s = %s, en points de réalité, sans encaissement (KA-030)",
	", only %s left to lose", ", seulement %s à perdre",
	", and %s (KA-031)", ", et %s (KA-031)",
	": damage %s + weapon %s = %s", " : dégâts %s + arme %s = %s",
	" − soak %s: no Ka die lost (KA-022, KA-023)", " − encaissement %s : aucun dé de Ka perdu (KA-022, KA-023)",
	" − soak %s = %s → %s (KA-022…KA-024)", " − encaissement %s = %s → %s (KA-022…KA-024)",
	"; %s has %s and %s left", " ; %s a encore %s et %s",
	"; death draw: cards %s (%s) = %s, the Maître de Ka rules on it (KA-025)",
	" ; tirage de mort : cartes %s (%s) = %s, le Maître de Ka en décide (KA-025)",
	"; death draw: %s, the Maître de Ka rules on it (KA-025)", " ; tirage de mort : %s, le Maître de Ka en décide (KA-025)",
	"%s hits %s", "%s touche %s",
	"%s stuns %s", "%s frappe %s pour l'assommer",
	" (its margin and damage withheld)", " (sa marge et ses dégâts cachés)",
	": %s (damage bonus %s, KA-006): damage %s + weapon %s = %s", " : %s (bonus aux dégâts %s, KA-006) : dégâts %s + arme %s = %s",
	", in points de réalité (withheld, KA-030)", ", en points de réalité (cachés, KA-030)",
	", against its soak (withheld)", ", contre son encaissement (caché)",
	": %s lost, no soak (KA-030)", " : %s en moins, sans encaissement (KA-030)",
	": soak %s → %s (KA-022…KA-024)", " : encaissement %s → %s (KA-022…KA-024)",
	"unconscious", "sans connaissance",
	"dying", "à l'agonie",
	": %s", " : %s",
	"; %s acts at the same time and still takes its action this pass (KA-014)",
	" ; %s agit en même temps et fait quand même son action de ce tour de table (KA-014)",
	"; %s", " ; %s",
	"%s; %s", "%s ; %s",
}

// frDisarmsTerror: the French of disarms and Terror.
var frDisarmsTerror = []string{
	"%s tries to disarm %s", "%s tente de désarmer %s",
	" of %s", " (arme : %s)",
	": %s against %s's %s", " : %s, contre %s : %s",
	" — fails (KA-032)", " — échec (KA-032)",
	" — %s is disarmed: it loses %s until it picks it up (one action), and may fight bare-handed (KA-032)",
	" — %s lâche %s, à reprendre pour s'en resservir (une action), et peut se battre à mains nues (KA-032)",
	" — fails: below %s (KA-032)", " — échec : sous %s (KA-032)",
	" — fails: not strictly higher (KA-032)", " — échec : pas strictement plus haut (KA-032)",
	"Terror: %s draws %s", "Terreur : %s tire %s",
	": %s enters Abysse (KA-034)", " : %s entre en Abysse (KA-034)",
	": %s does not enter Abysse (KA-034)", " : %s n'entre pas en Abysse (KA-034)",
	": below %s and below %s × %s = %s: %s enters Abysse (KA-034)",
	" : sous %s et sous %s × %s = %s : %s entre en Abysse (KA-034)",
	": %s or more, %s holds (KA-034)", " : %s ou plus, %s tient bon (KA-034)",
	": a failure, but not below %s × %s = %s: no Abysse (KA-034)",
	" : un échec, mais pas sous %s × %s = %s : pas d'Abysse (KA-034)",
}

// frNotes: the French of the rules' notes.
var frNotes = []string{
	"%s cannot defend", "%s ne peut pas se défendre",
	"%s has no action left: it can only soak (KA-012)", "%s n'a plus d'action : il ne peut qu'encaisser (KA-012)",
	"the defender wins: no effect (KA-021)", "le défenseur l'emporte : aucun effet (KA-021)",
	"only the winner of the opposition succeeds: no effect (KA-008)", "seul le vainqueur de l'opposition réussit : aucun effet (KA-008)",
	"equal totals: both fail (KA-008)", "totaux égaux : les deux échouent (KA-008)",
	"%s points at once reach the seuil of %s: knocked out (KA-027, KA-031)",
	"%s points d'un coup atteignent le seuil de %s : hors de combat (KA-027, KA-031)",
	"no points de réalité left: knocked out, and one Ka die lost (KA-031)",
	"plus de points de réalité : hors de combat, et un dé de Ka perdu (KA-031)",
	"%s has lost its last Ka die and makes its death draw", "%s a perdu son dernier dé de Ka et fait son tirage de mort",
	"the Maître de Ka rules on it (KA-025)", "le Maître de Ka en décide (KA-025)",
	"%s acts at the same time as %s and still takes its action this pass (KA-014)",
	"%s agit en même temps que %s et fait quand même son action de ce tour de table (KA-014)",
	"the blow reaches its seuil at once: knocked out (KA-027, KA-031)",
	"le coup atteint son seuil d'un coup : hors de combat (KA-027, KA-031)",
	"knocked out (KA-031)", "hors de combat (KA-031)",
}
