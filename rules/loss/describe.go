package loss

import (
	"fmt"
	"slices"
	"strconv"

	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
)

func row(cells ...string) *rulesetv1.TableRow { return &rulesetv1.TableRow{Cells: cells} }

// Describe returns the sheet fields, actions, options and tables of Les Chants de Loss, each
// number read from the version's Numbers.
func (s System) Describe() *rulesetv1.RulesetDescriptor {
	d := &rulesetv1.RulesetDescriptor{
		Id: ID, Name: s.Name(), Version: s.Version(),
		SheetFields: sheetFields(), Actions: s.actionDescriptors(), Options: s.optionDescriptors(), Tables: s.tables(),
	}
	exploitRows := &rulesetv1.Table{Name: "Exploits", Rule: "LOS-060", Header: []string{"effect", "Exploits", "on", "rule"}}
	var list []E
	for e := range effects {
		list = append(list, e)
	}
	slices.Sort(list)
	for _, e := range list {
		i := effects[e]
		d.Actions = append(d.Actions, &rulesetv1.ActionDescriptor{
			Name: "Exploit: " + i.name, Exploits: i.cost, Rule: i.rule,
			Description: fmt.Sprintf("declared on %s", useName(i.use)),
			Cost:        "the Test's action (Assaut: " + costPA(s.AssautCost) + ")",
		})
		exploitRows.Rows = append(exploitRows.Rows, row(i.name, strconv.Itoa(int(i.cost)), useName(i.use), i.rule))
	}
	d.Tables = append(d.Tables, exploitRows)
	return d
}

// costPA writes a cost in PA as the tables show it.
func costPA(n int32) string { return strconv.Itoa(int(n)) + " PA" }

// sheetFields are the fields of a Loss sheet (LOS-001…LOS-108).
func sheetFields() []*rulesetv1.FieldDescriptor {
	return []*rulesetv1.FieldDescriptor{
		{Name: "kind", Description: "COMBATANT_KIND_PLAYER_CHARACTER, COMBATANT_KIND_ADVERSAIRE or COMBATANT_KIND_SBIRE (LOS-024)"},
		{Name: "traits", Description: "Traits by name: Puissance, Agilité, Instinct…"},
		{Name: "talents", Description: "Talents by name: Arme de mêlée, Esquive, Parade…"},
		{Name: "initiative", Description: "added to the d10 of the Initiative roll (LOS-030)"},
		{Name: "weapons", Description: "name, kind (WEAPON_KIND_MELEE, _RANGED, _NATURAL, _UNARMED), attack Trait + Talent, Vitesse (PA cost of melee and ranged weapons), damage, assaut_damage, long, improvised, range and limit (m), explosive, heavy, bow, type"},
		{Name: "parry", Description: "Trait + Talent of a parry"},
		{Name: "dodge", Description: "Trait + Talent of a dodge"},
		{Name: "armour", Description: "protection subtracted from damage (LOS-021)"},
		{Name: "shield_protection", Description: "shield protection, always subtracted (LOS-021, LOS-053)"},
		{Name: "shield", Description: "name, size (SMALL, MEDIUM, LARGE), parry_bonus, dodge_penalty (LOS-053, LOS-019)"},
		{Name: "fursa", Description: "Fursa held, player characters only (LOS-005)"},
		{Name: "inspiration", Description: "Inspiration per Vertu: Sagesse, Honneur, Courage (LOS-005)"},
		{Name: "free_raises", Description: "Augmentations Gratuites held, +5 each when spent (LOS-004)"},
		{Name: "specialisations", Description: "kind and weapon_type (LOS-090…LOS-094)"},
		{Name: "initiative_group", Description: "combatants of one group share one Initiative roll (LOS-037)"},
		{Name: "armoured_forearm", Description: "a sturdy object to parry with (LOS-019)"},
		{Name: "pursuit", Description: "Trait + Talent of pursuit actions (LOS-104, LOS-108)"},
		{Name: "mount_speed", Description: "the mount's or vehicle's speed bonus (LOS-108)"},
		{Name: "athletics", Description: "Trait + Talent of Athletics: grab, trip, clothesline, tackle"},
		{Name: "large", Description: "larger than a human: no Kill outright (LOS-078)"},
		{Name: "structure", Description: "a structure: Fortification destruction applies (LOS-090)"},
		{Name: "armour_exploit_modifier", Description: "Difficulty added to aimed Exploits and Kill outright against it (LOS-078, LOS-079)"},
		{Name: "mounted", Description: "mounted or in a vehicle: no heavy weapons (LOS-090)"},
	}
}

