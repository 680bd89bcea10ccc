package ka

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// Teller narrates the system's events, sheets and house rules (narrate.Teller).
// TODO(narration lane): the text moves here from cli/internal/commands, with its French.
type Teller struct{}

// Teller is the system's narration.
func (System) Teller() narrate.Teller { return Teller{} }

// Event narrates the system's own events.
func (Teller) Event(n *narrate.Narrator, ev *encounterv1.Event) (string, bool) { return "", false }

// Sheet describes the system's sheet of a joining combatant.
func (Teller) Sheet(n *narrate.Narrator, c *encounterv1.Combatant) (string, bool) { return "", false }

// Options lists the system's house rules.
func (Teller) Options(n *narrate.Narrator, o *encounterv1.RuleOptions) (string, bool) {
	return "", false
}

// Learn records what an event tells later narration.
func (Teller) Learn(n *narrate.Narrator, ev *encounterv1.Event) {}

// LearnState records what a state tells later narration.
func (Teller) LearnState(n *narrate.Narrator, st *encounterv1.EncounterState) {}
