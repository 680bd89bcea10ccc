package loss

import (
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

func isRanged(w *lossv1.Weapon) bool { return w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_RANGED }

func isBare(w *lossv1.Weapon) bool {
	return w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_NATURAL || w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_UNARMED
}

// attackCost is an attack's PA cost before any wait (LOS-035, LOS-090 Quick reload).
func (sys System) attackCost(f fighter, w *lossv1.Weapon) int32 {
	if isBare(w) {
		return sys.BareCost
	}
	if isRanged(w) && f.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_QUICK_RELOAD, w) {
		return sys.QuickReload(w.GetVitesse())
	}
	return w.GetVitesse()
}

// QuickReload is the cost of a shot with the Quick reload specialisation: −2 PA, at least 2,
// and never more than the weapon's Vitesse (LOS-090).
func (n Numbers) QuickReload(vitesse int32) int32 {
	return min(vitesse, max(n.QuickReloadMin, vitesse-n.QuickReloadCut))
}

func weaponOf(f fighter, name string) (*lossv1.Weapon, error) {
	return engine.ByName(f.sh.GetWeapons(), name, f.name(), "weapon")
}

// RangedDifficulty is the base Difficulty of a shot at a distance in metres (LOS-080).
func RangedDifficulty(metres int32) int32 {
	switch {
	case metres <= 10:
		return 15
	case metres <= 20:
		return 20
	case metres <= 40:
		return 25
	case metres <= 60:
		return 30
	default:
		return 35
	}
}

func hasMelee(f fighter) bool {
	for _, w := range f.sh.GetWeapons() {
		if w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_MELEE && !f.cs.GetDisarmed() {
			return true
		}
	}
	return false
}
