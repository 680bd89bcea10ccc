package loss

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// The narration of a Tour's start and of the attacks: the attack, the defence, the blow.

func init() {
	narrate.Fr(
		"Tour %d (Séquence %d)", "Tour %d (Séquence %d)",
		"%s: no one rolls Initiative", "%s : personne ne lance l'Initiative",
		"%s rolls, hidden", "%s lance, caché",
		"%s bonus: %d PA", "bonus %s : %d PA",
		"%s %s bonus: %d PA", "%s bonus %s : %d PA",
		"%s %d+%s = %d PA", "%s %d+%s = %d PA",

		"%s tries to grab %s", "%s tente d'agripper %s",
		"%s tries to trip %s", "%s tente de faire chuter %s",
		"%s attacks %s", "%s attaque %s",
		"%s counter-attacks %s", "%s contre-attaque %s",
		" with %s", " avec %s",
		" and %s", " et %s",
		"%d PA", "%d PA",
		"with damage", "avec dégâts",
		"at %d m", "à %d m",
		" at Difficulty %d", " à Difficulté %d",
		"; %s may parry or dodge%s", " ; %s peut parer ou esquiver%s",
		"; no defence: %s", " ; pas de défense : %s",
		"; no defence", " ; pas de défense",
		"; no defence for %s: %s", " ; pas de défense pour %s : %s",
		"; no defence for %s", " ; pas de défense pour %s",
		"%s takes the blow", "%s encaisse le coup",
		"%s parries", "%s pare",
		"%s dodges", "%s esquive",
		"%s reacts (%s)", "%s réagit (%s)",
		"%s, protecting %s", "%s, en protégeant %s",
		"; the partial defence cancels %d Exploits of the attacker", " ; la défense partielle annule %d Exploits de l'attaquant",

		"effect unspecified", "effet non précisé",

		"extra damage", "dégâts supplémentaires",
		"Assaut", "Assaut",
		"counter-attack", "contre-attaque",
		"total dodge", "esquive totale",
		"feint", "feinte",
		"defensive wall", "mur défensif",
		"take the advantage", "prendre l'avantage",
		"protect", "protéger",
		"aim at a limb", "viser un membre",
		"two weapons", "deux armes",
		"Moulinet", "Moulinet",
		"overthrow", "renverser",
		"aim at a precise zone", "viser une zone précise",
		"disarm", "désarmer",
		"aim at a precise point", "viser un point précis",
		"neutralise", "neutraliser",
		"storm of blades", "tempête de lames",
		"kill outright", "tuer net",
		"ricochet", "ricochet",
		"shoot through", "transpercer",
		"rain of projectiles", "pluie de projectiles",
	)
	narrate.Plural("%d Exploits", "%d Exploit", "%d Exploits", "%d Exploit", "%d Exploits")
	narrate.Plural("; the partial defence cancels %d Exploits of the attacker",
		"; the partial defence cancels %d Exploit of the attacker", "; the partial defence cancels %d Exploits of the attacker",
		" ; la défense partielle annule %d Exploit de l'attaquant", " ; la défense partielle annule %d Exploits de l'attaquant")
}

// effectTexts names the Exploit effects in the narration: "extra damage", "Moulinet".
var effectTexts = map[lossv1.ExploitEffect]string{
	lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE:        "extra damage",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_ASSAUT:              "Assaut",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_COUNTER_ATTACK:      "counter-attack",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_TOTAL_DODGE:         "total dodge",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_FEINT:               "feint",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_DEFENSIVE_WALL:      "defensive wall",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_TAKE_ADVANTAGE:      "take the advantage",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_PROTECT:             "protect",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_LIMB:            "aim at a limb",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS:         "two weapons",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_MOULINET:            "Moulinet",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_OVERTHROW:           "overthrow",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_ZONE:            "aim at a precise zone",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_DISARM:              "disarm",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_POINT:           "aim at a precise point",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_NEUTRALISE:          "neutralise",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_STORM_OF_BLADES:     "storm of blades",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_KILL_OUTRIGHT:       "kill outright",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_RICOCHET:            "ricochet",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_SHOOT_THROUGH:       "shoot through",
	lossv1.ExploitEffect_EXPLOIT_EFFECT_RAIN_OF_PROJECTILES: "rain of projectiles",
}

