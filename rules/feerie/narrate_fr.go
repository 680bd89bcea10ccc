package feerie

import "github.com/fray-rpg/fray/rules/narrate"

// The French of the narration, in the terms of the game (Contes de Fées is written in
// French): Essence, les Aspects (Vigilance, Habileté, Puissance, Résistance, Charme, Taille),
// l'Attaque, la Défense, les Dommages, l'Encaissement, les rangs d'Initiative, la tactique,
// les coups spéciaux (désarmer, faire tomber, entraver, étourdir, tenir en respect,
// handicaper, acharnement, coup effrayant, vol plané, entrer dans la garde). French
// typography as narrate says: a space before « : », « ; », quotes « … ».

// frKeys are the English keys given their French here (the tests check that every message
// of the narration has one).
var frKeys = map[string]bool{}

// fr adds French messages: pairs of English key and French.
func fr(pairs ...string) {
	narrate.Fr(pairs...)
	for i := 0; i < len(pairs); i += 2 {
		frKeys[pairs[i]] = true
	}
}

// plural adds a message whose first argument is a count, in both languages.
func plural(key, enOne, enOther, frOne, frOther string) {
	narrate.Plural(key, enOne, enOther, frOne, frOther)
	frKeys[key] = true
}

// pluralTerm adds a message of a kind (see term) whose first argument is a count.
func pluralTerm(kind, en, enOne, frOne, frOther string) {
	key := "feerie " + kind + ": " + en
	narrate.Plural(key, enOne, en, frOne, frOther)
	termKeys[key] = true
}

// The French of the messages, the counts and the short messages (terms) of the narration.
func init() {
	for _, pairs := range [][]string{frCountdown, frIntents, frInitiative, frQueued, frActivities, frStrikes, frRulings, frHouseRules, frNotes, frNamedReasons} {
		fr(pairs...)
	}

	// Counts.
	plural("%d Essence", "%d Essence", "%d Essence", "%d point d'Essence", "%d points d'Essence")
	plural("%d Essence lost", "%d Essence lost", "%d Essence lost", "%d point d'Essence perdu", "%d points d'Essence perdus")
	plural("(%[2]s %[1]d left)", "(%[2]s %[1]d left)", "(%[2]s %[1]d left)", "(il reste %[1]d %[3]s)", "(il reste %[1]d %[3]s)")
	plural("at most %d Essence spent on a roll", "at most %d Essence spent on a roll", "at most %d Essence spent on a roll",
		"au plus %d point d'Essence dépensé sur un jet", "au plus %d points d'Essence dépensés sur un jet")
	plural("%d attack angles offered", "%d attack angle offered", "%d attack angles offered", "%d angle d'attaque offert", "%d angles d'attaque offerts")
	plural("anticipating %d", "anticipating %d", "anticipating %d", "anticipe de %d rang", "anticipe de %d rangs")
	plural("aiming %d ranks: +%s", "aiming %d rank: +%s", "aiming %d ranks: +%s", "visée de %d rang : +%s", "visée de %d rangs : +%s")
	plural("after waiting %d ranks", "after waiting %d rank", "after waiting %d ranks", "après avoir attendu %d rang", "après avoir attendu %d rangs")
	plural("an organ of %[2]s is crippled for %[1]d ranks (FEE-155)", "an organ of %[2]s is crippled for %[1]d rank (FEE-155)",
		"an organ of %[2]s is crippled for %[1]d ranks (FEE-155)",
		"un organe %[3]s est handicapé pendant %[1]d rang (FEE-155)", "un organe %[3]s est handicapé pendant %[1]d rangs (FEE-155)")
	plural("%[2]s is thrown %[1]d distance units (FEE-158)", "%[2]s is thrown %[1]d distance unit (FEE-158)",
		"%[2]s is thrown %[1]d distance units (FEE-158)",
		"%[2]s est projeté à %[1]d unité de distance (FEE-158)", "%[2]s est projeté à %[1]d unités de distance (FEE-158)")
	plural("%[2]s with %[3]s", "%[2]s with %[3]s", "%[2]s with %[3]s", "%[2]s avec le coup spécial %[3]s", "%[2]s avec les coups spéciaux %[3]s")

	for _, m := range frTerms {
		term(m[0], m[1], m[2])
	}
}

