package d20seg

import encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"

// Out: a combatant is out of the fight when down, at its hit points' down_at or below
// (D20-044).
func (System) Out(st *encounterv1.EncounterState, id string) bool {
	cs := st.GetD20Seg().GetCombatants()[id]
	return cs != nil && cs.GetDown()
}
