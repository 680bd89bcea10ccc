package d20seg

import (
	"fmt"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine/fight"
)

// Evolve folds the d20seg part of an event: a combatant joining or leaving, then its own
// events (evolve).
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

// evolve folds one d20seg event, one named function an event.
func (sys System) evolve(st *encounterv1.EncounterState, s *d20segv1.State, e *d20segv1.Event) error {
	switch k := e.GetKind().(type) {
	case *d20segv1.Event_CombatStarted:
		return applyCombatStarted(s, k.CombatStarted)
	case *d20segv1.Event_SurpriseRoundStarted:
		return sys.applySurpriseRoundStarted(s, k.SurpriseRoundStarted)
	case *d20segv1.Event_RoundStarted:
		return sys.applyRoundStarted(st, s, k.RoundStarted)
	case *d20segv1.Event_AttackRolled:
		return applyAttackRolled(s, k.AttackRolled)
	case *d20segv1.Event_SpellCast:
		return applySpellCast(s, k.SpellCast)
	case *d20segv1.Event_OtherDone:
		return applyOtherDone(s, k.OtherDone)
	case *d20segv1.Event_TurnEnded:
		return applyTurnEnded(s, k.TurnEnded)
	default:
		return fmt.Errorf("unknown d20seg event %T", k)
	}
}

// combatantState is the state of the combatant an event names; an error when it has none.
func combatantState(s *d20segv1.State, id string) (*d20segv1.CombatantState, error) {
	return fight.CombatantState(s.GetCombatants(), id)
}

// spend: an action takes its segments (D20-015), or the surprise round's free action (D20-004).
func spend(cs *d20segv1.CombatantState, cost int32, free bool) {
	if free {
		cs.FreeActionLeft = false
		return
	}
	cs.NextSegment += cost
}

// applyCombatStarted: the Initiative fixed for the combat, ties broken by the roll-off
// (D20-010…D20-012).
func applyCombatStarted(s *d20segv1.State, e *d20segv1.CombatStarted) error {
	for _, in := range e.GetInitiative() {
		cs, err := combatantState(s, in.GetCombatantId())
		if err != nil {
			return err
		}
		cs.Initiative, cs.TieOrder = in.GetInitiative(), in.GetTieOrder()
	}
	return nil
}

// applySurpriseRoundStarted: round 0, the surprise round (D20-004): every combatant from the
// first segment, the attackers with a free action, the defenders surprised or not by their
// apprehension rolls (D20-003, D20-005), the others bystanders (D20-003).
func (sys System) applySurpriseRoundStarted(s *d20segv1.State, e *d20segv1.SurpriseRoundStarted) error {
	s.Round = 0
	for _, cs := range s.GetCombatants() {
		cs.NextSegment, cs.AttacksThisRound, cs.EndedTurn = sys.n.FirstSegment, 0, false
	}
	for _, id := range e.GetAttackerIds() {
		cs, err := combatantState(s, id)
		if err != nil {
			return err
		}
		cs.FreeActionLeft = true
	}
	s.SurpriseDeclared = true
	for _, ar := range e.GetApprehension() {
		cs, err := combatantState(s, ar.GetDefenderId())
		if err != nil {
			return err
		}
		cs.Surprised = ar.GetSurprised()
	}
	for _, id := range e.GetBystanderIds() {
		cs, err := combatantState(s, id)
		if err != nil {
			return err
		}
		cs.Bystander = true
	}
	return nil
}

// applyRoundStarted: a new round, everyone from its first segment with no attack made yet
// (D20-013…D20-015), the surprise over, the spells cast for it taking effect (D20-019), and
// the segments an action carried over taken of it (D20-020).
func (sys System) applyRoundStarted(st *encounterv1.EncounterState, s *d20segv1.State, e *d20segv1.RoundStarted) error {
	s.Round = e.GetRound()
	s.DelayedSpells = nil
	for _, f := range fighters(st) {
		f.cs.NextSegment, f.cs.AttacksThisRound, f.cs.EndedTurn = sys.first(f, s.Round), 0, false
		f.cs.Surprised, f.cs.FreeActionLeft, f.cs.Bystander = false, false, false
	}
	for _, c := range e.GetCarried() { // D20-020
		cs, err := combatantState(s, c.GetCombatantId())
		if err != nil {
			return err
		}
		cs.NextSegment += c.GetSegments()
	}
	return nil
}

// applyAttackRolled: the attack takes its segments and counts for the next one's cost
// (D20-017); a hit takes the target's hit points, perhaps down (D20-044).
func applyAttackRolled(s *d20segv1.State, a *d20segv1.AttackRolled) error {
	cs, err := combatantState(s, a.GetAttackerId())
	if err != nil {
		return err
	}
	spend(cs, a.GetCost(), a.GetFree())
	if !a.GetFree() {
		cs.AttacksThisRound++
	}
	t, err := combatantState(s, a.GetTargetId())
	if err != nil {
		return err
	}
	if a.GetHit() {
		t.HitPoints, t.Down = a.GetHitPointsLeft(), a.GetDown()
	}
	return nil
}

// applySpellCast: the casting time in segments (D20-018); a spell for the next round waits for
// it (D20-019).
func applySpellCast(s *d20segv1.State, c *d20segv1.SpellCast) error {
	cs, err := combatantState(s, c.GetCombatantId())
	if err != nil {
		return err
	}
	spend(cs, c.GetCost(), c.GetFree())
	if c.GetNextRound() {
		s.DelayedSpells = append(s.DelayedSpells, c.GetSpell())
	}
	return nil
}

// applyOtherDone: another action takes its segments (D20-022).
func applyOtherDone(s *d20segv1.State, e *d20segv1.OtherDone) error {
	cs, err := combatantState(s, e.GetCombatantId())
	if err != nil {
		return err
	}
	spend(cs, e.GetCost(), e.GetFree())
	return nil
}

// applyTurnEnded: the combatant is done for the round (D20-016); an attacker forgoes its free
// action (D20-004).
func applyTurnEnded(s *d20segv1.State, e *d20segv1.TurnEnded) error {
	cs, err := combatantState(s, e.GetCombatantId())
	if err != nil {
		return err
	}
	cs.EndedTurn = true
	cs.FreeActionLeft = false // ending its turn, an attacker forgoes its free action (D20-004)
	return nil
}
