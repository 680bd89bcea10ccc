package load

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// The fight fray load plays in this system, added to the load's list (Systems) from here.
func init() { fight("ka", script{combatants: kaCombatants, next: kaNext}) }

// Ka: Joshua (the player's) against the dog (the GM's); the defender takes the draw, dodges
// while it has actions, and the GM's dog answers Joshua's shots.
func kaCombatants(p string) []*encounterv1.Combatant {
	sheet := func(id, ctl string, spheres, skills map[string]int32, pc bool, weapons ...*kav1.Weapon) *encounterv1.Combatant {
		return &encounterv1.Combatant{Id: id, Name: id, Controller: ctl, Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{
			Spheres: spheres, Skills: skills, Encaissement: 3, KaDice: 3, RealityPoints: 12, PlayerCharacter: pc, Weapons: weapons,
		}}}
	}
	return []*encounterv1.Combatant{
		sheet("joshua", p, map[string]int32{"Animalité": 4, "Humanité": 3, "Spiritualité": 2},
			map[string]int32{"Arme à feu": 4, "Bagarre": 2, "Esquive": 2}, true,
			&kav1.Weapon{Name: "pistolet", Sphere: "Humanité", Skill: "Arme à feu", Damage: 8}),
		sheet("chien", GMSubject, map[string]int32{"Animalité": 3, "Humanité": 1, "Spiritualité": 1},
			map[string]int32{"Esquive": 4, "Morsure": 3}, false,
			&kav1.Weapon{Name: "crocs", Sphere: "Animalité", Skill: "Morsure", Damage: 2}),
	}
}

var kaOrder = []string{"joshua", "chien"}

func kaNext(reg *engine.Registry, st *encounterv1.EncounterState) (*encounterv1.Command, who, bool) {
	id, names, _ := firstLegal(reg, st, kaOrder)
	if id == "" {
		return nil, gm, false
	}
	a := &kav1.Action{CombatantId: id}
	switch {
	case slices.Contains(names, "dodge"):
		a.Kind = &kav1.Action_React{React: &kav1.React{Defend: true}}
	case slices.Contains(names, "take it"):
		a.Kind = &kav1.Action_React{React: &kav1.React{}}
	case slices.Contains(names, "attack"):
		targets, weapon := legalOf(reg, st, id, "attack")
		if len(targets) == 0 {
			return nil, gm, false
		}
		a.Kind = &kav1.Action_Attack{Attack: &kav1.Attack{TargetId: targets[0], Weapon: weapon}}
	case slices.Contains(names, "pass"):
		a.Kind = &kav1.Action_PassTurn{PassTurn: &kav1.Pass{}}
	default:
		return nil, gm, false
	}
	return &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: a}}, controllerOf(st, id), true
}
