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
	t := tell{n: n}
	var parts []string
	add := func(on bool, key string, args ...any) {
		if on {
			parts = append(parts, t.tf("state", key, args...))
		}
	}
	object := cb.GetFeerie().GetInanimate() || cs.GetInanimate()
	withheld := cb.GetHidden() && cb.GetSheet() == nil // its Essence, penalties and maluses are withheld
	add(withheld, "hidden by the GM")
	add(cs.GetEssence() <= 0 && !object && !withheld, "OUT (0 Essence)")
	add(cb.GetFeerie().GetInanimate(), "an object")
	add(cs.GetInanimate() && cs.GetInanimatePower() == "", "an object")
	add(cs.GetInanimate() && cs.GetInanimatePower() != "", "an object through %s", cs.GetInanimatePower())
	countdown := fs.GetStep() == feeriev1.Step_STEP_COUNTDOWN
	able := cs.GetEssence() > 0 || withheld
	add(countdown && !cs.GetCanAct() && able && !object && !cs.GetHelpless(), "cannot act this Action")
	add(cs.GetRenounced(), "renounced")
	if cs.GetHelpless() && able {
		if r := cs.GetHelplessReason(); r != "" {
			add(true, "helpless (%s): Defense 0, no activity", r)
		} else {
			add(true, "helpless: Defense 0, no activity")
		}
	}
	add(cs.GetSurprisedActions() > 0, "surprised (%d Actions)", int(cs.GetSurprisedActions()))
	add(cs.GetSurpriseNoActivity(), "no activity while surprised")
	add(cs.GetUnseenBonus() > 0, "unseen: +%s Initiative", itoa(cs.GetUnseenBonus()))
	add(cs.GetProne(), "down: −4 to its activities until it gets up")
	add(cs.GetDisarmed(), "disarmed")
	for _, c := range cs.GetConditions() {
		by := t.of(c.GetBy())
		switch {
		case withheld:
			add(true, "%s by %s", t.strike(c.GetStrike()), by)
		case c.GetStrike() == feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE:
			add(true, "entangled by %s: −%s to its activities, frees itself against %s", by, itoa(c.GetMalus()), itoa(c.GetFreeAgainst()))
		case c.GetStrike() == feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN:
			add(true, "stunned: −%s to its activities", itoa(c.GetMalus()))
		case c.GetStrike() == feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY:
			add(true, "kept at bay by %s: −%s Attack against it", by, itoa(c.GetMalus()))
		case c.GetStrike() == feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD:
			add(true, "%s inside its guard: −%s Attack against it", by, itoa(c.GetMalus()))
		case c.GetStrike() == feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE:
			add(true, "an organ crippled for %d ranks", int(c.GetRanks()))
		default:
			add(true, "%s by %s", t.strike(c.GetStrike()), by)
		}
	}
	add(cs.GetRelentless() && !withheld, "relentless: next Damage +%s, Defense −8", itoa(cs.GetRelentlessBonus()))
	add(cs.GetRelentless() && withheld, "relentless: Defense −8")
	if b := cs.GetIntimidationBonuses(); len(b) > 0 {
		var each []string
		for _, id := range slices.Sorted(maps.Keys(b)) {
			each = append(each, t.tf("state", "%s against %s", narrate.Signed(b[id]), t.of(id)))
		}
		add(true, "next intimidation %s", strings.Join(each, ", "))
	}
	add(cs.GetAim() > 0, "aiming +%s", itoa(cs.GetAim()))
	add(cs.GetThisAction() != 0, "%s on this Action (FEE-062, FEE-073)", num(-cs.GetThisAction()))
	for _, p := range cs.GetPenalties() {
		var what []string
		if p.GetRolls() != 0 {
			what = append(what, t.tf("state", "%s rolls", num(-p.GetRolls())))
		}
		if p.GetDefense() != 0 {
			what = append(what, t.tf("state", "%s Defense", num(-p.GetDefense())))
		}
		if len(what) > 0 {
			add(true, "%s from rank %s (%s)", strings.Join(what, ", "), itoa(p.GetFromRank()), t.penalty(p.GetReason()))
		}
	}
	add(cs.GetChangeMalus() != 0, "%s on its next activity (change of intention)", num(-cs.GetChangeMalus()))
	add(cs.GetNextAction() != 0, "%s on the next Action", num(-cs.GetNextAction()))
	if len(cs.GetAggressors()) > 1 { // several: they weigh on its Defense from the start (FEE-091)
		add(true, "watches %s (FEE-175)", t.n.AndNames(cs.GetAggressors()))
	}
	add(len(cs.GetEngagedBy()) > 0, "engaged by %s", t.n.AndNames(cs.GetEngagedBy()))
	switch {
	case cs.GetHasDeclared():
		add(true, "declared %s", t.intent(cs.GetDeclared(), withheld))
	case fs.GetStep() == feeriev1.Step_STEP_DECLARING && able && !object && !cs.GetHelpless():
		add(true, "to declare")
	}
	return strings.Join(parts, t.semi())
}

// penalty is the reason of a penalty (Penalty.reason) in the Narrator's language.
func (t tell) penalty(reason string) string {
	if gm, ok := strings.CutPrefix(reason, "the GM's malus: "); ok {
		return t.tf("state", "the GM's malus: %s", gm)
	}
	return t.term("penalty", narrate.OrUnknown(reason))
}
