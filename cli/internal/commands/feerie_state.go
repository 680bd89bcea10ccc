package commands

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
)

// writeFeerieState prints the Contes de Fées part of `fray state`: the Action and its rank,
// each combatant's Essence, Initiative, acting rank, activities, penalties and conditions, the
// activities waiting for the rank to close, and what the game waits for.
func writeFeerieState(w io.Writer, st *encounterv1.EncounterState, names *Names) {
	fs := st.GetFeerie()
	countdown := fs.GetStep() == feeriev1.Step_STEP_COUNTDOWN
	switch {
	case fs.GetAction() == 0:
		fmt.Fprintln(w, "Not started")
	case fs.GetStep() == feeriev1.Step_STEP_DECLARING:
		fmt.Fprintf(w, "Action %d, step 1: declarations\n", fs.GetAction())
	case countdown && fs.GetRank() > 0:
		fmt.Fprintf(w, "Action %d, countdown at rank %d (from %d)\n", fs.GetAction(), fs.GetRank(), fs.GetTopRank())
	case countdown:
		fmt.Fprintf(w, "Action %d, rank 0: the impersonal events, then the next Action\n", fs.GetAction())
	default:
		fmt.Fprintf(w, "Action %d\n", fs.GetAction())
	}
	if len(st.GetCombatants()) == 0 {
		fmt.Fprintln(w, "No combatants yet.")
	} else {
		rows := []string{"  ID\tNAME\tSIDE\tCONTROLLER\tESSENCE\tINIT\tRANK\tACTS\tOTHER"}
		for _, cb := range st.GetCombatants() {
			cs := fs.GetCombatants()[cb.GetId()]
			essence, init, rank, acts := "-", "-", "-", "-"
			withheld := sheetWithheld(cb) // the GM hides it: its numbers are withheld
			switch {
			case withheld:
				essence = appearanceText(cb.GetAppearance())
			case cs != nil:
				essence = fmt.Sprintf("%s/%d", num(cs.GetEssence()), cb.GetFeerie().GetEssence())
			}
			if cs != nil && countdown {
				init = num(cs.GetInitiative())
				if cs.GetCanAct() {
					rank = num(cs.GetActingRank())
				}
				if withheld { // the ranks at which it acts are seen as it acts (FEE-041)
					init, rank = "hidden", "hidden"
				}
				acts = fmt.Sprint(cs.GetActivities())
				if cs.GetActivities() > 0 {
					acts += fmt.Sprintf(" (rank %d)", cs.GetLastRank())
				}
			}
			rows = append(rows, fmt.Sprintf("  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", cb.GetId(), cb.GetName(), dash(cb.GetSide()),
				dash(cb.GetController()), essence, init, rank, acts, names.feerieOtherText(cb, cs, fs)))
		}
		_ = table(w, rows)
	}
	if q := fs.GetQueue(); len(q) > 0 {
		var parts []string
		for _, x := range q {
			in := x.GetAct().GetIntent()
			what := kindWords(in.GetKind())
			if isAttack(in.GetKind()) {
				what += " on " + names.of(in.GetTargetId())
			}
			parts = append(parts, fmt.Sprintf("%s's %s", names.of(x.GetCombatantId()), what))
		}
		fmt.Fprintf(w, "To resolve at rank %d: %s\n", fs.GetRank(), strings.Join(parts, "; "))
	}
	enc := st.GetEncounterId()
	switch {
	case st.GetStatus() != encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE:
	case fs.GetStep() == feeriev1.Step_STEP_DECLARING:
		var waiting []string
		for _, cb := range st.GetCombatants() {
			cs := fs.GetCombatants()[cb.GetId()]
			up := cs.GetEssence() > 0 || sheetWithheld(cb) && cb.GetAppearance() != encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT
			if up && !cb.GetFeerie().GetInanimate() && !cs.GetInanimate() && !cs.GetHasDeclared() &&
				!cs.GetHelpless() && !cs.GetSurpriseNoActivity() { // FEE-022, FEE-082: nothing to declare
				waiting = append(waiting, cb.GetId())
			}
		}
		if len(waiting) > 0 {
			fmt.Fprintf(w, "Waiting for the declarations of %s: fray feerie declare %s COMBATANT --kind ...\n", andList(waiting), enc)
		}
	case countdown && fs.GetRank() > 0:
		var now []string
		for _, cb := range st.GetCombatants() {
			cs := fs.GetCombatants()[cb.GetId()]
			if cs.GetCanAct() && cs.GetActivities() == 0 && cs.GetActingRank() == fs.GetRank() && !cs.GetRenounced() && !cs.GetHelpless() {
				now = append(now, cb.GetId())
			}
		}
		if len(now) > 0 {
			fmt.Fprintf(w, "Rank %d is the Initiative of %s: fray feerie act %s COMBATANT\n", fs.GetRank(), andList(now), enc)
		}
		fmt.Fprintf(w, "The GM resolves rank %d and goes on: fray feerie advance %s\n", fs.GetRank(), enc)
	case countdown:
		fmt.Fprintf(w, "The GM may make impersonal events happen (fray feerie impersonal %s TARGET LOSS DESCRIPTION...), then starts Action %d: fray feerie advance %s\n",
			enc, fs.GetAction()+1, enc)
	}
}