// frCountdown: the Action and its countdown.
var frCountdown = []string{
	"Action %s, step 1: declarations", "Action %s, étape 1 : déclarations d'intention",
	"countdown %s → %s", "compte à rebours %s → %s",
	"countdown %s → %s: the impersonal events, then the next Action (FEE-046)",
	"compte à rebours %s → %s : les événements impersonnels, puis l'Action suivante (FEE-046)",
	"rank 0: an impersonal event", "rang 0 : un événement impersonnel",
	"rank 0: %s", "rang 0 : %s",
	"%s: %s loses Essence (how much is withheld, FEE-046)", "%s : %s perd de l'Essence (la quantité est masquée, FEE-046)",
	"%s: %s loses %s (FEE-046)", "%s : %s perd %s (FEE-046)",
	"%s renounces its activity (FEE-075)", "%s renonce à son activité (FEE-075)",
	"rank %s: %s changes intention: %s (%s on that activity and on Defense from now on, %s on the next Action; FEE-070, FEE-071)",
	"rang %s : %s change d'intention : %s (%s à cette activité et en Défense dès maintenant, %s à l'Action suivante ; FEE-070, FEE-071)",
	"rank %s: %s changes intention: %s; it acts from rank %s (%s on that activity and on Defense from now on, %s on the next Action; FEE-070, FEE-071)",
	"rang %s : %s change d'intention : %s ; il agit à partir du rang %s (%s à cette activité et en Défense dès maintenant, %s à l'Action suivante ; FEE-070, FEE-071)",
	"%s, freely: %s (FEE-047)", "%s, librement : %s (FEE-047)",
	"%s is no longer an inanimate object (FEE-026)", "%s n'est plus un objet inanimé (FEE-026)",
	"%s becomes an inanimate object through %s: it takes damage as an object and renounces every activity (FEE-026)",
	"%s devient un objet inanimé par %s : il subit les dommages comme un objet et renonce à toute activité (FEE-026)",
	"%s becomes an inanimate object: it takes damage as an object and renounces every activity (FEE-026)",
	"%s devient un objet inanimé : il subit les dommages comme un objet et renonce à toute activité (FEE-026)",
	"(empty Contes de Fées event)", "(événement de Contes de Fées vide)",
	"(Contes de Fées event %s)", "(événement de Contes de Fées %s)",
	"the GM rules: %s is no longer helpless; it defends and acts again (FEE-022)",
	"le MJ statue : %s n'est plus sans défense ; il se défend et agit de nouveau (FEE-022)",
	"the GM rules: %s is helpless (%s): Defense 0 against every attack, and no activity (FEE-022, FEE-024)",
	"le MJ statue : %s est sans défense (%s) : Défense 0 contre toute attaque, et aucune activité (FEE-022, FEE-024)",
	"the GM rules: %s is helpless: Defense 0 against every attack, and no activity (FEE-022, FEE-024)",
	"le MJ statue : %s est sans défense : Défense 0 contre toute attaque, et aucune activité (FEE-022, FEE-024)",
}

// frIntents: intents.
var frIntents = []string{
	"a difficulty withheld", "une difficulté masquée",
	"a %[1]s roll against %[2]s", "un jet %[3]s contre %[2]s",
	"an intimidation (%s) against %s", "une intimidation (%s) contre %s",
	"its Attributes and tactic withheld", "ses Attributs et sa tactique masqués",
}

// frInitiative: initiative.
var frInitiative = []string{
	"%s rolls, withheld", "%s lance les dés, résultat masqué",
	"%s rolls, withheld, cannot act", "%s lance les dés, résultat masqué, ne peut pas agir",
	"%s, cannot act (FEE-043)", "%s, ne peut pas agir (FEE-043)",
	"%s, cannot act (FEE-082)", "%s, ne peut pas agir (FEE-082)",
	"Initiative: no one rolls", "Initiative : personne ne lance les dés",
	"the countdown starts at %s", "le compte à rebours part du rang %s",
	"no one can act in this Action", "personne ne peut agir pendant cette Action",
}

