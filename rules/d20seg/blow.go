package d20seg

import d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"

// The formulas of a blow, which the attack decides with and the odds compute with: one copy
// of each rule.

// Blow is what an attack's damage is made of: the bonuses added to the weapon's dice and
// multiplied with them on a critical (Strength, weapon, circumstance: D20-041), the feats'
// damage added once, unmultiplied, and the critical multiplier (D20-042).
type Blow struct{ PerHit, Feat, Multiplier int32 }

// Blow of attack a with weapon w by the combatant of sheet sh.
func (sys System) Blow(sh *d20segv1.Sheet, w *d20segv1.Weapon, a *d20segv1.Attack) Blow {
	b := Blow{PerHit: sh.GetStrength() + w.GetBonus() + a.GetDamageModifier(), Multiplier: max(sys.n.MinCriticalMultiplier, w.GetCritical())}
	for _, ft := range sh.GetFeats() {
		b.Feat += ft.GetDamage()
	}
	return b
}

// Damage a hit deals whose weapon dice rolled roll, never below 0 (D20-041, D20-042).
func (b Blow) Damage(roll int32, critical bool) int32 {
	mult := int32(1)
	if critical {
		mult = b.Multiplier
	}
	return max(0, mult*(roll+b.PerHit)+b.Feat)
}

// CriticalAt is the lowest attack total that is a critical against a CA (D20-042).
func (sys System) CriticalAt(ca int32) int32 { return ca + sys.n.CriticalMargin }

// Down reports whether a combatant left with hitPoints is down under the options (D20-044).
func Down(o *d20segv1.Options, hitPoints int32) bool { return hitPoints <= o.GetDownAt() }
