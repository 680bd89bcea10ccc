package feerie

import (
	"fmt"
	"math"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine/fight"
	"google.golang.org/protobuf/proto"
)

// Evolve folds the Contes de Fées part of an event: a combatant joining or leaving, then its
// own events (evolve).
func (sys System) Evolve(st *encounterv1.EncounterState, ev *encounterv1.Event) error {
	s := feerieState(st)
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_CombatantAdded:
		c := p.CombatantAdded.GetCombatant()
		s.Combatants[c.GetId()] = &feeriev1.CombatantState{Essence: c.GetFeerie().GetEssence()}
	case *encounterv1.Event_CombatantRemoved:
		id := p.CombatantRemoved.GetCombatantId()
		delete(s.Combatants, id)
		withdraw(s, id)
	case *encounterv1.Event_Feerie:
		return sys.evolve(st, s, p.Feerie)
	}
	return nil
}

// evolve folds one Contes de Fées event, one named function an event.
func (sys System) evolve(st *encounterv1.EncounterState, s *feeriev1.State, e *feeriev1.Event) error {
	switch k := e.GetKind().(type) {
	case *feeriev1.Event_ActionStarted:
		applyActionStarted(st, s, k.ActionStarted)
	case *feeriev1.Event_Declared:
		return applyDeclared(s, k.Declared)
	case *feeriev1.Event_Surprised:
		return applySurprised(s, k.Surprised)
	case *feeriev1.Event_CountdownStarted:
		return applyCountdownStarted(s, k.CountdownStarted)
	case *feeriev1.Event_IntentionChanged:
		return sys.applyIntentionChanged(s, k.IntentionChanged)
	case *feeriev1.Event_ActivityQueued:
		return sys.applyActivityQueued(s, k.ActivityQueued)
	case *feeriev1.Event_ActivityResolved:
		return sys.applyActivityResolved(st, s, k.ActivityResolved)
	case *feeriev1.Event_RankAdvanced:
		applyRankAdvanced(s, k.RankAdvanced)
	case *feeriev1.Event_Impersonal:
		return applyImpersonal(s, k.Impersonal)
	case *feeriev1.Event_TacticRuled:
		return applyTacticRuled(s, k.TacticRuled)
	case *feeriev1.Event_BecameObject:
		return applyBecameObject(s, k.BecameObject)
	case *feeriev1.Event_Gestured: // free: no state (FEE-047)
	case *feeriev1.Event_UnseenRolled:
		return applyUnseenRolled(s, k.UnseenRolled)
	case *feeriev1.Event_HelplessRuled:
		return applyHelplessRuled(s, k.HelplessRuled)
	case *feeriev1.Event_Renounced:
		return applyRenounced(s, k.Renounced)
	default:
		return fmt.Errorf("unknown Contes de Fées event %T", k)
	}
	return nil
}

// combatantState is the state of the combatant an event names; an error when it has none.
func combatantState(s *feeriev1.State, id string) (*feeriev1.CombatantState, error) {
	return fight.CombatantState(s.GetCombatants(), id)
}

// withdraw takes id's activities out of the queue of this rank.
func withdraw(s *feeriev1.State, id string) {
	s.Queue = slices.DeleteFunc(s.Queue, func(q *feeriev1.Queued) bool { return q.GetCombatantId() == id })
}

// applyActionStarted: step 1 of a new Action (FEE-040): a surprise wears off by an Action
// (FEE-080, FEE-082), the penalties promised to this Action apply (FEE-062, FEE-073), and what
// held for the last one is gone: declarations, activities, anticipations (FEE-050), changes,
// aim, the engagements of the Action (FEE-175), a relentless strike where the option ends it
// with the Action (FEE-177), the Initiative, the unseen attacker's bonus (FEE-081).
func applyActionStarted(st *encounterv1.EncounterState, s *feeriev1.State, e *feeriev1.ActionStarted) {
	s.Action, s.Step, s.Rank, s.TopRank, s.Queue = e.GetAction(), feeriev1.Step_STEP_DECLARING, 0, 0, nil
	for _, cs := range s.GetCombatants() {
		if s.Action > 1 && cs.GetSurprisedActions() > 0 {
			cs.SurprisedActions--
			if cs.SurprisedActions == 0 {
				cs.SurpriseNoActivity = false
			}
		}
		cs.ThisAction, cs.NextAction = cs.GetNextAction(), 0 // FEE-062, FEE-073
		cs.HasDeclared, cs.Declared, cs.Activities, cs.LastRank, cs.Penalties = false, nil, 0, 0, nil
		cs.Renounced, cs.ChangeMalus, cs.Aim = false, 0, 0
		if !house(st).GetAnglesWholeFight() { // engaged for the Action (FEE-175), or the fight
			cs.EngagedBy = nil
		}
		if house(st).GetRelentlessEndsWithAction() { // the option of FEE-177
			cs.Relentless = false
		}
		cs.Initiative, cs.ActingRank, cs.CanAct = 0, 0, false
		cs.UnseenBonus, cs.UnseenVictims = 0, nil       // FEE-081: for the one Action
		cs.Aggressors, cs.LastTacticInitiative = nil, 0 // FEE-175, FEE-074
	}
}

