package ka

import (
	"slices"

	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// bareHands is the weapon every combatant has: Animalité + Bagarre, no damage of its own
// (KA-018, KA-032), unless its sheet gives one of that name.
func bareHands() *kav1.Weapon {
	return &kav1.Weapon{Name: BareHands, Sphere: Animalite, Skill: Brawl}
}

// arsenal is f's weapons: its sheet's, then bare hands.
func arsenal(f fighter) []*kav1.Weapon {
	ws := f.sh.GetWeapons()
	if slices.ContainsFunc(ws, func(w *kav1.Weapon) bool { return w.GetName() == BareHands }) {
		return ws
	}
	return append(slices.Clone(ws), bareHands())
}

// weaponOf finds f's weapon by name; no name is the sheet's only weapon, or bare hands when it
// has none.
func weaponOf(f fighter, name string) (*kav1.Weapon, error) {
	if name == "" {
		if len(f.sh.GetWeapons()) == 0 {
			return bareHands(), nil
		}
		return engine.ByName(f.sh.GetWeapons(), "", f.name(), "weapon")
	}
	return engine.ByName(arsenal(f), name, f.name(), "weapon")
}

// hasLost: f lost the weapon to a disarm and has not picked it up (KA-032).
func hasLost(f fighter, weapon string) bool { return slices.Contains(f.cs.GetWeaponsLost(), weapon) }

// mayUse: f may use the weapon for its action: it has not lost it to a disarm, or it keeps
// its action in this pass, acting at the same time as what disarmed it (KA-014, KA-032).
func (s System) mayUse(f fighter, weapon string) bool {
	switch {
	case !hasLost(f, weapon):
		return true
	case !f.cs.GetStillActs():
		return false
	case s.n.ExcuseOnlyLostAtOnce: // only a weapon lost at that same moment
		return slices.Contains(f.cs.GetWeaponsLostAtOnce(), weapon)
	}
	return true // version 1: keeping its action excused every weapon it had lost
}

// usableWeapon is weaponOf for an attack: a weapon lost to a disarm cannot attack, unless the
// disarm came at the same time as this very action (KA-014, KA-032).
func (s System) usableWeapon(f fighter, name string) (*kav1.Weapon, error) {
	w, err := weaponOf(f, name)
	if err != nil {
		return nil, err
	}
	if !s.mayUse(f, w.GetName()) {
		return nil, engine.Refused("KA-032", "%s has lost its %s to a disarm: it may pick it up (one action) or fight with %s (%s + %s)",
			f.name(), w.GetName(), BareHands, Animalite, Brawl)
	}
	return w, nil
}

// heldWeapons: the weapons of f's sheet it has not lost (KA-032).
func heldWeapons(f fighter) []*kav1.Weapon {
	var out []*kav1.Weapon
	for _, w := range f.sh.GetWeapons() {
		if !hasLost(f, w.GetName()) && w.GetName() != BareHands {
			out = append(out, w)
		}
	}
	return out
}

// usableWeapons: the weapons f may attack with now, bare hands last (KA-018, KA-032).
func (s System) usableWeapons(f fighter) []*kav1.Weapon {
	var out []*kav1.Weapon
	for _, w := range arsenal(f) {
		if s.mayUse(f, w.GetName()) {
			out = append(out, w)
		}
	}
	return out
}
