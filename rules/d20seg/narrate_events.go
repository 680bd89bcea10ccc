package d20seg

import (
	"slices"
	"strings"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// The narration of Initiative (D20-010…D20-012), the surprise round (D20-003…D20-006), rounds
// (D20-013, D20-019, D20-020) and attacks (D20-017, D20-040…D20-044), with what the server
// withheld of a hidden combatant said to be withheld.

// tellInitiative: "Initiative for the combat (D20-010, D20-012): novice 5 (Rapidité 3 + 2
// equipment); maître 4 (Rapidité 5 − 1 equipment); vétéran 4 (…); roll-off: maître d20[15],
// vétéran d20[3] (D20-011); at a shared segment: …".
func tellInitiative(n *narrate.Narrator, c *d20segv1.CombatStarted) string {
	entries := slices.Clone(c.GetInitiative())
	slices.SortStableFunc(entries, func(a, b *d20segv1.InitiativeEntry) int {
		if a.GetInitiative() != b.GetInitiative() {
			return int(b.GetInitiative() - a.GetInitiative())
		}
		return int(a.GetTieOrder() - b.GetTieOrder())
	})
	parts := make([]string, len(entries))
	for i, e := range entries {
		parts[i] = n.Sprintf("%s %s (Rapidité %s%s equipment)", n.Name(e.GetCombatantId()), num(e.GetInitiative()), itoa(e.GetRapidite()), tellTerm(e.GetEquipment()))
	}
	list := n.Sprintf("no one")
	if len(parts) > 0 {
		list = semicolons(n, parts)
	}
	s := n.Sprintf("Initiative for the combat (D20-010, D20-012): %s", list)
	if n.Redacted() { // the hidden combatants left the list, which the server withheld
		var hid []string
		for id := range remembered(n).known {
			if n.Hidden(id) {
				hid = append(hid, n.Name(id))
			}
		}
		slices.Sort(hid)
		if len(hid) > 0 {
			s += n.Sprintf("; hidden: %[2]s", len(hid), n.And(hid))
		}
	}
	for _, ro := range c.GetRollOffs() {
		var rolls []string
		for i, id := range ro.GetCombatantIds() {
			r := n.Sprintf("no roll")
			if i < len(ro.GetRolls()) {
				r = n.Roll(ro.GetRolls()[i])
			}
			rolls = append(rolls, n.Name(id)+" "+r)
		}
		s += n.Sprintf("; roll-off: %s (D20-011)", strings.Join(rolls, ", "))
	}
	if len(c.GetRollOffs()) > 0 && len(entries) > 1 {
		order := make([]string, len(entries))
		for i, e := range entries {
			order[i] = n.Name(e.GetCombatantId())
		}
		s += n.Sprintf("; at a shared segment: %s", strings.Join(order, ", "))
	}
	return s
}

// tellSurprise: "Surprise attack by vétéran and maître: a free action each first, in
// Initiative order, then segments 0–2 of the surprise round (D20-004); novice: apprehension
// d20[7] + 1 = 8 vs maître's stealth d20[14] + 5 = 19: surprised, flat-footed (D20-003,
// D20-006); passant, named neither attacker nor defender, takes no part in the surprise round
// (D20-003)".
func tellSurprise(n *narrate.Narrator, x Numbers, sr *d20segv1.SurpriseRoundStarted) string {
	s := n.Sprintf("Surprise attack by %s: a free action each first, in Initiative order, then segments %s–%s of the surprise round (D20-004)",
		n.AndNames(sr.GetAttackerIds()), itoa(x.FirstSegment), itoa(x.FirstSegment+x.SurpriseSegments-1))
	for _, ar := range sr.GetApprehension() {
		s += n.Sprintf("; %s", tellApprehension(n, ar))
	}
	switch ids := sr.GetBystanderIds(); {
	case len(ids) > 1:
		s += n.Sprintf("; %s, named neither attacker nor defender, take no part in the surprise round (D20-003)", n.AndNames(ids))
	case len(ids) == 1:
		s += n.Sprintf("; %s, named neither attacker nor defender, takes no part in the surprise round (D20-003)", n.Name(ids[0]))
	}
	return s
}

func tellApprehension(n *narrate.Narrator, ar *d20segv1.ApprehensionRolled) string {
	who := n.Name(ar.GetDefenderId())
	hidden := n.Withheld(ar.GetDefenderId())
	switch {
	case ar.GetRoll() == nil && !hidden && ar.GetSurprised():
		return n.Sprintf("%s is surprised without an apprehension roll, flat-footed (D20-000, D20-006)", who)
	case ar.GetRoll() == nil && !hidden:
		return n.Sprintf("%s is not surprised (D20-005)", who)
	}
	var roll, against string
	if hidden {
		roll = n.Sprintf("%s: apprehension roll hidden", who)
	} else {
		roll = n.Sprintf("%s: apprehension %s%s = %s", who, n.Roll(ar.GetRoll()), tellTerm(ar.GetModifiers()), num(ar.GetTotal()))
	}
	switch by := ar.GetStealthBy(); {
	case by != "" && n.Withheld(by):
		against = n.Sprintf("%s's stealth, hidden", n.Name(by))
	case by != "" && ar.GetStealthRoll() != nil:
		against = n.Sprintf("%s's stealth %s%s = %s", n.Name(by), n.Roll(ar.GetStealthRoll()),
			tellTerm(ar.GetOpposition()-ar.GetStealthRoll().GetTotal()), num(ar.GetOpposition()))
	default:
		against = n.Sprintf("%s (no stealth)", num(ar.GetOpposition()))
	}
	if ar.GetSurprised() {
		return n.Sprintf("%s vs %s: surprised, flat-footed (D20-003, D20-006)", roll, against)
	}
	return n.Sprintf("%s vs %s: not surprised (D20-003, D20-005)", roll, against)
}

// tellRound: "Round 2: segments 0 to 5 (D20-013); taking effect now: sommeil (D20-019);
// carried over from the last round: mage 2 segments (D20-020)".
func tellRound(n *narrate.Narrator, x Numbers, r *d20segv1.RoundStarted) string {
	s := n.Sprintf("Round %s: segments %s to %s (D20-013)", itoa(r.GetRound()), itoa(x.FirstSegment), itoa(x.LastSegment))
	if sp := r.GetSpellsTakingEffect(); len(sp) > 0 {
		s += n.Sprintf("; taking effect now: %s (D20-019)", strings.Join(sp, ", "))
	}
	if len(r.GetCarried()) > 0 {
		var parts []string
		for _, c := range r.GetCarried() {
			if n.Withheld(c.GetCombatantId()) {
				parts = append(parts, n.Sprintf("%s (segments hidden)", n.Name(c.GetCombatantId())))
				continue
			}
			parts = append(parts, n.Name(c.GetCombatantId())+" "+tellSegments(n, c.GetSegments()))
		}
		s += n.Sprintf("; carried over from the last round: %s (D20-020)", strings.Join(parts, ", "))
	}
	return s
}

// tellAttack: "segment 3: maître attacks soldat with épée longue (2 segments, D20-017):
// d20[15] + 19 = 34 vs CA 14 — a critical hit (D20-042): damage 22 (d8[6], multiplied);
// soldat has 478 hit points left".
func tellAttack(n *narrate.Narrator, x Numbers, a *d20segv1.AttackRolled) string {
	target := n.Name(a.GetTargetId())
	s := tellWhen(n, a.GetSegment(), a.GetFree()) + n.Sprintf("%s attacks %s", n.Name(a.GetAttackerId()), target)
	if a.GetWeapon() != "" {
		s += n.Sprintf(" with %s", a.GetWeapon())
	}
	attHidden, targetHidden := n.Withheld(a.GetAttackerId()), n.Withheld(a.GetTargetId())
	if attHidden {
		s += tellHiddenCost(n, a.GetFree()) + n.Sprintf(": roll hidden")
	} else {
		s += tellCost(n, a.GetCost(), a.GetFree(), "D20-017")
		s += n.Sprintf(": %s%s = %s", n.Roll(a.GetRoll()), tellTerm(a.GetBonus()), num(a.GetTotal()))
	}
	if targetHidden {
		s += n.Sprintf(" vs CA hidden")
	} else {
		s += n.Sprintf(" vs CA %s", num(a.GetCa()))
	}
	if a.GetFlatFooted() {
		s += n.Sprintf(" (flat-footed, D20-006)")
	}
	if !a.GetHit() {
		return s + n.Sprintf(" — a miss (D20-040)")
	}
	if attHidden || targetHidden {
		return s + tellHiddenHit(n, x, a, target, attHidden, targetHidden)
	}
	dmg, damage := n.Roll(a.GetDamageRoll()), itoa(a.GetDamage())
	if a.GetCritical() {
		s += n.Sprintf(" — a critical hit, %s or more above the CA (D20-042): damage %s (%s and the bonuses, multiplied; feats once)",
			itoa(x.CriticalMargin), damage, dmg)
	} else {
		switch rest := a.GetDamage() - a.GetDamageRoll().GetTotal(); {
		case a.GetDamage() == 0 && rest < 0:
			s += n.Sprintf(" — a hit (D20-040): damage %s and the maluses: 0", dmg)
		case rest == 0:
			s += n.Sprintf(" — a hit (D20-040): damage %s = %s", dmg, damage)
		default:
			s += n.Sprintf(" — a hit (D20-040): damage %s%s = %s (D20-041)", dmg, tellTerm(rest), damage)
		}
	}
	return s + tellLeft(n, a, target)
}

// tellHiddenHit: a hit where the attacker's dice and bonuses, or the target's hit points,
// were withheld: " — a hit (D20-040): damage 48; Aldric has 52 hit points left", " — a hit
// (D20-040): damage d8[7] + 18 = 25; L'ogre's hit points are hidden".
func tellHiddenHit(n *narrate.Narrator, x Numbers, a *d20segv1.AttackRolled, target string, attHidden, targetHidden bool) string {
	s := n.Sprintf(" — a hit (D20-040)")
	if a.GetCritical() {
		s = n.Sprintf(" — a critical hit, %s or more above the CA (D20-042)", itoa(x.CriticalMargin))
	}
	switch {
	case attHidden && targetHidden:
		s += n.Sprintf(": damage hidden")
	case attHidden:
		s += n.Sprintf(": damage %s", itoa(a.GetDamage()))
	case a.GetDamageRoll() != nil && a.GetDamage() != a.GetDamageRoll().GetTotal() && !a.GetCritical():
		s += n.Sprintf(": damage %s%s = %s", n.Roll(a.GetDamageRoll()), tellTerm(a.GetDamage()-a.GetDamageRoll().GetTotal()), itoa(a.GetDamage()))
	default:
		s += n.Sprintf(": damage %s (%s)", itoa(a.GetDamage()), n.Roll(a.GetDamageRoll()))
	}
	if targetHidden {
		s += n.Sprintf("; %s's hit points are hidden", target)
		if a.GetDown() {
			s += n.Sprintf(": down (D20-044)")
		}
		return s
	}
	return s + tellLeft(n, a, target)
}

// tellLeft: "; soldat has 34 hit points left", ": down (D20-044)" when it is.
func tellLeft(n *narrate.Narrator, a *d20segv1.AttackRolled, target string) string {
	s := n.Sprintf("; %s has %s hit points left", target, num(a.GetHitPointsLeft()))
	if a.GetDown() {
		s += n.Sprintf(": down (D20-044)")
	}
	return s
}
