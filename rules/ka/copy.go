package ka

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// CopyState gives dst a copy of src's Ka state that Evolve changes without changing src's
// (engine.StateCopier): written out field by field, without proto.Clone's reflection, for
// every fold of a command (the service's and the resolver's). Shared: the cards (Evolve adds
// new ones to the discard, never changes one) and the attack awaiting its answers (set once,
// a copy, when it is declared). Any other system's part is not copied: Evolve replaces it with
// a Ka state anyway.
func (System) CopyState(dst, src *encounterv1.EncounterState) {
	dst.System = nil
	if s := src.GetKa(); s != nil {
		dst.System = &encounterv1.EncounterState_Ka{Ka: copyState(s)}
	}
}

func copyState(s *kav1.State) *kav1.State {
	out := &kav1.State{
		Round: s.Round, PassNumber: s.PassNumber, Deck: slices.Clone(s.Deck), Discard: slices.Clone(s.Discard),
		Position: s.Position, Pending: copyPending(s.Pending), DeckCount: s.DeckCount, UpNext: slices.Clone(s.UpNext),
	}
	if s.Combatants != nil {
		out.Combatants = make(map[string]*kav1.CombatantState, len(s.Combatants))
		for id, cs := range s.Combatants {
			out.Combatants[id] = copyCombatant(cs)
		}
	}
	engine.CopyUnknown(out, s)
	return out
}

// copyPending copies the attack awaiting its answers: Evolve changes who answers next and
// adds the answers in place.
func copyPending(p *kav1.Pending) *kav1.Pending {
	if p == nil {
		return nil
	}
	out := &kav1.Pending{
		AttackerId: p.AttackerId, DefenderId: p.DefenderId, Attack: p.Attack, QueuedIds: slices.Clone(p.QueuedIds),
		ActionsTaken: p.ActionsTaken, Answers: slices.Clone(p.Answers),
	}
	engine.CopyUnknown(out, p)
	return out
}

func copyCombatant(cs *kav1.CombatantState) *kav1.CombatantState {
	if cs == nil {
		return nil
	}
	out := &kav1.CombatantState{
		KaDice: cs.KaDice, RealityPoints: cs.RealityPoints, ActionsLeft: cs.ActionsLeft, ActionsTaken: cs.ActionsTaken,
		ActedThisPass: cs.ActedThisPass, Passed: cs.Passed, Unconscious: cs.Unconscious, Abysse: cs.Abysse,
		Dying: cs.Dying, StillActs: cs.StillActs, WeaponsLost: slices.Clone(cs.WeaponsLost),
		WeaponsLostAtOnce: slices.Clone(cs.WeaponsLostAtOnce),
	}
	engine.CopyUnknown(out, cs)
	return out
}
