package loss

import (
	"strings"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// The narration of pursuits (LOS-100…LOS-108).

func init() {
	narrate.Fr(
		"contact", "au contact",
		"close", "proche",
		"in range", "à portée",
		"far", "loin",
		"very far", "très loin",
		"out of range", "hors de portée",
		"out of sight", "hors de vue",
		"pursuit starts: %s pursues %s at distance %d, %s (LOS-100)", "la poursuite commence : %s poursuit %s à distance %d, %s (LOS-100)",
		"pursuit starts: %s pursue %s at distance %d, %s (LOS-100)", "la poursuite commence : %s poursuivent %s à distance %d, %s (LOS-100)",
		"charge", "la charge",
		"clothesline", "la corde-à-linge",
		"change of distance", "le changement de distance",
		"tackle", "le plaquage",
		"shot at the legs", "le tir dans les jambes",
		"zigzags", "les zigzags",
		"pursuit action", "l'action de poursuite",
		"pursuit: %[1]s avoids %[2]s's %[3]s", "poursuite : %[1]s évite %[3]s %[4]s",
		"pursuit: %[1]s's %[2]s on %[3]s lands", "poursuite : %[2]s %[4]s sur %[3]s porte",
		"%s charges %s", "%s charge %s",
		"%[1]s clotheslines %[2]s", "%[1]s fait la corde-à-linge %[3]s",
		"%s tries to change distance", "%s tente de changer la distance",
		"%s changes distance from %d", "%s change la distance depuis %d",
		"%s changes distance", "%s change la distance",
		"%s changes distance %d → %d", "%s change la distance %d → %d",
		"%s changes distance to %d", "%s change la distance à %d",
		"%s tackles %s", "%s plaque %s",
		"%[1]s shoots at %[2]s's legs", "%[1]s tire dans les jambes %[3]s",
		"%s zigzags", "%s zigzague",
		"pursuit: %s", "poursuite : %s",
		"; the shot: %s", " ; le tir : %s",
		"; the distance stays %d", " ; la distance reste %d",
		"; %s may dodge", " ; %s peut esquiver",
		"; the pursuers' actions have +%d Difficulty (LOS-107)", " ; les actions des poursuivants ont +%d en Difficulté (LOS-107)",
		"; %s falls", " ; %s tombe",
		"; distance %d → %d", " ; distance %d → %d",
		"; distance now %d", " ; distance désormais %d",
	)
}

// distanceName names a pursuit distance (LOS-100).
func distanceName(n *narrate.Narrator, d int32) string {
	names := []string{1: "contact", 2: "close", 3: "in range", 4: "far", 5: "very far", 6: "out of range"}
	if d >= 1 && int(d) < len(names) {
		return n.Sprintf(names[d])
	}
	return n.Sprintf("out of sight")
}

// pursuitStartedText: "pursuit starts: Diego and Canahan pursue Le malfrat at distance 3, in
// range (LOS-100)".
func pursuitStartedText(n *narrate.Narrator, p *lossv1.PursuitStarted) string {
	pu := p.GetPursuit()
	key := "pursuit starts: %s pursue %s at distance %d, %s (LOS-100)"
	if len(pu.GetPursuerIds()) == 1 {
		key = "pursuit starts: %s pursues %s at distance %d, %s (LOS-100)"
	}
	return n.Sprintf(key, n.AndNames(pu.GetPursuerIds()), n.AndNames(pu.GetPursuedIds()), pu.GetDistance(), distanceName(n, pu.GetDistance()))
}

func pursuitNoun(n *narrate.Narrator, k lossv1.PursuitKind) string {
	nouns := map[lossv1.PursuitKind]string{
		lossv1.PursuitKind_PURSUIT_KIND_CHARGE:          "charge",
		lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE:     "clothesline",
		lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE: "change of distance",
		lossv1.PursuitKind_PURSUIT_KIND_TACKLE:          "tackle",
		lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS:      "shot at the legs",
		lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS:         "zigzags",
	}
	if s, ok := nouns[k]; ok {
		return n.Sprintf(s)
	}
	return n.Sprintf("pursuit action")
}

// pursuitText: "pursuit: Diego changes distance 3 → 2 (2 PA): 5+6+d10[7]+3 = 21 vs 20 —
// success (...)"; the distance before the action is known when the events before it were
// learnt.
func pursuitText(n *narrate.Narrator, a *lossv1.PursuitActed) string {
	who, target := n.Name(a.GetCombatantId()), n.Name(a.GetTargetId())
	before := remember(n).distance
	k := a.GetKind()
	if a.GetResolves() { // the outcome after the target's dodge, or its taking it
		if !a.GetSuccess() {
			return n.Sprintf("pursuit: %[1]s avoids %[2]s's %[3]s", target, who, pursuitNoun(n, k), n.Of(who))
		}
		return n.Sprintf("pursuit: %[1]s's %[2]s on %[3]s lands", who, pursuitNoun(n, k), target, n.Of(who)) + pursuitOutcome(n, a, target, before)
	}
	var head string
	switch k {
	case lossv1.PursuitKind_PURSUIT_KIND_CHARGE:
		head = n.Sprintf("%s charges %s", who, target)
	case lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE:
		head = n.Sprintf("%[1]s clotheslines %[2]s", who, target, n.To(target))
	case lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE:
		switch {
		case !a.GetSuccess():
			head = n.Sprintf("%s tries to change distance", who)
		case a.GetEnded() && before > 0:
			head = n.Sprintf("%s changes distance from %d", who, before)
		case a.GetEnded():
			head = n.Sprintf("%s changes distance", who)
		case before > 0:
			head = n.Sprintf("%s changes distance %d → %d", who, before, a.GetDistance())
		default:
			head = n.Sprintf("%s changes distance to %d", who, a.GetDistance())
		}
	case lossv1.PursuitKind_PURSUIT_KIND_TACKLE:
		head = n.Sprintf("%s tackles %s", who, target)
	case lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS:
		head = n.Sprintf("%[1]s shoots at %[2]s's legs", who, target, n.Of(target))
	case lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS:
		head = n.Sprintf("%s zigzags", who)
	default:
		head = n.Sprintf("%s acts (%s)", who, k.String())
	}
	var details []string
	if !n.Withheld(a.GetCombatantId()) {
		details = append(details, n.Sprintf("%d PA", a.GetActionPointsSpent()))
	}
	if x := a.GetExploits(); x > 0 {
		details = append(details, n.Sprintf("%d Exploits", x))
	}
	s := n.Sprintf("pursuit: %s", head)
	if len(details) > 0 {
		s += " (" + strings.Join(details, ", ") + ")"
	}
	s += n.Sprintf(": %s", testText(n, a.GetTest()))
	if a.GetShot() != nil {
		s += n.Sprintf("; the shot: %s", testText(n, a.GetShot()))
	}
	switch {
	case !a.GetSuccess():
		if k == lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE && a.GetDistance() > 0 {
			s += n.Sprintf("; the distance stays %d", a.GetDistance())
		}
		return s
	case a.GetDodgePossible():
		return s + n.Sprintf("; %s may dodge", target)
	}
	return s + pursuitOutcome(n, a, target, before)
}

// pursuitOutcome: what a pursuit action that landed does: "; Le malfrat falls; distance 2 → 3".
func pursuitOutcome(n *narrate.Narrator, a *lossv1.PursuitActed, target string, before int32) string {
	var s string
	if z := a.GetZigzag(); z > 0 {
		s += n.Sprintf("; the pursuers' actions have +%d Difficulty (LOS-107)", z)
	}
	if a.GetTargetDown() && a.GetNote() == "" {
		s += n.Sprintf("; %s falls", target)
	}
	if a.GetNote() != "" {
		s += n.Sprintf("; ") + recorded(n, a.GetNote())
	}
	k := a.GetKind()
	if a.GetEnded() || k == lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE || k == lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS {
		return s
	}
	switch d := a.GetDistance(); {
	case before > 0 && d != before:
		s += n.Sprintf("; distance %d → %d", before, d)
	case before == 0 && (k == lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE || k == lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS):
		s += n.Sprintf("; distance now %d", d)
	}
	return s
}
