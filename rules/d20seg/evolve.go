package d20seg

import (
	"fmt"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
)

// Evolve folds the d20seg part of an event.
func (sys System) Evolve(st *encounterv1.EncounterState, ev *encounterv1.Event) error {
	s := segState(st)
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_CombatantAdded:
		c := p.CombatantAdded.GetCombatant()
		s.Combatants[c.GetId()] = &d20segv1.CombatantState{HitPoints: c.GetD20Seg().GetHitPoints(), Initiative: sys.Initiative(c.GetD20Seg())}
	case *encounterv1.Event_CombatantRemoved:
		delete(s.Combatants, p.CombatantRemoved.GetCombatantId())
	case *encounterv1.Event_D20Seg:
		return sys.evolve(st, s, p.D20Seg)
	}
	return nil
}

func spend(cs *d20segv1.CombatantState, cost int32, free bool) {
	if free {
		cs.FreeActionLeft = false
		return
	}
	cs.NextSegment += cost
}

func (sys System) evolve(st *encounterv1.EncounterState, s *d20segv1.State, e *d20segv1.Event) error {
	get := func(id string) (*d20segv1.CombatantState, error) {
		cs := s.GetCombatants()[id]
		if cs == nil {
			return nil, fmt.Errorf("no combatant %s", id)
		}
		return cs, nil
	}
	switch k := e.GetKind().(type) {
	case *d20segv1.Event_CombatStarted:
		for _, in := range k.CombatStarted.GetInitiative() {
			cs, err := get(in.GetCombatantId())
			if err != nil {
				return err
			}
			cs.Initiative, cs.TieOrder = in.GetInitiative(), in.GetTieOrder()
		}
	case *d20segv1.Event_SurpriseRoundStarted:
		s.Round = 0
		for _, cs := range s.GetCombatants() {
			cs.NextSegment, cs.AttacksThisRound, cs.EndedTurn = sys.n.FirstSegment, 0, false
		}
		for _, id := range k.SurpriseRoundStarted.GetAttackerIds() {
			cs, err := get(id)
			if err != nil {
				return err
			}
			cs.FreeActionLeft = true
		}
		s.SurpriseDeclared = true
		for _, ar := range k.SurpriseRoundStarted.GetApprehension() {
			cs, err := get(ar.GetDefenderId())
			if err != nil {
				return err
			}
			cs.Surprised = ar.GetSurprised()
		}
		for _, id := range k.SurpriseRoundStarted.GetBystanderIds() {
			cs, err := get(id)
			if err != nil {
				return err
			}
			cs.Bystander = true
		}
	case *d20segv1.Event_RoundStarted:
		s.Round = k.RoundStarted.GetRound()
		s.DelayedSpells = nil
		for _, f := range fighters(st) {
			f.cs.NextSegment, f.cs.AttacksThisRound, f.cs.EndedTurn = sys.first(f, s.Round), 0, false
			f.cs.Surprised, f.cs.FreeActionLeft, f.cs.Bystander = false, false, false
		}
		for _, c := range k.RoundStarted.GetCarried() { // D20-020
			cs, err := get(c.GetCombatantId())
			if err != nil {
				return err
			}
			cs.NextSegment += c.GetSegments()
		}
	case *d20segv1.Event_AttackRolled:
		a := k.AttackRolled
		cs, err := get(a.GetAttackerId())
		if err != nil {
			return err
		}
		spend(cs, a.GetCost(), a.GetFree())
		if !a.GetFree() {
			cs.AttacksThisRound++
		}
		t, err := get(a.GetTargetId())
		if err != nil {
			return err
		}
		if a.GetHit() {
			t.HitPoints, t.Down = a.GetHitPointsLeft(), a.GetDown()
		}
	case *d20segv1.Event_SpellCast:
		c := k.SpellCast
		cs, err := get(c.GetCombatantId())
		if err != nil {
			return err
		}
		spend(cs, c.GetCost(), c.GetFree())
		if c.GetNextRound() {
			s.DelayedSpells = append(s.DelayedSpells, c.GetSpell())
		}
	case *d20segv1.Event_OtherDone:
		cs, err := get(k.OtherDone.GetCombatantId())
		if err != nil {
			return err
		}
		spend(cs, k.OtherDone.GetCost(), k.OtherDone.GetFree())
	case *d20segv1.Event_TurnEnded:
		cs, err := get(k.TurnEnded.GetCombatantId())
		if err != nil {
			return err
		}
		cs.EndedTurn = true
		cs.FreeActionLeft = false // ending its turn, an attacker forgoes its free action (D20-004)
	default:
		return fmt.Errorf("unknown d20seg event %T", k)
	}
	return nil
}
