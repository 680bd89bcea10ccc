package loss

import (
	"fmt"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
)

// Describe returns the sheet fields, actions, options and tables of Les Chants de Loss.
func (s System) Describe() *rulesetv1.RulesetDescriptor {
	row := func(cells ...string) *rulesetv1.TableRow { return &rulesetv1.TableRow{Cells: cells} }
	return &rulesetv1.RulesetDescriptor{
		Id: ID, Name: s.Name(), Version: Version,
		SheetFields: []*rulesetv1.FieldDescriptor{
			{Name: "kind", Description: "COMBATANT_KIND_PLAYER_CHARACTER, COMBATANT_KIND_ADVERSAIRE or COMBATANT_KIND_SBIRE (LOS-024)"},
			{Name: "traits", Description: "Traits by name: Puissance, Agilité, Instinct…"},
			{Name: "talents", Description: "Talents by name: Arme de mêlée, Esquive, Parade…"},
			{Name: "initiative", Description: "added to the d10 of the Initiative roll (LOS-030)"},
			{Name: "weapons", Description: "name, kind (WEAPON_KIND_MELEE, _RANGED, _NATURAL, _UNARMED), attack Trait + Talent, Vitesse (PA cost of melee and ranged weapons), damage"},
			{Name: "parry", Description: "Trait + Talent of a parry"},
			{Name: "dodge", Description: "Trait + Talent of a dodge"},
			{Name: "armour", Description: "protection subtracted from damage (LOS-021)"},
			{Name: "shield_protection", Description: "shield protection, always subtracted (LOS-021)"},
			{Name: "fursa", Description: "Fursa held, player characters only (LOS-005)"},
			{Name: "inspiration", Description: "Inspiration per Vertu: Sagesse, Honneur, Courage (LOS-005)"},
			{Name: "initiative_group", Description: "combatants of one group share one Initiative roll (LOS-037)"},
		},
		Actions: []*rulesetv1.ActionDescriptor{
			{Name: "attack", Description: "Test Trait + Talent + 1d10 against 15 + 5 per Exploit; Exploits buy extra damage", Cost: "the weapon's Vitesse; 2 PA natural or unarmed", Rule: "LOS-035"},
			{Name: "parry", Description: "reaction to an attack that hit its Difficulty; Test against the attacker's Difficulty", Cost: "1 PA", Rule: "LOS-036"},
			{Name: "dodge", Description: "reaction to an attack that hit its Difficulty; Test against the attacker's Difficulty", Cost: "1 PA", Rule: "LOS-036"},
			{Name: "take the blow", Description: "reaction: no Test, the attack hits", Cost: "0 PA", Rule: "LOS-009"},
			{Name: "pass", Description: "end one's actions for the Tour; PA left serve only to defend", Cost: "0 PA", Rule: "LOS-033"},
		},
		Options: []*rulesetv1.OptionDescriptor{
			{Name: "explode_action_d10", Description: "a 10 on an action Test is rolled again and added", DefaultValue: "true", Rule: "LOS-002"},
			{Name: "explode_damage_d10", Description: "damage d10s explode", DefaultValue: "false", Rule: "LOS-002"},
			{Name: "health_bands", Description: "NS boxes of the light, grave and fatal bands", DefaultValue: "5,5,5", Rule: "LOS-022"},
			{Name: "gm_fursa", Description: "the GM's Fursa reserve at the start", DefaultValue: "0", Rule: "LOS-005"},
			{Name: "gm_fursa_on_failed_exploit", Description: "the GM gains a Fursa when a player character fails an Exploit", DefaultValue: "true", Rule: "LOS-005"},
		},
		Tables: []*rulesetv1.Table{
			{Name: "Action costs", Rule: "LOS-035", Header: []string{"action", "PA"}, Rows: []*rulesetv1.TableRow{
				row("weapon attack", "Vitesse"), row("natural animal attack", "2"), row("unarmed attack", "2"),
				row("parry or dodge", "1"), row("speak or shout", "0"),
			}},
			{Name: "Health bands", Rule: "LOS-022", Header: []string{"band", "boxes", "Difficulty"}, Rows: []*rulesetv1.TableRow{
				row("light", "5", "+0"), row("grave", "5", "+5"), row("fatal", "5", "+10"),
			}},
			{Name: "Partial defence", Rule: "LOS-014", Header: []string{"defence total", "Exploits cancelled"}, Rows: []*rulesetv1.TableRow{
				row("20–24", "1"), row("25–29", "2"), row("30–34", "3"), row("35–39", "4"), row("40+", "5"),
			}},
		},
	}
}

// Legal lists what a combatant may do now, with costs.
func (System) Legal(st *encounterv1.EncounterState, id string) []*rulesetv1.LegalAction {
	f, err := fighterOf(st, id)
	if err != nil || f.cs == nil {
		return nil
	}
	var out []*rulesetv1.LegalAction
	if p := lossState(st).GetPending(); p != nil {
		if p.GetDefenderId() != id {
			return nil
		}
		if f.cs.GetActionPoints() >= DefenceCost {
			if f.sh.GetParry() != nil {
				out = append(out, &rulesetv1.LegalAction{Name: "parry", Cost: DefenceCost, Rule: "LOS-036"})
			}
			if f.sh.GetDodge() != nil {
				out = append(out, &rulesetv1.LegalAction{Name: "dodge", Cost: DefenceCost, Rule: "LOS-036"})
			}
		}
		return append(out, &rulesetv1.LegalAction{Name: "take the blow", Rule: "LOS-009"})
	}
	if mayAct(st, f) != nil {
		return nil
	}
	var targets []string
	for _, c := range st.GetCombatants() {
		if c.GetId() != id && !lossState(st).GetCombatants()[c.GetId()].GetOut() {
			targets = append(targets, c.GetId())
		}
	}
	for _, w := range f.sh.GetWeapons() {
		if c := attackCost(f, w); c <= f.cs.GetActionPoints() && len(targets) > 0 {
			out = append(out, &rulesetv1.LegalAction{
				Name: "attack", Description: fmt.Sprintf("attack with %s", w.GetName()), Cost: c, Rule: "LOS-035", Targets: targets, Weapon: w.GetName(),
			})
		}
	}
	return append(out, &rulesetv1.LegalAction{Name: "pass", Rule: "LOS-033"})
}
