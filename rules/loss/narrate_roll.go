package loss

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// The narration of a Test (its roll, bonus, Difficulty and how they came about) and of the
// phrases the rules record in events (a modifier's reason, a note, why there is no defence).

func init() {
	narrate.Fr(
		"no roll", "pas de jet",
		"roll hidden — %s", "jet caché — %s",
		"success", "réussite",
		"failure", "échec",
		" = %d vs %d — %s", " = %d contre %d — %s",
		"Difficulty %d, %s", "Difficulté %d, %s",
		"%d Fursa", "%d Fursa",
		"%s from a defensive Exploit", "%s d'un Exploit défensif",
		" (spent %s; %s)", " (dépense : %s ; %s)",
		" (spent %s)", " (dépense : %s)",

		// The modifiers' reasons (test.go, decide_attack.go, decide_react.go, decide_pursuit.go).
		"Two weapons specialisation", "spécialisation Deux armes",
		"opponent behind an obstacle", "adversaire abrité derrière un obstacle",
		"cover", "abri",
		"shooting in a pursuit", "tir en poursuite",
		"the defender's wall", "mur défensif du défenseur",
		"armour against aimed blows", "armure contre les coups visés",
		"striking a prone target", "frapper un adversaire à terre",
		"not stacked with the prone target", "non cumulé avec l'adversaire à terre",
		"from behind or surprised target", "de dos ou adversaire surpris",
		"surprised target", "cible surprise",
		"improvised weapon, specialised", "arme improvisée, avec spécialisation",
		"improvised weapon", "arme improvisée",
		"point-blank", "à bout touchant",
		"aim", "visée",
		"Mounted shooting specialisation", "spécialisation Tir monté",
		"feint", "feinte",
		"Charge specialisation", "spécialisation Charge",
		"Unarmed: Disarm specialisation", "mains nues : spécialisation Désarmer",
		"Disarm specialisation", "spécialisation Désarmer",
		"Unarmed: Attack specialisation", "mains nues : spécialisation Attaque",
		"Unarmed: Deadly blow specialisation", "mains nues : spécialisation Coup mortel",
		"Unarmed: Defence specialisation", "mains nues : spécialisation Défense",
		"Fortification destruction specialisation", "spécialisation Destruction de fortifications",
		"shield", "bouclier",
		"Take cover specialisation", "spécialisation Se mettre à couvert",
		"Total dodge specialisation", "spécialisation Esquive totale",
		"Weapon and shield specialisation", "spécialisation Arme et bouclier",
		"Parry specialisation", "spécialisation Parade",
		"protected by an ally", "protégé par un allié",
		"the pursued zigzags", "le poursuivi zigzague",
		"mount or vehicle speed", "vitesse de la monture ou du véhicule",
		"wounds", "blessures",
		"aimed blows suffered", "coups visés subis",
		"darkness or blinded", "obscurité ou aveuglé",
		"lower than the opponent", "plus bas que l'adversaire",
		"prone", "à terre",
		"outnumbered by 3 or more", "en surnombre, 3 adversaires ou plus",
		"off-hand", "main non dominante",
		"higher than the opponent", "plus haut que l'adversaire",
		"successful defensive Exploit", "Exploit défensif réussi",

		// The notes and reasons recorded with a name (decide_attack.go, decide_blow.go, decide_pursuit.go).
		"%s does not see the attack (LOS-017)", "%[1]s ne voit pas l'attaque (LOS-017)",
		"%s is surprised (LOS-052)", "%[1]s est surpris (LOS-052)",
		"%s's wall is its defence this Tour (LOS-066)", "le mur défensif %[2]s est sa défense pour ce Tour (LOS-066)",
		"%s has no PA left to parry or dodge (LOS-032)", "%[1]s n'a plus de PA pour parer ou esquiver (LOS-032)",
		"%s is under full cover (LOS-086)", "%[1]s est entièrement à l'abri (LOS-086)",
		"%s is a Sbire felled by a successful Exploit (LOS-025)", "%[1]s est un Sbire abattu par un Exploit réussi (LOS-025)",
		"%s is killed outright: 0 fatal boxes, dying (LOS-078)", "%[1]s est tué net : 0 case de blessure fatale, agonisant (LOS-078)",
		"%s is unseated or thrown down", "%[1]s est désarçonné ou jeté à terre",
		"%s falls and must stand up at its next action (LOS-035)", "%[1]s tombe et devra se relever à son action suivante (LOS-035)",
		// The notes without a name.
		"the attack fails", "l'attaque échoue",
		"full cover: the blast does not reach", "abri complet : l'explosion ne l'atteint pas",
		"partial defence cancelled every Exploit: the attack misses (LOS-015 option)", "la défense partielle a annulé tous les Exploits : l'attaque échoue (option LOS-015)",
		"no automatic effect: the GM applies what follows as situations (LOS-035)", "pas d'effet automatique : le MJ applique la suite comme des situations (LOS-035)",
		"sight is lost: the pursuit ends (LOS-100)", "on se perd de vue : la poursuite s'arrête (LOS-100)",
		"the pursuit becomes a standard fight (LOS-105)", "la poursuite devient un combat ordinaire (LOS-105)",
	)
	narrate.Plural("%d free raises", "%d free raise", "%d free raises", "%d Augmentation Gratuite", "%d Augmentations Gratuites")
	narrate.Plural("%d Inspiration of %s", "%d Inspiration of %[2]s", "%d Inspiration of %[2]s", "%d Inspiration de %[2]s", "%d Inspirations de %[2]s")
}

