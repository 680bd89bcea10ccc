package d20seg

import (
	"slices"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// CopyState gives dst a copy of src's d20seg state that Evolve changes without changing src's
// (engine.StateCopier): written out field by field, without proto.Clone's reflection, for
// every fold of a command (the service's and the resolver's). Any other system's part is not
// copied: Evolve replaces it with a d20seg state anyway.
func (System) CopyState(dst, src *encounterv1.EncounterState) {
	dst.System = nil
	if s := src.GetD20Seg(); s != nil {
		dst.System = &encounterv1.EncounterState_D20Seg{D20Seg: copyState(s)}
	}
}

func copyState(s *d20segv1.State) *d20segv1.State {
	out := &d20segv1.State{Round: s.Round, DelayedSpells: slices.Clone(s.DelayedSpells), SurpriseDeclared: s.SurpriseDeclared}
	if s.Combatants != nil {
		out.Combatants = make(map[string]*d20segv1.CombatantState, len(s.Combatants))
		for id, cs := range s.Combatants {
			out.Combatants[id] = copyCombatant(cs)
		}
	}
	engine.CopyUnknown(out, s)
	return out
}

func copyCombatant(cs *d20segv1.CombatantState) *d20segv1.CombatantState {
	if cs == nil {
		return nil
	}
	out := &d20segv1.CombatantState{
		Initiative: cs.Initiative, TieOrder: cs.TieOrder, HitPoints: cs.HitPoints, Down: cs.Down,
		NextSegment: cs.NextSegment, AttacksThisRound: cs.AttacksThisRound, EndedTurn: cs.EndedTurn,
		Surprised: cs.Surprised, FreeActionLeft: cs.FreeActionLeft, Bystander: cs.Bystander,
	}
	engine.CopyUnknown(out, cs)
	return out
}
