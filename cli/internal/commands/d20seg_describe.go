package commands

import (
	"fmt"
	"slices"
	"strings"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
)

// The wording of the d20seg events: Initiative with its equipment and roll-offs, the surprise
// round and its apprehension rolls, rounds, attacks with their segment, cost, roll against CA
// and damage, spells, other actions and ends of turn.

func (n *Names) d20Text(e *d20segv1.Event) string {
	switch k := e.GetKind().(type) {
	case *d20segv1.Event_CombatStarted:
		return n.d20InitiativeText(k.CombatStarted)
	case *d20segv1.Event_SurpriseRoundStarted:
		return n.d20SurpriseText(k.SurpriseRoundStarted)
	case *d20segv1.Event_RoundStarted:
		return n.d20RoundText(k.RoundStarted)
	case *d20segv1.Event_AttackRolled:
		return n.d20AttackText(k.AttackRolled)
	case *d20segv1.Event_SpellCast:
		c := k.SpellCast
		s := d20When(c.GetSegment(), c.GetFree()) + fmt.Sprintf("%s casts %s", n.of(c.GetCombatantId()), orUnknown(c.GetSpell()))
		if n.withheld(c.GetCombatantId()) {
			s += d20HiddenCost(c.GetFree())
		} else {
			s += d20Cost(c.GetCost(), c.GetFree(), "D20-018")
		}
		if c.GetNextRound() {
			s += "; it takes effect at the start of the next round (D20-019)"
		}
		return s
	case *d20segv1.Event_OtherDone:
		o := k.OtherDone
		what := "acts"
		if o.GetDescription() != "" {
			what = fmt.Sprintf("%q", o.GetDescription())
		}
		cost := d20Cost(o.GetCost(), o.GetFree(), "D20-022")
		if n.withheld(o.GetCombatantId()) {
			cost = d20HiddenCost(o.GetFree())
		}
		return d20When(o.GetSegment(), o.GetFree()) + fmt.Sprintf("%s: %s", n.of(o.GetCombatantId()), what) + cost
	case *d20segv1.Event_TurnEnded:
		return fmt.Sprintf("%s ends its turn for this round (D20-016)", n.of(k.TurnEnded.GetCombatantId()))
	case nil:
		return "(empty d20seg event)"
	default:
		return fmt.Sprintf("(d20seg event %T)", k)
	}
}

// d20When: "segment 3: ", or "free action (D20-004): ".
func d20When(segment int32, free bool) string {
	if free {
		return "free action (D20-004): "
	}
	return fmt.Sprintf("segment %s: ", num(segment))
}

// d20Cost: " (2 segments, D20-017)", nothing for a free action.
func d20Cost(cost int32, free bool, rule string) string {
	if free {
		return ""
	}
	return fmt.Sprintf(" (%s, %s)", segmentsText(cost), rule)
}

// d20HiddenCost: the cost of a hidden combatant's action, withheld (it gives away its BBA,
// D20-017).
func d20HiddenCost(free bool) string {
	if free {
		return ""
	}
	return " (segments hidden)"
}

func segmentsText(n int32) string {
	if n == 1 {
		return "1 segment"
	}
	return fmt.Sprintf("%d segments", n)
}

// term writes a signed term of a sum: " + 3", " − 2".
func term(v int32) string {
	if v < 0 {
		return fmt.Sprintf(" − %d", -v)
	}
	return fmt.Sprintf(" + %d", v)
}

