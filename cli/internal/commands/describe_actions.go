package commands

import (
	"fmt"
	"strings"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
)

// The wording of the Loss events beyond attacks: declarations, waits, aims, simple actions,
// Disasters, the dying, pursuits and free raises.

// declaredText: `Canahan declares: "I charge the griffon"`.
func (n *Names) declaredText(d *lossv1.Declared) string {
	return fmt.Sprintf("%s declares: %q", n.of(d.GetCombatantId()), d.GetIntention())
}

// waitedText: "Diego waits from phase 12 to 4 (next action −8 PA, minimum 2)" (LOS-040).
func (n *Names) waitedText(w *lossv1.Waited) string {
	if n.withheld(w.GetCombatantId()) {
		return n.of(w.GetCombatantId()) + " waits to act at a later phase (its phases are hidden)"
	}
	return fmt.Sprintf("%s waits from phase %d to %d (next action %s PA, minimum 2)",
		n.of(w.GetCombatantId()), w.GetFromPhase(), w.GetUntilPhase(), signed(-w.GetDiscount()))
}

// aimedText: "Diego aims with arbalète (2 PA): +2 on the next Test with it (LOS-035)".
func (n *Names) aimedText(a *lossv1.Aimed) string {
	who := n.of(a.GetCombatantId())
	if n.withheld(a.GetCombatantId()) {
		return who + yesNo(a.GetWholeTour(), " aims for the whole Tour (LOS-084)", " aims (LOS-035)") + " (weapon, PA and bonus hidden)"
	}
	if a.GetWholeTour() {
		return fmt.Sprintf("%s aims with %s for the whole Tour (%d PA): %s on the next shot with it (LOS-084)",
			who, a.GetWeapon(), a.GetActionPointsSpent(), signed(a.GetBonus()))
	}
	return fmt.Sprintf("%s aims with %s (%d PA): %s on the next Test with it (LOS-035)",
		who, a.GetWeapon(), a.GetActionPointsSpent(), signed(a.GetBonus()))
}

// simpleText: "Diego stands up (4 PA)", `Diego speaks: "À moi !"`.
func (n *Names) simpleText(a *lossv1.SimpleActed) string {
	who := n.of(a.GetCombatantId())
	var s string
	switch a.GetKind() {
	case lossv1.SimpleKind_SIMPLE_KIND_SPEAK:
		s = who + " speaks"
	case lossv1.SimpleKind_SIMPLE_KIND_SOCIAL:
		s = who + " uses a social Talent"
	case lossv1.SimpleKind_SIMPLE_KIND_PICK_UP:
		s = who + " picks up an object"
	case lossv1.SimpleKind_SIMPLE_KIND_MOVE:
		s = who + " moves"
	case lossv1.SimpleKind_SIMPLE_KIND_STAND_UP:
		s = who + " stands up"
	case lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON:
		s = who + " picks up the weapon"
	default:
		s = who + " acts (" + a.GetKind().String() + ")"
	}
	if n.withheld(a.GetCombatantId()) {
		// its PA are hidden: what it does is all the table sees
	} else if a.GetKind() != lossv1.SimpleKind_SIMPLE_KIND_SPEAK || a.GetActionPointsSpent() != 0 {
		s += fmt.Sprintf(" (%d PA)", a.GetActionPointsSpent())
	}
	if a.GetDescription() != "" {
		s += fmt.Sprintf(": %q", a.GetDescription())
	}
	return s
}

// disasterText: `the GM turns Diego's failed Exploit into a Disaster: "the blade snaps" (LOS-006)`.
func (n *Names) disasterText(d *lossv1.DisasterDeclared) string {
	return fmt.Sprintf("the GM turns %s's failed Exploit into a Disaster: %q (LOS-006)", n.of(d.GetCombatantId()), d.GetDescription())
}

// dyingText: "Le malfrat finishes Diego off: Diego is dead (LOS-023)".
func (n *Names) dyingText(d *lossv1.DyingResolved) string {
	who, target := n.of(d.GetCombatantId()), n.of(d.GetTargetId())
	fate := target + yesNo(d.GetDead(), " is dead", " is saved")
	var s string
	switch d.GetChoice() {
	case lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION:
		if n.withheld(d.GetTargetId()) {
			s = fmt.Sprintf("%s sacrifices 1 Inspiration", target)
		} else {
			s = fmt.Sprintf("%s sacrifices 1 Inspiration of %s", target, orUnknown(d.GetVertu()))
		}
	case lossv1.DyingChoice_DYING_CHOICE_URGENT_CARE:
		if d.GetCombatantId() == d.GetTargetId() {
			s = target + " receives urgent care"
		} else {
			s = fmt.Sprintf("%s gives %s urgent care", who, target)
		}
	case lossv1.DyingChoice_DYING_CHOICE_FINISH_OFF:
		s = fmt.Sprintf("%s finishes %s off", who, target)
	default:
		s = fmt.Sprintf("%s decides the fate of %s", who, target)
	}
	return s + ": " + fate + " (LOS-023)"
}

// distanceName names a pursuit distance (LOS-100).
func distanceName(d int32) string {
	switch d {
	case 1:
		return "contact"
	case 2:
		return "close"
	case 3:
		return "in range"
	case 4:
		return "far"
	case 5:
		return "very far"
	case 6:
		return "out of range"
	}
	return "out of sight"
}

