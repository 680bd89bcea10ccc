package feerie

import (
	"slices"
	"strings"

	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
)

// The narration of an activity resolved: its roll with every term, the Defense it met, the
// Essence lost, and what each special strike did (FEE-150…FEE-159).

// activity: "rank 17: Rübezahl attacks Serpent: 24 (H 18 + bâton 4 + d20[12]−d20[10]) vs
// Defense 18 (H 15 + morsure 4 − tactic 1) — margin 6: 3 + Damage 17 − Soak 12 = 8 Essence
// lost (Serpent 32 left)".
func (t tell) activity(r *feeriev1.ActivityResolved) string {
	who := t.of(r.GetCombatantId())
	in := r.GetIntent()
	head := t.tf("msg", "rank %s: %s", itoa(r.GetRank()), who)
	note := r.GetNote()
	var s string
	switch in.GetKind() {
	case feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE:
		s = t.f("%s: a passive activity, no roll", head)
		if in.GetDescription() != "" {
			s = t.colon(s, t.n.Quote(in.GetDescription()))
		}
		if note == "no roll" {
			note = ""
		}
		return t.withNote(s, note)
	case feeriev1.ActivityKind_ACTIVITY_KIND_GET_UP:
		return t.withNote(t.f("%s gets up (FEE-151)", head), strings.TrimSuffix(note, who+" gets up"))
	case feeriev1.ActivityKind_ACTIVITY_KIND_PICK_UP:
		return t.withNote(t.f("%s picks its weapon up (FEE-183)", head), strings.TrimSuffix(note, who+" picks its weapon up"))
	case feeriev1.ActivityKind_ACTIVITY_KIND_FREE:
		s = t.f("%s tries to free itself", head)
	case feeriev1.ActivityKind_ACTIVITY_KIND_OTHER:
		s = t.f("%[1]s rolls %[2]s", head, in.GetAspect(), t.de(in.GetAspect()))
		if in.GetIntimidation() {
			s = t.f("%s intimidates with %s", head, in.GetAspect())
		}
		if in.GetTargetId() != "" {
			s = t.tf("other", "%s at %s", s, t.of(in.GetTargetId()))
		}
		if in.GetDescription() != "" {
			s += " (" + t.n.Quote(in.GetDescription()) + ")"
		}
	case feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK:
		return t.attack(head, r)
	default:
		s = t.colon(head, t.kind(in.GetKind()))
	}
	if r.GetAttack() == nil && t.withheld(r.GetCombatantId()) { // its roll is withheld, not the outcome
		return t.withNote(t.f("%s: its roll withheld — %s", s, t.success(r.GetSuccess())), note)
	}
	if r.GetAttack() == nil {
		return t.withNote(s, note)
	}
	s = t.f("%s: %s vs %s — margin %s", s, t.rollSum(r.GetAttack()), itoa(r.GetDefense()), num(r.GetMargin()))
	switch {
	case r.GetFumble():
		s = t.fumble(s, r)
	case in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_FREE && r.GetSuccess():
		s = t.f("%s: free (FEE-152)", s)
	case in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_FREE:
		s = t.f("%s: still entangled", s)
	default:
		s = t.colon(s, t.success(r.GetSuccess()))
	}
	return t.withNote(s, note)
}

// fumble: "…: a fumble (FEE-004); hurting itself would cost 2 Essence".
func (t tell) fumble(s string, r *feeriev1.ActivityResolved) string {
	return t.f("%s: a fumble (FEE-004); hurting itself would cost %s", s, t.essence(r.GetSelfHarm()))
}

// replacing reports whether an attack's strikes replace its Essence damage: all but
// Relentless do (FEE-149).
func replacing(strikes []feeriev1.SpecialStrike) bool {
	return slices.ContainsFunc(strikes, func(s feeriev1.SpecialStrike) bool {
		return s != feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS
	})
}