// frQueued: circumstances and the activities queued.
var frQueued = []string{
	"the target does not defend", "la cible ne se défend pas",
	"exposed part −%s", "partie exposée −%s",
	"a small object, difficulty %s", "un petit objet, difficulté %s",
	"%s acts at rank %s", "%s agit au rang %s",
	"%s acts again at rank %s", "%s agit de nouveau au rang %s",
	"%s, changing intention to %s", "%s, en changeant d'intention : %s",
	"%s: its penalties withheld", "%s : ses malus masqués",
}

// frActivities: activities.
var frActivities = []string{
	"%s: a passive activity, no roll", "%s : une activité passive, sans jet",
	"%s gets up (FEE-151)", "%s se relève (FEE-151)",
	"%s picks its weapon up (FEE-183)", "%s ramasse son arme (FEE-183)",
	"%s tries to free itself", "%s tente de se dégager",
	"%[1]s rolls %[2]s", "%[1]s fait un jet %[3]s",
	"%s intimidates with %s", "%s intimide avec %s",
	"%s: its roll withheld — %s", "%s : son jet masqué — %s",
	"%s: %s vs %s — margin %s", "%s : %s contre %s — marge %s",
	"%s: free (FEE-152)", "%s : dégagé (FEE-152)",
	"%s: still entangled", "%s : toujours entravé",
	"%s: a fumble (FEE-004); hurting itself would cost %s", "%s : un échec critique (FEE-004) ; se blesser lui coûterait %s",
	"%s shoots at %s", "%s tire sur %s",
	"%s, an object (FEE-023): %s + %s = %s", "%s, un objet (FEE-023) : %s + %s = %s",
	"%s: an incident (FEE-023)", "%s : un incident (FEE-023)",
	"%s: a miss", "%s : manqué",
	"%s, margin %s", "%s, marge %s",
	"%s: a hit, its numbers withheld", "%s : touché, ses valeurs masquées",
	"%s: a miss, its numbers withheld", "%s : manqué, ses valeurs masquées",
	"%s: the special strikes replace the Essence damage", "%s : les coups spéciaux remplacent les pertes d'Essence",
	"%s: %s, against an object (FEE-023)", "%s : %s, contre un objet (FEE-023)",
	"%s: %s vs its Defense (withheld)", "%s : %s contre sa Défense (masquée)",
	"%s: %s vs %s", "%s : %s contre %s",
	"%s — a fumble (FEE-004)", "%s — un échec critique (FEE-004)",
	"%s — a fumble (FEE-004); hurting itself would cost %s", "%s — un échec critique (FEE-004) ; se blesser lui coûterait %s",
	"%s — a miss", "%s — manqué",
	"%s — a hit: the special strikes replace the Essence damage", "%s — touché : les coups spéciaux remplacent les pertes d'Essence",
	"%s — a hit: %s, the Essence %s lost withheld", "%s — touché : %s, l'Essence perdue par %s masquée",
	"%s — a hit: %s, %s", "%s — touché : %s, %s",
	"%s is down and cannot act (FEE-024)", "%s est hors de combat et ne peut plus agir (FEE-024)",
}