// tourText: "Tour 1 (Séquence 1): Diego 8+d10[7] = 15 PA; griffon-1, griffon-2 and griffon-3
// 5+d10[8] = 13 PA (griffon-1 +2 bonus: 15 PA)".
func tourText(n *narrate.Narrator, t *lossv1.TourStarted) string {
	var rolls []string
	for _, r := range t.GetInitiative() {
		if r.GetRoll() == nil && len(r.GetCombatantIds()) > 0 { // withheld from this reader
			rolls = append(rolls, n.Sprintf("%s rolls, hidden", n.AndNames(r.GetCombatantIds())))
			continue
		}
		var bonuses []string
		for _, id := range r.GetCombatantIds() {
			if b := r.GetBonus()[id]; b != 0 {
				// LOS-039 (joining after watching) or LOS-067 (Take the advantage).
				if len(r.GetCombatantIds()) == 1 {
					bonuses = append(bonuses, n.Sprintf("%s bonus: %d PA", narrate.Signed(b), r.GetActionPoints()+b))
				} else {
					bonuses = append(bonuses, n.Sprintf("%s %s bonus: %d PA", n.Name(id), narrate.Signed(b), r.GetActionPoints()+b))
				}
			}
		}
		s := n.Sprintf("%s %d+%s = %d PA", n.AndNames(r.GetCombatantIds()), r.GetInitiative(), n.Roll(r.GetRoll()), r.GetActionPoints())
		if len(bonuses) > 0 {
			s += " (" + strings.Join(bonuses, ", ") + ")"
		}
		rolls = append(rolls, s)
	}
	s := n.Sprintf("Tour %d (Séquence %d)", t.GetTour(), t.GetSequence())
	if len(rolls) == 0 {
		return n.Sprintf("%s: no one rolls Initiative", s)
	}
	return s + n.Sprintf(": %s", strings.Join(rolls, n.Sprintf("; ")))
}

// attackText: "Diego attacks ruffian with épée (4 PA, 1 Exploit: extra damage): 6+6+d10[8] =
// 20 vs 20 — success (Difficulty 15, +5 1 Exploit (LOS-010)); ruffian may parry or dodge".
func attackText(n *narrate.Narrator, a *lossv1.AttackRolled) string {
	ids := []string{a.GetTargetId()}
	for _, m := range a.GetMoreTargets() {
		ids = append(ids, m.GetTargetId())
	}
	targets := n.Names(ids)
	who := n.Name(a.GetAttackerId())
	var s string
	switch {
	case a.GetManoeuvre() == lossv1.Manoeuvre_MANOEUVRE_GRAB:
		s = n.Sprintf("%s tries to grab %s", who, n.And(targets))
	case a.GetManoeuvre() == lossv1.Manoeuvre_MANOEUVRE_TRIP:
		s = n.Sprintf("%s tries to trip %s", who, n.And(targets))
	case a.GetCounter(): // LOS-062
		s = n.Sprintf("%s counter-attacks %s", who, n.And(targets))
	default:
		s = n.Sprintf("%s attacks %s", who, n.And(targets))
	}
	if a.GetWeapon() != "" {
		s += withWeapon(n, a.GetWeapon())
		if a.GetSecondWeapon() != "" {
			s += n.Sprintf(" and %s", weaponName(n, a.GetSecondWeapon()))
		}
	}
	var details []string
	if !n.Withheld(a.GetAttackerId()) {
		details = append(details, n.Sprintf("%d PA", a.GetActionPointsSpent()))
	}
	if x := exploitsText(n, exploitCount(a.GetExploits()), a.GetExploits()); x != "" {
		details = append(details, x)
	}
	if a.GetWithDamage() {
		details = append(details, n.Sprintf("with damage"))
	}
	if d := a.GetSituation().GetDistance(); d > 0 {
		details = append(details, n.Sprintf("at %d m", d))
	}
	if len(details) > 0 {
		s += " (" + strings.Join(details, ", ") + ")"
	}
	s += n.Sprintf(": %s", testText(n, a.GetTest()))
	if !a.GetTest().GetSuccess() {
		return s
	}
	return s + defencesText(n, a, ids, targets)
}