// applyDeclared: the intention and tactic declared at step 1 hold for the Action (FEE-033); a
// melee intention makes its target watch the declarer (FEE-175).
func applyDeclared(s *feeriev1.State, e *feeriev1.Declared) error {
	cs, err := combatantState(s, e.GetCombatantId())
	if err != nil {
		return err
	}
	cs.HasDeclared, cs.Declared = true, proto.CloneOf(e.GetIntent())
	cs.Tactic = proto.CloneOf(cs.Declared.GetTactic())
	watch(s, e.GetCombatantId(), cs.GetDeclared()) // FEE-175
	return nil
}

// applySurprised: the GM's ruling on surprise, for how many Actions and whether it forbids any
// activity (FEE-080, FEE-082).
func applySurprised(s *feeriev1.State, e *feeriev1.Surprised) error {
	cs, err := combatantState(s, e.GetCombatantId())
	if err != nil {
		return err
	}
	cs.SurprisedActions, cs.SurpriseNoActivity = e.GetActions(), e.GetNoActivity()
	return nil
}

// applyCountdownStarted: step 3 from the highest Initiative rolled (FEE-041); each one's
// Initiative is its acting rank (FEE-042), and what FEE-044's tie-breakers need is kept: the
// Affinities applied, the tactic's modifier, the net die; the tactic's modifier also for a
// change of tactic (FEE-071).
func applyCountdownStarted(s *feeriev1.State, c *feeriev1.CountdownStarted) error {
	s.Step, s.TopRank, s.Rank = feeriev1.Step_STEP_COUNTDOWN, c.GetTopRank(), c.GetTopRank()
	for _, ir := range c.GetInitiative() {
		cs, err := combatantState(s, ir.GetCombatantId())
		if err != nil {
			return err
		}
		r := ir.GetResult()
		cs.Initiative, cs.ActingRank, cs.CanAct = r.GetTotal(), r.GetTotal(), ir.GetCanAct()
		cs.InitiativeDie = r.GetTotal() - r.GetScore()
		cs.InitiativeTactic = cs.GetTactic().GetInitiative() // FEE-071
		var applied int32
		for _, m := range r.GetModifiers() {
			if m.GetRule() == "FEE-010" && m.GetReason() != "Vigilance" {
				applied += m.GetValue()
			}
		}
		cs.InitiativeApplied = applied
	}
	return nil
}

// applyIntentionChanged: the new intention and tactic from the declaration (FEE-072), its new
// acting rank (FEE-071), −4 on Defense from now and on the next Action (FEE-070, FEE-073), −8
// when a further activity is declared so (FEE-074).
func (sys System) applyIntentionChanged(s *feeriev1.State, c *feeriev1.IntentionChanged) error {
	cs, err := combatantState(s, c.GetCombatantId())
	if err != nil {
		return err
	}
	cs.Declared, cs.Tactic = proto.CloneOf(c.GetIntent()), proto.CloneOf(c.GetIntent().GetTactic()) // FEE-072
	watch(s, c.GetCombatantId(), c.GetIntent())                                                     // FEE-175
	cs.ActingRank = c.GetActingRank()
	p := &feeriev1.Penalty{FromRank: c.GetRank(), Defense: sys.n.ChangeMalus, Reason: "change of intention"}
	if cs.GetActivities() > 0 && cs.GetChangeMalus() == 0 { // a further activity declared: −8 from now (FEE-074)
		p.Defense += sys.n.SupplementaryMalus
	}
	cs.ChangeMalus += sys.n.ChangeMalus
	cs.Penalties = append(cs.Penalties, p)
	cs.NextAction += sys.n.ChangeMalus
	return nil
}

// applyActivityQueued: the activity waits for its rank's resolution; its anticipation weighs
// on the later rolls and Defense (FEE-050), a further activity and a change of intention on
// Defense and the next Action (FEE-061, FEE-062, FEE-070, FEE-073, FEE-074); the Essence spent
// is lost (FEE-005).
func (sys System) applyActivityQueued(s *feeriev1.State, e *feeriev1.ActivityQueued) error {
	q := e.GetQueued()
	cs, err := combatantState(s, q.GetCombatantId())
	if err != nil {
		return err
	}
	s.Queue = append(s.Queue, q)
	n := cs.GetActivities()
	cs.Activities++
	cs.LastRank = q.GetRank()
	cs.ChangeMalus = 0
	p := &feeriev1.Penalty{FromRank: q.GetRank(), Rolls: q.GetAnticipation(), Defense: q.GetAnticipation(), Reason: "activity"}
	if n > 0 { // FEE-061, FEE-062
		if !q.GetDeclaredChange() { // else taken from the declaration (FEE-074)
			p.Defense += sys.n.SupplementaryMalus
		}
		cs.NextAction += sys.n.SupplementaryMalus
	}
	if q.GetChangeOfIntention() { // FEE-070, FEE-073
		p.Defense += sys.n.ChangeMalus
		cs.NextAction += sys.n.ChangeMalus
		cs.Declared, cs.Tactic = proto.CloneOf(q.GetAct().GetIntent()), proto.CloneOf(q.GetAct().GetIntent().GetTactic())
	}
	if p.GetRolls() != 0 || p.GetDefense() != 0 {
		cs.Penalties = append(cs.Penalties, p)
	}
	cs.LastTacticInitiative = cs.GetTactic().GetInitiative() // FEE-074
	watch(s, q.GetCombatantId(), q.GetAct().GetIntent())     // FEE-175
	cs.Essence -= q.GetAct().GetEssence()                    // FEE-005
	return nil
}

