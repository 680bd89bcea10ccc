package losscmd

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/loss"
)

// WriteState prints the Les Chants de Loss part of `fray state`: the Tour and the GM's Fursa,
// each combatant's PA, NS and the rest of its state, the pursuit, the pending attack, and the
// reactions waited for.
func WriteState(w io.Writer, st *encounterv1.EncounterState, names *client.Names) {
	ls := st.GetLoss()
	if ls != nil {
		if ls.GetTour() == 0 {
			fmt.Fprint(w, "Not started")
		} else {
			fmt.Fprintf(w, "Tour %d (Séquence %d)", ls.GetTour(), ls.GetSequence())
		}
		fmt.Fprintf(w, "; GM Fursa %d\n", ls.GetGmFursa())
	}
	if len(st.GetCombatants()) == 0 {
		fmt.Fprintln(w, "No combatants yet.")
	} else {
		bands := st.GetOptions().GetLoss().GetHealthBands()
		rows := []string{"  ID\tNAME\tSIDE\tCONTROLLER\tPA\tNS\tOTHER"}
		for _, cb := range st.GetCombatants() {
			cs := ls.GetCombatants()[cb.GetId()]
			pa, ns, other := paText(ls, cs), nsText(cb.GetLoss(), cs, bands), otherText(cs)
			if client.SheetWithheld(cb) {
				pa, ns, other = hiddenPAText(ls, cs), client.AppearanceText(cb.GetAppearance())+" (NS hidden)", strings.TrimPrefix(other+", hidden by the GM", ", ")
			}
			rows = append(rows, fmt.Sprintf("  %s\t%s\t%s\t%s\t%s\t%s\t%s", cb.GetId(), cb.GetName(), client.Dash(cb.GetSide()),
				client.Dash(cb.GetController()), pa, ns, other))
		}
		_ = client.Table(w, rows)
	}
	if pu := ls.GetPursuit(); pu != nil {
		var pursuers, pursued []string
		for _, id := range pu.GetPursuerIds() {
			pursuers = append(pursuers, names.Of(id))
		}
		for _, id := range pu.GetPursuedIds() {
			pursued = append(pursued, names.Of(id))
		}
		fmt.Fprintf(w, "Pursuit: %s after %s, distance %d (%s)", client.AndList(pursuers), client.AndList(pursued), pu.GetDistance(), client.DistanceName(pu.GetDistance()))
		if z := pu.GetZigzag(); z > 0 {
			fmt.Fprintf(w, "; %s zigzags: pursuers +%d Difficulty", names.Of(pu.GetZigzagBy()), z)
		}
		fmt.Fprintln(w)
	}
	if p := ls.GetPending(); p != nil && len(st.GetPending()) == 0 && client.SheetWithheld(client.EngineCombatant(st, p.GetAttackerId())) {
		fmt.Fprintf(w, "Pending attack: %s on %s, Difficulty %d to defend (the attacker's numbers are hidden)\n",
			names.Of(p.GetAttackerId()), names.Of(p.GetDefenderId()), p.GetDifficulty())
	} else if p != nil && len(st.GetPending()) == 0 {
		fmt.Fprintf(w, "Pending attack: %s on %s with %s, total %d against Difficulty %d\n",
			names.Of(p.GetAttackerId()), names.Of(p.GetDefenderId()), p.GetWeapon(), p.GetAttackTotal(), p.GetDifficulty())
	}
	client.PrintPending(w, st.GetEncounterId(), st)
}

// hiddenPAText: a hidden combatant's PA are shown only while it acts now, at the phase being
// played (LOS-031).
func hiddenPAText(ls *lossv1.State, cs *lossv1.CombatantState) string {
	switch {
	case cs == nil || ls.GetTour() == 0:
		return "-"
	case cs.GetActionPoints() > 0:
		return fmt.Sprintf("%d (acts now)", cs.GetActionPoints())
	}
	return "hidden"
}

func paText(ls *lossv1.State, cs *lossv1.CombatantState) string {
	if cs == nil || ls.GetTour() == 0 {
		return "-"
	}
	return fmt.Sprint(cs.GetActionPoints())
}

