package ka

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
)

// The formulas of a hit, which Decide applies and rules/odds reads: one copy of each rule.

// Margin is the margin of an attack's draw total (KA-005, KA-007): taken, total − 10;
// defended, the attack succeeds only from 10 and strictly above the defence, by total −
// max(defence, 10), and fails otherwise (−1).
func (s System) Margin(total, defence int32, defended bool) int32 {
	switch {
	case !defended:
		return total - s.n.SimpleThreshold
	case total >= s.n.SimpleThreshold && total > defence:
		return total - max(defence, s.n.SimpleThreshold)
	}
	return -1
}

// WeaponHit is the damage of an attack's weapon and the sphere its target soaks it with
// (KA-022, KA-023, KA-033): a burst deals one bullet's damage to each of several targets, the
// whole burst's to a single one, soaked with Animalité.
func (s System) WeaponHit(w *kav1.Weapon, a *kav1.Attack, targets int) (damage int32, sphere string) {
	switch {
	case targets > 1:
		return s.n.BurstPerBullet, Animalite
	case a.GetBurst():
		return s.n.BurstSingle, Animalite
	}
	return w.GetDamage(), w.GetSphere()
}

// Soak is what a sheet soaks of a blow against sphere: the sphere, encaissement and protection
// (KA-023).
func Soak(sh *kav1.Sheet, sphere string) int32 {
	return sh.GetSpheres()[sphere] + sh.GetEncaissement() + sh.GetProtection()
}

// Target is what a blow is measured against: the target's soak of it, seuil, Ka dice and points
// de réalité.
type Target struct {
	Soak, Seuil, KaDice, Reality int32
}

// Blow is what an attack does to its target.
type Blow struct {
	Success      bool
	Level, Bonus int32 // KA-006: 0 for a failure
	Damage       int32 // KA-022: the bonus and the weapon's damage; 0 for a failure
	Stun         bool
	KaLost       int32
	RealityLost  int32 // a stun's (KA-030)
	// AtSeuil: a stun of the seuil or more at once knocks out (KA-027, KA-031).
	AtSeuil bool
	// LastPoint: a stun took the last point de réalité: knocked out, and Ka dice lost (KA-031).
	LastPoint bool
	KaLeft    int32
}

// Out: the blow puts its target out of the fight: a stun knocks it out, or a blow takes its
// last Ka die (KA-025, KA-027, KA-031).
func (b Blow) Out() bool {
	switch {
	case !b.Success:
		return false
	case b.Stun:
		return b.AtSeuil || b.LastPoint
	}
	return b.KaLeft == 0
}

// Blow is what an attack at margin does to t (KA-006, KA-022…KA-027, KA-030, KA-031): a
// failure nothing; a success its level's bonus plus the weapon's damage, less the soak, in Ka
// dice (KA-024); a stun, in points de réalité, without soak, knocking out at the seuil or with
// the last point, which also takes a Ka die.
func (s System) Blow(o *kav1.Options, margin, weaponDamage int32, stun bool, t Target) Blow {
	b := Blow{Stun: stun, KaLeft: t.KaDice}
	b.Level, b.Bonus = Level(o, margin)
	if margin < 0 {
		return b
	}
	b.Success = true
	b.Damage = b.Bonus + weaponDamage
	if stun {
		b.RealityLost = min(b.Damage, t.Reality)
		b.AtSeuil = b.Damage >= t.Seuil // compared before the points left cap the blow
		if t.Reality > 0 && t.Reality-b.RealityLost == 0 {
			b.LastPoint = true
			b.KaLost = min(s.n.StunKaLoss, t.KaDice)
		}
	} else {
		b.KaLost = min(s.KaLost(o, b.Damage-t.Soak), t.KaDice)
	}
	b.KaLeft = t.KaDice - b.KaLost
	return b
}

// HitNumbers is the weapon damage and the soak of an attack by attacker on its first target
// (KA-022, KA-023, KA-033), as resolve reads them.
func (s System) HitNumbers(st *encounterv1.EncounterState, attacker string, a *kav1.Attack) (damage, soak int32, err error) {
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
	damage, sphere := s.WeaponHit(w, a, len(targetIDs(a)))
	return damage, Soak(t.sh, sphere), nil
}