// applyRankAdvanced: the countdown moves down; what wanes by rank wanes by the ranks left
// behind (FEE-153, FEE-155, FEE-179).
func applyRankAdvanced(s *feeriev1.State, r *feeriev1.RankAdvanced) {
	s.Queue = nil
	passed := r.GetFromRank() - r.GetToRank() // the ranks left behind; rank 0 is never left so (FEE-179)
	s.Rank = r.GetToRank()
	for _, cs := range s.GetCombatants() {
		decay(cs, passed)
	}
}

// applyImpersonal: an impersonal event's Essence loss (FEE-046).
func applyImpersonal(s *feeriev1.State, e *feeriev1.ImpersonalHappened) error {
	cs, err := combatantState(s, e.GetTargetId())
	if err != nil {
		return err
	}
	cs.Essence -= e.GetEssenceLost()
	return nil
}

// applyTacticRuled folds the GM's ruling (FEE-036): a tactic cancelled or changed, with its
// acting rank in the countdown; a malus on the rolls from the rank of the ruling, or the whole
// Action at step 1.
func applyTacticRuled(s *feeriev1.State, r *feeriev1.TacticRuled) error {
	cs, err := combatantState(s, r.GetCombatantId())
	if err != nil {
		return err
	}
	if r.GetCancelTactic() || r.GetTactic() != nil {
		cs.Tactic = proto.CloneOf(r.GetTactic())
		if cs.Declared != nil {
			cs.Declared.Tactic = proto.CloneOf(r.GetTactic())
		}
		if s.GetStep() == feeriev1.Step_STEP_COUNTDOWN {
			cs.ActingRank = r.GetActingRank()
		}
	}
	if r.GetMalus() > 0 {
		from := r.GetRank()
		if from == 0 { // at step 1: the whole Action
			from = math.MaxInt32
		}
		cs.Penalties = append(cs.Penalties, &feeriev1.Penalty{FromRank: from, Rolls: r.GetMalus(), Reason: "the GM's malus: " + r.GetReason()})
	}
	return nil
}

// applyBecameObject: a Power makes the character an inanimate object, which renounces every
// activity, or ends (FEE-026).
func applyBecameObject(s *feeriev1.State, b *feeriev1.BecameObject) error {
	cs, err := combatantState(s, b.GetCombatantId())
	if err != nil {
		return err
	}
	cs.Inanimate, cs.InanimatePower = !b.GetEnd(), b.GetPower() // FEE-026
	if b.GetEnd() {
		cs.InanimatePower = ""
	} else {
		cs.Renounced = true
		withdraw(s, b.GetCombatantId())
	}
	return nil
}

// applyUnseenRolled: the unseen attacker's Initiative bonus, one roll per victim (FEE-081).
func applyUnseenRolled(s *feeriev1.State, e *feeriev1.UnseenRolled) error {
	cs, err := combatantState(s, e.GetCombatantId())
	if err != nil {
		return err
	}
	cs.UnseenBonus = e.GetInitiativeBonus()
	cs.UnseenVictims = append(cs.UnseenVictims, e.GetVictimId()) // one roll per victim (FEE-081)
	return nil
}

// applyHelplessRuled: the GM rules a combatant helpless or no longer (FEE-022); a helpless one
// cannot act, and its activity at this rank is gone (FEE-024).
func applyHelplessRuled(s *feeriev1.State, h *feeriev1.HelplessRuled) error {
	cs, err := combatantState(s, h.GetCombatantId())
	if err != nil {
		return err
	}
	cs.Helpless, cs.HelplessReason = h.GetHelpless(), h.GetReason() // FEE-022
	if !h.GetHelpless() {
		cs.HelplessReason = ""
	} else { // it cannot act (FEE-024): its activity at this rank is gone
		withdraw(s, h.GetCombatantId())
	}
	return nil
}

// applyRenounced: renouncing an activity costs nothing (FEE-075).
func applyRenounced(s *feeriev1.State, e *feeriev1.Renounced) error {
	cs, err := combatantState(s, e.GetCombatantId())
	if err != nil {
		return err
	}
	cs.Renounced = true
	withdraw(s, e.GetCombatantId())
	return nil
}