// d20InitiativeText: "Initiative for the combat (D20-010, D20-012): novice 5 (Rapidité 3 + 2
// equipment); maître 4 (Rapidité 5 − 1 equipment); vétéran 4 (…); roll-off for 4: maître
// d20[15], vétéran d20[3] (D20-011)".
func (n *Names) d20InitiativeText(c *d20segv1.CombatStarted) string {
	entries := slices.Clone(c.GetInitiative())
	slices.SortStableFunc(entries, func(a, b *d20segv1.InitiativeEntry) int {
		if a.GetInitiative() != b.GetInitiative() {
			return int(b.GetInitiative() - a.GetInitiative())
		}
		return int(a.GetTieOrder() - b.GetTieOrder())
	})
	parts := make([]string, len(entries))
	for i, e := range entries {
		parts[i] = fmt.Sprintf("%s %s (Rapidité %d%s equipment)", n.of(e.GetCombatantId()), num(e.GetInitiative()), e.GetRapidite(), term(e.GetEquipment()))
	}
	s := "Initiative for the combat (D20-010, D20-012): "
	if len(parts) == 0 {
		s += "no one"
	} else {
		s += strings.Join(parts, "; ")
	}
	if n != nil && n.redacted { // the hidden combatants left the list, which the server withheld
		var hid []string
		for id, h := range n.hidden {
			if h {
				hid = append(hid, n.of(id))
			}
		}
		slices.Sort(hid)
		if len(hid) > 0 {
			s += "; hidden: " + andList(hid)
		}
	}
	for _, ro := range c.GetRollOffs() {
		var rolls []string
		for i, id := range ro.GetCombatantIds() {
			r := "no roll"
			if i < len(ro.GetRolls()) {
				r = rollText(ro.GetRolls()[i])
			}
			rolls = append(rolls, fmt.Sprintf("%s %s", n.of(id), r))
		}
		s += "; roll-off: " + strings.Join(rolls, ", ")
		s += " (D20-011)"
	}
	if len(c.GetRollOffs()) > 0 && len(entries) > 1 {
		order := make([]string, len(entries))
		for i, e := range entries {
			order[i] = n.of(e.GetCombatantId())
		}
		s += "; at a shared segment: " + strings.Join(order, ", ")
	}
	return s
}

// d20SurpriseText: "Surprise attack by vétéran and maître: a free action each first, in
// Initiative order, then segments 0–2 of the surprise round (D20-004); novice: apprehension
// d20[7] + 1 = 8 vs maître's stealth d20[14] + 5 = 19: surprised, flat-footed (D20-003,
// D20-006); passant, named neither attacker nor defender, takes no part in the surprise round
// (D20-003)".
func (n *Names) d20SurpriseText(sr *d20segv1.SurpriseRoundStarted) string {
	var who []string
	for _, id := range sr.GetAttackerIds() {
		who = append(who, n.of(id))
	}
	s := fmt.Sprintf("Surprise attack by %s: a free action each first, in Initiative order, then segments 0–%d of the surprise round (D20-004)", andList(who), d20seg.SurpriseSegments-1)
	for _, ar := range sr.GetApprehension() {
		s += "; " + n.apprehensionText(ar)
	}
	if ids := sr.GetBystanderIds(); len(ids) > 0 {
		var by []string
		for _, id := range ids {
			by = append(by, n.of(id))
		}
		verb := "takes"
		if len(by) > 1 {
			verb = "take"
		}
		s += fmt.Sprintf("; %s, named neither attacker nor defender, %s no part in the surprise round (D20-003)", andList(by), verb)
	}
	return s
}

func (n *Names) apprehensionText(ar *d20segv1.ApprehensionRolled) string {
	who := n.of(ar.GetDefenderId())
	if ar.GetRoll() == nil && !n.withheld(ar.GetDefenderId()) {
		if ar.GetSurprised() {
			return who + " is surprised without an apprehension roll, flat-footed (D20-000, D20-006)"
		}
		return who + " is not surprised (D20-005)"
	}
	s := fmt.Sprintf("%s: apprehension %s%s = %s vs ", who, rollText(ar.GetRoll()), term(ar.GetModifiers()), num(ar.GetTotal()))
	if n.withheld(ar.GetDefenderId()) {
		s = who + ": apprehension roll hidden vs "
	}
	if ar.GetStealthBy() != "" && n.withheld(ar.GetStealthBy()) {
		s += fmt.Sprintf("%s's stealth, hidden", n.of(ar.GetStealthBy()))
	} else if ar.GetStealthBy() != "" && ar.GetStealthRoll() != nil {
		s += fmt.Sprintf("%s's stealth %s%s = %s", n.of(ar.GetStealthBy()), rollText(ar.GetStealthRoll()),
			term(ar.GetOpposition()-ar.GetStealthRoll().GetTotal()), num(ar.GetOpposition()))
	} else {
		s += fmt.Sprintf("%s (no stealth)", num(ar.GetOpposition()))
	}
	if ar.GetSurprised() {
		return s + ": surprised, flat-footed (D20-003, D20-006)"
	}
	return s + ": not surprised (D20-003, D20-005)"
}