// frStrikes: special strikes (FEE-150…FEE-159).
var frStrikes = []string{
	"relentless: %[1]s's weapon stays in the wound, its Defense −%[2]s until it is dislodged (FEE-156)",
	"acharnement : l'arme %[3]s reste dans la plaie, sa Défense −%[2]s jusqu'à ce qu'elle soit délogée (FEE-156)",
	"a frightening blow: %s gains a bonus (withheld) on its next intimidation (FEE-181)",
	"coup effrayant : %s gagne un bonus (masqué) à sa prochaine intimidation (FEE-181)",
	"%s: %s (its malus withheld)", "%s : %s (son malus masqué)",
	"%s is disarmed: its weapon flies a few steps away (FEE-150)", "%s est désarmé : son arme vole à quelques pas (FEE-150)",
	"%s falls: −%s to its activities until it gets up (FEE-151)", "%s tombe à terre : −%s à ses activités tant qu'il ne s'est pas relevé (FEE-151)",
	"%s is entangled: −%s to its activities until it frees itself, Puissance against %s (FEE-152)",
	"%s est entravé : −%s à ses activités tant qu'il ne s'est pas dégagé, Puissance contre %s (FEE-152)",
	"%s shakes off the stun (FEE-153)", "%s se remet de son étourdissement (FEE-153)",
	"%s is stunned: −%s to its activities, 1 less each rank (FEE-153)", "%s est étourdi : −%s à ses activités, 1 de moins à chaque rang (FEE-153)",
	"%s is kept at bay: −%s Attack against %s until it enters the guard (FEE-154)",
	"%s est tenu en respect : −%s en Attaque contre %s jusqu'à ce qu'il entre dans sa garde (FEE-154)",
	"relentless: %[1]s's next Damage +%[2]s, its Defense −%[3]s until its weapon is dislodged (FEE-156)",
	"acharnement : prochains Dommages %[4]s +%[2]s, sa Défense −%[3]s jusqu'à ce que son arme soit délogée (FEE-156)",
	"a frightening blow: %s gains +%s on its next intimidation (FEE-181)",
	"coup effrayant : %s gagne +%s à sa prochaine intimidation (FEE-181)",
	"%[1]s is inside %[2]s's guard: %[2]s has −%[3]s Attack against %[1]s until it keeps it at bay (FEE-159)",
	"%[1]s est entré dans la garde %[4]s : %[2]s a −%[3]s en Attaque contre %[1]s jusqu'à ce qu'il le tienne en respect (FEE-159)",
}

// frRulings: what the GM rules.
var frRulings = []string{
	"%s is surprised for the next Action: −%s Initiative, −%s Defense, no tactic (FEE-080)",
	"%s est surpris pour la prochaine Action : −%s en Initiative, −%s en Défense, pas de tactique (FEE-080)",
	"%s is surprised for the next %s Actions: −%s Initiative, −%s Defense, no tactic (FEE-080)",
	"%s est surpris pour les %s prochaines Actions : −%s en Initiative, −%s en Défense, pas de tactique (FEE-080)",
	"it can do nothing while it lasts (FEE-082)", "il ne peut rien faire tant qu'elle dure (FEE-082)",
	"%s attacks %s unseen", "%s attaque %s sans être vu",
	"%s: its dissimulation roll and the Initiative it gains withheld (FEE-081)",
	"%s : son jet de dissimulation et l'Initiative qu'il gagne masqués (FEE-081)",
	"%s: dissimulation %s vs its Vigilance (withheld): %s Initiative this Action (FEE-081, FEE-186)",
	"%s : dissimulation %s contre sa Vigilance (masquée) : %s en Initiative pour cette Action (FEE-081, FEE-186)",
	"%s: +%s Initiative this Action (FEE-081)", "%s : +%s en Initiative pour cette Action (FEE-081)",
	"%s: dissimulation %s vs Vigilance %s — margin %s", "%s : dissimulation %s contre Vigilance %s — marge %s",
	"%s: +%s Initiative this Action (FEE-081, FEE-186)", "%s : +%s en Initiative pour cette Action (FEE-081, FEE-186)",
	"%s: no Initiative gained (FEE-081, FEE-186)", "%s : aucune Initiative gagnée (FEE-081, FEE-186)",
	"the GM rules on %[1]s's tactic (the ruling withheld)", "le MJ statue sur la tactique %[2]s (sa décision masquée)",
	"the GM rules: %[1]s's tactic is cancelled", "le MJ statue : la tactique %[2]s est annulée",
	"%[1]s's tactic is cancelled", "la tactique %[2]s est annulée",
	"%[1]s's tactic is now %[2]s", "la tactique %[3]s est désormais %[2]s",
	"−%[1]s to %[2]s's activity rolls to the end of the Action", "−%[1]s aux jets d'activité %[3]s jusqu'à la fin de l'Action",
	"%[1]s's tactic stands", "la tactique %[2]s est maintenue",
	"%s acts from rank %s", "%s agit à partir du rang %s",
}

