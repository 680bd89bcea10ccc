package loss

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
)

// What rules/odds reads of an attack the way Decide reads it. Nothing here is used by Decide.

// CountExploits is the number of Exploits a list of effects declares (LOS-010).
func CountExploits(list []E) int32 { return countExploits(list) }

// Standing is the effects that still stand when cancelled Exploits are cancelled (LOS-014).
func Standing(list []E, cancelled int32) []E { return standing(list, cancelled) }

// Special reports whether an effect replaces damage unless the attacker chooses damage too.
func Special(e E) bool { return effects[e].special }

// Protection is what a hit's damage loses to the target's armour and shield (LOS-021,
// LOS-053, LOS-091 Weapon and shield), as hit reads it.
func Protection(st *encounterv1.EncounterState, targetID string) (armour, shield int32) {
	t, err := fighterOf(st, targetID)
	if err != nil {
		return 0, 0
	}
	shield = t.sh.GetShieldProtection()
	if t.sh.GetShield() != nil && t.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_WEAPON_AND_SHIELD, nil) {
		shield++
	}
	return t.sh.GetArmour(), shield
}
