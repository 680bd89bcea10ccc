package loss

import (
	"maps"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// CopyState gives dst a copy of src's Loss state that Evolve changes without changing src's
// (engine.StateCopier): written out field by field, several times faster than proto.Clone.
// The attacks awaiting a reaction are shared: Evolve replaces them, never changes one. Any
// other system's part is not copied: Evolve replaces it with a Loss state anyway.
func (System) CopyState(dst, src *encounterv1.EncounterState) {
	dst.System = nil
	if s := src.GetLoss(); s != nil {
		dst.System = &encounterv1.EncounterState_Loss{Loss: copyState(s)}
	}
}

func copyState(s *lossv1.State) *lossv1.State {
	out := &lossv1.State{
		Tour: s.Tour, Sequence: s.Sequence, Pending: s.Pending, GmFursa: s.GmFursa, Queued: slices.Clone(s.Queued),
		Pursuit: copyPursuit(s.Pursuit), Declaring: s.Declaring, FailedExploitBy: s.FailedExploitBy,
	}
	if s.Combatants != nil {
		out.Combatants = make(map[string]*lossv1.CombatantState, len(s.Combatants))
		for id, cs := range s.Combatants {
			out.Combatants[id] = copyCombatant(cs)
		}
	}
	engine.CopyUnknown(out, s)
	return out
}

func copyPursuit(p *lossv1.Pursuit) *lossv1.Pursuit {
	if p == nil {
		return nil
	}
	out := &lossv1.Pursuit{
		PursuerIds: slices.Clone(p.PursuerIds), PursuedIds: slices.Clone(p.PursuedIds), Distance: p.Distance,
		Zigzag: p.Zigzag, ZigzagBy: p.ZigzagBy,
	}
	engine.CopyUnknown(out, p)
	return out
}

func copyCombatant(cs *lossv1.CombatantState) *lossv1.CombatantState {
	if cs == nil {
		return nil
	}
	out := &lossv1.CombatantState{
		ActionPoints: cs.ActionPoints, InitiativeTotal: cs.InitiativeTotal, Passed: cs.Passed,
		Light: cs.Light, Grave: cs.Grave, Fatal: cs.Fatal, Health: cs.Health, Out: cs.Out,
		Fursa: cs.Fursa, Inspiration: maps.Clone(cs.Inspiration), NextActionBonus: cs.NextActionBonus,
		Prone: cs.Prone, Disarmed: cs.Disarmed, DisarmedTour: cs.DisarmedTour,
		LastingDifficulty: cs.LastingDifficulty, Feints: maps.Clone(cs.Feints), Wall: cs.Wall,
		Advantage: cs.Advantage, ProtectBonus: cs.ProtectBonus, Countered: slices.Clone(cs.Countered),
		AimBonus: cs.AimBonus, AimWeapon: cs.AimWeapon, AimTourBonus: cs.AimTourBonus,
		AssautUsed: cs.AssautUsed, WaitDiscount: cs.WaitDiscount, Declared: cs.Declared,
		Intention: cs.Intention, Joining: cs.Joining, Dying: cs.Dying, Dead: cs.Dead,
		Neutralised: cs.Neutralised, OwedPhase: cs.OwedPhase, FreeRaises: cs.FreeRaises,
		FelledBy: cs.FelledBy, Watched: cs.Watched, MeleeAttackers: slices.Clone(cs.MeleeAttackers),
		AimTourWeapon: cs.AimTourWeapon, Acted: cs.Acted, Parried: cs.Parried,
	}
	engine.CopyUnknown(out, cs)
	return out
}
