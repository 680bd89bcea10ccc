package feerie

import (
	"maps"
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// StateText tells what a state table (fray state) shows of a combatant beyond its numbers:
// hidden, out, an object, surprised, helpless, its conditions, penalties and declaration,
// "; "-separated (the parts have commas): "stunned: −7 to its activities; declared a passive
// activity, tactic +0/+0/+0". cb is the combatant as the reader sees it (its sheet withheld
// when the GM hides it from the reader), cs its state, fs the encounter's.
func StateText(n *narrate.Narrator, cb *encounterv1.Combatant, cs *feeriev1.CombatantState, fs *feeriev1.State) string {
	if cs == nil {
		return ""
	}
	p := &stateParts{t: tell{n: n}, cs: cs}
	p.object = cb.GetFeerie().GetInanimate() || cs.GetInanimate()
	p.withheld = cb.GetHidden() && cb.GetSheet() == nil // its Essence, penalties and maluses are withheld
	p.able = cs.GetEssence() > 0 || p.withheld
	p.status(cb, fs)
	p.conditions()
	p.penalties()
	if len(cs.GetAggressors()) > 1 { // several: they weigh on its Defense from the start (FEE-091)
		p.add(true, "watches %s (FEE-175)", p.t.n.AndNames(cs.GetAggressors()))
	}
	p.add(len(cs.GetEngagedBy()) > 0, "engaged by %s", p.t.n.AndNames(cs.GetEngagedBy()))
	switch {
	case cs.GetHasDeclared():
		p.add(true, "declared %s", p.t.intent(cs.GetDeclared(), p.withheld))
	case fs.GetStep() == feeriev1.Step_STEP_DECLARING && p.able && !p.object && !cs.GetHelpless():
		p.add(true, "to declare")
	}
	return strings.Join(p.parts, p.t.semi())
}

// stateParts gathers the parts of a combatant's StateText: cs its state; object, an object
// (FEE-023, FEE-026); withheld, its sheet hidden from the reader; able, above 0 Essence as the
// reader knows.
type stateParts struct {
	t                      tell
	cs                     *feeriev1.CombatantState
	parts                  []string
	object, withheld, able bool
}

// add tells the state message key with its arguments when on.
func (p *stateParts) add(on bool, key string, args ...any) {
	if on {
		p.parts = append(p.parts, p.t.tf("state", key, args...))
	}
}

// status: hidden, out (FEE-024), an object (FEE-023, FEE-026), unable to act this Action
// (FEE-043), renounced (FEE-075), helpless (FEE-022), surprised (FEE-080, FEE-082), unseen
// (FEE-081), down (FEE-151), disarmed (FEE-150).
func (p *stateParts) status(cb *encounterv1.Combatant, fs *feeriev1.State) {
	cs := p.cs
	p.add(p.withheld, "hidden by the GM")
	p.add(cs.GetEssence() <= 0 && !p.object && !p.withheld, "OUT (0 Essence)")
	p.add(cb.GetFeerie().GetInanimate(), "an object")
	p.add(cs.GetInanimate() && cs.GetInanimatePower() == "", "an object")
	p.add(cs.GetInanimate() && cs.GetInanimatePower() != "", "an object through %s", cs.GetInanimatePower())
	countdown := fs.GetStep() == feeriev1.Step_STEP_COUNTDOWN
	p.add(countdown && !cs.GetCanAct() && p.able && !p.object && !cs.GetHelpless(), "cannot act this Action")
	p.add(cs.GetRenounced(), "renounced")
	if cs.GetHelpless() && p.able {
		if r := cs.GetHelplessReason(); r != "" {
			p.add(true, "helpless (%s): Defense 0, no activity", r)
		} else {
			p.add(true, "helpless: Defense 0, no activity")
		}
	}
	p.add(cs.GetSurprisedActions() > 0, "surprised (%d Actions)", int(cs.GetSurprisedActions()))
	p.add(cs.GetSurpriseNoActivity(), "no activity while surprised")
	p.add(cs.GetUnseenBonus() > 0, "unseen: +%s Initiative", itoa(cs.GetUnseenBonus()))
	p.add(cs.GetProne(), "down: −4 to its activities until it gets up")
	p.add(cs.GetDisarmed(), "disarmed")
}

// conditions: what the special strikes left on it, by whom (FEE-152…FEE-159); a hidden
// one's maluses withheld.
func (p *stateParts) conditions() {
	for _, c := range p.cs.GetConditions() {
		by := p.t.of(c.GetBy())
		switch {
		case p.withheld:
			p.add(true, "%s by %s", p.t.strike(c.GetStrike()), by)
		case c.GetStrike() == feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE:
			p.add(true, "entangled by %s: −%s to its activities, frees itself against %s", by, itoa(c.GetMalus()), itoa(c.GetFreeAgainst()))
		case c.GetStrike() == feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN:
			p.add(true, "stunned: −%s to its activities", itoa(c.GetMalus()))
		case c.GetStrike() == feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY:
			p.add(true, "kept at bay by %s: −%s Attack against it", by, itoa(c.GetMalus()))
		case c.GetStrike() == feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD:
			p.add(true, "%s inside its guard: −%s Attack against it", by, itoa(c.GetMalus()))
		case c.GetStrike() == feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE:
			p.add(true, "an organ crippled for %d ranks", int(c.GetRanks()))
		default:
			p.add(true, "%s by %s", p.t.strike(c.GetStrike()), by)
		}
	}
}

// penalties: its own strikes' after-effects — relentless (FEE-156, FEE-177), the next
// intimidation's bonus (FEE-181) — its aim (FEE-132), and what weighs on its rolls and Defense:
// this Action's (FEE-062, FEE-073), from a rank on (FEE-050, FEE-061, FEE-070), on its next
// activity and the next Action.
func (p *stateParts) penalties() {
	cs, t := p.cs, p.t
	p.add(cs.GetRelentless() && !p.withheld, "relentless: next Damage +%s, Defense −8", itoa(cs.GetRelentlessBonus()))
	p.add(cs.GetRelentless() && p.withheld, "relentless: Defense −8")
	if b := cs.GetIntimidationBonuses(); len(b) > 0 {
		var each []string
		for _, id := range slices.Sorted(maps.Keys(b)) {
			each = append(each, t.tf("state", "%s against %s", narrate.Signed(b[id]), t.of(id)))
		}
		p.add(true, "next intimidation %s", strings.Join(each, ", "))
	}
	p.add(cs.GetAim() > 0, "aiming +%s", itoa(cs.GetAim()))
	p.add(cs.GetThisAction() != 0, "%s on this Action (FEE-062, FEE-073)", num(-cs.GetThisAction()))
	for _, pen := range cs.GetPenalties() {
		var what []string
		if pen.GetRolls() != 0 {
			what = append(what, t.tf("state", "%s rolls", num(-pen.GetRolls())))
		}
		if pen.GetDefense() != 0 {
			what = append(what, t.tf("state", "%s Defense", num(-pen.GetDefense())))
		}
		if len(what) > 0 {
			p.add(true, "%s from rank %s (%s)", strings.Join(what, ", "), itoa(pen.GetFromRank()), t.penalty(pen.GetReason()))
		}
	}
	p.add(cs.GetChangeMalus() != 0, "%s on its next activity (change of intention)", num(-cs.GetChangeMalus()))
	p.add(cs.GetNextAction() != 0, "%s on the next Action", num(-cs.GetNextAction()))
}

// penalty is the reason of a penalty (Penalty.reason) in the Narrator's language.
func (t tell) penalty(reason string) string {
	if gm, ok := strings.CutPrefix(reason, "the GM's malus: "); ok {
		return t.tf("state", "the GM's malus: %s", gm)
	}
	return t.term("penalty", narrate.OrUnknown(reason))
}
