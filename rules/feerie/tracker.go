package feerie

import (
	"fmt"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/fight"
	"golang.org/x/text/language"
)

// CostUnit: its costs are ranks: acting k ranks early is paid −k (FEE-050).
func (System) CostUnit() engine.CostUnit { return engine.CostUnit{One: "rank", Many: "ranks"} }

// Tracker: the Action, the rank the countdown is at and who acts there (FEE-045); each
// combatant's Essence and acting rank, its conditions (special strikes, FEE-149), its tactic
// (FEE-034) and whether it is prone or helpless.
func (System) Tracker(view *encounterv1.EncounterState, _ engine.Viewer, lang language.Tag) *rulesetv1.Tracker {
	fs := view.GetFeerie()
	t := &rulesetv1.Tracker{Header: []string{"Essence", "rang"}}
	if fs.GetAction() > 0 {
		t.Turn = fmt.Sprintf("Action %d · rang %d", fs.GetAction(), fs.GetRank())
		var here []string
		for _, c := range view.GetCombatants() {
			if cs := fs.GetCombatants()[c.GetId()]; cs.GetActingRank() == fs.GetRank() && cs.GetCanAct() {
				here = append(here, c.GetName())
			}
		}
		if len(here) > 0 {
			t.Turn += " : " + strings.Join(here, ", ")
		}
	}
	fight.Rows(t, view, fs.GetCombatants(), func(c *encounterv1.Combatant, cs *feeriev1.CombatantState) ([]string, []string) {
		var is []string
		for _, cond := range cs.GetConditions() {
			is = append(is, strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(cond.GetStrike().String(), "SPECIAL_STRIKE_")), "_", " "))
		}
		if tc := cs.GetTactic(); tc.GetPreset() != "" {
			is = append(is, tc.GetPreset())
		} else if tc.GetInitiative() != 0 || tc.GetAttack() != 0 || tc.GetDefense() != 0 {
			is = append(is, fmt.Sprintf("%s Initiative %+d, Attack %+d, Defense %+d", engine.Word(lang, "tactic", "tactique"), tc.GetInitiative(), tc.GetAttack(), tc.GetDefense()))
		}
		more := engine.Conditions{Lang: lang, Words: is}
		more.Add(cs.GetProne(), "prone", "à terre")
		more.Add(cs.GetHelpless(), "helpless", "sans défense")
		return []string{fmt.Sprint(cs.GetEssence()), fmt.Sprint(cs.GetActingRank())}, more.Words
	})
	return t
}