// defencesText: after a successful attack, who may parry or dodge, at which Difficulty when
// the attacker's own modifiers stay with it (LOS-012), and why the others may not (LOS-009).
func defencesText(n *narrate.Narrator, a *lossv1.AttackRolled, ids, targets []string) string {
	var s string
	at := ""
	if dd := a.GetDefenceDifficulty(); dd != 0 && dd != a.GetTest().GetDifficulty() {
		at = n.Sprintf(" at Difficulty %d", dd) // LOS-012: the attacker's own modifiers stay with it
	}
	if len(ids) == 1 {
		switch {
		case a.GetDefencePossible():
			s += n.Sprintf("; %s may parry or dodge%s", targets[0], at)
		case a.GetNoDefenceReason() != "":
			s += n.Sprintf("; no defence: %s", recorded(n, a.GetNoDefenceReason()))
		default:
			s += n.Sprintf("; no defence")
		}
		return s
	}
	reactions := append([]*lossv1.TargetReaction{{TargetId: a.GetTargetId(), DefencePossible: a.GetDefencePossible(), NoDefenceReason: a.GetNoDefenceReason()}}, a.GetMoreTargets()...)
	var may []string
	for _, r := range reactions {
		if r.GetDefencePossible() {
			may = append(may, r.GetTargetId())
		}
	}
	if len(may) > 0 {
		s += n.Sprintf("; %s may parry or dodge%s", n.AndNames(may), at)
	}
	for _, r := range reactions {
		switch {
		case r.GetDefencePossible():
		case r.GetNoDefenceReason() != "":
			s += n.Sprintf("; no defence for %s: %s", n.Name(r.GetTargetId()), recorded(n, r.GetNoDefenceReason()))
		default:
			s += n.Sprintf("; no defence for %s", n.Name(r.GetTargetId()))
		}
	}
	return s
}

// withWeapon: " with épée" in English; " à l'épée", " à la dague", " au gourdin", " aux
// griffes" in French.
func withWeapon(n *narrate.Narrator, w string) string {
	if n.French() {
		return " " + weaponName(n, w)
	}
	return n.Sprintf(" with %s", w)
}

// weaponName is the weapon as the narration names it after "with … and": "dague" in English,
// "à la dague" in French.
func weaponName(n *narrate.Narrator, w string) string {
	if !n.French() {
		return w
	}
	words := strings.FieldsFunc(w, func(r rune) bool { return r == ' ' || r == '-' || r == '\'' })
	r, _ := utf8.DecodeRuneInString(w)
	if len(words) == 0 || unicode.IsUpper(r) { // a named weapon: Serres-de-Minuit
		return "avec " + w
	}
	first := strings.ToLower(words[0])
	switch {
	case feminineWeapons[first]:
		return "à la " + w
	case strings.ContainsRune("aeiouyàâéèêëîïôûü", unicode.ToLower(r)):
		return "à l'" + w
	case (strings.HasSuffix(first, "s") || strings.HasSuffix(first, "x")) && !singularWeapons[first]:
		return "aux " + w
	}
	return "au " + w
}

// feminineWeapons are the French weapon nouns that take "à la": the others take "au" (or "à
// l'" before a vowel, "aux" in the plural).
var feminineWeapons = map[string]bool{
	"hache": true, "dague": true, "lance": true, "rapière": true, "masse": true, "hallebarde": true,
	"fronde": true, "claymore": true, "crosse": true, "pique": true, "faux": true, "massue": true,
	"matraque": true, "lame": true, "serpe": true, "grenade": true, "carabine": true, "sarbacane": true,
	"canne": true, "chaîne": true, "fourche": true, "faucille": true, "corde": true, "mitrailleuse": true,
	"dent": true, "corne": true, "patte": true, "queue": true, "main": true, "tête": true, "serre": true,
	"griffe": true, "torche": true, "batte": true, "pierre": true, "flamberge": true, "brette": true,
	"francisque": true, "javeline": true, "targe": true, "rondache": true, "cravache": true, "bouteille": true,
	"chaise": true, "bombe": true, "dynamite": true, "fourchette": true, "baïonnette": true,
}

