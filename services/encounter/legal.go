package encounter

// What combatants may do now: legal_for and legal_for_all of GetEncounter.

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/platform/refusal"
)

// legal fills out with what the request asks of what combatants may do in st: for legal_for,
// that combatant's actions (for those who may command it now: its player, the GMs); for
// legal_for_all, who may act and whose answer a pending attack waits for, among the
// combatants the caller sees whole, and the actions of each of them the caller may command.
func (s *Service) legal(now, st *encounterv1.EncounterState, who caller, req *encounterv1.GetEncounterRequest, out *encounterv1.GetEncounterResponse) error {
	var withOdds []string // the actions GetOdds answers for
	if sys, err := s.reg.Lookup(st.GetRuleSystem(), st.GetRulesVersion()); err == nil {
		withOdds = sys.WithOdds()
	}
	if c := req.GetLegalFor(); c != "" {
		if err := engine.MayCommand(now, who.principal, c); err != nil {
			return refusal.Status(err)
		}
		list, err := s.reg.LegalCommands(st, c)
		if err != nil {
			return refusal.Status(err)
		}
		out.Legal = engine.Actions(list)
		if len(list) > 0 {
			out.Actions = append(out.Actions, combatantActions(c, list, withOdds))
		}
	}
	if !req.GetLegalForAll() {
		return nil
	}
	v := viewer(now, who.principal)
	for _, c := range st.GetCombatants() {
		if !v.Sees(engine.FindCombatant(now, c.GetId())) || !v.Sees(c) {
			continue
		}
		list, err := s.reg.LegalCommands(st, c.GetId())
		if err != nil {
			return refusal.Status(err)
		}
		if len(list) == 0 {
			continue
		}
		out.MayAct = append(out.MayAct, c.GetId())
		if slices.ContainsFunc(list, func(l engine.LegalCommand) bool { return l.Action.GetReaction() }) {
			out.AwaitingReaction = append(out.AwaitingReaction, c.GetId())
		}
		if c.GetId() != req.GetLegalFor() && engine.MayCommand(now, who.principal, c.GetId()) == nil {
			out.Actions = append(out.Actions, combatantActions(c.GetId(), list, withOdds))
		}
	}
	return nil
}

func combatantActions(id string, list []engine.LegalCommand, withOdds []string) *encounterv1.CombatantActions {
	ca := &encounterv1.CombatantActions{CombatantId: id}
	for _, l := range list {
		ca.Actions = append(ca.Actions, &encounterv1.LegalCommand{Action: l.Action, Command: l.Command, Odds: slices.Contains(withOdds, l.Action.GetKey())})
	}
	return ca
}