// feerieOtherText: the rest of a combatant's state, "; "-separated (the parts have commas).
func (n *Names) feerieOtherText(cb *encounterv1.Combatant, cs *feeriev1.CombatantState, fs *feeriev1.State) string {
	if cs == nil {
		return ""
	}
	var parts []string
	add := func(on bool, text string, args ...any) {
		if on {
			parts = append(parts, fmt.Sprintf(text, args...))
		}
	}
	object := cb.GetFeerie().GetInanimate() || cs.GetInanimate()
	withheld := sheetWithheld(cb) // its Essence, penalties and maluses are withheld
	if withheld {
		add(true, "hidden by the GM")
	}
	add(cs.GetEssence() <= 0 && !object && !withheld, "OUT (0 Essence)")
	add(cb.GetFeerie().GetInanimate(), "an object")
	add(cs.GetInanimate() && cs.GetInanimatePower() == "", "an object")
	add(cs.GetInanimate() && cs.GetInanimatePower() != "", "an object through %s", cs.GetInanimatePower())
	countdown := fs.GetStep() == feeriev1.Step_STEP_COUNTDOWN
	add(countdown && !cs.GetCanAct() && (cs.GetEssence() > 0 || withheld) && !object && !cs.GetHelpless(), "cannot act this Action")
	add(cs.GetRenounced(), "renounced")
	if cs.GetHelpless() && (cs.GetEssence() > 0 || withheld) {
		why := ""
		if r := cs.GetHelplessReason(); r != "" {
			why = " (" + r + ")"
		}
		add(true, "helpless%s: Defense 0, no activity", why)
	}
	add(cs.GetSurprisedActions() > 0, "surprised (%s)", plural(int(cs.GetSurprisedActions()), "Action"))
	add(cs.GetSurpriseNoActivity(), "no activity while surprised")
	add(cs.GetUnseenBonus() > 0, "unseen: +%d Initiative", cs.GetUnseenBonus())
	add(cs.GetProne(), "down: −4 to its activities until it gets up")
	add(cs.GetDisarmed(), "disarmed")
	for _, c := range cs.GetConditions() {
		by := n.of(c.GetBy())
		if withheld {
			add(true, "%s by %s", strikeWords(c.GetStrike()), by)
			continue
		}
		switch c.GetStrike() {
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE:
			add(true, "entangled by %s: −%d to its activities, frees itself against %d", by, c.GetMalus(), c.GetFreeAgainst())
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN:
			add(true, "stunned: −%d to its activities", c.GetMalus())
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY:
			add(true, "kept at bay by %s: −%d Attack against it", by, c.GetMalus())
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD:
			add(true, "%s inside its guard: −%d Attack against it", by, c.GetMalus())
		case feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE:
			add(true, "an organ crippled for %s", plural(int(c.GetRanks()), "rank"))
		default:
			add(true, "%s by %s", strikeWords(c.GetStrike()), by)
		}
	}
	add(cs.GetRelentless() && !withheld, "relentless: next Damage +%d, Defense −8", cs.GetRelentlessBonus())
	add(cs.GetRelentless() && withheld, "relentless: Defense −8")
	if b := cs.GetIntimidationBonuses(); len(b) > 0 {
		var each []string
		for _, cb := range slices.Sorted(maps.Keys(b)) {
			each = append(each, fmt.Sprintf("%s against %s", signed(b[cb]), n.of(cb)))
		}
		add(true, "next intimidation %s", strings.Join(each, ", "))
	}
	add(cs.GetAim() > 0, "aiming +%d", cs.GetAim())
	add(cs.GetThisAction() != 0, "%s on this Action (FEE-062, FEE-073)", num(-cs.GetThisAction()))
	for _, p := range cs.GetPenalties() {
		var what []string
		if p.GetRolls() != 0 {
			what = append(what, num(-p.GetRolls())+" rolls")
		}
		if p.GetDefense() != 0 {
			what = append(what, num(-p.GetDefense())+" Defense")
		}
		if len(what) > 0 {
			add(true, "%s from rank %d (%s)", strings.Join(what, ", "), p.GetFromRank(), orUnknown(p.GetReason()))
		}
	}
	add(cs.GetChangeMalus() != 0, "%s on its next activity (change of intention)", num(-cs.GetChangeMalus()))
	add(cs.GetNextAction() != 0, "%s on the next Action", num(-cs.GetNextAction()))
	if len(cs.GetAggressors()) > 1 { // several: they weigh on its Defense from the start (FEE-091)
		var who []string
		for _, id := range cs.GetAggressors() {
			who = append(who, n.of(id))
		}
		add(true, "watches %s (FEE-175)", andList(who))
	}
	if len(cs.GetEngagedBy()) > 0 {
		var who []string
		for _, id := range cs.GetEngagedBy() {
			who = append(who, n.of(id))
		}
		add(true, "engaged by %s", andList(who))
	}
	switch {
	case cs.GetHasDeclared():
		add(true, "declared %s", n.intentText(cs.GetDeclared(), withheld))
	case fs.GetStep() == feeriev1.Step_STEP_DECLARING && (cs.GetEssence() > 0 || withheld) && !object && !cs.GetHelpless():
		add(true, "to declare")
	}
	return strings.Join(parts, "; ")
}

// feerieLegalText: "act — at rank 17: −2 (FEE-050)", "change: −4 (FEE-070)".
func feerieLegalText(name, desc string, cost int32, targets []string, weapon, rule string) string {
	s := name
	switch {
	case desc != "":
		s += " — " + desc
	case cost != 0:
		s += ": " + num(-cost)
	}
	if len(targets) > 0 {
		s += ", targets " + strings.Join(targets, ", ")
	}
	if rule != "" {
		s += " (" + rule + ")"
	}
	return s
}
