package load

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// The fight fray load plays in this system, added to the load's list (Systems) from here.
func init() { fight("loss", script{combatants: lossCombatants, next: lossNext}) }

// Les Chants de Loss: Diego (the player's) and Canahan against two ruffians (the GM's); every
// attack is answered by the defender's controller: a dodge while it has the PA, else the blow.
func lossCombatants(p string) []*encounterv1.Combatant {
	hero := func(id string, init int32) *encounterv1.Combatant {
		return &encounterv1.Combatant{Id: id, Name: id, Controller: p, Side: "heroes", Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
			Kind:       lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER,
			Traits:     map[string]int32{"Puissance": 6, "Agilité": 5},
			Talents:    map[string]int32{"Arme de mêlée": 6, "Esquive": 5},
			Initiative: init,
			Weapons:    []*lossv1.Weapon{{Name: "épée", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}, Vitesse: 4, Damage: 3}},
			Dodge:      &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
		}}}
	}
	ruffian := func(id string) *encounterv1.Combatant {
		return &encounterv1.Combatant{Id: id, Name: id, Controller: GMSubject, Side: "villains", Sheet: &encounterv1.Combatant_Loss{Loss: &lossv1.Sheet{
			Kind:       lossv1.CombatantKind_COMBATANT_KIND_ADVERSAIRE,
			Traits:     map[string]int32{"Agilité": 5, "Puissance": 5},
			Talents:    map[string]int32{"Esquive": 7, "Arme de mêlée": 5},
			Initiative: 6,
			Weapons:    []*lossv1.Weapon{{Name: "dague", Kind: lossv1.WeaponKind_WEAPON_KIND_MELEE, Attack: &lossv1.Score{Trait: "Puissance", Talent: "Arme de mêlée"}, Vitesse: 3, Damage: 2}},
			Dodge:      &lossv1.Score{Trait: "Agilité", Talent: "Esquive"},
			Armour:     1,
		}}}
	}
	return []*encounterv1.Combatant{hero("diego", 8), hero("canahan", 7), ruffian("ruffian-1"), ruffian("ruffian-2")}
}

var lossOrder = []string{"diego", "canahan", "ruffian-1", "ruffian-2"}

func lossNext(reg *engine.Registry, st *encounterv1.EncounterState) (*encounterv1.Command, who, bool) {
	id, names, _ := firstLegal(reg, st, lossOrder)
	if id == "" {
		return nil, gm, false
	}
	a := &lossv1.Action{CombatantId: id}
	switch {
	case slices.Contains(names, "dodge"):
		a.Kind = &lossv1.Action_React{React: &lossv1.React{Reaction: lossv1.Reaction_REACTION_DODGE}}
	case slices.Contains(names, "take the blow"):
		a.Kind = &lossv1.Action_React{React: &lossv1.React{Reaction: lossv1.Reaction_REACTION_NONE}}
	case slices.Contains(names, "declare"):
		a.Kind = &lossv1.Action_Declare{Declare: &lossv1.Declare{Intention: "attack"}}
	case slices.Contains(names, "attack"):
		targets, weapon := legalOf(reg, st, id, "attack")
		target := foe(id, targets, "diego", "canahan")
		if target == "" {
			return nil, gm, false // one side is out: the fight is over
		}
		a.Kind = &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: target, Weapon: weapon}}
	case slices.Contains(names, "pass"):
		a.Kind = &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}
	default:
		return nil, gm, false
	}
	return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: a}}, controllerOf(st, id), true
}

// foe picks a target on the other side: heroes are the ids of one side.
func foe(id string, targets []string, heroes ...string) string {
	hero := slices.Contains(heroes, id)
	for _, t := range targets {
		if slices.Contains(heroes, t) != hero {
			return t
		}
	}
	return ""
}
