package d20seg_test

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
)

// D20-010, D20-011: several combatants without a tie have no roll-off, and the order at a
// shared segment is not told (it is the Initiative's, already listed).
func TestNarrateD20InitiativeWithoutTie(t *testing.T) {
	ev := &d20segv1.Event{Kind: &d20segv1.Event_CombatStarted{CombatStarted: &d20segv1.CombatStarted{Initiative: []*d20segv1.InitiativeEntry{
		{CombatantId: "novice", Rapidite: 3, Equipment: 2, Initiative: 5},
		{CombatantId: "soldat", Rapidite: 3, Equipment: -5, Initiative: -2},
	}}}}
	require.Equal(t, "#7 Initiative for the combat (D20-010, D20-012): Novice 5 (Rapidité 3 + 2 equipment); Soldat −2 (Rapidité 3 − 5 equipment)", en(7, ev))
	require.Equal(t, "#7 Initiative du combat (D20-010, D20-012) : Novice 5 (Rapidité 3 + 2 équipement) ; Soldat −2 (Rapidité 3 − 5 équipement)", fr(7, ev))
}

// A redacted Initiative names the hidden combatants the reader has heard of — one heard of only
// through its being hidden included — and none when no one is hidden.
func TestNarrateRedactedInitiativeNamesTheHidden(t *testing.T) {
	cs := &encounterv1.Event{Sequence: 7, Redacted: true, Payload: &encounterv1.Event_D20Seg{D20Seg: &d20segv1.Event{Kind: &d20segv1.Event_CombatStarted{
		CombatStarted: &d20segv1.CombatStarted{Initiative: []*d20segv1.InitiativeEntry{{CombatantId: "novice", Rapidite: 3, Equipment: 2, Initiative: 5}}}}}}}
	n := ntNarrator(narrate.English)
	n.Learn(&encounterv1.Event{Sequence: 1, Payload: &encounterv1.Event_CombatantAdded{CombatantAdded: &encounterv1.CombatantAdded{
		Combatant: &encounterv1.Combatant{Id: "novice", Name: "Novice"}}}})
	require.Equal(t, "#7 Initiative for the combat (D20-010, D20-012): Novice 5 (Rapidité 3 + 2 equipment)", n.Text(cs), "no one hidden")
	n.Learn(&encounterv1.Event{Sequence: 2, Payload: &encounterv1.Event_CombatantHidden{CombatantHidden: &encounterv1.CombatantHidden{CombatantId: "mage", Hidden: true}}})
	require.Equal(t, "#7 Initiative for the combat (D20-010, D20-012): Novice 5 (Rapidité 3 + 2 equipment); hidden: Mage", n.Text(cs))
}
