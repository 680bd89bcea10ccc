package ka

import (
	"fmt"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

// Evolve folds the Ka part of an event.
func (sys System) Evolve(st *encounterv1.EncounterState, ev *encounterv1.Event) error {
	s := kaState(st)
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_EncounterEnded:
		if sys.n.EndedWaitsOnNoOne { // KA-020: the attack declared and unanswered falls
			s.Pending = nil
		}
	case *encounterv1.Event_CombatantAdded:
		c := p.CombatantAdded.GetCombatant()
		s.Combatants[c.GetId()] = &kav1.CombatantState{KaDice: c.GetKa().GetKaDice(), RealityPoints: c.GetKa().GetRealityPoints()}
	case *encounterv1.Event_CombatantRemoved:
		id := p.CombatantRemoved.GetCombatantId()
		delete(s.Combatants, id)
		if pd := s.GetPending(); pd != nil {
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
	case *encounterv1.Event_Ka:
		if err := sys.evolve(s, p.Ka); err != nil {
			return err
		}
	}
	syncPending(st, s)
	s.UpNext = nil // the order of the pass, public even where the Animalité behind it is not (KA-014)
	if sys.n.EndedWaitsOnNoOne && st.GetStatus() == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED {
		return nil // no one is up next in an ended encounter
	}
	for _, f := range upNext(st) {
		s.UpNext = append(s.UpNext, f.id())
	}
	return nil
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

func (sys System) evolve(s *kav1.State, e *kav1.Event) error {
	get := func(id string) (*kav1.CombatantState, error) {
		cs := s.GetCombatants()[id]
		if cs == nil {
			return nil, fmt.Errorf("no combatant %s", id)
		}
		return cs, nil
	}
	switch k := e.GetKind().(type) {
	case *kav1.Event_DeckShuffled:
		s.Discard, s.Position, s.DeckCount = nil, 0, k.DeckShuffled.GetCards() // the deck whole, in no order (KA-003)
	case *kav1.Event_RoundStarted:
		s.Round, s.PassNumber = k.RoundStarted.GetRound(), 1
		for id, cs := range s.GetCombatants() {
			cs.ActionsLeft, cs.ActionsTaken, cs.ActedThisPass, cs.Passed = k.RoundStarted.GetActions()[id], 0, false, false
			keepsNoAction(cs)
		}
	case *kav1.Event_PassStarted:
		s.PassNumber = k.PassStarted.GetPassNumber()
		for _, cs := range s.GetCombatants() {
			cs.ActedThisPass = false
			keepsNoAction(cs)
		}
	case *kav1.Event_AttackDeclared:
		a := k.AttackDeclared
		cs, err := get(a.GetAttackerId())
		if err != nil {
			return err
		}
		ids := a.GetPendingIds()
		if len(ids) == 0 {
			return fmt.Errorf("an attack declared with no target to answer")
		}
		s.Pending = &kav1.Pending{AttackerId: a.GetAttackerId(), DefenderId: ids[0], Attack: proto.CloneOf(a.GetAttack()),
			QueuedIds: slices.Clone(ids[1:]), ActionsTaken: cs.GetActionsTaken()}
		takeAction(cs) // the declaration is the attacker's action (KA-020)
	case *kav1.Event_DefenceAnnounced:
		p := s.GetPending()
		if p == nil || p.GetDefenderId() != k.DefenceAnnounced.GetDefenderId() {
			return fmt.Errorf("an answer from %s, whose answer no attack awaits", k.DefenceAnnounced.GetDefenderId())
		}
		p.Answers = append(p.Answers, proto.CloneOf(k.DefenceAnnounced))
		p.DefenderId = ""
		if len(p.GetQueuedIds()) > 0 {
			p.DefenderId, p.QueuedIds = p.GetQueuedIds()[0], p.GetQueuedIds()[1:]
		}
	case *kav1.Event_AttackDrawn:
		a := k.AttackDrawn
		cs, err := get(a.GetAttackerId())
		if err != nil {
			return err
		}
		if a.GetDeclared() {
			s.Pending = nil // the answers are in: the declared attack is drawn (KA-020)
		} else {
			takeAction(cs)
		}
		applyDraw(s, a.GetDraw().GetDraw(), a.GetAttackerId())
	case *kav1.Event_DefenceDrawn:
		d := k.DefenceDrawn
		cs, err := get(d.GetDefenderId())
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
	case *kav1.Event_AttackResolved:
		r := k.AttackResolved
		cs, err := get(r.GetTargetId())
		if err != nil {
			return err
		}
		cs.KaDice, cs.RealityPoints, cs.Unconscious, cs.Dying = r.GetKaLeft(), r.GetRealityLeft(), r.GetUnconscious(), r.GetDying()
		cs.StillActs = cs.GetStillActs() || r.GetStillActs()
		if r.GetDeathDraw() != nil {
			applyDraw(s, r.GetDeathDraw().GetDraw(), r.GetTargetId())
		}
	case *kav1.Event_DisarmDrawn:
		d := k.DisarmDrawn
		cs, err := get(d.GetCombatantId())
		if err != nil {
			return err
		}
		takeAction(cs)
		applyDraw(s, d.GetDraw().GetDraw(), d.GetCombatantId())
		applyDraw(s, d.GetResistance().GetDraw(), d.GetTargetId())
		if d.GetSuccess() {
			t, err := get(d.GetTargetId())
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
		}
	case *kav1.Event_WeaponPickedUp:
		cs, err := get(k.WeaponPickedUp.GetCombatantId())
		if err != nil {
			return err
		}
		takeAction(cs) // KA-032: one action
		cs.WeaponsLost = slices.DeleteFunc(cs.WeaponsLost, func(w string) bool { return w == k.WeaponPickedUp.GetWeapon() })
	case *kav1.Event_TerrorDrawn:
		cs, err := get(k.TerrorDrawn.GetCombatantId())
		if err != nil {
			return err
		}
		applyDraw(s, k.TerrorDrawn.GetDraw().GetDraw(), k.TerrorDrawn.GetCombatantId())
		cs.Abysse = cs.GetAbysse() || k.TerrorDrawn.GetAbysse()
	case *kav1.Event_Passed:
		cs, err := get(k.Passed.GetCombatantId())
		if err != nil {
			return err
		}
		cs.Passed = true
	default:
		return fmt.Errorf("unknown Ka event %T", k)
	}
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
