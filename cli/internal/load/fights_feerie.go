package load

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// The fight fray load plays in this system, added to the load's list (Systems) from here.
func init() { fight("feerie", script{combatants: feerieCombatants, next: feerieNext}) }

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