// singularWeapons are the French weapon nouns ending in s or x that are singular.
var singularWeapons = map[string]bool{"coutelas": true, "bras": true, "choix": true}

// exploitsText: "2 Exploits: extra damage", "4 Exploits: extra damage ×2, overthrow".
func exploitsText(n *narrate.Narrator, count int32, xs []lossv1.ExploitEffect) string {
	if count == 0 {
		return ""
	}
	s := n.Sprintf("%d Exploits", count)
	if e := effectsText(n, xs); e != "" {
		s += n.Sprintf(": %s", e)
	}
	return s
}

// exploitCount is the number of Exploits a list of effects takes; an effect the rules do not
// know counts 1.
func exploitCount(xs []lossv1.ExploitEffect) int32 {
	var c int32
	for _, x := range xs {
		if i, ok := effects[x]; ok {
			c += i.cost
		} else {
			c++
		}
	}
	return c
}

// effectsText: "extra damage" (however many), "extra damage ×2, overthrow".
func effectsText(n *narrate.Narrator, xs []lossv1.ExploitEffect) string {
	var order []lossv1.ExploitEffect
	counts := map[lossv1.ExploitEffect]int{}
	for _, x := range xs {
		if counts[x] == 0 {
			order = append(order, x)
		}
		counts[x]++
	}
	var parts []string
	for _, x := range order {
		e := effectText(n, x)
		if counts[x] > 1 && len(order) > 1 {
			e += " ×" + strconv.Itoa(counts[x])
		}
		parts = append(parts, e)
	}
	return strings.Join(parts, ", ")
}

func effectText(n *narrate.Narrator, x lossv1.ExploitEffect) string {
	if t, ok := effectTexts[x]; ok {
		return n.Sprintf(t)
	}
	if x == lossv1.ExploitEffect_EXPLOIT_EFFECT_UNSPECIFIED {
		return n.Sprintf("effect unspecified")
	}
	return strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(x.String(), "EXPLOIT_EFFECT_"), "_", " "))
}

// defenceText: "ruffian dodges (1 PA, 1 Exploit): 5+7+d10[9] = 21 vs 20 — success".
func defenceText(n *narrate.Narrator, d *lossv1.DefenceRolled) string {
	who := n.Name(d.GetDefenderId())
	var s string
	switch d.GetReaction() {
	case lossv1.Reaction_REACTION_NONE:
		return n.Sprintf("%s takes the blow", who)
	case lossv1.Reaction_REACTION_PARRY:
		s = n.Sprintf("%s parries", who)
	case lossv1.Reaction_REACTION_DODGE:
		s = n.Sprintf("%s dodges", who)
	default:
		s = n.Sprintf("%s reacts (%s)", who, d.GetReaction().String())
	}
	var details []string
	if !n.Withheld(d.GetDefenderId()) {
		details = append(details, n.Sprintf("%d PA", d.GetActionPointsSpent()))
	}
	x := exploitsText(n, d.GetExploits(), d.GetEffects())
	if ally := d.GetAllyId(); ally != "" { // LOS-068: "1 Exploit: protect Diego"
		if protect := effectText(n, lossv1.ExploitEffect_EXPLOIT_EFFECT_PROTECT); strings.Contains(x, protect) {
			x = strings.Replace(x, protect, protect+" "+n.Name(ally), 1)
		} else {
			x = strings.TrimPrefix(n.Sprintf("%s, protecting %s", x, n.Name(ally)), ", ")
		}
	}
	if x != "" {
		details = append(details, x)
	}
	if len(details) > 0 {
		s += " (" + strings.Join(details, ", ") + ")"
	}
	if d.GetTest() != nil {
		s += n.Sprintf(": %s", testText(n, d.GetTest()))
	}
	if c := d.GetExploitsCancelled(); c > 0 {
		s += n.Sprintf("; the partial defence cancels %d Exploits of the attacker", c)
	}
	return s
}
