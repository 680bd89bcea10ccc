package load

import (
	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// The fight fray load plays in this system, added to the load's list (Systems) from here.
func init() { fight("d20seg", script{combatants: d20segCombatants, next: d20segNext}) }

// d20 à segments: four warriors of the GM's and the player's, each attacking its foe while the
// rules offer an attack, else ending its turn.
func d20segCombatants(p string) []*encounterv1.Combatant {
	warrior := func(id, ctl string, bba int32) *encounterv1.Combatant {
		return &encounterv1.Combatant{Id: id, Name: id, Controller: ctl, Sheet: &encounterv1.Combatant_D20Seg{D20Seg: &d20segv1.Sheet{
			Rapidite: 3 + bba/4, Armour: d20segv1.Armour_ARMOUR_LIGHT, Shield: d20segv1.Shield_SHIELD_NONE, WeaponClass: d20segv1.WeaponClass_WEAPON_CLASS_ONE_HANDED,
			Bba: bba, Agility: 2, Strength: 2, Wisdom: 1, Perception: 2, Stealth: 3, Ca: 14 + bba, HitPoints: 60, Size: d20segv1.Size_SIZE_M,
			Weapons: []*d20segv1.Weapon{{Name: "épée longue", Dice: "1d8", Critical: 2}},
		}}}
	}
	return []*encounterv1.Combatant{warrior("novice", p, 0), warrior("soldat", p, 6), warrior("veteran", GMSubject, 11), warrior("maitre", GMSubject, 16)}
}

var d20segOrder = []string{"novice", "soldat", "veteran", "maitre"}

var d20segFoe = map[string]string{"novice": "veteran", "soldat": "maitre", "veteran": "novice", "maitre": "soldat"}

func d20segNext(reg *engine.Registry, st *encounterv1.EncounterState) (*encounterv1.Command, who, bool) {
	id, names, _ := firstLegal(reg, st, d20segOrder)
	if id == "" {
		return nil, gm, false
	}
	a := &d20segv1.Action{CombatantId: id}
	target := d20segFoe[id]
	if t := st.GetD20Seg().GetCombatants()[target]; len(names) > 0 && names[0] == "attack" && t != nil && t.GetHitPoints() > 0 {
		a.Kind = &d20segv1.Action_Attack{Attack: &d20segv1.Attack{TargetId: target}}
	} else {
		a.Kind = &d20segv1.Action_EndTurn{EndTurn: &d20segv1.EndTurn{}}
	}
	return &encounterv1.Command{Kind: &encounterv1.Command_D20Seg{D20Seg: a}}, controllerOf(st, id), true
}
