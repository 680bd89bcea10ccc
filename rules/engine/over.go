package engine

// When the fight is over: each rule system says who is out of the fight by its own rules
// (System.Out); the engine says which sides still stand and whether the fight is over, the
// same way for every system, so that a client stops playing when one side is all down instead
// of being offered new Tours forever (issue 28).

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// Outer is the part of a System that says who is out of the fight.
type Outer interface {
	// Out reports whether combatant id of st is out of the fight by the system's rules: down,
	// unconscious, dying, dead, neutralised… whatever takes it out of the fight for good or
	// for now. What the table sees of it (Appearance) is then APPEARANCE_OUT_OF_THE_FIGHT.
	Out(st *encounterv1.EncounterState, id string) bool
}

// Standing is who still stands in a fight: the sides with a combatant not out, and whether
// the fight is over.
type Standing struct {
	// Sides holds each side with a combatant not out, once, in the order its first combatant
	// joined; a combatant without a side stands for the side "".
	Sides []string
	// Over: the fight has started, its combatants are of at least two sides, and at most one
	// side still stands.
	Over bool
}

// Standing says which sides of st still stand, each combatant judged by its rule system's Out.
// A state of no known system has every combatant standing.
func (r *Registry) Standing(st *encounterv1.EncounterState) Standing {
	sys, err := r.system(st)
	return standing(st, func(id string) bool { return err == nil && sys.Out(st, id) })
}

func standing(st *encounterv1.EncounterState, out func(id string) bool) Standing {
	var s Standing
	sides := 0
	seen := map[string]bool{}     // sides met
	standing := map[string]bool{} // sides standing
	for _, c := range st.GetCombatants() {
		side := c.GetSide()
		if !seen[side] {
			seen[side] = true
			sides++
		}
		if !standing[side] && !out(c.GetId()) {
			standing[side] = true
			s.Sides = append(s.Sides, side)
		}
	}
	s.Over = st.GetStatus() == encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE && sides >= 2 && len(s.Sides) <= 1
	return s
}

// fillStanding sets the fields sides_standing and fight_over of view, a copy of st made for a
// reader (View), as appearances are filled in. Out is public (the table sees who is down), so
// every reader gets the same answer, computed on the whole state. The fold never sets them:
// they are never recorded.
func (r *Registry) fillStanding(view, st *encounterv1.EncounterState) {
	s := r.Standing(st)
	view.SidesStanding, view.FightOver = s.Sides, s.Over
}

// OverLine is the sentence that closes the narration of the event that ended the fight (the
// fight not over before it, wasOver false, and over in after, the state it leads to), in n's
// language: "; the fight is over: only side pcs still stands". Empty for any other event.
func (r *Registry) OverLine(n *narrate.Narrator, wasOver bool, after *encounterv1.EncounterState) string {
	if wasOver || after == nil {
		return ""
	}
	s := r.Standing(after)
	if !s.Over {
		return ""
	}
	return n.FightOver(s.Sides)
}
