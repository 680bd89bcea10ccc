package feeriecmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/feerie"
)

// WriteState prints the Contes de Fées part of `fray state`: the Action and its rank,
// each combatant's Essence, Initiative, acting rank, activities, penalties and conditions, the
// activities waiting for the rank to close, and what the game waits for.
func WriteState(w io.Writer, st *encounterv1.EncounterState, names *client.Names) {
	fs := st.GetFeerie()
	told := client.TableNarrator(st) // what the rules say of each combatant beyond its numbers
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
			withheld := client.SheetWithheld(cb) // the GM hides it: its numbers are withheld
			switch {
			case withheld:
				essence = client.AppearanceText(cb.GetAppearance())
			case cs != nil:
				essence = fmt.Sprintf("%s/%d", client.Num(cs.GetEssence()), cb.GetFeerie().GetEssence())
			}
			if cs != nil && countdown {
				init = client.Num(cs.GetInitiative())
				if cs.GetCanAct() {
					rank = client.Num(cs.GetActingRank())
				}
				if withheld { // the ranks at which it acts are seen as it acts (FEE-041)
					init, rank = "hidden", "hidden"
				}
				acts = fmt.Sprint(cs.GetActivities())
				if cs.GetActivities() > 0 {
					acts += fmt.Sprintf(" (rank %d)", cs.GetLastRank())
				}
			}
			rows = append(rows, fmt.Sprintf("  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", cb.GetId(), cb.GetName(), client.Dash(cb.GetSide()),
				client.Dash(cb.GetController()), essence, init, rank, acts, feerie.StateText(told, cb, cs, fs)))
		}
		_ = client.Table(w, rows)
	}
	if q := fs.GetQueue(); len(q) > 0 {
		var parts []string
		for _, x := range q {
			in := x.GetAct().GetIntent()
			what := client.KindWords(in.GetKind())
			if client.IsAttack(in.GetKind()) {
				what += " on " + names.Of(in.GetTargetId())
			}
			parts = append(parts, fmt.Sprintf("%s's %s", names.Of(x.GetCombatantId()), what))
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
			up := cs.GetEssence() > 0 || client.SheetWithheld(cb) && cb.GetAppearance() != encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT
			if up && !cb.GetFeerie().GetInanimate() && !cs.GetInanimate() && !cs.GetHasDeclared() &&
				!cs.GetHelpless() && !cs.GetSurpriseNoActivity() { // FEE-022, FEE-082: nothing to declare
				waiting = append(waiting, cb.GetId())
			}
		}
		if len(waiting) > 0 {
			fmt.Fprintf(w, "Waiting for the declarations of %s: fray feerie declare %s COMBATANT --kind ...\n", client.AndList(waiting), enc)
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
			fmt.Fprintf(w, "Rank %d is the Initiative of %s: fray feerie act %s COMBATANT\n", fs.GetRank(), client.AndList(now), enc)
		}
		fmt.Fprintf(w, "The GM resolves rank %d and goes on: fray feerie advance %s\n", fs.GetRank(), enc)
	case countdown:
		fmt.Fprintf(w, "The GM may make impersonal events happen (fray feerie impersonal %s TARGET LOSS DESCRIPTION...), then starts Action %d: fray feerie advance %s\n",
			enc, fs.GetAction()+1, enc)
	}
}

// LegalText: "act — at rank 17: −2 (FEE-050)", "change: −4 (FEE-070)".
func LegalText(name, desc string, cost int32, targets []string, weapon, rule string) string {
	s := name
	switch {
	case desc != "":
		s += " — " + desc
	case cost != 0:
		s += ": " + client.Num(-cost)
	}
	if len(targets) > 0 {
		s += ", targets " + strings.Join(targets, ", ")
	}
	if rule != "" {
		s += " (" + rule + ")"
	}
	return s
}
