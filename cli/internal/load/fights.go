package load

import (
	"slices"
	"strings"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/systems"
)

// Systems are the rule systems a load plays, in the order encounters are dealt to them.
var Systems = []string{"loss", "ka", "feerie", "d20seg"}

// The subjects of the load's two identities, of one tenant.
const (
	GMSubject     = "load-gm"
	PlayerSubject = "load-player"
)

// Who sends a command: the GM (the encounter's creator) or the player, a second subject of the
// same tenant that controls the heroes and so answers the attacks on them.
type who int

const (
	gm who = iota
	player
)

// script is one rule system's fight: its combatants (given the player's subject) and, from the state the last command returned, the next
// command and who sends it; ok false when nobody can act any more (the fight is over).
type script struct {
	combatants func(playerSubject string) []*encounterv1.Combatant
	next       func(reg *engine.Registry, st *encounterv1.EncounterState) (cmd *encounterv1.Command, by who, ok bool)
}

var scripts = map[string]script{
	"loss":   {combatants: lossCombatants, next: lossNext},
	"ka":     {combatants: kaCombatants, next: kaNext},
	"feerie": {combatants: feerieCombatants, next: feerieNext},
	"d20seg": {combatants: d20segCombatants, next: d20segNext},
}

var registry = systems.Registry()

// controllerOf is who sends the commands of combatant id.
func controllerOf(st *encounterv1.EncounterState, id string) who {
	for _, c := range st.GetCombatants() {
		if c.GetId() == id && (c.GetController() == PlayerSubject || strings.HasSuffix(c.GetController(), "/"+PlayerSubject)) {
			return player
		}
	}
	return gm
}

// firstLegal walks the combatants in order and returns the first one with something legal to
// do, and what.
func firstLegal(reg *engine.Registry, st *encounterv1.EncounterState, ids []string) (string, []string, *encounterv1.EncounterState) {
	for _, id := range ids {
		legal, err := reg.Legal(st, id)
		if err != nil || len(legal) == 0 {
			continue
		}
		names := make([]string, len(legal))
		for i, l := range legal {
			names[i] = l.GetName()
		}
		return id, names, st
	}
	return "", nil, st
}

func legalOf(reg *engine.Registry, st *encounterv1.EncounterState, id, name string) (targets []string, weapon string) {
	legal, _ := reg.Legal(st, id)
	for _, l := range legal {
		if l.GetName() == name {
			return l.GetTargets(), l.GetWeapon()
		}
	}
	return nil, ""
}

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

// Contes de Fées: Rübezahl and the Lutin (the player's) against the Serpent (the GM's), each
// Action declared, acted at its rank, and the countdown advanced by the GM.
func feerieCombatants(p string) []*encounterv1.Combatant {
	fey := func(id, ctl string, v, h, pu, r, t int32, attr string) *encounterv1.Combatant {
		return &encounterv1.Combatant{Id: id, Name: id, Controller: ctl, Sheet: &encounterv1.Combatant_Feerie{Feerie: &feeriev1.Sheet{
			Vigilance: v, Habilete: h, Puissance: pu, Resistance: r, Taille: t, Essence: 40,
			Attributes: []*feeriev1.Attribute{{Name: attr, Kind: feeriev1.AttributeKind_ATTRIBUTE_KIND_AFFINITY, Value: 4, Combat: true}},
		}}}
	}
	return []*encounterv1.Combatant{
		fey("rubezahl", p, 20, 18, 16, 16, 1, "bâton"),
		fey("serpent", GMSubject, 17, 15, 12, 12, 0, "morsure"),
		fey("lutin", p, 14, 16, 8, 10, -2, "esquive"),
	}
}

var feerieOrder = []string{"rubezahl", "serpent", "lutin"}

var feerieIntents = map[string]*feeriev1.Intent{
	"rubezahl": feerieMelee("serpent", "bâton", 0, 2, -2),
	"serpent":  feerieMelee("rubezahl", "morsure", 2, 0, -2),
	"lutin":    feerieMelee("serpent", "esquive", -2, -2, 4),
}

func feerieMelee(target, attr string, init, att, def int32) *feeriev1.Intent {
	return &feeriev1.Intent{Kind: feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK, TargetId: target, Physical: true,
		Applied: &feeriev1.Applied{Attack: []string{attr}, Defense: []string{attr}},
		Tactic:  &feeriev1.Tactic{Initiative: init, Attack: att, Defense: def}}
}

func feerieNext(_ *engine.Registry, st *encounterv1.EncounterState) (*encounterv1.Command, who, bool) {
	fs := st.GetFeerie()
	cmd := func(a *feeriev1.Action) *encounterv1.Command {
		return &encounterv1.Command{Kind: &encounterv1.Command_Feerie{Feerie: a}}
	}
	for _, id := range feerieOrder {
		cs := fs.GetCombatants()[id]
		if cs == nil || cs.GetEssence() <= 0 {
			return nil, gm, false // one is down: the fight is over
		}
		switch fs.GetStep() {
		case feeriev1.Step_STEP_DECLARING:
			if !cs.GetHasDeclared() {
				return cmd(&feeriev1.Action{CombatantId: id, Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: feerieIntents[id]}}}), controllerOf(st, id), true
			}
		case feeriev1.Step_STEP_COUNTDOWN:
			if fs.GetRank() > 0 && cs.GetActivities() == 0 && cs.GetCanAct() && cs.GetActingRank() == fs.GetRank() {
				return cmd(&feeriev1.Action{CombatantId: id, Kind: &feeriev1.Action_Act{Act: &feeriev1.Act{}}}), controllerOf(st, id), true
			}
		}
	}
	return cmd(&feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{}}}), gm, true
}

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
