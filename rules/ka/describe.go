package ka

import (
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
)

func row(cells ...string) *rulesetv1.TableRow { return &rulesetv1.TableRow{Cells: cells} }

// Describe returns the spheres, skills, actions and tables of Ka.
func (s System) Describe() *rulesetv1.RulesetDescriptor {
	return &rulesetv1.RulesetDescriptor{
		Id: ID, Name: s.Name(), Version: Version,
		SheetFields: []*rulesetv1.FieldDescriptor{
			{Name: "spheres", Description: "Animalité, Humanité and at least one more"},
			{Name: "skills", Description: "Arme à feu, Esquive, Bagarre…"},
			{Name: "encaissement, protection", Description: "soak (KA-023) and the seuil (KA-026)"},
			{Name: "ka_dice, reality_points", Description: "the two tracks (KA-029)"},
			{Name: "player_character", Description: "acts before a non-player character of equal Animalité (KA-014)"},
			{Name: "weapons", Description: "name, sphere, skill, damage, burst"},
		},
		Actions: []*rulesetv1.ActionDescriptor{
			{Name: "attack", Description: "declared first; the target announces whether it defends, then the cards are drawn; bare hands (mains nues) are Animalité + Bagarre", Cost: "1 action, −1 per action already taken", Rule: "KA-020"},
			{Name: "stun", Description: "an attack whose damage goes to points de réalité, without soak", Cost: "1 action", Rule: "KA-030"},
			{Name: "burst", Description: "Animalité; −n for n targets (up to 5, −1 for one), +6 damage each; one target +12", Cost: "1 action", Rule: "KA-033"},
			{Name: "dodge", Description: "the attack's sphere + Esquive, opposed; without the skill, at 0", Cost: "1 action", Rule: "KA-013"},
			{Name: "parry", Description: "where the option parry allows it: the attack's sphere + the skill named, opposed; not against a stun", Cost: "1 action", Rule: "KA-013"},
			{Name: "take it", Description: "answer a declared attack without defending: the attacker's draw stands alone", Cost: "none", Rule: "KA-020"},
			{Name: "attack back", Description: "with tied Animalité, both attack; only the winner succeeds", Cost: "1 action", Rule: "KA-008"},
			{Name: "disarm", Description: "Humanité + Bagarre, a held weapon's skill or a power, against Humanité + weapon skill; resisting costs nothing; the weapon is lost", Cost: "1 action", Rule: "KA-032"},
			{Name: "pick up", Description: "pick up a weapon lost to a disarm", Cost: "1 action", Rule: "KA-032"},
			{Name: "terror", Description: "the Maître de Ka calls for Animalité + encaissement; below 10 and Animalité × 3: Abysse", Cost: "none", Rule: "KA-034"},
			{Name: "pass", Description: "no more actions this round", Cost: "none", Rule: "KA-015"},
		},
		Options: []*rulesetv1.OptionDescriptor{
			{Name: "deck", DefaultValue: "tarot56", Rule: "KA-001"},
			{Name: "reshuffle", DefaultValue: "on_empty", Description: "or every_draw", Rule: "KA-003"},
			{Name: "success_levels", DefaultValue: "10,20", Description: "margins of the great and exceptional successes", Rule: "KA-006"},
			{Name: "success_bonus", DefaultValue: "1,5,10", Description: "damage bonus of normal, great, exceptional", Rule: "KA-006"},
			{Name: "ka_table", DefaultValue: "5,10,15,20", Description: "upper bounds of damage after soak, one per Ka die lost; beyond the last, one die per step of the last interval", Rule: "KA-024"},
			{Name: "parry", DefaultValue: "false", Description: "the Maître de Ka allows parries with a skill other than Esquive", Rule: "KA-013"},
		},
		Tables: []*rulesetv1.Table{
			{Name: "Success levels", Rule: "KA-006", Header: []string{"margin", "level", "damage bonus"}, Rows: []*rulesetv1.TableRow{
				row("< 0", "failure", "—"), row("0–9", "normal", "+1"), row("10–19", "great", "+5"), row("20+", "exceptional", "+10"),
			}},
			{Name: "Damage to Ka dice (default ka_table)", Rule: "KA-024", Header: []string{"damage after soak", "Ka dice"}, Rows: []*rulesetv1.TableRow{
				row("1–5", "1"), row("6–10", "2"), row("11–15", "3"), row("16–20", "4"), row("…", "one more per 5"),
			}},
			{Name: "Cards", Rule: "KA-002", Header: []string{"card", "value"}, Rows: []*rulesetv1.TableRow{
				row("ace–10", "its number"), row("valet, cavalier, dame, roi", "10, and draw again"),
			}},
		},
	}
}

// usableWeapons: the weapons f may attack with now, bare hands last (KA-018, KA-032).
func usableWeapons(f fighter) []*kav1.Weapon {
	var out []*kav1.Weapon
	for _, w := range arsenal(f) {
		if !hasLost(f, w.GetName()) || f.cs.GetStillActs() {
			out = append(out, w)
		}
	}
	return out
}
