// Package fight holds what every rule system's package would otherwise write again about its
// combatants, in the same words: a combatant's state in the system's state, and the system's
// own fighter (a combatant with its sheet and its state) of one combatant or of all. Each
// system keeps its fighter type, on which its rules' methods live; these helpers only find
// and make it.
package fight

import (
	"fmt"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

// StateOf is id's state in states, or a new zero one when it has none (a combatant whose
// CombatantAdded the system has not folded yet): a fighter always has a state to read.
func StateOf[CS any](states map[string]*CS, id string) *CS {
	if cs := states[id]; cs != nil {
		return cs
	}
	return new(CS)
}

// CombatantState is id's state in states, for Evolve to change: an event of a combatant the
// state does not hold is an error, never a combatant made up on the spot.
func CombatantState[CS any](states map[string]*CS, id string) (*CS, error) {
	cs := states[id]
	if cs == nil {
		return nil, fmt.Errorf("no combatant %s", id)
	}
	return cs, nil
}

// Of is the fighter newFighter makes of the combatant id of st, or a NotFound error a user reads
// when st has no such combatant (newFighter is not called then).
func Of[F any](st *encounterv1.EncounterState, id string, newFighter func(*encounterv1.EncounterState, *encounterv1.Combatant) F) (F, error) {
	c := engine.FindCombatant(st, id)
	if c == nil {
		var none F
		return none, engine.NotFound("there is no combatant %q in this encounter", id)
	}
	return newFighter(st, c), nil
}

// All are the fighters newFighter makes of st's combatants, in the order they joined.
func All[F any](st *encounterv1.EncounterState, newFighter func(*encounterv1.EncounterState, *encounterv1.Combatant) F) []F {
	out := make([]F, 0, len(st.GetCombatants()))
	for _, c := range st.GetCombatants() {
		out = append(out, newFighter(st, c))
	}
	return out
}

// State is a system's part of st as st's getter read it (st.GetKa()), made and given to put
// (which sets it into st) when st has none yet. A cloned or decoded part holds no empty map:
// its combatants' map, which combatants reads, is made then, so that Evolve may write into it.
func State[S interface {
	*M
	proto.Message
}, M any, CS any](s S, combatants func(S) map[string]CS, put func(S)) S {
	if s == nil {
		s = new(M)
		put(s)
	}
	if combatants(s) == nil {
		m := s.ProtoReflect()
		m.Mutable(m.Descriptor().Fields().ByName("combatants")) // makes the map in the field
	}
	return s
}