// nsText shows the NS boxes left: "light 5/5, grave 5/5, fatal 5/5", or "7/10" for a Sbire.
func nsText(sh *lossv1.Sheet, cs *lossv1.CombatantState, bands []int32) string {
	if cs == nil {
		return "-"
	}
	if sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_SBIRE {
		return fmt.Sprintf("%d/%d", cs.GetHealth(), loss.SbireHealth)
	}
	band := func(name string, left int32, i int) string {
		if i < len(bands) {
			return fmt.Sprintf("%s %d/%d", name, left, bands[i])
		}
		return fmt.Sprintf("%s %d", name, left)
	}
	return strings.Join([]string{band("light", cs.GetLight(), 0), band("grave", cs.GetGrave(), 1), band("fatal", cs.GetFatal(), 2)}, ", ")
}

func otherText(cs *lossv1.CombatantState) string {
	var parts []string
	flag := func(on bool, text string) {
		if on {
			parts = append(parts, text)
		}
	}
	flag(cs.GetDead(), "DEAD")
	flag(cs.GetDying() && !cs.GetDead(), "DYING")
	flag(cs.GetOut() && !cs.GetDying() && !cs.GetDead(), "OUT")
	flag(cs.GetNeutralised(), "neutralised")
	flag(cs.GetJoining(), client.YesNo(cs.GetWatched(), "joining next Tour (+2, watched)", "joining next Tour"))
	flag(cs.GetPassed(), "passed")
	flag(cs.GetProne(), "prone")
	flag(cs.GetDisarmed(), "disarmed")
	if cs.GetFursa() > 0 {
		parts = append(parts, fmt.Sprintf("Fursa %d", cs.GetFursa()))
	}
	insp := cs.GetInspiration()
	for _, v := range slices.Sorted(maps.Keys(insp)) {
		if insp[v] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, insp[v]))
		}
	}
	if n := cs.GetFreeRaises(); n > 0 {
		parts = append(parts, client.Plural(int(n), "free raise"))
	}
	if b := cs.GetNextActionBonus(); b != 0 {
		parts = append(parts, fmt.Sprintf("%+d on next action", b))
	}
	if d := cs.GetLastingDifficulty(); d != 0 {
		parts = append(parts, fmt.Sprintf("%+d Difficulty for the fight", d))
	}
	if w := cs.GetWall(); w != 0 {
		parts = append(parts, fmt.Sprintf("wall %+d", w))
	}
	if b := cs.GetProtectBonus(); b != 0 {
		parts = append(parts, fmt.Sprintf("protected %+d", b))
	}
	if b := cs.GetAimBonus(); b != 0 {
		parts = append(parts, fmt.Sprintf("aiming %s %+d", cs.GetAimWeapon(), b))
	}
	if b := cs.GetAimTourBonus(); b != 0 {
		parts = append(parts, fmt.Sprintf("aimed %s a Tour %+d", cs.GetAimTourWeapon(), b))
	}
	if d := cs.GetWaitDiscount(); d != 0 {
		parts = append(parts, fmt.Sprintf("waiting: next action −%d PA", d))
	}
	if a := cs.GetAdvantage(); a != 0 {
		parts = append(parts, fmt.Sprintf("advantage %+d PA", a))
	}
	if cs.GetDeclared() && cs.GetIntention() != "" {
		parts = append(parts, fmt.Sprintf("declared %q", cs.GetIntention()))
	}
	return strings.Join(parts, ", ")
}

// LegalText: "attack with épée: 4 PA, targets ruffian, griffon-1 (LOS-035)", "wait — act
// later, at a phase from 1 to 10 (LOS-040)".
func LegalText(name, desc string, cost int32, targets []string, weapon, rule string) string {
	head := name
	if desc != "" && (name == "" || strings.HasPrefix(desc, name)) {
		head, desc = desc, ""
	}
	if weapon != "" && !strings.Contains(head, weapon) && !strings.Contains(desc, weapon) {
		head += " with " + weapon
	}
	var parts []string
	if cost > 0 {
		parts = append(parts, fmt.Sprintf("%d PA", cost))
	}
	if len(targets) > 0 {
		parts = append(parts, "targets "+strings.Join(targets, ", "))
	}
	s := head
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	if desc != "" {
		s += " — " + desc
	}
	if rule != "" {
		s += " (" + rule + ")"
	}
	return s
}