// anObject reports whether an attack was on an inanimate object: a Damage roll, no Attack
// roll (FEE-023).
func anObject(r *feeriev1.ActivityResolved) bool { return strings.HasPrefix(r.GetNote(), "an object") }

// attack: the attack on its target, then on each further defender of a sweep.
func (t tell) attack(head string, r *feeriev1.ActivityResolved) string {
	return t.swept(t.attackOne(head, r), r)
}

// swept: what each further defender of a sweep met, against the same roll (FEE-094):
// "; Pinocchio: Defense 12 (H 12 + T 1 − …), margin 6 — a hit: Soak 9, 12 Essence lost
// (Pinocchio 18 left)". Its numbers are withheld when the attacker's or its own are.
func (t tell) swept(s string, r *feeriev1.ActivityResolved) string {
	for _, x := range r.GetAlso() {
		name := t.of(x.GetTargetId())
		var part string
		switch {
		case (t.withheld(x.GetTargetId()) || t.withheld(r.GetCombatantId())) && x.GetSuccess():
			part = t.f("%s: a hit, its numbers withheld", name)
		case t.withheld(x.GetTargetId()) || t.withheld(r.GetCombatantId()):
			part = t.f("%s: a miss, its numbers withheld", name)
		default:
			part = t.f("%s, margin %s", t.colon(name, t.value("Defense", x.GetDefense(), x.GetDefenseModifiers())), num(x.GetMargin()))
			if !x.GetSuccess() {
				part = t.f("%s — a miss", part)
				break
			}
			part = t.f("%s — a hit: %s, %s", part, t.value("Soak", x.GetSoak(), x.GetSoakModifiers()), t.f("%d Essence lost", int(x.GetEssenceLost())))
			part += " " + t.left(name, x.GetTargetEssence())
			if x.GetTargetEssence() <= 0 {
				part += t.semi() + t.f("%s is down and cannot act (FEE-024)", name)
			}
		}
		s += t.semi() + part
	}
	return s
}

func (t tell) attackOne(head string, r *feeriev1.ActivityResolved) string {
	in := r.GetIntent()
	target := t.n.AndNames(append([]string{in.GetTargetId()}, in.GetAlsoTargetIds()...)) // a sweep names every defender
	var s string
	switch {
	case in.GetCharge():
		s = t.tf("msg", "%s charges %s", head, target)
	case in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK:
		s = t.f("%s shoots at %s", head, target)
	default:
		s = t.tf("msg", "%s attacks %s", head, target)
	}
	s = t.withStrikes(s, in.GetStrikes())
	note := r.GetNote()
	if t.withheld(r.GetCombatantId()) || t.withheld(in.GetTargetId()) {
		return t.hiddenAttack(s, r)
	}
	if anObject(r) && len(r.GetDefenseModifiers()) == 0 {
		// FEE-023: no Attack roll against an object, but a Damage roll.
		net := r.GetAttack().GetTotal() - r.GetAttack().GetScore()
		s = t.f("%s, an object (FEE-023): %s + %s = %s", s, t.value("Damage", r.GetDamage(), r.GetDamageModifiers()), t.dice(r.GetAttack()), num(r.GetDamage()+net))
		if r.GetFumble() {
			return t.f("%s: an incident (FEE-023)", s)
		}
		s += " − " + t.value("Soak", r.GetSoak(), r.GetSoakModifiers())
		return s + t.essenceLoss(r)
	}
	if r.GetAttack() == nil {
		return t.withNote(s, note)
	}
	s = t.f("%s: %s vs %s — margin %s", s, t.rollSum(r.GetAttack()), t.value("Defense", r.GetDefense(), r.GetDefenseModifiers()), num(r.GetMargin()))
	switch {
	case r.GetFumble():
		return t.withNote(t.fumble(s, r), note)
	case !r.GetSuccess():
		return t.withNote(t.f("%s: a miss", s), note)
	}
	if replacing(in.GetStrikes()) {
		s = t.f("%s: the special strikes replace the Essence damage", s)
	} else {
		half := halfMargin(t.o, r.GetMargin()) // FEE-003, rounded as the house rules say
		s = t.colon(s, itoa(half)+" + "+t.value("Damage", r.GetDamage(), r.GetDamageModifiers())+" − "+t.value("Soak", r.GetSoak(), r.GetSoakModifiers()))
		s += t.essenceLoss(r)
	}
	return t.withNote(t.conditions(s, r), note)
}