// frHouseRules: house rules.
var frHouseRules = []string{
	"a fumble at a margin of −%s or worse", "un échec critique à une marge de −%s ou pire",
	"Essence spent on a roll unlimited", "Essence dépensée sur un jet sans limite",
}

// frNotes: the notes of the rules (ActivityResolved.note).
var frNotes = []string{
	"an object: Damage roll %s", "un objet : jet de Dommages %s",
	"the activity no longer holds: %s", "l'activité ne tient plus : %s",
	"%s cancels %s's %s", "%[1]s annule le coup spécial « %[3]s » de %[2]s",
	"%s is at 0 Essence before its activity is resolved and cannot act (FEE-024, FEE-045)",
	"%s est à 0 Essence avant la résolution de son activité et ne peut pas agir (FEE-024, FEE-045)",
}

// frNamedReasons: the reasons with a name in them.
var frNamedReasons = []string{
	"mounted charge: Taille of %s", "charge montée : Taille de %s",
	"Habileté of its mount %s instead of its own", "Habileté de sa monture %s au lieu de la sienne",
}

// frTerms: the short messages, each under a key of its own (see term): kind, English, French.
var frTerms = [][3]string{
	{"target", "%s on %s", "%s contre %s"},
	{"target", "%s, at %s", "%s, visant %s"},
	{"other", "%s at %s", "%s visant %s"},
	{"applied", "%s on %s", "%s en %s"},
	{"option", "roll %s", "jet %s"},
	{"msg", "tactic %s", "tactique %s"},
	{"msg", "target %s", "cible %s"},
	{"msg", "GM %s", "MJ %s"},
	{"msg", "success", "réussite"},
	{"msg", "failure", "échec"},
	{"msg", "opaque", "opaque"},
	{"msg", "thick", "épais"},
	{"msg", "semi-transparent", "semi-transparent"},
	{"msg", "physical", "physique"},
	{"msg", "not physical", "non physique"},
	{"msg", "charging", "en charge"},
	{"msg", "charging, %s", "en charge, %s"},
	{"msg", "change of intention", "changement d'intention"},
	{"msg", "rank %s: %s", "rang %s : %s"},
	{"msg", "Initiative: %s", "Initiative : %s"},
	{"msg", "activity %s", "activité n° %s"},
	{"msg", "special strike %s", "coup spécial %s"},
	{"msg", "spending %s", "en dépensant %s"},
	{"msg", "earlier penalties", "malus antérieurs"},
	{"msg", "no intention", "aucune intention"},
	{"msg", "its roll withheld", "son jet masqué"},
	{"msg", ", an object", ", un objet"},
	{"msg", ", flies", ", volant"},
	{"msg", ", burrows", ", fouisseur"},
	{"msg", "Domain Soak %s", "Encaissement du Domaine %s"},
	{"msg", "through cover", "à travers un couvert"},
	{"msg", "through cover (%s)", "à travers un couvert (%s)"},
	{"msg", "the GM rules: %s", "le MJ statue : %s"},
	{"msg", "no Essence lost", "aucune perte d'Essence"},
	{"msg", "%s declares: %s", "%s déclare : %s"},
	{"msg", "%s charges %s", "%s charge %s"},
	{"msg", "%s attacks %s", "%s attaque %s"},

	// Activity kinds.
	{"kind", "melee attack", "attaque au corps à corps"},
	{"kind", "ranged attack", "attaque à distance"},
	{"kind", "another activity", "une autre activité"},
	{"kind", "a passive activity", "une activité passive"},
	{"kind", "getting up", "se relever"},
	{"kind", "freeing itself", "se dégager"},
	{"kind", "picking its weapon up", "ramasser son arme"},
	{"kind", "no activity given", "aucune activité donnée"},

	// Special strikes, as the book names them.
	{"strike", "disarm", "désarmer"},
	{"strike", "trip", "faire tomber"},
	{"strike", "entangle", "entraver"},
	{"strike", "stun", "étourdir"},
	{"strike", "keep at bay", "tenir en respect"},
	{"strike", "cripple", "handicaper"},
	{"strike", "relentless", "acharnement"},
	{"strike", "frightening blow", "coup effrayant"},
	{"strike", "knockback", "vol plané"},
	{"strike", "enter the guard", "entrer dans la garde"},

	// Paces (FEE-100).
	{"pace", "walking", "au pas"},
	{"pace", "trotting", "au trot"},
	{"pace", "running", "à la course"},
	{"pace", "sprinting", "au sprint"},

	// Circumstances (FEE-120, FEE-130, FEE-131, FEE-133, FEE-111).
	{"lighting", "dusk", "crépuscule"},
	{"lighting", "moonlight", "nuit de pleine lune"},
	{"lighting", "starlight", "lueur des étoiles"},
	{"lighting", "darkness", "obscurité totale"},
	{"shot", "trivial shot", "tir trivial"},
	{"shot", "typical shot", "tir typique"},
	{"shot", "very hard shot", "tir très difficile"},
	{"shot", "formidable shot", "tir formidable"},
	{"shot", "near impossible shot", "tir quasi impossible"},
	{"shot", "impossible shot", "tir impossible"},
	{"range", "range arms length", "portée à bout de bras"},
	{"range", "range few steps", "portée à quelques pas"},
	{"range", "range moderately far", "portée modérément éloignée"},
	{"range", "range far", "portée éloignée"},
	{"range", "range very far", "portée très éloignée"},
	{"range", "range horizon", "portée à l'horizon"},
	{"terrain", "dense forest", "forêt dense"},
	{"terrain", "corridor", "couloir"},
	{"terrain", "winding tunnel", "souterrain tortueux"},
	{"solidity", "fragile", "fragile"},
	{"solidity", "normal", "normale"},
	{"solidity", "solid", "solide"},

	// The values.
	{"value", "Initiative", "Initiative"},
	{"value", "Attack", "Attaque"},
	{"value", "Defense", "Défense"},
	{"value", "Damage", "Dommages"},
	{"value", "Soak", "Encaissement"},

	// The reasons of the terms of a value, as the rules record them.
	{"reason", "anticipation", "anticipation"},
	{"reason", "anticipation, further activity, change of intention", "anticipation, activité supplémentaire, changement d'intention"},
	{"reason", "anticipations, further activities, changes of intention", "anticipations, activités supplémentaires, changements d'intention"},
	{"reason", "tactic", "tactique"},
	{"reason", "penalties of the last Action", "malus de l'Action précédente"},
	{"reason", "surprised", "surpris"},
	{"reason", "entangled", "entravé"},
	{"reason", "stunned", "étourdi"},
	{"reason", "down", "à terre"},
	{"reason", "kept at bay", "tenu en respect"},
	{"reason", "inside its guard", "dans sa garde"},
	{"reason", "helpless or not defending", "sans défense ou ne se défend pas"},
	{"reason", "helpless: an immobile target", "sans défense : une cible immobile"},
	{"reason", "Disarm: Puissance instead of Habileté", "désarmer : Puissance au lieu d'Habileté"},
	{"reason", "relentless", "acharnement"},
	{"reason", "frightening blow", "coup effrayant"},
	{"reason", "range", "portée"},
	{"reason", "lighting", "éclairage"},
	{"reason", "lighting on Defense", "éclairage sur la Défense"},
	{"reason", "ranged difficulty", "difficulté du tir"},
	{"reason", "ranged", "à distance"},
	{"reason", "attack angles occupied", "angles d'attaque occupés"},
	{"reason", "pace", "allure"},
	{"reason", "target's pace", "allure de la cible"},
	{"reason", "terrain", "terrain"},
	{"reason", "aim", "visée"},
	{"reason", "cover", "couvert"},
	{"reason", "cover made by Influence", "couvert créé par Influence"},
	{"reason", "exposed part", "partie exposée"},
	{"reason", "exposed proportion", "proportion exposée"},
	{"reason", "GM", "MJ"},
	{"reason", "Essence spent", "Essence dépensée"},
	{"reason", "charge", "charge"},
	{"reason", "difficulty of hitting a small object", "difficulté d'atteindre un petit objet"},
	{"reason", "mounted: Affinities capped by the mount Affinities", "monté : Affinités plafonnées par celles de la monture"},
	{"reason", "striking a rider from the ground", "frapper un cavalier depuis le sol"},

	// The notes of the rules without a name in them.
	{"note", "no roll", "sans jet"},
	{"note", "an object: a Damage roll (FEE-023)", "un objet : un jet de Dommages (FEE-023)"},
	{"note", "the activity no longer holds", "l'activité ne tient plus"},
	{"note", "the weapon is dislodged: the relentless strike ends (FEE-156)", "l'arme est délogée : l'acharnement prend fin (FEE-156)"},
}

