package d20seg

import "github.com/fray-rpg/fray/rules/narrate"

// The catalogue of the narration of d20 segments: the plural of segments, and the French of
// every message, in the words of the game (segments, round, Initiative, Rapidité, BBA, CA,
// appréhension, discrétion, attaque-surprise, action gratuite, pris au dépourvu, critique,
// dons, points de vie — PV), with French typography (a space before « : ; », « » quotes).
func init() {
	narrate.Plural("%[2]s segments", "%[2]s segment", "%[2]s segments", "%[2]s segment", "%[2]s segments")
	narrate.Plural("; hidden: %[2]s", "; hidden: %[2]s", "; hidden: %[2]s", " ; caché : %[2]s", " ; cachés : %[2]s")

	for _, pairs := range [][]string{frEvents, frSheets, frSurprise, frRounds, frAttacks} {
		narrate.Fr(pairs...)
	}
}

// frEvents: the French of the events.
var frEvents = []string{
	"%s casts %s", "%s lance %s",
	"; it takes effect at the start of the next round (D20-019)", " ; il prend effet au début du round suivant (D20-019)",
	"acts", "agit",
	"%s: %s", "%s : %s",
	"%s ends its turn for this round (D20-016)", "%s termine son tour pour ce round (D20-016)",
	"(empty d20seg event)", "(évènement d20seg vide)",
	"(d20seg event %s)", "(évènement d20seg %s)",
	"free action (D20-004): ", "action gratuite (D20-004) : ",
	"segment %s: ", "segment %s : ",
	" (segments hidden)", " (segments cachés)",
	"%s; %s", "%s ; %s",
	"; %s", " ; %s",
}

// frSheets: the French of sheets and house rules.
var frSheets = []string{
	"Rapidité %s, Initiative %s, BBA %s, CA %s, %s hit points, size %s", "Rapidité %s, Initiative %s, BBA %s, CA %s, %s PV, taille %s",
	"apprehension modifiers light %s, medium %s, high %s", "modificateurs d'appréhension léger %s, moyen %s, élevé %s",
	"actions carry over into the next round", "les actions se poursuivent sur le round suivant",
	"no carry-over", "pas de report",
	"down at %s hit points", "hors de combat à %s PV",
	"no apprehension rolls: every defender of a surprise attack is surprised",
	"pas de jet d'appréhension : tout défenseur d'une attaque-surprise est surpris",
	"apprehension rolled against surprise", "jet d'appréhension contre la surprise",
}

// frSurprise: the French of the Initiative and the surprise round.
var frSurprise = []string{
	"%s %s (Rapidité %s%s equipment)", "%s %s (Rapidité %s%s équipement)",
	"no one", "personne",
	"Initiative for the combat (D20-010, D20-012): %s", "Initiative du combat (D20-010, D20-012) : %s",
	"no roll", "pas de jet",
	"; roll-off: %s (D20-011)", " ; départage : %s (D20-011)",
	"; at a shared segment: %s", " ; à un même segment : %s",
	"Surprise attack by %s: a free action each first, in Initiative order, then segments %s–%s of the surprise round (D20-004)",
	"Attaque-surprise par %s : d'abord une action gratuite chacun, dans l'ordre d'Initiative, puis les segments %s–%s du round de surprise (D20-004)",
	"; %s, named neither attacker nor defender, take no part in the surprise round (D20-003)",
	" ; %s, ni attaquants ni défenseurs, ne prennent pas part au round de surprise (D20-003)",
	"; %s, named neither attacker nor defender, takes no part in the surprise round (D20-003)",
	" ; %s, ni attaquant ni défenseur, ne prend pas part au round de surprise (D20-003)",
	"%s is surprised without an apprehension roll, flat-footed (D20-000, D20-006)",
	"%s : surprise sans jet d'appréhension, au dépourvu (D20-000, D20-006)",
	"%s is not surprised (D20-005)", "%s : pas de surprise (D20-005)",
	"%s: apprehension roll hidden", "%s : jet d'appréhension caché",
	"%s: apprehension %s%s = %s", "%s : appréhension %s%s = %s",
	"%s's stealth, hidden", "%s, discrétion cachée",
	"%s's stealth %s%s = %s", "%s, discrétion %s%s = %s",
	"%s (no stealth)", "%s (sans discrétion)",
	"%s vs %s: surprised, flat-footed (D20-003, D20-006)", "%s contre %s : surprise, au dépourvu (D20-003, D20-006)",
	"%s vs %s: not surprised (D20-003, D20-005)", "%s contre %s : pas de surprise (D20-003, D20-005)",
}

// frRounds: the French of rounds.
var frRounds = []string{
	"Round %s: segments %s to %s (D20-013)", "Round %s : segments %s à %s (D20-013)",
	"; taking effect now: %s (D20-019)", " ; prennent effet maintenant : %s (D20-019)",
	"%s (segments hidden)", "%s (segments cachés)",
	"; carried over from the last round: %s (D20-020)", " ; reporté du round précédent : %s (D20-020)",
}

// frAttacks: the French of attacks.
var frAttacks = []string{
	"%s attacks %s", "%s attaque %s",
	" with %s", " avec %s",
	": roll hidden", " : jet caché",
	": %s%s = %s", " : %s%s = %s",
	" vs CA hidden", " contre CA cachée",
	" vs CA %s", " contre CA %s",
	" (flat-footed, D20-006)", " (au dépourvu, D20-006)",
	" — a miss (D20-040)", " — manqué (D20-040)",
	" — a critical hit, %s or more above the CA (D20-042): damage %s (%s and the bonuses, multiplied; feats once)",
	" — un coup critique, %s ou plus au-dessus de la CA (D20-042) : dégâts %s (%s et les bonus, multipliés ; dons une fois)",
	" — a hit (D20-040): damage %s and the maluses: 0", " — touché (D20-040) : dégâts %s et les malus : 0",
	" — a hit (D20-040): damage %s = %s", " — touché (D20-040) : dégâts %s = %s",
	" — a hit (D20-040): damage %s%s = %s (D20-041)", " — touché (D20-040) : dégâts %s%s = %s (D20-041)",
	" — a hit (D20-040)", " — touché (D20-040)",
	" — a critical hit, %s or more above the CA (D20-042)", " — un coup critique, %s ou plus au-dessus de la CA (D20-042)",
	": damage hidden", " : dégâts cachés",
	": damage %s", " : dégâts %s",
	": damage %s%s = %s", " : dégâts %s%s = %s",
	": damage %s (%s)", " : dégâts %s (%s)",
	"; %s's hit points are hidden", " ; %s : PV cachés",
	": down (D20-044)", " : hors de combat (D20-044)",
	"; %s has %s hit points left", " ; %s est à %s PV",
}