// pursuitStartedText: "pursuit starts: Diego and Canahan pursue Le malfrat at distance 3, in
// range (LOS-100)".
func (n *Names) pursuitStartedText(p *lossv1.PursuitStarted) string {
	names := func(ids []string) string {
		var out []string
		for _, id := range ids {
			out = append(out, n.of(id))
		}
		return andList(out)
	}
	pu := p.GetPursuit()
	verb := "pursue"
	if len(pu.GetPursuerIds()) == 1 {
		verb = "pursues"
	}
	return fmt.Sprintf("pursuit starts: %s %s %s at distance %d, %s (LOS-100)",
		names(pu.GetPursuerIds()), verb, names(pu.GetPursuedIds()), pu.GetDistance(), distanceName(pu.GetDistance()))
}

func pursuitNoun(k lossv1.PursuitKind) string {
	switch k {
	case lossv1.PursuitKind_PURSUIT_KIND_CHARGE:
		return "charge"
	case lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE:
		return "clothesline"
	case lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE:
		return "change of distance"
	case lossv1.PursuitKind_PURSUIT_KIND_TACKLE:
		return "tackle"
	case lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS:
		return "shot at the legs"
	case lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS:
		return "zigzags"
	}
	return "pursuit action"
}

// pursuitText: "pursuit: Diego changes distance 3 → 2 (2 PA): 5+6+d10[7]+3 = 21 vs 20 —
// success (...)"; the distance before the action is known when the events before it were
// learnt.
func (n *Names) pursuitText(a *lossv1.PursuitActed) string {
	who, target := n.of(a.GetCombatantId()), n.of(a.GetTargetId())
	before := n.distanceBefore()
	k := a.GetKind()
	if a.GetResolves() { // the outcome after the target's dodge, or its taking it
		if !a.GetSuccess() {
			return fmt.Sprintf("pursuit: %s avoids %s's %s", target, who, pursuitNoun(k))
		}
		return fmt.Sprintf("pursuit: %s's %s on %s lands", who, pursuitNoun(k), target) + pursuitOutcome(a, target, before)
	}
	var head string
	switch k {
	case lossv1.PursuitKind_PURSUIT_KIND_CHARGE:
		head = who + " charges " + target
	case lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE:
		head = who + " clotheslines " + target
	case lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE:
		switch {
		case !a.GetSuccess():
			head = who + " tries to change distance"
		case a.GetEnded() && before > 0:
			head = fmt.Sprintf("%s changes distance from %d", who, before)
		case a.GetEnded():
			head = who + " changes distance"
		case before > 0:
			head = fmt.Sprintf("%s changes distance %d → %d", who, before, a.GetDistance())
		default:
			head = fmt.Sprintf("%s changes distance to %d", who, a.GetDistance())
		}
	case lossv1.PursuitKind_PURSUIT_KIND_TACKLE:
		head = who + " tackles " + target
	case lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS:
		head = who + " shoots at " + target + "'s legs"
	case lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS:
		head = who + " zigzags"
	default:
		head = who + " acts (" + k.String() + ")"
	}
	var details []string
	if !n.withheld(a.GetCombatantId()) {
		details = append(details, fmt.Sprintf("%d PA", a.GetActionPointsSpent()))
	}
	if x := a.GetExploits(); x > 0 {
		details = append(details, plural(int(x), "Exploit"))
	}
	s := "pursuit: " + head
	if len(details) > 0 {
		s += " (" + strings.Join(details, ", ") + ")"
	}
	s += ": " + testText(a.GetTest())
	if a.GetShot() != nil {
		s += "; the shot: " + testText(a.GetShot())
	}
	switch {
	case !a.GetSuccess():
		if k == lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE && a.GetDistance() > 0 {
			s += fmt.Sprintf("; the distance stays %d", a.GetDistance())
		}
		return s
	case a.GetDodgePossible():
		return s + "; " + target + " may dodge"
	}
	return s + pursuitOutcome(a, target, before)
}

// pursuitOutcome: what a pursuit action that landed does: "; Le malfrat falls; distance 2 → 3".
func pursuitOutcome(a *lossv1.PursuitActed, target string, before int32) string {
	var s string
	if z := a.GetZigzag(); z > 0 {
		s += fmt.Sprintf("; the pursuers' actions have +%d Difficulty (LOS-107)", z)
	}
	if a.GetTargetDown() && a.GetNote() == "" {
		s += "; " + target + " falls"
	}
	if a.GetNote() != "" {
		s += "; " + a.GetNote()
	}
	k := a.GetKind()
	if a.GetEnded() || k == lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE || k == lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS {
		return s
	}
	switch d := a.GetDistance(); {
	case before > 0 && d != before:
		s += fmt.Sprintf("; distance %d → %d", before, d)
	case before == 0 && (k == lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE || k == lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS):
		s += fmt.Sprintf("; distance now %d", d)
	}
	return s
}

func (n *Names) distanceBefore() int32 {
	if n == nil {
		return 0
	}
	return n.distance
}

// grantText: "Diego is granted 2 free raises: the high ground (LOS-004)".
func (n *Names) grantText(g *lossv1.FreeRaisesGranted) string {
	who := n.of(g.GetCombatantId())
	if n.withheld(g.GetCombatantId()) {
		return "the GM grants " + who + " free raises or takes some back: how many and why is hidden (LOS-004)"
	}
	var s string
	if c := g.GetCount(); c < 0 {
		s = fmt.Sprintf("%s loses %s", who, plural(int(-c), "free raise"))
	} else {
		s = fmt.Sprintf("%s is granted %s", who, plural(int(c), "free raise"))
	}
	if g.GetReason() != "" {
		s += ": " + g.GetReason()
	}
	return s + " (LOS-004)"
}