// conditions adds what each special strike did.
func (t tell) conditions(s string, r *feeriev1.ActivityResolved) string {
	for _, c := range r.GetConditions() {
		if x := t.condition(c, r.GetIntent().GetTargetId(), r); x != "" {
			s += t.semi() + x
		}
	}
	return s
}

// hiddenAttack: an attack where the attacker's numbers (its roll, margin, Damage) or the
// target's (its Defense, Soak and Essence) were withheld: what is known, and which part is
// hidden. "rank 34: Le Croque-Mitaine attacks Aude: its roll withheld vs Defense 8 (H 10 −
// angles 2) — a hit: Soak 13, 25 Essence lost (Aude 35 left)"; "rank 10: Aude attacks Le
// Croque-Mitaine: 30 (H 10 + épée 4 + d20[20]−d20[4]) vs its Defense (withheld) — a hit:
// Damage 15, the Essence it lost withheld".
func (t tell) hiddenAttack(head string, r *feeriev1.ActivityResolved) string {
	in := r.GetIntent()
	target := t.of(in.GetTargetId())
	attHidden, targetHidden := t.withheld(r.GetCombatantId()), t.withheld(in.GetTargetId())
	roll := ""
	if attHidden {
		roll = t.tf("msg", "its roll withheld")
	} else if r.GetAttack() != nil {
		roll = t.rollSum(r.GetAttack())
	}
	var s string
	object := anObject(r)
	switch {
	case object:
		s = t.f("%s: %s, against an object (FEE-023)", head, roll)
	case targetHidden:
		s = t.f("%s: %s vs its Defense (withheld)", head, roll)
	default:
		s = t.f("%s: %s vs %s", head, roll, t.value("Defense", r.GetDefense(), r.GetDefenseModifiers()))
	}
	switch {
	case r.GetFumble() && attHidden:
		return t.f("%s — a fumble (FEE-004)", s)
	case r.GetFumble():
		return t.f("%s — a fumble (FEE-004); hurting itself would cost %s", s, t.essence(r.GetSelfHarm()))
	case !r.GetSuccess():
		return t.withNote(t.f("%s — a miss", s), r.GetNote())
	}
	switch {
	case replacing(in.GetStrikes()):
		s = t.f("%s — a hit: the special strikes replace the Essence damage", s)
	case targetHidden:
		s = t.f("%s — a hit: %s, the Essence %s lost withheld", s, t.value("Damage", r.GetDamage(), r.GetDamageModifiers()), target)
	default:
		s = t.f("%s — a hit: %s, %s", s, t.value("Soak", r.GetSoak(), r.GetSoakModifiers()), t.f("%d Essence lost", int(r.GetEssenceLost())))
		s += " " + t.left(target, r.GetTargetEssence())
		if r.GetTargetEssence() <= 0 {
			s += t.semi() + t.f("%s is down and cannot act (FEE-024)", target)
		}
	}
	s = t.conditions(s, r)
	if object {
		return s
	}
	return t.withNote(s, r.GetNote())
}

// left: "(Serpent 33 left)".
func (t tell) left(target string, essence int32) string {
	return t.f("(%[2]s %[1]d left)", int(essence), target, t.n.To(target))
}

