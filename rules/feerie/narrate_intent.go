package feerie

import (
	"strings"

	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// The narration of what a combatant means to do and when: its intent, the Initiative rolls
// and the countdown, an activity queued at a rank with its penalties and circumstances.

// IntentText narrates an intent as declared or performed: "melee attack on Serpent with trip,
// charging, running, bâton on Attack and Defense, tactic +0/+2/−2"; withheld, the intent of a
// combatant hidden from the reader, whose Attributes, tactic, words and difficulty the server
// withheld: "melee attack on Aude, its Attributes and tactic withheld". A state table (fray
// state) uses it for what a combatant declared.
func IntentText(n *narrate.Narrator, in *feeriev1.Intent, withheld bool) string {
	return tell{n: n}.intent(in, withheld)
}

func (t tell) intent(in *feeriev1.Intent, withheld bool) string {
	if in == nil {
		return t.tf("msg", "no intention")
	}
	k := in.GetKind()
	s := t.kind(k)
	switch {
	case isAttack(in):
		s = t.tf("target", "%s on %s", s, t.n.AndNames(append([]string{in.GetTargetId()}, in.GetAlsoTargetIds()...))) // a sweep: every defender (FEE-094)
	case k == feeriev1.ActivityKind_ACTIVITY_KIND_OTHER:
		what := t.reason(in.GetAspect())
		if len(what) == 1 {
			what = in.GetAspect()
		}
		against := itoa(in.GetDifficulty())
		if withheld {
			against = t.f("a difficulty withheld")
		}
		s = t.f("a %[1]s roll against %[2]s", what, against, t.de(what))
		if in.GetIntimidation() {
			s = t.f("an intimidation (%s) against %s", what, against)
		}
		if in.GetTargetId() != "" {
			s = t.tf("target", "%s, at %s", s, t.of(in.GetTargetId()))
		}
	case in.GetTargetId() != "":
		s = t.tf("target", "%s, at %s", s, t.of(in.GetTargetId()))
	}
	parts := []string{t.withStrikes(s, in.GetStrikes())}
	switch {
	case in.GetCharge() && in.GetPace() != feeriev1.Pace_PACE_UNSPECIFIED:
		parts = append(parts, t.tf("msg", "charging, %s", t.pace(in.GetPace())))
	case in.GetCharge():
		parts = append(parts, t.tf("msg", "charging"))
	case in.GetPace() != feeriev1.Pace_PACE_UNSPECIFIED:
		parts = append(parts, t.pace(in.GetPace()))
	}
	switch {
	case isAttack(in) && !in.GetPhysical():
		parts = append(parts, t.tf("msg", "not physical"))
	case !isAttack(in) && in.GetPhysical():
		parts = append(parts, t.tf("msg", "physical"))
	}
	if withheld {
		return strings.Join(append(parts, t.f("its Attributes and tactic withheld")), ", ")
	}
	if a := t.applied(in.GetApplied()); a != "" {
		parts = append(parts, a)
	}
	parts = append(parts, t.tf("msg", "tactic %s", tacticText(in.GetTactic())))
	out := strings.Join(parts, ", ")
	if in.GetDescription() != "" {
		out = t.colon(out, t.n.Quote(in.GetDescription()))
	}
	return out
}

// countdown: "Initiative: Rübezahl 20+d20[12]−d20[17] = 15; Serpent …; the countdown starts
// at 17".
func (t tell) countdown(c *feeriev1.CountdownStarted) string {
	var rolls []string
	for _, ir := range c.GetInitiative() {
		who := t.of(ir.GetCombatantId())
		r := ir.GetResult()
		if r == nil { // a hidden combatant's roll: withheld; whether it may act is seen
			if ir.GetCanAct() {
				rolls = append(rolls, t.f("%s rolls, withheld", who))
			} else {
				rolls = append(rolls, t.f("%s rolls, withheld, cannot act", who))
			}
			continue
		}
		s := who + " " + num(r.GetScore()) + "+" + t.dice(r) + " = " + num(r.GetTotal())
		if ms := r.GetModifiers(); len(ms) > 1 || (len(ms) == 1 && ms[0].GetValue() != r.GetScore()) {
			s += " (" + t.terms(ms) + ")"
		}
		switch {
		case ir.GetCanAct():
		case r.GetTotal() <= 0:
			s = t.f("%s, cannot act (FEE-043)", s)
		default:
			s = t.f("%s, cannot act (FEE-082)", s)
		}
		rolls = append(rolls, s)
	}
	if len(rolls) == 0 {
		return t.f("Initiative: no one rolls")
	}
	end := t.f("the countdown starts at %s", itoa(c.GetTopRank()))
	if c.GetTopRank() <= 0 {
		end = t.f("no one can act in this Action")
	}
	return t.tf("msg", "Initiative: %s", strings.Join(append(rolls, end), t.semi()))
}

// circumstances: "moonlight, range far, target running, undefended".
func (t tell) circumstances(c *feeriev1.Circumstances) []string {
	var parts []string
	if l := c.GetLighting(); l != feeriev1.Lighting_LIGHTING_UNSPECIFIED {
		parts = append(parts, t.term("lighting", enumWords(l.String(), "LIGHTING_")))
	}
	if d := c.GetRangedDifficulty(); d != feeriev1.RangedDifficulty_RANGED_DIFFICULTY_UNSPECIFIED {
		parts = append(parts, t.term("shot", enumWords(d.String(), "RANGED_DIFFICULTY_")+" shot"))
	}
	if r := c.GetDistance(); r != feeriev1.Range_RANGE_UNSPECIFIED {
		parts = append(parts, t.term("range", "range "+enumWords(r.String(), "RANGE_")))
	}
	if p := c.GetTargetPace(); p != feeriev1.Pace_PACE_UNSPECIFIED {
		parts = append(parts, t.tf("msg", "target %s", t.pace(p)))
	}
	if tr := c.GetTerrain(); tr != feeriev1.Terrain_TERRAIN_UNSPECIFIED {
		parts = append(parts, t.term("terrain", enumWords(tr.String(), "TERRAIN_")))
	}
	if cv := c.GetCover(); cv != nil {
		parts = append(parts, t.cover(cv))
	}
	if a := c.GetAnglesOffered(); a != 0 {
		parts = append(parts, t.f("%d attack angles offered", int(a)))
	}
	if c.GetUndefended() {
		parts = append(parts, t.f("the target does not defend"))
	}
	if e := c.GetExposedMalus(); e != 0 {
		parts = append(parts, t.f("exposed part −%s", itoa(max(e, -e))))
	}
	if d := c.GetSmallObjectDifficulty(); d != 0 {
		parts = append(parts, t.f("a small object, difficulty %s", itoa(d)))
	}
	if m := c.GetModifier(); m != 0 {
		parts = append(parts, t.tf("msg", "GM %s", narrate.Signed(m)))
	}
	return parts
}

// cover: "through cover (solid, thick, opaque, Domain Soak 8)".
func (t tell) cover(cv *feeriev1.Cover) string {
	var what []string
	if cv.GetSolidity() != "" {
		what = append(what, t.term("solidity", cv.GetSolidity()))
	}
	if cv.GetThick() {
		what = append(what, t.tf("msg", "thick"))
	}
	if cv.GetOpaque() {
		what = append(what, t.tf("msg", "opaque"))
	}
	if cv.GetSemiTransparent() {
		what = append(what, t.tf("msg", "semi-transparent"))
	}
	if cv.GetDomainSoak() != 0 {
		what = append(what, t.tf("msg", "Domain Soak %s", itoa(cv.GetDomainSoak())))
	}
	if len(what) == 0 {
		return t.tf("msg", "through cover")
	}
	return t.tf("msg", "through cover (%s)", strings.Join(what, ", "))
}

// queued: "Rübezahl acts at rank 17 (anticipating 2: −2)".
func (t tell) queued(q *feeriev1.Queued) string {
	who := t.of(q.GetCombatantId())
	in := q.GetAct().GetIntent()
	withheld := t.withheld(q.GetCombatantId())
	s := t.f("%s acts at rank %s", who, itoa(q.GetRank()))
	if q.GetNth() > 1 {
		s = t.f("%s acts again at rank %s", who, itoa(q.GetRank()))
	}
	if q.GetChangeOfIntention() {
		s = t.f("%s, changing intention to %s", s, t.intent(in, withheld))
	}
	var penalties []string
	known := int32(0)
	if a := q.GetAnticipation(); a > 0 {
		penalties = append(penalties, t.f("anticipating %d", int(a)))
		known += a
	}
	if q.GetNth() > 1 {
		penalties = append(penalties, t.tf("msg", "activity %s", itoa(q.GetNth())))
		known += t.num.SupplementaryMalus * (q.GetNth() - 1)
	}
	if q.GetChangeOfIntention() {
		penalties = append(penalties, t.tf("msg", "change of intention"))
		known += t.num.ChangeMalus
	}
	if rest := q.GetRollPenalty() - known; rest > 0 {
		penalties = append(penalties, t.tf("msg", "earlier penalties"))
	}
	var parts []string
	switch {
	case withheld && len(penalties) > 0: // its penalties come from its Initiative
		parts = append(parts, t.f("%s: its penalties withheld", strings.Join(penalties, ", ")))
	case withheld:
	case len(penalties) > 0 || q.GetRollPenalty() != 0:
		parts = append(parts, t.colon(strings.Join(penalties, ", "), num(-q.GetRollPenalty())))
	}
	if d := q.GetDelay(); d > 0 {
		if in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK {
			parts = append(parts, t.f("aiming %d ranks: +%s", int(d), itoa(min(d, t.num.MaxAim))))
		} else {
			parts = append(parts, t.f("after waiting %d ranks", int(d)))
		}
	}
	if e := q.GetAct().GetEssence(); e > 0 {
		parts = append(parts, t.colon(t.tf("msg", "spending %s", t.essence(e)), "+"+itoa(e)))
	}
	if c := t.circumstances(q.GetAct().GetCircumstances()); len(c) > 0 {
		parts = append(parts, strings.Join(c, ", "))
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, t.semi()) + ")"
	}
	return s
}