// actionDescriptors are the actions of Les Chants de Loss, with their costs (LOS-035) and
// rules; the Exploits follow them (Describe).
func (s System) actionDescriptors() []*rulesetv1.ActionDescriptor {
	return []*rulesetv1.ActionDescriptor{
		{Name: "attack", Description: fmt.Sprintf("Test Trait + Talent + 1d10 against %d (or the ranged Difficulty) + %d per Exploit", s.BaseDifficulty, s.ExploitStep), Cost: "the weapon's Vitesse; " + costPA(s.BareCost) + " natural or unarmed; the slower weapon with Two weapons", Rule: "LOS-035"},
		{Name: "grab or trip", Description: s.manoeuvreText(), Cost: costPA(s.ManoeuvreCost), Rule: "LOS-035"},
		{Name: "parry", Description: "reaction to an attack that hit its Difficulty; Test against the attacker's Difficulty", Cost: costPA(s.DefenceCost), Rule: "LOS-036"},
		{Name: "dodge", Description: "reaction to an attack that hit its Difficulty; Test against the attacker's Difficulty", Cost: costPA(s.DefenceCost), Rule: "LOS-036"},
		{Name: "take the blow", Description: "reaction: no Test, the attack hits", Cost: "0 PA", Rule: "LOS-009"},
		{Name: "declare", Description: "the intention of one's first action of the Tour", Cost: "0 PA", Rule: "LOS-038"},
		{Name: "wait", Description: "act at a lower phase: PA lowered, next action cheaper by the phases waited (minimum " + itoa(s.MinWaitedCost) + ")", Cost: "the phases waited", Rule: "LOS-040"},
		{Name: "aim", Description: fmt.Sprintf("+1 per PA to the next Test with a ranged weapon, at most +%d (LOS-035); or a whole Tour, as the first action of the Tour: +%d (+%d with Visée of that weapon type) on the next shot with that weapon (LOS-084)", s.MaxAim, s.AimTourBonus, s.AimTourVisee), Cost: "1 PA per +1; all PA for a Tour", Rule: "LOS-035"},
		{Name: "speak", Cost: "0 PA", Rule: "LOS-035"},
		{Name: "social Talent", Cost: "1 PA", Rule: "LOS-035"},
		{Name: "pick up an object", Cost: costPA(s.PickUpCost), Rule: "LOS-035"},
		{Name: "move", Description: "at least 3 m", Cost: costPA(s.MoveCost), Rule: "LOS-035"},
		{Name: "stand up", Description: "regain one's feet, or one's balance after a Disarm (LOS-074)", Cost: costPA(s.StandUpCost), Rule: "LOS-035"},
		{Name: "recover weapon", Description: "after a Disarm, pick up one's weapon: the first action of the next Tour (or stand up to regain one's balance, " + costPA(s.StandUpCost) + "); no attack in the Disarm's Tour, even with the weapon back", Cost: costPA(s.PickUpCost), Rule: "LOS-074"},
		{Name: "pass", Description: "end one's actions for the Tour; PA left serve only to defend", Cost: "0 PA", Rule: "LOS-033"},
		{Name: "disaster", Description: "the GM turns a failed Exploit into a Désastre", Cost: "GM", Rule: "LOS-006"},
		{Name: "dying", Description: "sacrifice an Inspiration, urgent care, or finish off a dying character", Cost: "0 PA", Rule: "LOS-023"},
		{Name: "start pursuit", Description: "the GM opens a moving combat at a distance of 1 to " + itoa(s.MaxDistance) + " units", Cost: "GM", Rule: "LOS-100"},
		{Name: "charge (pursuit)", Description: s.chargeText(), Cost: costPA(s.ChargeCost), Rule: "LOS-102"},
		{Name: "clothesline (pursuit)", Description: "pursued at distance 2, Athletics " + itoa(s.AthleticsDiff) + ": the target falls, +1 unit", Cost: costPA(s.PursuitActionCost), Rule: "LOS-103"},
		{Name: "change distance (pursuit)", Description: "pursuit Test against the distance's Difficulty: ±1 unit, ±2 with 2 Exploits", Cost: costPA(s.PursuitActionCost), Rule: "LOS-104"},
		{Name: "tackle (pursuit)", Description: "pursuer at contact, Athletics " + itoa(s.AthleticsDiff) + ": the pursuit becomes a fight", Cost: costPA(s.PursuitActionCost), Rule: "LOS-105"},
		{Name: "shoot the legs (pursuit)", Description: fmt.Sprintf("within %d units: keep pace at %d, then shoot at %d: the target falls, 1 unit closer", s.LegsShotMaxRange, s.KeepPaceDifficulty, s.LegsShotDifficulty), Cost: costPA(s.PursuitActionCost) + " + the weapon's Vitesse", Rule: "LOS-106"},
		{Name: "zigzags (pursuit)", Description: "pursued Tests at " + itoa(s.KeepPaceDifficulty) + ": the pursuers' actions +2 (+5, +10 with Exploits)", Cost: costPA(s.PursuitActionCost), Rule: "LOS-107"},
		{Name: "grant free raises", Description: "the GM grants Augmentations Gratuites from a situation or equipment", Cost: "GM", Rule: "LOS-004"},
	}
}

