package ka

import (
	"regexp"
	"slices"
	"strings"

	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// The narration of attacks (KA-020…KA-033), disarms (KA-032) and terror (KA-034), with what
// the server withheld of a hidden combatant said to be withheld.

// tellAttackHead: "Joshua attacks le chien with pistolet", "Gunner fires a burst at Alpha and
// Bravo with pistolet-mitrailleur (KA-033)"; verbs are those of attacks (attacks, fires, tries
// to stun) or of declarations (declares an attack on, a burst at, a stun on).
func tellAttackHead(n *narrate.Narrator, attacker, firstTarget string, at *kav1.Attack, declared bool) (string, []string) {
	who := n.Name(attacker)
	if firstTarget == "" {
		firstTarget = at.GetTargetId()
	}
	targets := []string{n.Name(firstTarget)}
	for _, id := range append([]string{at.GetTargetId()}, at.GetMoreTargetIds()...) {
		if id != firstTarget && id != "" {
			targets = append(targets, n.Name(id))
		}
	}
	burst := at.GetBurst() || len(at.GetMoreTargetIds()) > 0
	var s string
	switch {
	case burst && declared:
		s = n.Sprintf("%s declares a burst at %s", who, n.And(targets))
	case at.GetStun() && declared:
		s = n.Sprintf("%s declares a stun on %s", who, targets[0])
	case declared:
		s = n.Sprintf("%s declares an attack on %s", who, targets[0])
	case burst:
		s = n.Sprintf("%s fires a burst at %s", who, n.And(targets))
	case at.GetStun():
		s = n.Sprintf("%s tries to stun %s", who, targets[0])
	default:
		s = n.Sprintf("%s attacks %s", who, targets[0])
	}
	if at.GetWeapon() != "" {
		s += n.Sprintf(" with %s", at.GetWeapon())
	}
	switch {
	case burst && at.GetStun():
		s += n.Sprintf(" (a stun, KA-030, KA-033)")
	case burst && len(targets) > 1:
		s += " (KA-033)"
	case burst:
		s += n.Sprintf(" (the whole burst on one target, KA-033)")
	case at.GetStun():
		s += " (KA-030)"
	}
	return s, targets
}

// tellDeclared: "Joshua declares an attack on le chien with pistolet, −2 situation; le chien
// announces whether it dodges (one action) or takes it, before any card is drawn (KA-020)".
func tellDeclared(n *narrate.Narrator, a *kav1.AttackDeclared) string {
	at := a.GetAttack()
	s, _ := tellAttackHead(n, a.GetAttackerId(), "", at, true)
	if m := at.GetModifier(); m != 0 {
		s += n.Sprintf(", %s situation", narrate.Signed(m))
	}
	var may []string
	for _, id := range a.GetPendingIds() {
		may = append(may, n.Name(id))
	}
	switch {
	case len(may) > 1:
		s += n.Sprintf("; %s each announce in turn whether they dodge (one action) or take it, before any card is drawn (KA-020, KA-033)", n.And(may))
	case len(may) == 1 && at.GetStun():
		s += n.Sprintf("; %s announces whether it dodges (one action; a stun is not parried, KA-030) or takes it, before any card is drawn (KA-020)", may[0])
	case len(may) == 1:
		s += n.Sprintf("; %s announces whether it dodges (one action) or takes it, before any card is drawn (KA-020)", may[0])
	}
	return s
}

// tellAnnounced: "le chien will dodge (one action, KA-013, KA-020)".
func tellAnnounced(n *narrate.Narrator, d *kav1.DefenceAnnounced) string {
	who := n.Name(d.GetDefenderId())
	r := d.GetReact()
	switch {
	case r.GetAttackBack() && r.GetWeapon() != "":
		return n.Sprintf("%s will attack back with %s (one action; only the winner succeeds, KA-008, KA-020)", who, r.GetWeapon())
	case r.GetAttackBack():
		return n.Sprintf("%s will attack back (one action; only the winner succeeds, KA-008, KA-020)", who)
	case r.GetDefend() && r.GetSkill() != "" && r.GetSkill() != Dodge:
		return n.Sprintf("%s will parry with %s (one action, KA-013, KA-020)", who, r.GetSkill())
	case r.GetDefend() && n.Withheld(d.GetDefenderId()): // dodge or parry: its skill is withheld
		return n.Sprintf("%s will defend (one action, KA-013, KA-020)", who)
	case r.GetDefend():
		return n.Sprintf("%s will dodge (one action, KA-013, KA-020)", who)
	}
	return n.Sprintf("%s takes it: no defence, the attacker's draw will stand alone (KA-020)", who)
}

// tellAttack: "Joshua attacks le chien with pistolet: Humanité 3 + Arme à feu 4 − 2
// situation + cards 6 (6 d'épée, deck position 0) = 11", with why there is no defence when
// there is none.
func tellAttack(n *narrate.Narrator, a *kav1.AttackDrawn) string {
	at := a.GetAttack()
	head, targets := tellAttackHead(n, a.GetAttackerId(), a.GetTargetId(), at, false)
	burst := at.GetBurst() || len(at.GetMoreTargetIds()) > 0
	s := n.Sprintf("%s: %s", head, tellDraw(n, a.GetDraw()))
	if a.GetDefencePossible() {
		return s
	}
	reason := a.GetNoDefenceReason()
	switch forOne := burst && len(targets) > 1; {
	case forOne && reason != "":
		return s + n.Sprintf("; no defence for %s: %s", targets[0], tellNote(n, reason))
	case forOne:
		return s + n.Sprintf("; no defence for %s", targets[0])
	case reason != "":
		return s + n.Sprintf("; no defence: %s", tellNote(n, reason))
	}
	return s + n.Sprintf("; no defence")
}

// tellDefence: "le chien dodges (one action, KA-009, KA-013): Humanité 1 + Esquive 4 + cards
// 10 (10 d'épée, deck position 1) = 15".
func tellDefence(n *narrate.Narrator, d *kav1.DefenceDrawn) string {
	who := n.Name(d.GetDefenderId())
	switch {
	case d.GetAttackedBack():
		return n.Sprintf("%s attacks back (one action; only the winner succeeds, KA-008): %s", who, tellDraw(n, d.GetDraw()))
	case d.GetDefended() && d.GetDraw().GetSkill() != "" && d.GetDraw().GetSkill() != Dodge:
		return n.Sprintf("%s parries (one action, KA-009, KA-013): %s", who, tellDraw(n, d.GetDraw()))
	case d.GetDefended() && drawWithheld(d.GetDraw()):
		return n.Sprintf("%s defends (one action, KA-009, KA-013): %s", who, tellDraw(n, d.GetDraw()))
	case d.GetDefended():
		return n.Sprintf("%s dodges (one action, KA-009, KA-013): %s", who, tellDraw(n, d.GetDraw()))
	}
	return n.Sprintf("%s takes it: no defence, the attacker's draw stands alone (KA-020)", who)
}

func tellLevel(n *narrate.Narrator, level int32) string {
	switch level {
	case 1:
		return n.Sprintf("a normal success")
	case 2:
		return n.Sprintf("a great success")
	case 3:
		return n.Sprintf("an exceptional success")
	}
	return n.Sprintf("success level %s", itoa(level))
}

// deathDrawNote is the rules' note of a death draw, which the narration of the draw replaces.
// The rules join their notes with "; ".
var deathDrawNote = regexp.MustCompile(`(^|; )[^;]*? has lost its last Ka die and makes its death draw; the Maître de Ka rules on it \(KA-025\)`)

// isStun reports whether the attack resolved is a stun: its result takes points de réalité, or
// the last attack drawn, on that target among others, says so.
func isStun(n *narrate.Narrator, r *kav1.AttackResolved) bool {
	if r.GetRealityLost() > 0 {
		return true
	}
	last := remembered(n).attack
	if last == nil || last.GetAttackerId() != r.GetAttackerId() {
		return false
	}
	at := last.GetAttack()
	target := r.GetTargetId()
	return at.GetStun() && (last.GetTargetId() == target || at.GetTargetId() == target || slices.Contains(at.GetMoreTargetIds(), target))
}

// tellResolved: "Joshua hits le chien: margin 13, a great success: damage 5 + weapon 8 = 13
// − soak 4 = 9 → 2 Ka dice lost (KA-022…KA-024); le chien has 0 Ka dice and 10 points de
// réalité left: dying; death draw: …".
func tellResolved(n *narrate.Narrator, r *kav1.AttackResolved) string {
	att, target := n.Name(r.GetAttackerId()), n.Name(r.GetTargetId())
	hidden := n.Withheld(r.GetAttackerId()) || n.Withheld(r.GetTargetId())
	if !r.GetSuccess() {
		switch {
		case r.GetNote() != "":
			return n.Sprintf("%s's attack on %s: %s", att, target, tellNote(n, r.GetNote()))
		case hidden:
			return n.Sprintf("%s's attack on %s fails: no effect (KA-005, KA-006)", att, target)
		}
		return n.Sprintf("%s's attack on %s fails: margin %s, no effect (KA-005, KA-006)", att, target, num(r.GetMargin()))
	}
	if hidden {
		return tellHiddenResolved(n, r)
	}
	stun := isStun(n, r)
	level, bonus := tellLevel(n, r.GetLevel()), narrate.Signed(r.GetBonus())
	var s string
	if stun {
		s = n.Sprintf("%s stuns %s: margin %s, %s (damage bonus %s, KA-006)", att, target, itoa(r.GetMargin()), level, bonus)
		s += n.Sprintf(": %s + weapon %s = %s points de réalité, no soak (KA-030)", itoa(r.GetBonus()), itoa(r.GetWeaponDamage()), itoa(r.GetDamage()))
		if r.GetRealityLost() != r.GetDamage() {
			s += n.Sprintf(", only %s left to lose", itoa(r.GetRealityLost()))
		}
		if r.GetKaLost() > 0 {
			s += n.Sprintf(", and %s (KA-031)", tellKaDice(n, r.GetKaLost()))
		}
	} else {
		s = n.Sprintf("%s hits %s: margin %s, %s (damage bonus %s, KA-006)", att, target, itoa(r.GetMargin()), level, bonus)
		s += n.Sprintf(": damage %s + weapon %s = %s", itoa(r.GetBonus()), itoa(r.GetWeaponDamage()), itoa(r.GetDamage()))
		switch after := r.GetDamage() - r.GetSoak(); {
		case after <= 0:
			s += n.Sprintf(" − soak %s: no Ka die lost (KA-022, KA-023)", itoa(r.GetSoak()))
		default:
			s += n.Sprintf(" − soak %s = %s → %s (KA-022…KA-024)", itoa(r.GetSoak()), itoa(after), count(n, "%[2]s Ka dice lost", r.GetKaLost()))
		}
	}
	s += n.Sprintf("; %s has %s and %s left", target, tellKaDice(n, r.GetKaLeft()), tellReality(n, r.GetRealityLeft()))
	s += tellStates(n, r)
	note := r.GetNote()
	if dd := r.GetDeathDraw(); dd != nil {
		s += n.Sprintf("; death draw: cards %s (%s) = %s, the Maître de Ka rules on it (KA-025)", itoa(dd.GetDraw().GetValue()), tellCards(n, dd.GetDraw()), itoa(dd.GetTotal()))
		note = withoutDeathDraw(note)
	}
	return s + tellStillActs(n, r, note) + withNote(n, note)
}

// tellHiddenResolved: a successful attack where the attacker's numbers (margin, level,
// damage) or the target's (soak, Ka dice and points lost and left, death draw) were withheld:
// what is known, and which part is hidden. "La gargouille hits Joshua (its margin and damage
// withheld): soak 7 → 10 Ka dice lost (KA-022…KA-024); Joshua has 4 Ka dice and 15 points de
// réalité left"; "Joshua hits La gargouille: margin withheld, an exceptional success (damage
// bonus +10, KA-006): damage 10 + weapon 8 = 18, against its soak (withheld): dying".
func tellHiddenResolved(n *narrate.Narrator, r *kav1.AttackResolved) string {
	att, target := n.Name(r.GetAttackerId()), n.Name(r.GetTargetId())
	attHidden, targetHidden := n.Withheld(r.GetAttackerId()), n.Withheld(r.GetTargetId())
	stun := isStun(n, r)
	s := n.Sprintf("%s hits %s", att, target)
	if stun {
		s = n.Sprintf("%s stuns %s", att, target)
	}
	if attHidden {
		s += n.Sprintf(" (its margin and damage withheld)")
	} else {
		s += n.Sprintf(": %s (damage bonus %s, KA-006): damage %s + weapon %s = %s", tellLevel(n, r.GetLevel()), narrate.Signed(r.GetBonus()),
			itoa(r.GetBonus()), itoa(r.GetWeaponDamage()), itoa(r.GetDamage()))
	}
	switch {
	case targetHidden && stun:
		s += n.Sprintf(", in points de réalité (withheld, KA-030)")
	case targetHidden:
		s += n.Sprintf(", against its soak (withheld)")
	case stun:
		s += n.Sprintf(": %s lost, no soak (KA-030)", tellReality(n, r.GetRealityLost()))
		if r.GetKaLost() > 0 {
			s += n.Sprintf(", and %s (KA-031)", tellKaDice(n, r.GetKaLost()))
		}
	default:
		s += n.Sprintf(": soak %s → %s (KA-022…KA-024)", itoa(r.GetSoak()), count(n, "%[2]s Ka dice lost", r.GetKaLost()))
	}
	if !targetHidden {
		s += n.Sprintf("; %s has %s and %s left", target, tellKaDice(n, r.GetKaLeft()), tellReality(n, r.GetRealityLeft()))
	}
	s += tellStates(n, r)
	note := r.GetNote()
	if dd := r.GetDeathDraw(); dd != nil {
		if drawWithheld(dd) {
			s += n.Sprintf("; death draw: %s, the Maître de Ka rules on it (KA-025)", tellCards(n, dd.GetDraw()))
		} else {
			s += n.Sprintf("; death draw: cards %s (%s) = %s, the Maître de Ka rules on it (KA-025)", itoa(dd.GetDraw().GetValue()), tellCards(n, dd.GetDraw()), itoa(dd.GetTotal()))
		}
		note = withoutDeathDraw(note)
	}
	return s + tellStillActs(n, r, note) + withNote(n, note)
}

// tellStates: ": unconscious and dying", or nothing.
func tellStates(n *narrate.Narrator, r *kav1.AttackResolved) string {
	var states []string
	if r.GetUnconscious() {
		states = append(states, n.Sprintf("unconscious"))
	}
	if r.GetDying() {
		states = append(states, n.Sprintf("dying"))
	}
	if len(states) == 0 {
		return ""
	}
	return n.Sprintf(": %s", n.And(states))
}

// tellStillActs: a target put out at the same time as its attacker still acts (KA-014), unless
// the rules' note says so already.
func tellStillActs(n *narrate.Narrator, r *kav1.AttackResolved, note string) string {
	if r.GetStillActs() && !strings.Contains(note, "KA-014") {
		return n.Sprintf("; %s acts at the same time and still takes its action this pass (KA-014)", n.Name(r.GetTargetId()))
	}
	return ""
}

// withoutDeathDraw removes the death draw's sentence from the rules' notes: the narration of
// the draw replaces it.
func withoutDeathDraw(note string) string {
	return strings.TrimPrefix(strings.TrimSpace(deathDrawNote.ReplaceAllString(note, "")), "; ")
}

func withNote(n *narrate.Narrator, note string) string {
	if note == "" {
		return ""
	}
	return n.Sprintf("; %s", tellNote(n, note))
}

// tellDisarm: "Joshua tries to disarm le chien of crocs: Humanité 3 + Bagarre 2 + cards 7
// (…) = 12 against le chien's Humanité 1 + Bagarre 3 + cards 4 (…) = 8 — le chien is
// disarmed… (KA-032)".
func tellDisarm(n *narrate.Narrator, nb Numbers, d *kav1.DisarmDrawn) string {
	who, target := n.Name(d.GetCombatantId()), n.Name(d.GetTargetId())
	s := n.Sprintf("%s tries to disarm %s", who, target)
	if d.GetWeapon() != "" {
		s += n.Sprintf(" of %s", d.GetWeapon())
	}
	s += n.Sprintf(": %s against %s's %s", tellDraw(n, d.GetDraw()), target, tellDraw(n, d.GetResistance()))
	switch total := d.GetDraw().GetTotal(); {
	case !d.GetSuccess() && drawWithheld(d.GetDraw()):
		s += n.Sprintf(" — fails (KA-032)")
	case d.GetSuccess():
		what := d.GetWeapon()
		if what == "" { // the weapon of a hidden target is withheld
			what = n.Sprintf("its weapon")
		}
		s += n.Sprintf(" — %s is disarmed: it loses %s until it picks it up (one action), and may fight bare-handed (KA-032)", target, what)
	case total < nb.SimpleThreshold:
		s += n.Sprintf(" — fails: below %s (KA-032)", itoa(nb.SimpleThreshold))
	default:
		s += n.Sprintf(" — fails: not strictly higher (KA-032)")
	}
	if d.GetStillActs() {
		s += n.Sprintf("; %s acts at the same time and still takes its action this pass (KA-014)", target)
	}
	return s
}

// tellTerror: "Terror: Joshua draws Animalité 4 + 3 encaissement − 3 situation + cards 5 (…)
// = 9: below 10 and below Animalité × 3 = 12: Joshua enters Abysse (KA-034)".
func tellTerror(n *narrate.Narrator, nb Numbers, t *kav1.TerrorDrawn) string {
	who := n.Name(t.GetCombatantId())
	d := t.GetDraw()
	threshold := d.GetSphereValue() * nb.TerrorFactor
	s := n.Sprintf("Terror: %s draws %s", who, tellDraw(n, d))
	switch total := d.GetTotal(); {
	case drawWithheld(d) && t.GetAbysse():
		return s + n.Sprintf(": %s enters Abysse (KA-034)", who)
	case drawWithheld(d):
		return s + n.Sprintf(": %s does not enter Abysse (KA-034)", who)
	case t.GetAbysse():
		return s + n.Sprintf(": below %s and below %s × %s = %s: %s enters Abysse (KA-034)", itoa(nb.SimpleThreshold), narrate.OrUnknown(d.GetSphere()), itoa(nb.TerrorFactor), itoa(threshold), who)
	case total >= nb.SimpleThreshold:
		return s + n.Sprintf(": %s or more, %s holds (KA-034)", itoa(nb.SimpleThreshold), who)
	}
	return s + n.Sprintf(": a failure, but not below %s × %s = %s: no Abysse (KA-034)", narrate.OrUnknown(d.GetSphere()), itoa(nb.TerrorFactor), itoa(threshold))
}

// The notes the rules write (decide_attack.go, redact.go), as messages of the catalogue: a note is
// told in the narration's language when it is one of them, as it is written when it is not.
// The rules join their notes with "; ".
var noteFormats = []string{
	"%s cannot defend",
	"%s has no action left: it can only soak (KA-012)",
	"the defender wins: no effect (KA-021)",
	"only the winner of the opposition succeeds: no effect (KA-008)",
	"equal totals: both fail (KA-008)",
	"%s points at once reach the seuil of %s: knocked out (KA-027, KA-031)",
	"no points de réalité left: knocked out, and one Ka die lost (KA-031)",
	"%s has lost its last Ka die and makes its death draw",
	"the Maître de Ka rules on it (KA-025)",
	"%s acts at the same time as %s and still takes its action this pass (KA-014)",
	"the blow reaches its seuil at once: knocked out (KA-027, KA-031)",
	"knocked out (KA-031)",
}

// notePatterns match the notes of noteFormats, their %s as groups.
var notePatterns = func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(noteFormats))
	for i, f := range noteFormats {
		out[i] = regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(f), "%s", "(.+)") + "$")
	}
	return out
}()

// tellNote tells the rules' notes in the narration's language.
func tellNote(n *narrate.Narrator, note string) string {
	var out string
	for i, part := range strings.Split(note, "; ") {
		told := part
		for j, re := range notePatterns {
			if m := re.FindStringSubmatch(part); m != nil {
				args := make([]any, len(m)-1)
				for k, g := range m[1:] {
					args[k] = g
				}
				told = n.Sprintf(noteFormats[j], args...)
				break
			}
		}
		if i == 0 {
			out = told
		} else {
			out = n.Sprintf("%s; %s", out, told)
		}
	}
	return out
}
