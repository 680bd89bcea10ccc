package ka

import (
	"fmt"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/fight"
	"google.golang.org/protobuf/proto"
)

// Evolve folds the Ka part of an event: the engine's events a Ka state answers, then its own
// (evolve), then what every fold refreshes: the reaction awaited and who is up next.
func (sys System) Evolve(st *encounterv1.EncounterState, ev *encounterv1.Event) error {
	s := kaState(st)
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_EncounterEnded:
		sys.applyEncounterEnded(s)
	case *encounterv1.Event_CombatantAdded:
		applyCombatantAdded(s, p.CombatantAdded)
	case *encounterv1.Event_CombatantRemoved:
		applyCombatantRemoved(st, s, p.CombatantRemoved)
	case *encounterv1.Event_Ka:
		if err := sys.evolve(s, p.Ka); err != nil {
			return err
		}
	}
	syncPending(st, s)
	sys.syncUpNext(st, s)
	return nil
}

// evolve folds one Ka event, one named function an event.
func (sys System) evolve(s *kav1.State, e *kav1.Event) error {
	switch k := e.GetKind().(type) {
	case *kav1.Event_DeckShuffled:
		applyDeckShuffled(s, k.DeckShuffled)
	case *kav1.Event_RoundStarted:
		applyRoundStarted(s, k.RoundStarted)
	case *kav1.Event_PassStarted:
		applyPassStarted(s, k.PassStarted)
	case *kav1.Event_AttackDeclared:
		return applyAttackDeclared(s, k.AttackDeclared)
	case *kav1.Event_DefenceAnnounced:
		return applyDefenceAnnounced(s, k.DefenceAnnounced)
	case *kav1.Event_AttackDrawn:
		return applyAttackDrawn(s, k.AttackDrawn)
	case *kav1.Event_DefenceDrawn:
		return applyDefenceDrawn(s, k.DefenceDrawn)
	case *kav1.Event_AttackResolved:
		return applyAttackResolved(s, k.AttackResolved)
	case *kav1.Event_DisarmDrawn:
		return sys.applyDisarmDrawn(s, k.DisarmDrawn)
	case *kav1.Event_WeaponPickedUp:
		return applyWeaponPickedUp(s, k.WeaponPickedUp)
	case *kav1.Event_TerrorDrawn:
		return applyTerrorDrawn(s, k.TerrorDrawn)
	case *kav1.Event_Passed:
		return applyPassed(s, k.Passed)
	default:
		return fmt.Errorf("unknown Ka event %T", k)
	}
	return nil
}

// applyEncounterEnded: from version 2 the attack declared and unanswered falls (KA-020).
func (sys System) applyEncounterEnded(s *kav1.State) {
	if sys.n.EndedWaitsOnNoOne {
		s.Pending = nil
	}
}

// applyCombatantAdded: a newcomer joins with its sheet's Ka dice and points de réalité.
func applyCombatantAdded(s *kav1.State, e *encounterv1.CombatantAdded) {
	c := e.GetCombatant()
	s.Combatants[c.GetId()] = &kav1.CombatantState{KaDice: c.GetKa().GetKaDice(), RealityPoints: c.GetKa().GetRealityPoints()}
}

// applyCombatantRemoved: the removed one leaves the attack awaiting answers (KA-020): as its
// attacker the attack falls, as the target answering the next target of a burst answers, as
// the last to answer the draws follow (FollowUp); with no target left the attack falls.
func applyCombatantRemoved(st *encounterv1.EncounterState, s *kav1.State, e *encounterv1.CombatantRemoved) {
	id := e.GetCombatantId()
	delete(s.Combatants, id)
	pd := s.GetPending()
	if pd == nil {
		return
	}
	pd.QueuedIds = slices.DeleteFunc(pd.QueuedIds, func(q string) bool { return q == id })
	pd.Answers = slices.DeleteFunc(pd.Answers, func(a *kav1.DefenceAnnounced) bool { return a.GetDefenderId() == id })
	switch {
	case pd.GetAttackerId() == id:
		s.Pending = nil
	case pd.GetDefenderId() == id && len(pd.GetQueuedIds()) > 0: // the next target of a burst answers
		pd.DefenderId, pd.QueuedIds = pd.GetQueuedIds()[0], pd.GetQueuedIds()[1:]
	case pd.GetDefenderId() == id: // every target left has answered: the draws follow (FollowUp)
		pd.DefenderId = ""
	}
	if s.Pending != nil && !slices.ContainsFunc(targetIDs(pd.GetAttack()), func(t string) bool { return engine.FindCombatant(st, t) != nil }) {
		s.Pending = nil // no target left: the attack falls
	}
}