// The state of a combatant, as fray state shows it (StateText).
func init() {
	for _, m := range [][2]string{
		{"hidden by the GM", "caché par le MJ"},
		{"OUT (0 Essence)", "HORS DE COMBAT (0 Essence)"},
		{"an object", "un objet"},
		{"an object through %s", "un objet par %s"},
		{"cannot act this Action", "ne peut pas agir pendant cette Action"},
		{"renounced", "a renoncé"},
		{"helpless (%s): Defense 0, no activity", "sans défense (%s) : Défense 0, aucune activité"},
		{"helpless: Defense 0, no activity", "sans défense : Défense 0, aucune activité"},
		{"no activity while surprised", "aucune activité tant qu'il est surpris"},
		{"unseen: +%s Initiative", "sans être vu : +%s en Initiative"},
		{"down: −4 to its activities until it gets up", "à terre : −4 à ses activités tant qu'il ne s'est pas relevé"},
		{"disarmed", "désarmé"},
		{"%s by %s", "%s par %s"},
		{"entangled by %s: −%s to its activities, frees itself against %s", "entravé par %s : −%s à ses activités, se dégage contre %s"},
		{"stunned: −%s to its activities", "étourdi : −%s à ses activités"},
		{"kept at bay by %s: −%s Attack against it", "tenu en respect par %s : −%s en Attaque contre lui"},
		{"%s inside its guard: −%s Attack against it", "%s dans sa garde : −%s en Attaque contre lui"},
		{"relentless: next Damage +%s, Defense −8", "acharnement : prochains Dommages +%s, Défense −8"},
		{"relentless: Defense −8", "acharnement : Défense −8"},
		{"%s against %s", "%s contre %s"},
		{"next intimidation %s", "prochaine intimidation %s"},
		{"aiming +%s", "visée +%s"},
		{"%s on this Action (FEE-062, FEE-073)", "%s sur cette Action (FEE-062, FEE-073)"},
		{"%s rolls", "%s aux jets"},
		{"%s Defense", "%s en Défense"},
		{"%s from rank %s (%s)", "%s à partir du rang %s (%s)"},
		{"the GM's malus: %s", "malus du MJ : %s"},
		{"%s on its next activity (change of intention)", "%s à sa prochaine activité (changement d'intention)"},
		{"%s on the next Action", "%s à l'Action suivante"},
		{"watches %s (FEE-175)", "surveille %s (FEE-175)"},
		{"engaged by %s", "engagé par %s"},
		{"declared %s", "a déclaré %s"},
		{"to declare", "doit déclarer"},
	} {
		term("state", m[0], m[1])
	}
	pluralTerm("state", "surprised (%d Actions)", "surprised (%d Action)", "surpris (%d Action)", "surpris (%d Actions)")
	pluralTerm("state", "an organ crippled for %d ranks", "an organ crippled for %d rank", "un organe handicapé pendant %d rang", "un organe handicapé pendant %d rangs")
	// The reasons of the penalties (Penalty.reason).
	term("penalty", "change of intention", "changement d'intention")
	term("penalty", "activity", "activité")
	term("penalty", "?", "?")
}
