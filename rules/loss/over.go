package loss

import encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"

// Out: a combatant is out of the fight when down at 0 fatal boxes (LOS-022), dying or dead
// after a Kill outright (LOS-023, LOS-078), a Sbire taken out by an Exploit (LOS-025), or
// neutralised for the rest of the combat (LOS-076).
func (System) Out(st *encounterv1.EncounterState, id string) bool {
	cs := st.GetLoss().GetCombatants()[id]
	return cs != nil && (cs.GetOut() || cs.GetDying() || cs.GetDead() || cs.GetNeutralised())
}
