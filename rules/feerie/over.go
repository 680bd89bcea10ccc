package feerie

import encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"

// Out: a combatant is out of the fight at 0 Essence, when it cannot act (FEE-024), or while
// the GM rules it helpless: unconscious, asleep, paralysed (FEE-022).
func (System) Out(st *encounterv1.EncounterState, id string) bool {
	cs := st.GetFeerie().GetCombatants()[id]
	return cs != nil && (cs.GetEssence() <= 0 || cs.GetHelpless())
}
