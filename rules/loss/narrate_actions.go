package loss

import (
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// The narration of the Loss events beyond attacks and pursuits: passing, declarations, waits,
// aims, simple actions, Disasters, the dying and free raises.

func init() {
	narrate.Fr(
		"%s passes, keeping its PA (hidden) to parry or dodge", "%s passe et garde ses PA (cachés) pour parer ou esquiver",
		"%s declares: %s", "%s déclare : %s",
		"%s waits to act at a later phase (its phases are hidden)", "%s attend pour agir à une phase plus tardive (ses phases sont cachées)",
		"%s waits from phase %d to %d (next action %s PA, minimum 2)", "%s attend de la phase %d à la phase %d (action suivante %s PA, minimum 2)",
		"%s aims for the whole Tour (LOS-084) (weapon, PA and bonus hidden)", "%s vise pendant tout le Tour (LOS-084) (arme, PA et bonus cachés)",
		"%s aims (LOS-035) (weapon, PA and bonus hidden)", "%s vise (LOS-035) (arme, PA et bonus cachés)",
		"%s aims%s for the whole Tour (%d PA): %s on the next shot with it (LOS-084)", "%s vise%s pendant tout le Tour (%d PA) : %s au prochain tir avec cette arme (LOS-084)",
		"%s aims%s (%d PA): %s on the next Test with it (LOS-035)", "%s vise%s (%d PA) : %s au prochain Test avec cette arme (LOS-035)",
		"%s speaks", "%s parle",
		"%s uses a social Talent", "%s utilise un Talent social",
		"%s picks up an object", "%s ramasse un objet",
		"%s moves", "%s se déplace",
		"%s stands up", "%s se relève",
		"%s picks up the weapon", "%s ramasse son arme",
		"%s acts (%s)", "%s agit (%s)",
		" (%d PA)", " (%d PA)",
		"the GM turns %[1]s's failed Exploit into a Disaster: %[2]s (LOS-006)", "le MJ transforme l'Exploit raté %[3]s en Désastre : %[2]s (LOS-006)",
		"%s is dead", "%s est mort",
		"%s is saved", "%s est sauvé",
		"%s sacrifices 1 Inspiration", "%s sacrifie 1 Inspiration",
		"%s sacrifices 1 Inspiration of %s", "%s sacrifie 1 Inspiration de %s",
		"%s receives urgent care", "%s reçoit des soins urgents",
		"%[1]s gives %[2]s urgent care", "%[1]s prodigue des soins urgents %[3]s",
		"%s finishes %s off", "%s achève %s",
		"%[1]s decides the fate of %[2]s", "%[1]s décide du sort %[3]s",
		"%s: %s (LOS-023)", "%s : %s (LOS-023)",
		"the GM grants %[1]s free raises or takes some back: how many and why is hidden (LOS-004)",
		"le MJ accorde des Augmentations Gratuites %[2]s ou en reprend : combien et pourquoi est caché (LOS-004)",
		"%s (LOS-004)", "%s (LOS-004)",
	)
	narrate.Plural("%[2]s passes, keeping %[1]d PA to parry or dodge", "%[2]s passes, keeping %[1]d PA to parry or dodge", "%[2]s passes, keeping %[1]d PA to parry or dodge",
		"%[2]s passe et garde %[1]d PA pour parer ou esquiver", "%[2]s passe et garde %[1]d PA pour parer ou esquiver")
	narrate.Plural("%[2]s loses %[1]d free raises", "%[2]s loses %[1]d free raise", "%[2]s loses %[1]d free raises",
		"%[2]s perd %[1]d Augmentation Gratuite", "%[2]s perd %[1]d Augmentations Gratuites")
	narrate.Plural("%[2]s is granted %[1]d free raises", "%[2]s is granted %[1]d free raise", "%[2]s is granted %[1]d free raises",
		"%[2]s reçoit %[1]d Augmentation Gratuite", "%[2]s reçoit %[1]d Augmentations Gratuites")
}

// passedText: "Diego passes, keeping 3 PA to parry or dodge".
func passedText(n *narrate.Narrator, p *lossv1.Passed) string {
	who := n.Name(p.GetCombatantId())
	if n.Withheld(p.GetCombatantId()) {
		return n.Sprintf("%s passes, keeping its PA (hidden) to parry or dodge", who)
	}
	return n.Sprintf("%[2]s passes, keeping %[1]d PA to parry or dodge", p.GetActionPointsLeft(), who)
}

// declaredText: `Canahan declares: "I charge the griffon"`.
func declaredText(n *narrate.Narrator, d *lossv1.Declared) string {
	return n.Sprintf("%s declares: %s", n.Name(d.GetCombatantId()), n.Quote(d.GetIntention()))
}

// waitedText: "Diego waits from phase 12 to 4 (next action −8 PA, minimum 2)" (LOS-040).
func waitedText(n *narrate.Narrator, w *lossv1.Waited) string {
	if n.Withheld(w.GetCombatantId()) {
		return n.Sprintf("%s waits to act at a later phase (its phases are hidden)", n.Name(w.GetCombatantId()))
	}
	return n.Sprintf("%s waits from phase %d to %d (next action %s PA, minimum 2)",
		n.Name(w.GetCombatantId()), w.GetFromPhase(), w.GetUntilPhase(), narrate.Signed(-w.GetDiscount()))
}

// aimedText: "Diego aims with arbalète (2 PA): +2 on the next Test with it (LOS-035)".
func aimedText(n *narrate.Narrator, a *lossv1.Aimed) string {
	who := n.Name(a.GetCombatantId())
	if n.Withheld(a.GetCombatantId()) {
		if a.GetWholeTour() {
			return n.Sprintf("%s aims for the whole Tour (LOS-084) (weapon, PA and bonus hidden)", who)
		}
		return n.Sprintf("%s aims (LOS-035) (weapon, PA and bonus hidden)", who)
	}
	if a.GetWholeTour() {
		return n.Sprintf("%s aims%s for the whole Tour (%d PA): %s on the next shot with it (LOS-084)",
			who, withWeapon(n, a.GetWeapon()), a.GetActionPointsSpent(), narrate.Signed(a.GetBonus()))
	}
	return n.Sprintf("%s aims%s (%d PA): %s on the next Test with it (LOS-035)",
		who, withWeapon(n, a.GetWeapon()), a.GetActionPointsSpent(), narrate.Signed(a.GetBonus()))
}

// simpleText: "Diego stands up (4 PA)", `Diego speaks: "À moi !"`.
func simpleText(n *narrate.Narrator, a *lossv1.SimpleActed) string {
	who := n.Name(a.GetCombatantId())
	var s string
	switch a.GetKind() {
	case lossv1.SimpleKind_SIMPLE_KIND_SPEAK:
		s = n.Sprintf("%s speaks", who)
	case lossv1.SimpleKind_SIMPLE_KIND_SOCIAL:
		s = n.Sprintf("%s uses a social Talent", who)
	case lossv1.SimpleKind_SIMPLE_KIND_PICK_UP:
		s = n.Sprintf("%s picks up an object", who)
	case lossv1.SimpleKind_SIMPLE_KIND_MOVE:
		s = n.Sprintf("%s moves", who)
	case lossv1.SimpleKind_SIMPLE_KIND_STAND_UP:
		s = n.Sprintf("%s stands up", who)
	case lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON:
		s = n.Sprintf("%s picks up the weapon", who)
	default:
		s = n.Sprintf("%s acts (%s)", who, a.GetKind().String())
	}
	// A hidden combatant's PA are withheld: what it does is all the table sees.
	if !n.Withheld(a.GetCombatantId()) && (a.GetKind() != lossv1.SimpleKind_SIMPLE_KIND_SPEAK || a.GetActionPointsSpent() != 0) {
		s += n.Sprintf(" (%d PA)", a.GetActionPointsSpent())
	}
	if a.GetDescription() != "" {
		s += n.Sprintf(": %s", n.Quote(a.GetDescription()))
	}
	return s
}

// disasterText: `the GM turns Diego's failed Exploit into a Disaster: "the blade snaps" (LOS-006)`.
func disasterText(n *narrate.Narrator, d *lossv1.DisasterDeclared) string {
	who := n.Name(d.GetCombatantId())
	return n.Sprintf("the GM turns %[1]s's failed Exploit into a Disaster: %[2]s (LOS-006)", who, n.Quote(d.GetDescription()), n.Of(who))
}

// dyingText: "Le malfrat finishes Diego off: Diego is dead (LOS-023)".
func dyingText(n *narrate.Narrator, d *lossv1.DyingResolved) string {
	who, target := n.Name(d.GetCombatantId()), n.Name(d.GetTargetId())
	fate := n.Sprintf(yesNo(d.GetDead(), "%s is dead", "%s is saved"), target)
	var s string
	switch d.GetChoice() {
	case lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION:
		if n.Withheld(d.GetTargetId()) {
			s = n.Sprintf("%s sacrifices 1 Inspiration", target)
		} else {
			s = n.Sprintf("%s sacrifices 1 Inspiration of %s", target, narrate.OrUnknown(d.GetVertu()))
		}
	case lossv1.DyingChoice_DYING_CHOICE_URGENT_CARE:
		if d.GetCombatantId() == d.GetTargetId() {
			s = n.Sprintf("%s receives urgent care", target)
		} else {
			s = n.Sprintf("%[1]s gives %[2]s urgent care", who, target, n.To(target))
		}
	case lossv1.DyingChoice_DYING_CHOICE_FINISH_OFF:
		s = n.Sprintf("%s finishes %s off", who, target)
	default:
		s = n.Sprintf("%[1]s decides the fate of %[2]s", who, target, n.Of(target))
	}
	return n.Sprintf("%s: %s (LOS-023)", s, fate)
}

// grantText: "Diego is granted 2 free raises: the high ground (LOS-004)".
func grantText(n *narrate.Narrator, g *lossv1.FreeRaisesGranted) string {
	who := n.Name(g.GetCombatantId())
	if n.Withheld(g.GetCombatantId()) {
		return n.Sprintf("the GM grants %[1]s free raises or takes some back: how many and why is hidden (LOS-004)", who, n.To(who))
	}
	var s string
	if c := g.GetCount(); c < 0 {
		s = n.Sprintf("%[2]s loses %[1]d free raises", -c, who)
	} else {
		s = n.Sprintf("%[2]s is granted %[1]d free raises", c, who)
	}
	if g.GetReason() != "" {
		s += n.Sprintf(": %s", g.GetReason())
	}
	return n.Sprintf("%s (LOS-004)", s)
}