// syncUpNext: the order of the pass, public even where the Animalité behind it is not
// (KA-014).
func (sys System) syncUpNext(st *encounterv1.EncounterState, s *kav1.State) {
	s.UpNext = nil
	if sys.n.EndedWaitsOnNoOne && st.GetStatus() == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED {
		return // no one is up next in an ended encounter
	}
	for _, f := range upNext(st) {
		s.UpNext = append(s.UpNext, f.id())
	}
}

func syncPending(st *encounterv1.EncounterState, s *kav1.State) {
	st.Pending = nil
	if p := s.GetPending(); p != nil {
		d, err := fighterOf(st, p.GetDefenderId())
		if err != nil {
			return
		}
		what := "an attack"
		switch a := p.GetAttack(); {
		case isBurst(a):
			what = "a burst"
		case a.GetStun():
			what = "a stun"
		}
		st.Pending = []*encounterv1.PendingReaction{{CombatantId: d.id(), Controller: d.c.GetController(),
			Prompt: fmt.Sprintf("%s declares %s on %s: defend (one action) or not, before any card is drawn", p.GetAttackerId(), what, d.name())}}
	}
}

// combatantState is the Ka state of the combatant an event names; an error when it has none.
func combatantState(s *kav1.State, id string) (*kav1.CombatantState, error) {
	return fight.CombatantState(s.GetCombatants(), id)
}

// applyDeckShuffled: the deck whole, in no order (KA-003).
func applyDeckShuffled(s *kav1.State, e *kav1.DeckShuffled) {
	s.Discard, s.Position, s.DeckCount = nil, 0, e.GetCards()
}

// applyRoundStarted: every combatant gets its actions of the round (KA-010) and the first pass
// begins (KA-015).
func applyRoundStarted(s *kav1.State, e *kav1.RoundStarted) {
	s.Round, s.PassNumber = e.GetRound(), 1
	for id, cs := range s.GetCombatants() {
		cs.ActionsLeft, cs.ActionsTaken, cs.ActedThisPass, cs.Passed = e.GetActions()[id], 0, false, false
		keepsNoAction(cs)
	}
}

// applyPassStarted: another pass round the table, one action each (KA-015).
func applyPassStarted(s *kav1.State, e *kav1.PassStarted) {
	s.PassNumber = e.GetPassNumber()
	for _, cs := range s.GetCombatants() {
		cs.ActedThisPass = false
		keepsNoAction(cs)
	}
}

// applyAttackDeclared: the attack waits for its targets' answers, the first one's first; the
// declaration is the attacker's action (KA-020).
func applyAttackDeclared(s *kav1.State, a *kav1.AttackDeclared) error {
	cs, err := combatantState(s, a.GetAttackerId())
	if err != nil {
		return err
	}
	ids := a.GetPendingIds()
	if len(ids) == 0 {
		return fmt.Errorf("an attack declared with no target to answer")
	}
	s.Pending = &kav1.Pending{AttackerId: a.GetAttackerId(), DefenderId: ids[0], Attack: proto.CloneOf(a.GetAttack()),
		QueuedIds: slices.Clone(ids[1:]), ActionsTaken: cs.GetActionsTaken()}
	takeAction(cs)
	return nil
}

// applyDefenceAnnounced: the answer is kept for the draws, and the next target of a burst
// answers in its turn (KA-020, KA-033).
func applyDefenceAnnounced(s *kav1.State, e *kav1.DefenceAnnounced) error {
	p := s.GetPending()
	if p == nil || p.GetDefenderId() != e.GetDefenderId() {
		return fmt.Errorf("an answer from %s, whose answer no attack awaits", e.GetDefenderId())
	}
	p.Answers = append(p.Answers, proto.CloneOf(e))
	p.DefenderId = ""
	if len(p.GetQueuedIds()) > 0 {
		p.DefenderId, p.QueuedIds = p.GetQueuedIds()[0], p.GetQueuedIds()[1:]
	}
	return nil
}

// applyAttackDrawn: a declared attack, answered, is drawn; an attack no one could answer is the
// attacker's action now (KA-020). Its cards leave the deck.
func applyAttackDrawn(s *kav1.State, a *kav1.AttackDrawn) error {
	cs, err := combatantState(s, a.GetAttackerId())
	if err != nil {
		return err
	}
	if a.GetDeclared() {
		s.Pending = nil // the answers are in: the declared attack is drawn (KA-020)
	} else {
		takeAction(cs)
	}
	applyDraw(s, a.GetDraw().GetDraw(), a.GetAttackerId())
	return nil
}

