package loss

import (
	"fmt"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/fight"
	"golang.org/x/text/language"
)

// CostUnit: its costs are action points (PA, LOS-030, LOS-035): a combatant's phase is its PA left (LOS-031).
func (System) CostUnit() engine.CostUnit { return engine.CostUnit{One: "PA", Many: "PA"} }

// Tracker: the Tour, its Séquence and the phase being played (LOS-031, LOS-034); each
// combatant's PA, NS boxes left (light / grave / fatal; a Sbire's NS, LOS-024) and Fursa, and
// what keeps it from acting.
func (System) Tracker(view *encounterv1.EncounterState, _ engine.Viewer, lang language.Tag) *rulesetv1.Tracker {
	ls := view.GetLoss()
	t := &rulesetv1.Tracker{Header: []string{"PA", "NS", "Fursa"}}
	if ls.GetTour() > 0 {
		// The phase is the most PA left among those who have not passed (LOS-031), over the
		// combatants whose numbers the reader sees: a hidden one's PA are not told.
		var phase int32
		for _, c := range view.GetCombatants() {
			if cs := ls.GetCombatants()[c.GetId()]; c.GetSheet() != nil && cs != nil && !cs.GetPassed() && !cs.GetOut() {
				phase = max(phase, cs.GetActionPoints())
			}
		}
		t.Turn = fmt.Sprintf("Tour %d · Séquence %d · phase %d PA", ls.GetTour(), max(ls.GetSequence(), 1), phase)
	}
	fight.Rows(t, view, ls.GetCombatants(), func(c *encounterv1.Combatant, cs *lossv1.CombatantState) ([]string, []string) {
		ns := fmt.Sprintf("%d / %d / %d", cs.GetLight(), cs.GetGrave(), cs.GetFatal())
		if c.GetLoss().GetKind() == lossv1.CombatantKind_COMBATANT_KIND_SBIRE {
			ns = fmt.Sprint(cs.GetHealth())
		}
		fursa := ""
		if cs.GetFursa() != 0 {
			fursa = fmt.Sprint(cs.GetFursa())
		}
		is := engine.Conditions{Lang: lang}
		is.Add(cs.GetPassed(), "passed", "passe")
		is.Add(cs.GetOut(), "out of the fight", "hors de combat")
		is.Add(cs.GetProne(), "prone", "à terre")
		is.Add(cs.GetDisarmed(), "disarmed", "désarmé")
		return []string{fmt.Sprint(cs.GetActionPoints()), ns, fursa}, is.Words
	})
	return t
}