// essenceLoss: " = 7 Essence lost (Serpent 33 left)", with what the target had left.
func (t tell) essenceLoss(r *feeriev1.ActivityResolved) string {
	target := t.of(r.GetIntent().GetTargetId())
	would := wouldLose(t.o, r.GetMargin(), r.GetDamage(), r.GetSoak()) // FEE-021, as Decide counted
	if anObject(r) && len(r.GetDefenseModifiers()) == 0 {
		would = r.GetMargin() - r.GetSoak()
	}
	lost := r.GetEssenceLost()
	var s string
	switch {
	case lost == 0 && would <= 0:
		return " = " + t.colon(num(would), t.tf("msg", "no Essence lost"))
	case lost < would:
		s = " = " + itoa(would) + ", " + t.f("%d Essence lost", int(lost))
	default:
		s = " = " + t.f("%d Essence lost", int(lost))
	}
	s += " " + t.left(target, r.GetTargetEssence())
	if r.GetTargetEssence() <= 0 {
		s += t.semi() + t.f("%s is down and cannot act (FEE-024)", target)
	}
	return s
}

// condition: what a special strike did (FEE-150…FEE-159).
func (t tell) condition(c *feeriev1.Condition, targetID string, r *feeriev1.ActivityResolved) string {
	target, by := t.of(targetID), t.of(c.GetBy())
	bearer := targetID
	switch c.GetStrike() {
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS, feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW:
		bearer = c.GetBy()
	}
	if t.withheld(bearer) { // its numbers withheld: what the strike does, not by how much
		switch c.GetStrike() {
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_DISARM, feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP, feeriev1.SpecialStrike_SPECIAL_STRIKE_KNOCKBACK:
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS:
			return t.f("relentless: %[1]s's weapon stays in the wound, its Defense −%[2]s until it is dislodged (FEE-156)", by, itoa(t.num.RelentlessDefense), t.de(by))
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW:
			return t.f("a frightening blow: %s gains a bonus (withheld) on its next intimidation (FEE-181)", by)
		default:
			return t.f("%s: %s (its malus withheld)", t.strike(c.GetStrike()), target)
		}
	}
	switch c.GetStrike() {
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_DISARM:
		return t.f("%s is disarmed: its weapon flies a few steps away (FEE-150)", target)
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP:
		return t.f("%s falls: −%s to its activities until it gets up (FEE-151)", target, itoa(t.num.TripMalus))
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE:
		return t.f("%s is entangled: −%s to its activities until it frees itself, Puissance against %s (FEE-152)", target, itoa(c.GetMalus()), itoa(c.GetFreeAgainst()))
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN:
		if c.GetMalus() <= 0 {
			return t.f("%s shakes off the stun (FEE-153)", target)
		}
		return t.f("%s is stunned: −%s to its activities, 1 less each rank (FEE-153)", target, itoa(c.GetMalus()))
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY:
		return t.f("%s is kept at bay: −%s Attack against %s until it enters the guard (FEE-154)", target, itoa(c.GetMalus()), by)
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE:
		return t.f("an organ of %[2]s is crippled for %[1]d ranks (FEE-155)", int(c.GetRanks()), target, t.de(target))
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS:
		return t.f("relentless: %[1]s's next Damage +%[2]s, its Defense −%[3]s until its weapon is dislodged (FEE-156)", by, itoa(c.GetMalus()), itoa(t.num.RelentlessDefense), t.de(by))
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW:
		return t.f("a frightening blow: %s gains +%s on its next intimidation (FEE-181)", by, itoa(c.GetMalus()))
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_KNOCKBACK:
		if d := c.GetDistance(); d > 0 && !strings.Contains(r.GetNote(), "thrown") {
			return t.f("%[2]s is thrown %[1]d distance units (FEE-158)", int(d), target)
		}
		return ""
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD:
		return t.f("%[1]s is inside %[2]s's guard: %[2]s has −%[3]s Attack against %[1]s until it keeps it at bay (FEE-159)", by, target, itoa(c.GetMalus()), t.de(target))
	}
	return t.colon(t.strike(c.GetStrike()), target)
}