// applyDefenceDrawn: a defence costs an action (KA-011, KA-013); attacking back is also the
// defender's action of this pass (KA-008).
func applyDefenceDrawn(s *kav1.State, d *kav1.DefenceDrawn) error {
	cs, err := combatantState(s, d.GetDefenderId())
	if err != nil {
		return err
	}
	if d.GetDefended() || d.GetAttackedBack() { // KA-011, KA-013
		cs.ActionsLeft--
		cs.ActionsTaken++
	}
	if d.GetAttackedBack() {
		cs.ActedThisPass = true
		keepsNoAction(cs)
	}
	if d.GetDraw() != nil {
		applyDraw(s, d.GetDraw().GetDraw(), d.GetDefenderId())
	}
	return nil
}

// applyAttackResolved: the target's Ka dice, points de réalité and state after the blow
// (KA-023…KA-031), its action kept when put out at the same time (KA-014), its death draw's
// cards out of the deck (KA-025).
func applyAttackResolved(s *kav1.State, r *kav1.AttackResolved) error {
	cs, err := combatantState(s, r.GetTargetId())
	if err != nil {
		return err
	}
	cs.KaDice, cs.RealityPoints, cs.Unconscious, cs.Dying = r.GetKaLeft(), r.GetRealityLeft(), r.GetUnconscious(), r.GetDying()
	cs.StillActs = cs.GetStillActs() || r.GetStillActs()
	if r.GetDeathDraw() != nil {
		applyDraw(s, r.GetDeathDraw().GetDraw(), r.GetTargetId())
	}
	return nil
}

// applyDisarmDrawn: the disarm is the disarmer's action; on a success the target loses the
// weapon it held (KA-032), excused at that moment when it acts at the same time (KA-014).
func (sys System) applyDisarmDrawn(s *kav1.State, d *kav1.DisarmDrawn) error {
	cs, err := combatantState(s, d.GetCombatantId())
	if err != nil {
		return err
	}
	takeAction(cs)
	applyDraw(s, d.GetDraw().GetDraw(), d.GetCombatantId())
	applyDraw(s, d.GetResistance().GetDraw(), d.GetTargetId())
	if !d.GetSuccess() {
		return nil
	}
	t, err := combatantState(s, d.GetTargetId())
	if err != nil {
		return err
	}
	if !slices.Contains(t.GetWeaponsLost(), d.GetWeapon()) { // KA-032: it loses the weapon it held
		t.WeaponsLost = append(t.WeaponsLost, d.GetWeapon())
	}
	t.StillActs = t.GetStillActs() || d.GetStillActs()
	if sys.n.ExcuseOnlyLostAtOnce && d.GetStillActs() { // KA-014; a weapon lost is never disarmed again (KA-032)
		t.WeaponsLostAtOnce = append(t.WeaponsLostAtOnce, d.GetWeapon())
	}
	return nil
}

// applyWeaponPickedUp: the weapon is back in hand, for one action (KA-032).
func applyWeaponPickedUp(s *kav1.State, e *kav1.WeaponPickedUp) error {
	cs, err := combatantState(s, e.GetCombatantId())
	if err != nil {
		return err
	}
	takeAction(cs)
	cs.WeaponsLost = slices.DeleteFunc(cs.WeaponsLost, func(w string) bool { return w == e.GetWeapon() })
	return nil
}

// applyTerrorDrawn: a failed Terror draw below Animalité × 3 enters Abysse (KA-034).
func applyTerrorDrawn(s *kav1.State, e *kav1.TerrorDrawn) error {
	cs, err := combatantState(s, e.GetCombatantId())
	if err != nil {
		return err
	}
	applyDraw(s, e.GetDraw().GetDraw(), e.GetCombatantId())
	cs.Abysse = cs.GetAbysse() || e.GetAbysse()
	return nil
}

// applyPassed: no more actions this round (KA-015).
func applyPassed(s *kav1.State, e *kav1.Passed) error {
	cs, err := combatantState(s, e.GetCombatantId())
	if err != nil {
		return err
	}
	cs.Passed = true
	return nil
}

// takeAction spends one of the combatant's actions, its action of this pass (KA-010, KA-011,
// KA-015).
func takeAction(cs *kav1.CombatantState) {
	cs.ActionsLeft--
	cs.ActionsTaken++
	cs.ActedThisPass = true
	keepsNoAction(cs)
}

// keepsNoAction: the action kept at the same time as what put it out or disarmed it is taken,
// or its pass is over (KA-014), and with it the excuse of the weapons lost at that moment.
func keepsNoAction(cs *kav1.CombatantState) {
	cs.StillActs, cs.WeaponsLostAtOnce = false, nil
}
