package loss

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
)

// startTour rolls d10 + Initiative, never exploding, once per combatant or group (LOS-030,
// LOS-003, LOS-037), in the order the combatants joined; Take the advantage (LOS-067) and a
// newcomer who watched (LOS-039) add PA.
func (sys System) startTour(st *encounterv1.EncounterState, roller dice.Roller) *encounterv1.Event {
	s := lossState(st)
	tour := s.GetTour() + 1
	ts := &lossv1.TourStarted{Tour: tour, Sequence: (tour-1)/sys.ToursPerSequence + 1}
	groups := map[string]*lossv1.InitiativeRoll{}
	for _, f := range fighters(st) {
		if f.cs.GetOut() {
			continue
		}
		key := "combatant:" + f.id()
		if g := f.sh.GetInitiativeGroup(); g != "" {
			key = "group:" + g
		}
		r, ok := groups[key]
		if !ok {
			roll := roller.Roll(dice.D10(false))
			r = &lossv1.InitiativeRoll{
				Initiative:   f.sh.GetInitiative(),
				Roll:         roll,
				ActionPoints: roll.GetTotal() + f.sh.GetInitiative(),
			}
			groups[key] = r
			ts.Initiative = append(ts.Initiative, r)
		}
		r.CombatantIds = append(r.CombatantIds, f.id())
		bonus := min(f.cs.GetAdvantage(), sys.MaxAdvantage)
		if f.cs.GetJoining() && f.cs.GetWatched() {
			bonus += sys.JoinWatchBonus
		}
		if bonus > 0 {
			if r.Bonus == nil {
				r.Bonus = map[string]int32{}
			}
			r.Bonus[f.id()] = bonus
		}
	}
	return lossEvent(&lossv1.Event{Kind: &lossv1.Event_TourStarted{TourStarted: ts}})
}

// phase is the highest phase among the combatants still acting, 0 if none (LOS-031), and the
// first of them in the order they joined.
func phase(st *encounterv1.EncounterState) (int32, fighter) {
	var top int32
	var first fighter
	s := lossState(st)
	for _, c := range st.GetCombatants() {
		f := fighterIn(s, c)
		if !f.active() {
			continue
		}
		if ap := f.cs.GetActionPoints(); ap > top {
			top, first = ap, f
		}
	}
	return top, first
}

// tourOver: no attack awaits a reaction and no one is left to act this Tour (LOS-033).
func tourOver(st *encounterv1.EncounterState) bool {
	if s := lossState(st); s.GetPending() != nil || len(s.GetQueued()) > 0 {
		return false
	}
	top, _ := phase(st)
	return top <= 0
}

// mayAct checks that it is f's turn: it has PA and its phase is the highest (LOS-031, LOS-032,
// LOS-110), and the Tour is not waiting for declarations (LOS-038).
func mayAct(st *encounterv1.EncounterState, f fighter) error {
	if !f.owed() {
		switch {
		case f.cs.GetDead():
			return engine.Refused("LOS-023", "%s is dead", f.name())
		case f.cs.GetOut():
			return engine.Refused("LOS-022", "%s is out of the fight", f.name())
		case f.cs.GetJoining():
			return engine.Refused("LOS-039", "%s joined during this Tour and acts from the next", f.name())
		case f.cs.GetPassed():
			return engine.Refused("LOS-033", "%s has passed for the rest of this Tour", f.name())
		case f.cs.GetActionPoints() <= 0:
			return engine.Because(engine.Refused("LOS-032", "%s has no PA left this Tour and cannot act", f.name()),
				engine.ReasonNotEnoughActionPoints, map[string]int64{"available": int64(f.cs.GetActionPoints())})
		}
	}
	if lossState(st).GetDeclaring() {
		return engine.Because(engine.Refused("LOS-038", "the Tour waits for everyone to declare their first action, from the lowest Initiative to the highest"),
			engine.ReasonNotYourTurn, nil)
	}
	top, first := phase(st)
	if f.cs.GetActionPoints() < top {
		return engine.Because(engine.Refused("LOS-031", "it is not %s's turn: %s is at phase %d, %s acts first at phase %d",
			f.name(), f.name(), f.cs.GetActionPoints(), first.name(), top), engine.ReasonNotYourTurn, nil)
	}
	return nil
}