// optionDescriptors are the house rules an encounter may choose, with their defaults.
func (s System) optionDescriptors() []*rulesetv1.OptionDescriptor {
	return []*rulesetv1.OptionDescriptor{
		{Name: "explode_action_d10", Description: "a 10 on an action Test is rolled again and added", DefaultValue: "true", Rule: "LOS-002"},
		{Name: "explode_damage_d10", Description: "damage d10s explode", DefaultValue: "false", Rule: "LOS-002"},
		{Name: "health_bands", Description: "NS boxes of the light, grave and fatal bands", DefaultValue: "5,5,5", Rule: "LOS-022"},
		{Name: "gm_fursa", Description: "the GM's Fursa reserve at the start", DefaultValue: "0", Rule: "LOS-005"},
		{Name: "gm_fursa_on_failed_exploit", Description: "the GM gains a Fursa when a player character fails an Exploit", DefaultValue: "true", Rule: "LOS-005"},
		{Name: "pc_starting_fursa", Description: "Fursa of a player character whose sheet gives none", DefaultValue: "1", Rule: "LOS-005"},
		{Name: "defence_exploit_bonus", Description: s.defenceBonusText(), DefaultValue: itoa(s.DefenceBonus), Rule: "LOS-016"},
		{Name: "cancelled_exploits_still_hit", Description: "an attack whose Exploits are all cancelled still hits", DefaultValue: "true", Rule: "LOS-015"},
		{Name: "pass_attacker_modifiers", Description: "the attacker's own modifiers pass on to the defender", DefaultValue: "false", Rule: "LOS-012"},
		{Name: "sbire_cancelled_exploit_plain_hit", Description: "a Sbire whose defence cancels the only Exploit takes a plain hit", DefaultValue: "true", Rule: "LOS-025"},
		{Name: "dying_at_zero_fatal", Description: "anyone at 0 fatal boxes is dying", DefaultValue: "true", Rule: "LOS-023"},
		{Name: "wall_is_only_defence", Description: "a Defensive wall or Total dodge is the only defence of the Tour", DefaultValue: "true", Rule: "LOS-066"},
		{Name: "aims_stack", Description: "aiming with PA and for a Tour stack", DefaultValue: "false", Rule: "LOS-084"},
		{Name: "zigzag_until_next_action", Description: "Zigzags last until the pursued's next action (else the end of the Tour)", DefaultValue: "true", Rule: "LOS-107"},
		{Name: "declare_low_to_high", Description: "everyone declares, lowest Initiative first, before the Tour", DefaultValue: "false", Rule: "LOS-038"},
		{Name: "same_phase_simultaneous", Description: "one felled at its phase by another at the same phase still acts there", DefaultValue: "true", Rule: "LOS-110"},
	}
}

