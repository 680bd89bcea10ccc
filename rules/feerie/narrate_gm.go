package feerie

import (
	"strings"

	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// The narration of what the GM rules: surprise, an unseen attacker, a tactic ruled on.

// surprised: "Serpent is surprised for the next Action: −8 Initiative, −4 Defense, no tactic
// (FEE-080)".
func (t tell) surprised(s *feeriev1.Surprised) string {
	who := t.of(s.GetCombatantId())
	out := t.f("%s is surprised for the next Action: −%s Initiative, −%s Defense, no tactic (FEE-080)", who, itoa(t.num.SurpriseInitiative), itoa(t.num.SurpriseDefense))
	if s.GetActions() > 1 {
		out = t.f("%s is surprised for the next %s Actions: −%s Initiative, −%s Defense, no tactic (FEE-080)",
			who, itoa(s.GetActions()), itoa(t.num.SurpriseInitiative), itoa(t.num.SurpriseDefense))
	}
	if s.GetNoActivity() {
		out += t.semi() + t.f("it can do nothing while it lasts (FEE-082)")
	}
	return out
}

// unseen: "Redcap attacks Rübezahl unseen: dissimulation 25 (H 15 + … + d20[..]−d20[..]) vs
// Vigilance 20 — margin 5: +2 Initiative this Action (FEE-081)".
func (t tell) unseen(u *feeriev1.UnseenRolled) string {
	s := t.f("%s attacks %s unseen", t.of(u.GetCombatantId()), t.of(u.GetVictimId()))
	switch {
	case t.withheld(u.GetCombatantId()):
		return t.f("%s: its dissimulation roll and the Initiative it gains withheld (FEE-081)", s)
	case t.withheld(u.GetVictimId()):
		return t.f("%s: dissimulation %s vs its Vigilance (withheld): %s Initiative this Action (FEE-081, FEE-186)",
			s, t.rollSum(u.GetRoll()), narrate.Signed(u.GetInitiativeBonus()))
	case u.GetRoll() == nil:
		return t.f("%s: +%s Initiative this Action (FEE-081)", s, itoa(u.GetInitiativeBonus()))
	}
	s = t.f("%s: dissimulation %s vs Vigilance %s — margin %s", s, t.rollSum(u.GetRoll()), itoa(u.GetVigilance()), num(u.GetMargin()))
	if u.GetInitiativeBonus() > 0 {
		return t.f("%s: +%s Initiative this Action (FEE-081, FEE-186)", s, itoa(u.GetInitiativeBonus()))
	}
	return t.f("%s: no Initiative gained (FEE-081, FEE-186)", s)
}

// ruling: `the GM rules: Redcap's tactic is now −2/+2/0; −2 to Redcap's activity rolls to the
// end of the Action (FEE-036): "not so brutal in the thicket"`.
func (t tell) ruling(r *feeriev1.TacticRuled) string {
	who := t.of(r.GetCombatantId())
	if t.withheld(r.GetCombatantId()) {
		s := t.f("the GM rules on %[1]s's tactic (the ruling withheld)", who, t.de(who))
		if r.GetCancelTactic() {
			s = t.f("the GM rules: %[1]s's tactic is cancelled", who, t.de(who))
		}
		if r.GetRank() > 0 {
			s = t.tf("msg", "rank %s: %s", itoa(r.GetRank()), s)
		}
		return s + " (FEE-036)"
	}
	var parts []string
	switch {
	case r.GetCancelTactic():
		parts = append(parts, t.f("%[1]s's tactic is cancelled", who, t.de(who)))
	case r.GetTactic() != nil:
		parts = append(parts, t.f("%[1]s's tactic is now %[2]s", who, tacticText(r.GetTactic()), t.de(who)))
	}
	if m := r.GetMalus(); m != 0 {
		parts = append(parts, t.f("−%[1]s to %[2]s's activity rolls to the end of the Action", itoa(max(m, -m)), who, t.de(who)))
	}
	if len(parts) == 0 {
		parts = append(parts, t.f("%[1]s's tactic stands", who, t.de(who)))
	}
	s := t.tf("msg", "the GM rules: %s", strings.Join(parts, t.semi()))
	if r.GetRank() > 0 {
		s = t.tf("msg", "rank %s: %s", itoa(r.GetRank()), s)
		if r.GetActingRank() > 0 {
			s += t.semi() + t.f("%s acts from rank %s", who, itoa(r.GetActingRank()))
		}
	}
	s += " (FEE-036)"
	if r.GetReason() != "" {
		s = t.colon(s, t.n.Quote(r.GetReason()))
	}
	return s
}
