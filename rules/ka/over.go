package ka

import encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"

// Out: a combatant is out of the fight when it has lost its last Ka die (its death draw,
// KA-025), or is knocked unconscious by losing at least its seuil at once (KA-027, KA-031).
func (System) Out(st *encounterv1.EncounterState, id string) bool {
	cs := st.GetKa().GetCombatants()[id]
	return cs != nil && (cs.GetDying() || cs.GetUnconscious() || cs.GetKaDice() <= 0)
}
