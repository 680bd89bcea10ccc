package narrate

import (
	"fmt"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
)

// payload narrates the events common to every rule system and hands a system's own events to
// its teller.
// TODO(narration lane): the common events' text moves here from cli/internal/commands
// (describe.go's payload, joiningText, combatantText, roleEventText) with its French.
func (n *Narrator) payload(ev *encounterv1.Event) string {
	if s, ok := n.system(ev); ok {
		return s
	}
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_CombatantAdded:
		c := p.CombatantAdded.GetCombatant()
		parts := n.sheets(c)
		return n.Sprintf("joins: %s", c.GetId()+": "+strings.Join(parts, ", "))
	case *encounterv1.Event_EncounterCreated:
		return n.options(p.EncounterCreated.GetOptions())
	case nil:
		return n.Sprintf("(event without payload)")
	default:
		return fmt.Sprintf("(event %T)", p)
	}
}
