package ka

import (
	"fmt"
	"strings"

	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
)

func row(cells ...string) *rulesetv1.TableRow { return &rulesetv1.TableRow{Cells: cells} }

// Describe returns the spheres, skills, actions and tables of Ka.
func (s System) Describe() *rulesetv1.RulesetDescriptor {
	return &rulesetv1.RulesetDescriptor{
		Id: ID, Name: s.Name(), Version: s.Version(),
		SheetFields: []*rulesetv1.FieldDescriptor{
			{Name: "spheres", Description: "Animalité, Humanité and at least one more"},
			{Name: "skills", Description: "Arme à feu, Esquive, Bagarre…"},
			{Name: "encaissement, protection", Description: "soak (KA-023) and the seuil (KA-026)"},
			{Name: "ka_dice, reality_points", Description: "the two tracks (KA-029)"},
			{Name: "player_character", Description: "acts before a non-player character of equal Animalité (KA-014)"},
			{Name: "weapons", Description: "name, sphere, skill, damage, burst"},
		},
		Actions: []*rulesetv1.ActionDescriptor{
			{Name: "attack", Description: "declared first; the target announces whether it defends, then the cards are drawn; bare hands (mains nues) are Animalité + Bagarre", Cost: fmt.Sprintf("1 action, −%d per action already taken", s.n.ActionMalus), Rule: "KA-020"},
			{Name: "stun", Description: "an attack whose damage goes to points de réalité, without soak", Cost: "1 action", Rule: "KA-030"},
			{Name: "burst", Description: fmt.Sprintf("Animalité; −%s for n targets (up to %d, −%d for one), +%d damage each; one target +%d",
				times(s.n.BurstMalus, "n"), s.n.MaxBurstTargets, s.n.BurstMalus, s.n.BurstPerBullet, s.n.BurstSingle), Cost: "1 action", Rule: "KA-033"},
			{Name: "dodge", Description: "the attack's sphere + Esquive, opposed; without the skill, at 0", Cost: "1 action", Rule: "KA-013"},
			{Name: "parry", Description: "where the option parry allows it: the attack's sphere + the skill named, opposed; not against a stun", Cost: "1 action", Rule: "KA-013"},
			{Name: "take it", Description: "answer a declared attack without defending: the attacker's draw stands alone", Cost: "none", Rule: "KA-020"},
			{Name: "attack back", Description: "with tied Animalité, both attack; only the winner succeeds", Cost: "1 action", Rule: "KA-008"},
			{Name: "disarm", Description: "Humanité + Bagarre, a held weapon's skill or a power, against Humanité + weapon skill; resisting costs nothing; the weapon is lost", Cost: "1 action", Rule: "KA-032"},
			{Name: "pick up", Description: "pick up a weapon lost to a disarm", Cost: "1 action", Rule: "KA-032"},
			{Name: "terror", Description: fmt.Sprintf("the Maître de Ka calls for Animalité + encaissement; below %d and Animalité × %d: Abysse", s.n.SimpleThreshold, s.n.TerrorFactor), Cost: "none", Rule: "KA-034"},
			{Name: "pass", Description: "no more actions this round", Cost: "none", Rule: "KA-015"},
		},
		Options: []*rulesetv1.OptionDescriptor{
			{Name: "deck", DefaultValue: "tarot56", Rule: "KA-001"},
			{Name: "reshuffle", DefaultValue: "on_empty", Description: "or every_draw", Rule: "KA-003"},
			{Name: "success_levels", DefaultValue: joinInts(s.n.SuccessLevels), Description: "margins of the great and exceptional successes", Rule: "KA-006"},
			{Name: "success_bonus", DefaultValue: joinInts(s.n.SuccessBonus), Description: "damage bonus of normal, great, exceptional", Rule: "KA-006"},
			{Name: "ka_table", DefaultValue: joinInts(s.n.KaTable), Description: "upper bounds of damage after soak, one per Ka die lost; beyond the last, one die per step of the last interval", Rule: "KA-024"},
			{Name: "parry", DefaultValue: "false", Description: "the Maître de Ka allows parries with a skill other than Esquive", Rule: "KA-013"},
		},
		Tables: []*rulesetv1.Table{
			{Name: "Success levels", Rule: "KA-006", Header: []string{"margin", "level", "damage bonus"}, Rows: s.successRows()},
			{Name: "Damage to Ka dice (default ka_table)", Rule: "KA-024", Header: []string{"damage after soak", "Ka dice"}, Rows: s.kaTableRows()},
			{Name: "Cards", Rule: "KA-002", Header: []string{"card", "value"}, Rows: []*rulesetv1.TableRow{
				row("ace–10", "its number"), row("valet, cavalier, dame, roi", fmt.Sprintf("%d, and draw again", s.n.FaceValue)),
			}},
		},
	}
}

// successRows: the default success levels by margin, and their damage bonus (KA-006).
func (s System) successRows() []*rulesetv1.TableRow {
	names := []string{"normal", "great", "exceptional"}
	rows := []*rulesetv1.TableRow{row("< 0", "failure", "—")}
	from := int32(0)
	for i, bonus := range s.n.SuccessBonus {
		name := fmt.Sprintf("level %d", i+1)
		if i < len(names) {
			name = names[i]
		}
		margins := fmt.Sprintf("%d+", from)
		if i < len(s.n.SuccessLevels) {
			margins = fmt.Sprintf("%d–%d", from, s.n.SuccessLevels[i]-1)
			from = s.n.SuccessLevels[i]
		}
		rows = append(rows, row(margins, name, fmt.Sprintf("%+d", bonus)))
	}
	return rows
}

// kaTableRows: the default table of damage after soak to Ka dice lost (KA-024).
func (s System) kaTableRows() []*rulesetv1.TableRow {
	var rows []*rulesetv1.TableRow
	from, step := int32(1), int32(0)
	for i, b := range s.n.KaTable {
		rows = append(rows, row(fmt.Sprintf("%d–%d", from, b), fmt.Sprint(i+1)))
		step, from = b-from+1, b+1
	}
	return append(rows, row("…", fmt.Sprintf("one more per %d", step)))
}

// joinInts: "10,20".
func joinInts(vs []int32) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ",")
}

// times: "n" for 1, "2n" for 2.
func times(k int32, n string) string {
	if k == 1 {
		return n
	}
	return fmt.Sprint(k) + n
}
