package feerie

import (
	"fmt"

	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

func row(cells ...string) *rulesetv1.TableRow { return &rulesetv1.TableRow{Cells: cells} }

// Describe returns the sheet fields, actions, tactic presets, special strikes and tables.
func (s System) Describe() *rulesetv1.RulesetDescriptor {
	return &rulesetv1.RulesetDescriptor{
		Id: ID, Name: s.Name(), Version: s.Version(),
		SheetFields: []*rulesetv1.FieldDescriptor{
			{Name: "vigilance, habilete, puissance, resistance, charme", Description: "the Aspects"},
			{Name: "taille", Description: narrate.Signed(s.n.MinTaille) + " to " + narrate.Signed(s.n.MaxTaille) + " (FEE-092)"},
			{Name: "essence", Description: "the damage track"},
			{Name: "attributes", Description: "Affinities, Powers (mastery) and Accessoires: name, kind, value, combat, mount, specific"},
			{Name: "flier, burrower, inanimate", Description: "attack angles (FEE-090) and objects (FEE-023)"},
			{Name: "mount_id", Description: "the combatant this one rides: mounted combat (FEE-140…FEE-144)"},
		},
		Actions: s.describeActions(),
		Options: describeOptions(),
		Tables:  s.describeTables(),
	}
}

// describeActions: the commands, the GM's among them, each with its cost and rule.
func (s System) describeActions() []*rulesetv1.ActionDescriptor {
	return []*rulesetv1.ActionDescriptor{
		{Name: "declare", Description: "step 1: the intention (activity, target, Attributes applied) and the tactic", Cost: "step 1", Rule: "FEE-040"},
		{Name: "act", Description: fmt.Sprintf("perform the activity at the current rank: waiting is free, anticipating −1 per rank, a further activity %d ranks later at −%d each", s.n.SupplementaryRanks, s.n.SupplementaryMalus), Cost: "one activity", Rule: "FEE-042"},
		{Name: "change", Description: fmt.Sprintf("a change of intention: −%d on the activity and on Defense, −%d next Action; a new tactic moves the acting rank", s.n.ChangeMalus, s.n.ChangeMalus), Cost: fmt.Sprintf("−%d", s.n.ChangeMalus), Rule: "FEE-070"},
		{Name: "renounce", Description: "give up the activity, at no cost", Cost: "none", Rule: "FEE-075"},
		{Name: "gesture", Description: "walking slowly, talking, a simple gesture, an ordinary use of a Power that costs no Essence: free alongside the activities", Cost: "none", Rule: "FEE-047"},
		{Name: "unseen", Description: "the GM rules an attacker unseen by a victim on guard: dissimulation roll against the victim's Vigilance, +half the margin to Initiative", Cost: "GM, step 1", Rule: "FEE-081"},
		{Name: "advance", Description: "the GM moves the countdown down, resolving the rank's activities", Cost: "GM", Rule: "FEE-041"},
		{Name: "impersonal", Description: "the GM's event at rank 0 (fire, drowning)", Cost: "GM", Rule: "FEE-046"},
		{Name: "surprise", Description: fmt.Sprintf("the GM marks a combatant surprised (−%d Initiative, −%d Defense, no tactic)", s.n.SurpriseInitiative, s.n.SurpriseDefense), Cost: "GM", Rule: "FEE-080"},
		{Name: "helpless", Description: "the GM rules a combatant helpless (asleep, paralysed, unconscious): Defense 0 against every attack, no activity; clear: no longer", Cost: "GM", Rule: "FEE-022"},
		{Name: "ruling", Description: "the GM cancels or modifies a tactic, or gives a malus to the rest of the Action's rolls", Cost: "GM", Rule: "FEE-036"},
		{Name: "become_object", Description: "a Power gives the status of an inanimate object: damage as an object, every activity renounced (end: back to life)", Cost: "all activities", Rule: "FEE-026"},
	}
}

// describeOptions: the house rules, each with its default and the rule it settles
// (FEE-001…FEE-005, FEE-153, FEE-171…FEE-186).
func describeOptions() []*rulesetv1.OptionDescriptor {
	return []*rulesetv1.OptionDescriptor{
		{Name: "roll", Description: "the zero-mean roll of a score", DefaultValue: DefaultRoll, Rule: "FEE-001"},
		{Name: "fumble_margin", Description: "a failure by this much is a fumble", DefaultValue: "10", Rule: "FEE-004"},
		{Name: "essence_spend_cap", Description: "most Essence spent on one roll, +1 each (0: unlimited)", DefaultValue: "0", Rule: "FEE-005"},
		{Name: "tie_succeeds", Description: "a roll equal to its opposition succeeds, margin 0 (false: it fails)", DefaultValue: "true", Rule: "FEE-002"},
		{Name: "half_margin_rounding", Description: "half a margin rounds down or up", DefaultValue: RoundDown, Rule: "FEE-003"},
		{Name: "stun_malus", Description: "the stun malus: loss (floor(margin/2) + Damage − Soak), before_soak (floor(margin/2) + Damage) or damage (Damage alone)", DefaultValue: StunLoss, Rule: "FEE-153"},
		{Name: "division_rounding", Description: "paces, cover shares of Soak, Relentless's quarter and the strikes' \"per 4 Damage\" round down, up or to the nearest", DefaultValue: RoundDown, Rule: "FEE-171"},
		{Name: "combine_ranged_difficulty", Description: "a shot's global difficulty and its itemised terms may add up", DefaultValue: "false", Rule: "FEE-172"},
		{Name: "lighting_on_defense", Description: "lighting also weighs on the Defense against the attack", DefaultValue: "false", Rule: "FEE-173"},
		{Name: "helpless_immobile_at_range", Description: "a helpless defender at range also has the immobile target's −8", DefaultValue: "false", Rule: "FEE-174"},
		{Name: "angles_whole_fight", Description: "an opponent engaged in melee occupies its angle for the rest of the fight, not only the Action", DefaultValue: "false", Rule: "FEE-175"},
		{Name: "damage_before_soak", Description: "the Damage before Soak of Cripple, Frightening blow and Knockback: margin_and_damage (floor(margin/2) + Damage) or damage (Damage alone)", DefaultValue: BeforeSoakMarginAndDamage, Rule: "FEE-176"},
		{Name: "relentless_ends_with_action", Description: "a Relentless striker's −8 Defense ends with the Action, if its weapon is not dislodged before", DefaultValue: "false", Rule: "FEE-177"},
		{Name: "activity_malus_on_defense", Description: "the maluses of Trip, Stun and Entangle also weigh on Defense", DefaultValue: "false", Rule: "FEE-178"},
		{Name: "activity_malus_on_initiative", Description: "the maluses of Trip, Stun and Entangle also weigh on Initiative", DefaultValue: "false", Rule: "FEE-178"},
		{Name: "stun_stacking", Description: "a new stun adds to what remains (add) or the larger stands (max)", DefaultValue: StunAdd, Rule: "FEE-179"},
		{Name: "guard_malus_all_attacks", Description: "the −8 of Keep at bay / Enter the guard weighs on all the target's attacks, not only those on the striker", DefaultValue: "false", Rule: "FEE-180"},
		{Name: "strikes_at_roll", Description: "special strikes are chosen at the roll: one not declared at step 1 is no change of intention", DefaultValue: "false", Rule: "FEE-182"},
		{Name: "target_change_is_change", Description: "a change of target alone is a change of intention", DefaultValue: "false", Rule: "FEE-182"},
		{Name: "disarm_keeps_weapon_bonus", Description: "a disarmed character's weapon Accessoire keeps its bonus (the disarm is narrative)", DefaultValue: "false", Rule: "FEE-183"},
		{Name: "rider_pace_malus", Description: "a rider's attacks take its mount's pace malus", DefaultValue: "false", Rule: "FEE-184"},
		{Name: "exposed_rounding", Description: "an exposed proportion between two rows takes the nearest (ties to the harder), the harder or the easier row", DefaultValue: RoundNearest, Rule: "FEE-185"},
		{Name: "dissimulation_opposed_roll", Description: "an unseen attacker's dissimulation is opposed by the victim's Vigilance roll, not its score", DefaultValue: "false", Rule: "FEE-186"},
	}
}

// describeTables: the tactic presets (FEE-034), the special strikes (FEE-149) and the tables of
// the situations (FEE-092…FEE-131).
func (s System) describeTables() []*rulesetv1.Table {
	presets := &rulesetv1.Table{Name: "Tactics", Rule: "FEE-034", Header: []string{"tactic", "Initiative", "Attack", "Defense"}}
	for _, p := range Presets {
		presets.Rows = append(presets.Rows, row(p.Name, fmt.Sprintf("%+d", p.Init), fmt.Sprintf("%+d", p.Att), fmt.Sprintf("%+d", p.Def)))
	}
	strikes := &rulesetv1.Table{Name: "Special strikes", Rule: "FEE-149", Header: []string{"strike", "malus", "effect"}, Rows: []*rulesetv1.TableRow{
		row("Disarm", "−8", "Defense with Puissance; the weapon flies away"),
		row("Trip", "−6", fmt.Sprintf("the target falls: −%d to its activities until it gets up", s.n.TripMalus)),
		row("Entangle", "−8 melee, −12 ranged", "malus = margin until freed"),
		row("Stun", "−4", "malus = the would-be Essence loss, −1 per rank"),
		row("Keep at bay", "−12 + own Taille − target's", fmt.Sprintf("−%d Attack against the striker", s.n.GuardMalus)),
		row("Cripple", "−12", "an organ unusable for Damage-before-Soak ranks"),
		row("Relentless", fmt.Sprintf("−%d Defense", s.n.RelentlessDefense), "Damage + a quarter of the previous loss"),
		row("Frightening blow", "−4", "+1 intimidation per 4 Damage"),
		row("Knockback", "−8", "thrown 1 unit per 4 Damage"),
		row("Enter the guard", "−12 + target's Taille − own", fmt.Sprintf("−%d Attack against the striker", s.n.GuardMalus)),
	}}
	return []*rulesetv1.Table{presets, strikes,
		{Name: "Surface by Taille", Rule: "FEE-092", Header: []string{"Taille", "surface"}, Rows: []*rulesetv1.TableRow{
			row("−5…−4", "1"), row("−3…−2", "2"), row("−1…+1", "4"), row("+2…+3", "8"), row("+4…+5", "16"),
		}},
		{Name: "Pace", Rule: "FEE-100", Header: []string{"pace", "distance", "malus", "charge Damage"}, Rows: []*rulesetv1.TableRow{
			row("walk", "(H+T)/4", "0", "0"), row("trot", "(H+T)/3", "−4", "+2"), row("run", "(H+T)/2", "−8", "+4"), row("sprint", "H+T", "−12", "+6"),
		}},
		{Name: "Lighting", Rule: "FEE-120", Header: []string{"light", "contact", "ranged or sight"}, Rows: []*rulesetv1.TableRow{
			row("dusk, fog, torchlight", "−2", "−4"), row("full moon, sun in the eyes", "−4", "−8"), row("starlight", "−6", "−12"), row("blindfolded, darkness", "−8", "−16"),
		}},
		{Name: "Ranged difficulty", Rule: "FEE-130", Header: []string{"difficulty", "Defense"}, Rows: []*rulesetv1.TableRow{
			row("trivial", "−8"), row("typical", "0"), row("very hard", "+8"), row("formidable", "+16"), row("near-impossible", "+20"), row("impossible", "+24"),
		}},
		{Name: "Range", Rule: "FEE-131", Header: []string{"range", "Defense"}, Rows: []*rulesetv1.TableRow{
			row("arm's length", "−4"), row("a few steps", "0"), row("moderately far", "+4"), row("far", "+12"), row("very far", "+20"), row("horizon", "+28"),
		}},
		{Name: "Exposed proportion", Rule: "FEE-110", Header: []string{"exposed (nearest by ratio, ties to the harder: FEE-185)", "Attack"}, Rows: []*rulesetv1.TableRow{
			row("whole", "0"), row("a quarter", "−4"), row("a tenth", "−12"), row("a hundredth", "−20"), row("a thousandth", "−28"),
		}},
	}
}
