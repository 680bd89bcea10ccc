package ka

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
)

// What rules/odds reads of an attack the way resolve reads it. Nothing here is used by Decide.

// HitNumbers is the weapon damage and the soak of an attack by attacker on its first target
// (KA-022, KA-023, KA-033), as resolve reads them.
func HitNumbers(st *encounterv1.EncounterState, attacker string, a *kav1.Attack) (damage, soak int32, err error) {
	f, err := fighterOf(st, attacker)
	if err != nil {
		return 0, 0, err
	}
	w, err := weaponOf(f, a.GetWeapon())
	if err != nil {
		return 0, 0, err
	}
	t, err := fighterOf(st, a.GetTargetId())
	if err != nil {
		return 0, 0, err
	}
	damage, sphere := w.GetDamage(), w.GetSphere()
	switch {
	case len(targetIDs(a)) > 1:
		damage, sphere = BurstPerBullet, Animalite
	case a.GetBurst():
		damage, sphere = BurstSingle, Animalite
	}
	return damage, t.sh.GetSpheres()[sphere] + t.sh.GetEncaissement() + t.sh.GetProtection(), nil
}