// d20RoundText: "Round 2: segments 0 to 5 (D20-013); taking effect: sommeil (D20-019); carried
// over: mage 2 segments (D20-020)".
func (n *Names) d20RoundText(r *d20segv1.RoundStarted) string {
	s := fmt.Sprintf("Round %d: segments %d to %d (D20-013)", r.GetRound(), d20seg.FirstSegment, d20seg.LastSegment)
	if sp := r.GetSpellsTakingEffect(); len(sp) > 0 {
		s += "; taking effect now: " + strings.Join(sp, ", ") + " (D20-019)"
	}
	if len(r.GetCarried()) > 0 {
		var parts []string
		for _, c := range r.GetCarried() {
			if n.withheld(c.GetCombatantId()) {
				parts = append(parts, n.of(c.GetCombatantId())+" (segments hidden)")
				continue
			}
			parts = append(parts, fmt.Sprintf("%s %s", n.of(c.GetCombatantId()), segmentsText(c.GetSegments())))
		}
		s += "; carried over from the last round: " + strings.Join(parts, ", ") + " (D20-020)"
	}
	return s
}

// d20AttackText: "segment 3: maître attacks soldat with épée longue (2 segments, D20-017):
// d20[15] + 19 = 34 vs CA 14 — a critical hit (D20-042): damage 22 (d8[6], multiplied);
// soldat has 478 hit points left".
func (n *Names) d20AttackText(a *d20segv1.AttackRolled) string {
	target := n.of(a.GetTargetId())
	s := d20When(a.GetSegment(), a.GetFree()) + fmt.Sprintf("%s attacks %s", n.of(a.GetAttackerId()), target)
	if a.GetWeapon() != "" {
		s += " with " + a.GetWeapon()
	}
	attHidden, targetHidden := n.withheld(a.GetAttackerId()), n.withheld(a.GetTargetId())
	if attHidden {
		s += d20HiddenCost(a.GetFree()) + ": roll hidden"
	} else {
		s += d20Cost(a.GetCost(), a.GetFree(), "D20-017")
		s += fmt.Sprintf(": %s%s = %s", rollText(a.GetRoll()), term(a.GetBonus()), num(a.GetTotal()))
	}
	if targetHidden {
		s += " vs CA hidden"
	} else {
		s += " vs CA " + num(a.GetCa())
	}
	if a.GetFlatFooted() {
		s += " (flat-footed, D20-006)"
	}
	if !a.GetHit() {
		return s + " — a miss (D20-040)"
	}
	if attHidden || targetHidden {
		return s + n.d20HiddenHitText(a, target, attHidden, targetHidden)
	}
	dmg := rollText(a.GetDamageRoll())
	if a.GetCritical() {
		s += fmt.Sprintf(" — a critical hit, %d or more above the CA (D20-042): damage %d (%s and the bonuses, multiplied; feats once)",
			d20seg.CriticalMargin, a.GetDamage(), dmg)
	} else {
		rest := a.GetDamage() - a.GetDamageRoll().GetTotal()
		switch {
		case a.GetDamage() == 0 && rest < 0:
			s += fmt.Sprintf(" — a hit (D20-040): damage %s and the maluses: 0", dmg)
		case rest == 0:
			s += fmt.Sprintf(" — a hit (D20-040): damage %s = %d", dmg, a.GetDamage())
		default:
			s += fmt.Sprintf(" — a hit (D20-040): damage %s%s = %d (D20-041)", dmg, term(rest), a.GetDamage())
		}
	}
	s += fmt.Sprintf("; %s has %s hit points left", target, num(a.GetHitPointsLeft()))
	if a.GetDown() {
		s += ": down (D20-044)"
	}
	return s
}