// tables are the reference tables of the rules: costs (LOS-035), health (LOS-022), partial
// defence (LOS-014), ranged Difficulty (LOS-080), melee modifiers (LOS-050), pursuit distances
// (LOS-100); the Exploits' table follows them (Describe).
func (s System) tables() []*rulesetv1.Table {
	return []*rulesetv1.Table{
		{Name: "Action costs", Rule: "LOS-035", Header: []string{"action", "PA"}, Rows: []*rulesetv1.TableRow{
			row("grab, tackle, trip", itoa(s.ManoeuvreCost)), row("Assaut", itoa(s.AssautCost)), row("natural animal attack", itoa(s.BareCost)), row("unarmed attack", itoa(s.BareCost)),
			row("weapon attack", "Vitesse"), row("disarm", "Vitesse, or "+itoa(s.BareCost)+" unarmed"), row("parry or dodge", itoa(s.DefenceCost)),
			row("speak or shout", "0"), row("pick up an object", itoa(s.PickUpCost)), row("move 3 m or more", itoa(s.MoveCost)), row("stand up", itoa(s.StandUpCost)),
			row("recover from a Disarm: pick up one's weapon (LOS-074)", itoa(s.PickUpCost)),
			row("recover from a Disarm: regain one's balance (LOS-074)", itoa(s.StandUpCost)),
			row("social Talent", "1"), row("aim", "1 per +1, at most +"+itoa(s.MaxAim)),
		}},
		{Name: "Health bands", Rule: "LOS-022", Header: []string{"band", "boxes", "Difficulty"}, Rows: []*rulesetv1.TableRow{
			row("light", "5", "+0"), row("grave", "5", "+"+itoa(s.GravePenalty)), row("fatal", "5", "+"+itoa(s.FatalPenalty)), row("Sbire", itoa(SbireHealth), "+0"),
		}},
		s.partialDefenceTable(),
		{Name: "Ranged Difficulty", Rule: "LOS-080", Header: []string{"distance", "metres", "Difficulty"}, Rows: []*rulesetv1.TableRow{
			row("point-blank", "< 2", "15, +"+itoa(s.PointBlankBonus)+" to the Test"), row("close", "2–10", "15"), row("in range", "11–20", "20"),
			row("far", "21–40", "25"), row("very far", "41–60", "30"), row("out of range", "> 60", "35"),
		}},
		{Name: "Melee modifiers", Rule: "LOS-050", Header: []string{"situation", "modifier"}, Rows: []*rulesetv1.TableRow{
			row("darkness or blinded", "+10 Difficulty"), row("lower than the opponent", "+5 Difficulty"), row("prone", "+10 Difficulty"),
			row("off-hand", "+5 Difficulty"), row("opponent behind an obstacle", "+10 Difficulty"), row("outnumbered by 3+", "+5 Difficulty (not on defence)"),
			row("higher than the opponent", "+5 Test"), row("striking a prone target", "+10 Test"), row("from behind or surprised target", "+5 Test"),
			row("improvised weapon", "−2 Test"), row("partial cover (ranged)", "+10 Difficulty"), row("full cover (ranged)", "+15 Difficulty"),
		}},
		{Name: "Pursuit distances", Rule: "LOS-100", Header: []string{"units", "distance", "ranged Difficulty", "change distance"}, Rows: []*rulesetv1.TableRow{
			row("1", "contact", "15", "15"), row("2", "close", "15", "15"), row("3", "in range", "20", "20"),
			row("4", "far", "25", "25"), row("5", "very far", "30", "30"), row("6", "out of range", "35", "35"), row("7+", "sight lost: the pursuit ends", "", ""),
		}},
	}
}

// chargeText describes a Charge (LOS-102).
func (s System) chargeText() string {
	t := fmt.Sprintf("pursuer at distance 2, Difficulty %d: unseats or throws down; dodge at %d, whatever the charger's Exploits", s.ChargeDifficulty, s.ChargeDodgeDifficulty)
	if s.ChargeTakesNoExploits {
		t = fmt.Sprintf("pursuer at distance 2, Difficulty %d: unseats or throws down; dodge at %d; takes no Exploits", s.ChargeDifficulty, s.ChargeDodgeDifficulty)
	}
	return t
}

// defenceBonusText describes the option of LOS-016.
func (s System) defenceBonusText() string {
	t := "bonus of a successful defensive Exploit on the very next action in the Tour, whatever it is (lost if it is no Test)"
	if s.WaitForfeitsBonus {
		t += "; a wait forfeits it"
	}
	return t
}

// manoeuvreText describes a grab or a trip (LOS-035).
func (s System) manoeuvreText() string {
	if s.TripFells {
		return "Athletics Test (agripper, ceinturer, faire chuter); a trip makes the target fall: it must stand up (" +
			strconv.Itoa(int(s.StandUpCost)) + " PA) at its next action; a grab has no automatic effect: the GM applies what follows as situations"
	}
	return "Athletics Test (agripper, ceinturer, faire chuter); no automatic effect: the GM applies what follows as situations"
}

// partialDefenceTable: the Exploits a failed defence cancels by its total (LOS-014), from the
// formula Decide applies.
func (s System) partialDefenceTable() *rulesetv1.Table {
	t := &rulesetv1.Table{Name: "Partial defence", Rule: "LOS-014", Header: []string{"defence total", "Exploits cancelled"}}
	for c := int32(1); c <= s.MaxExploits; c++ {
		from := s.PartialDefenceMin + (c-1)*s.ExploitStep
		span := fmt.Sprintf("%d–%d", from, from+s.ExploitStep-1)
		if c == s.MaxExploits {
			span = fmt.Sprintf("%d+", from)
		}
		t.Rows = append(t.Rows, row(span, strconv.Itoa(int(s.PartialDefence(from, s.MaxExploits)))))
	}
	return t
}

func useName(u use) string {
	var parts []string
	if u&onMelee != 0 {
		parts = append(parts, "melee attack")
	}
	if u&onRanged != 0 {
		parts = append(parts, "ranged attack")
	}
	if u&onParry != 0 {
		parts = append(parts, "parry")
	}
	if u&(onDodge|onRangedDodge) != 0 {
		parts = append(parts, "dodge")
	}
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += ", "
		}
		out += p
	}
	return out
}
