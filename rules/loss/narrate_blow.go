package loss

import (
	"strings"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// The narration of a blow: hit or miss, damage, what the target has left.

func init() {
	narrate.Fr(
		"%[1]s's attack on %[2]s misses", "L'attaque %[3]s contre %[2]s échoue",
		"%s grabs %s", "%s agrippe %s",
		"%s trips %s", "%s fait chuter %s",
		"%s hits %s", "%s touche %s",
		": damage %s%s = %d, %s to %d", " : dégâts %s%s = %d, %s à %d",
		": damage %s%s = %d", " : dégâts %s%s = %d",
		", armour %d", ", armure %d",
		", shield %d", ", bouclier %d",
		", and the second weapon %s%s = %d", ", et les dégâts de la seconde arme %s%s = %d",
		"; %[1]s has NS light %[2]d, grave %[3]d, fatal %[4]d", " ; NS %[5]s : légères %[2]d, graves %[3]d, fatales %[4]d",
		"; %s has %d NS", " ; %s a %d NS",
		" — %s is down and dying (LOS-023)", " — %s est à terre, agonisant (LOS-023)",
		" — %s is out of the fight", " — %s est hors de combat",
		": damage ", " : dégâts ",
		", and the second weapon ", ", et les dégâts de la seconde arme ",
		"hidden", "cachés",
		"; the NS %s lost are hidden", " ; les NS perdus par %s sont cachés",
		"halved", "divisés par deux",
		"halved twice", "divisés par deux à deux reprises",
		"halved %d times", "divisés par deux %d fois",
	)
	narrate.Plural(" with %d Exploits standing", " with %d Exploit standing", " with %d Exploits standing",
		" avec %d Exploit maintenu", " avec %d Exploits maintenus")
	narrate.Plural(" → %d NS lost", " → %d NS lost", " → %d NS lost", " → %d NS perdu", " → %d NS perdus")
}

// resolvedText: "Diego hits ruffian: damage d10[6]+3 = 9, armour 1 → 8 NS lost; ruffian has
// NS light 0, grave 4, fatal 5".
func resolvedText(n *narrate.Narrator, r *lossv1.AttackResolved) string {
	att, target := n.Name(r.GetAttackerId()), n.Name(r.GetTargetId())
	if !r.GetHit() {
		s := n.Sprintf("%[1]s's attack on %[2]s misses", att, target, n.Of(att))
		if r.GetNote() != "" {
			s += n.Sprintf(": %s", recorded(n, r.GetNote()))
		}
		return s
	}
	var s string
	switch r.GetManoeuvre() {
	case lossv1.Manoeuvre_MANOEUVRE_GRAB:
		s = n.Sprintf("%s grabs %s", att, target)
	case lossv1.Manoeuvre_MANOEUVRE_TRIP:
		s = n.Sprintf("%s trips %s", att, target)
	default:
		s = n.Sprintf("%s hits %s", att, target)
	}
	if x := r.GetExploitsStanding(); x > 0 {
		s += n.Sprintf(" with %d Exploits standing", x)
		if e := effectsText(n, r.GetEffects()); e != "" {
			s += " (" + e + ")"
		}
	}
	if d := r.GetDamage(); d != nil && (d.GetRoll() == nil || n.Withheld(r.GetTargetId())) {
		s += hiddenDamageText(n, r, target)
	} else if d != nil {
		if r.GetHalved() { // LOS-081, LOS-086: halved, rounded down, before armour; halvings compound
			s += n.Sprintf(": damage %s%s = %d, %s to %d", n.Roll(d.GetRoll()), narrate.PlusMinus(d.GetWeaponDamage()), d.GetRoll().GetTotal()+d.GetWeaponDamage(), halvedText(n, r.GetHalvings()), d.GetTotal())
		} else {
			s += n.Sprintf(": damage %s%s = %d", n.Roll(d.GetRoll()), narrate.PlusMinus(d.GetWeaponDamage()), d.GetTotal())
		}
		s += protectionText(n, d) + n.Sprintf(" → %d NS lost", d.GetLevelsLost())
		if d2 := r.GetSecondDamage(); d2 != nil { // LOS-070: the second weapon on the same target
			s += n.Sprintf(", and the second weapon %s%s = %d", n.Roll(d2.GetRoll()), narrate.PlusMinus(d2.GetWeaponDamage()), d2.GetTotal()) +
				n.Sprintf(" → %d NS lost", d2.GetLevelsLost())
		}
		s += healthText(n, r, target)
	} else if r.GetHalved() {
		s += ", " + halvedText(n, r.GetHalvings())
	}
	if r.GetNote() != "" {
		s += n.Sprintf("; ") + recorded(n, r.GetNote())
	}
	switch {
	case r.GetTargetDying():
		s += n.Sprintf(" — %s is down and dying (LOS-023)", target)
	case r.GetTargetOut():
		s += n.Sprintf(" — %s is out of the fight", target)
	}
	return s
}

// protectionText: ", armour 1, shield 2", what the target's protection took off.
func protectionText(n *narrate.Narrator, d *lossv1.Damage) string {
	var s string
	if d.GetArmour() != 0 {
		s += n.Sprintf(", armour %d", d.GetArmour())
	}
	if d.GetShield() != 0 {
		s += n.Sprintf(", shield %d", d.GetShield())
	}
	return s
}

// healthText: "; Diego has NS light 0, grave 3, fatal 5", "; griffon-2 has 5 NS" (a Sbire), or
// nothing.
func healthText(n *narrate.Narrator, r *lossv1.AttackResolved, target string) string {
	switch {
	case r.GetLight()+r.GetGrave()+r.GetFatal() > 0:
		return n.Sprintf("; %[1]s has NS light %[2]d, grave %[3]d, fatal %[4]d", target, r.GetLight(), r.GetGrave(), r.GetFatal(), n.Of(target))
	case r.GetHealth() > 0:
		return n.Sprintf("; %s has %d NS", target, r.GetHealth())
	}
	return ""
}

// hiddenDamageText is the damage of a blow where the attacker's numbers (its damage roll,
// weapon damage and total) or the target's (its armour and shield, the NS it lost and has
// left) were withheld: what is known, and which part is hidden.
// ": damage hidden, armour 2 → 7 NS lost; Diego has NS light 0, grave 3, fatal 5";
// ": damage d10[5]+19 = 24; the NS L'ogre lost are hidden".
func hiddenDamageText(n *narrate.Narrator, r *lossv1.AttackResolved, target string) string {
	var s strings.Builder
	for i, d := range []*lossv1.Damage{r.GetDamage(), r.GetSecondDamage()} {
		if d == nil {
			continue
		}
		if i == 0 {
			s.WriteString(n.Sprintf(": damage "))
		} else {
			s.WriteString(n.Sprintf(", and the second weapon "))
		}
		if d.GetRoll() == nil {
			s.WriteString(n.Sprintf("hidden"))
		} else {
			s.WriteString(n.Roll(d.GetRoll()) + narrate.PlusMinus(d.GetWeaponDamage()) + " = " + itoa(d.GetTotal()))
		}
		if r.GetHalved() && i == 0 {
			s.WriteString(", " + halvedText(n, r.GetHalvings()))
		}
		if !n.Withheld(r.GetTargetId()) {
			s.WriteString(protectionText(n, d) + n.Sprintf(" → %d NS lost", d.GetLevelsLost()))
		}
	}
	if n.Withheld(r.GetTargetId()) {
		return s.String() + n.Sprintf("; the NS %s lost are hidden", target)
	}
	return s.String() + healthText(n, r, target)
}

// halvedText: "halved", or "halved twice" when halvings compound (LOS-086).
func halvedText(n *narrate.Narrator, h int32) string {
	switch {
	case h == 2:
		return n.Sprintf("halved twice")
	case h > 2:
		return n.Sprintf("halved %d times", h)
	}
	return n.Sprintf("halved")
}