// d20HiddenHitText: a hit where the attacker's dice and bonuses, or the target's hit points,
// were withheld: " — a hit (D20-040): damage 48; Aldric has 52 hit points left", " — a hit
// (D20-040): damage d8[7] + 18 = 25; L'ogre's hit points are hidden".
func (n *Names) d20HiddenHitText(a *d20segv1.AttackRolled, target string, attHidden, targetHidden bool) string {
	s := " — a hit (D20-040)"
	if a.GetCritical() {
		s = fmt.Sprintf(" — a critical hit, %d or more above the CA (D20-042)", d20seg.CriticalMargin)
	}
	switch {
	case attHidden && targetHidden:
		s += ": damage hidden"
	case attHidden:
		s += fmt.Sprintf(": damage %d", a.GetDamage())
	case a.GetDamageRoll() != nil && a.GetDamage() != a.GetDamageRoll().GetTotal() && !a.GetCritical():
		s += fmt.Sprintf(": damage %s%s = %d", rollText(a.GetDamageRoll()), term(a.GetDamage()-a.GetDamageRoll().GetTotal()), a.GetDamage())
	default:
		s += fmt.Sprintf(": damage %d (%s)", a.GetDamage(), rollText(a.GetDamageRoll()))
	}
	if targetHidden {
		s += "; " + target + "'s hit points are hidden"
	} else {
		s += fmt.Sprintf("; %s has %s hit points left", target, num(a.GetHitPointsLeft()))
	}
	if a.GetDown() {
		s += ": down (D20-044)"
	}
	return s
}

// d20OptionsText lists the house rules of a d20seg encounter.
func d20OptionsText(o *d20segv1.Options) string {
	var parts []string
	if sc := o.GetApprehensionScale(); len(sc) == 3 {
		parts = append(parts, fmt.Sprintf("apprehension modifiers light %d, medium %d, high %d", sc[0], sc[1], sc[2]))
	}
	if o.CarryOver != nil {
		parts = append(parts, yesNo(o.GetCarryOver(), "actions carry over into the next round", "no carry-over"))
	}
	if o.DownAt != nil {
		parts = append(parts, fmt.Sprintf("down at %s hit points", num(o.GetDownAt())))
	}
	if o.SkipApprehension != nil {
		parts = append(parts, yesNo(o.GetSkipApprehension(), "no apprehension rolls: every defender of a surprise attack is surprised", "apprehension rolled against surprise"))
	}
	return strings.Join(parts, ", ")
}

// d20SheetText: "Rapidité 3, Initiative 5, BBA 0, CA 12, 8 hit points, size M".
func d20SheetText(sh *d20segv1.Sheet) string {
	size := sizeText(sh.GetSize())
	return fmt.Sprintf("Rapidité %d, Initiative %s, BBA %d, CA %d, %d hit points, size %s", sh.GetRapidite(), num(d20seg.Initiative(sh)),
		sh.GetBba(), sh.GetCa(), sh.GetHitPoints(), size)
}

// sizeText: the size categories as the catalogue writes them (D20-030).
func sizeText(s d20segv1.Size) string {
	switch s {
	case d20segv1.Size_SIZE_I:
		return "I"
	case d20segv1.Size_SIZE_MIN:
		return "Min"
	case d20segv1.Size_SIZE_TP:
		return "Tp"
	case d20segv1.Size_SIZE_P:
		return "P"
	case d20segv1.Size_SIZE_M:
		return "M"
	case d20segv1.Size_SIZE_G:
		return "G"
	case d20segv1.Size_SIZE_TG:
		return "Tg"
	case d20segv1.Size_SIZE_GIG:
		return "Gig"
	case d20segv1.Size_SIZE_COL:
		return "Col"
	}
	return "?"
}

// isD20Seg reports whether an encounter is one of d20seg.
func isD20Seg(st *encounterv1.EncounterState) bool {
	return st.GetD20Seg() != nil || st.GetRuleSystem() == d20seg.ID
}