// namedPhrases are the phrases the rules record about a combatant, its name first.
var namedPhrases = []string{
	"%s does not see the attack (LOS-017)",
	"%s is surprised (LOS-052)",
	"%s's wall is its defence this Tour (LOS-066)",
	"%s has no PA left to parry or dodge (LOS-032)",
	"%s is under full cover (LOS-086)",
	"%s is a Sbire felled by a successful Exploit (LOS-025)",
	"%s is killed outright: 0 fatal boxes, dying (LOS-078)",
	"%s is unseated or thrown down",
	"%s falls and must stand up at its next action (LOS-035)",
}

// countedReason matches the reasons of modifiers that count: "2 Exploits", "1 Fursa", "3 free
// raises", "1 Inspiration of Courage".
var countedReason = regexp.MustCompile(`^(\d+) (Exploits?|Fursa|free raises?|Inspiration of (.+))$`)

// recorded is the narration of a phrase the rules recorded in English: the phrase itself in
// English, its translation in French when the catalogue has it.
func recorded(n *narrate.Narrator, s string) string {
	if !n.French() {
		return s
	}
	for _, p := range namedPhrases {
		if suffix := p[2:]; strings.HasSuffix(s, suffix) && len(s) > len(suffix) {
			name := strings.TrimSuffix(s, suffix)
			return n.Sprintf(p, name, n.Of(name))
		}
	}
	if m := countedReason.FindStringSubmatch(s); m != nil {
		c, _ := strconv.Atoi(m[1])
		switch {
		case strings.HasPrefix(m[2], "Exploit"):
			return n.Sprintf("%d Exploits", c)
		case m[2] == "Fursa":
			return n.Sprintf("%d Fursa", c)
		case strings.HasPrefix(m[2], "free raise"):
			return n.Sprintf("%d free raises", c)
		}
		return n.Sprintf("%d Inspiration of %s", c, m[3])
	}
	return n.Term(s)
}

func itoa(v int32) string { return strconv.FormatInt(int64(v), 10) }

// testText: "6+6+d10[8]+5 = 25 vs 20 — success (+5 higher than the opponent (LOS-052);
// Difficulty 15, +5 1 Exploit (LOS-010))": the Test, then how its bonus and its Difficulty came
// about.
func testText(n *narrate.Narrator, t *lossv1.TestResult) string {
	if t == nil {
		return n.Sprintf("no roll")
	}
	outcome := n.Sprintf(yesNo(t.GetSuccess(), "success", "failure"))
	if t.GetRoll() == nil { // withheld from this reader: a hidden combatant's Test
		return n.Sprintf("roll hidden — %s", outcome)
	}
	s := itoa(t.GetTrait()) + "+" + itoa(t.GetTalent()) + "+" + n.Roll(t.GetRoll())
	if t.GetBonus() != 0 {
		s += narrate.PlusMinus(t.GetBonus())
	}
	s += n.Sprintf(" = %d vs %d — %s", t.GetTotal(), t.GetDifficulty(), outcome)
	if len(t.GetTestModifiers()) == 0 && len(t.GetDifficultyModifiers()) == 0 {
		return s + legacySpendText(n, t)
	}
	var parts []string
	if ms := t.GetTestModifiers(); len(ms) > 0 {
		parts = append(parts, modifiersText(n, ms))
	}
	if ms := t.GetDifficultyModifiers(); len(ms) > 0 {
		base := t.GetDifficulty()
		for _, m := range ms {
			base -= m.GetValue()
		}
		parts = append(parts, n.Sprintf("Difficulty %d, %s", base, modifiersText(n, ms)))
	}
	return s + " (" + strings.Join(parts, n.Sprintf("; ")) + ")"
}

// modifiersText: "+5 higher than the opponent (LOS-052), −2 improvised weapon (LOS-054)".
func modifiersText(n *narrate.Narrator, ms []*lossv1.Modifier) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = narrate.Signed(m.GetValue()) + " " + recorded(n, m.GetReason())
		if m.GetRule() != "" {
			parts[i] += " (" + m.GetRule() + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// legacySpendText explains the bonus of a Test recorded without its modifiers, as the first
// engine recorded them: what was spent, the rest from a defensive Exploit (LOS-016).
func legacySpendText(n *narrate.Narrator, t *lossv1.TestResult) string {
	var notes []string
	spent := int32(0)
	if f := t.GetSpend().GetFursa(); f > 0 {
		notes = append(notes, n.Sprintf("%d Fursa", f))
		spent += f
	}
	if f := t.GetSpend().GetFreeRaises(); f > 0 {
		notes = append(notes, n.Sprintf("%d free raises", f))
		spent += f
	}
	insp := t.GetSpend().GetInspiration()
	for _, v := range slices.Sorted(maps.Keys(insp)) {
		if insp[v] > 0 {
			notes = append(notes, itoa(insp[v])+" "+v)
			spent += insp[v]
		}
	}
	var extra string
	// Only version 1 recorded Tests without their modifiers: its bonus per thing spent.
	if rest := t.GetBonus() - numbersV1().SpendBonus*spent; rest != 0 { // LOS-016
		extra = n.Sprintf("%s from a defensive Exploit", narrate.PlusMinus(rest))
	}
	switch {
	case len(notes) > 0 && extra != "":
		return n.Sprintf(" (spent %s; %s)", strings.Join(notes, ", "), extra)
	case len(notes) > 0:
		return n.Sprintf(" (spent %s)", strings.Join(notes, ", "))
	case extra != "":
		return " (" + extra + ")"
	}
	return ""
}
