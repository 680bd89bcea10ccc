package d20seg

import (
	"fmt"
	"strconv"
	"strings"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
)

// Describe returns the sheet fields, actions with their segment costs, and tables of this
// version: every number in it is read from the version's Numbers, so that a client shows the
// costs of the version an encounter pinned.
func (sys System) Describe() *rulesetv1.RulesetDescriptor {
	n := sys.n
	row := func(c ...string) *rulesetv1.TableRow { return &rulesetv1.TableRow{Cells: c} }
	equipment := "rapidite, armour, shield, weapon_class"
	if n.RequireEquipment {
		equipment = "rapidite, armour (required), shield, weapon_class (required)"
	}
	var initiative []*rulesetv1.TableRow
	for _, e := range equipmentRows {
		initiative = append(initiative, row(e.label, signed(e.modifier(n))))
	}
	var attackCost, attackRows []string
	for i, c := range n.AttackCosts {
		bba := strconv.Itoa(int(c.FromBBA)) + "+"
		if i+1 < len(n.AttackCosts) {
			bba = fmt.Sprintf("%d–%d", c.FromBBA, n.AttackCosts[i+1].FromBBA-1)
		}
		cost, cell := strconv.Itoa(int(c.First)), strconv.Itoa(int(c.First))
		if c.Then != c.First {
			cost, cell = fmt.Sprintf("%d then %d", c.First, c.Then), fmt.Sprintf("%d, then %d", c.First, c.Then)
		}
		if i == 0 {
			attackCost = append(attackCost, fmt.Sprintf("BBA %s: %s segments", bba, cost))
		} else {
			attackCost = append(attackCost, bba+": "+cost)
		}
		attackRows = append(attackRows, bba, cell)
	}
	var cast []string
	for i, c := range n.SpellCosts {
		level := ""
		if i == 0 {
			level = "level "
		}
		cast = append(cast, fmt.Sprintf("%s%s: %d", level, levels(c), c.Segments))
	}
	cast = append(cast, fmt.Sprintf("+%d special", n.SpecialSpell), "pure magic: stated")
	var sizes []*rulesetv1.TableRow
	for _, s := range sizeRows {
		sizes = append(sizes, row(s.label, metres(n.Space[s.size], s.open), metres(n.Reach[s.size], s.open)))
	}
	surprise := fmt.Sprintf("segments %d–%d", n.FirstSegment, n.FirstSegment+n.SurpriseSegments-1)
	return &rulesetv1.RulesetDescriptor{
		Id: ID, Name: sys.Name(), Version: sys.Version(),
		SheetFields: []*rulesetv1.FieldDescriptor{
			{Name: equipment, Description: "Initiative (D20-010)"},
			{Name: "bba, agility, strength, feats, weapons", Description: "attacks (D20-017, D20-040…D20-042)"},
			{Name: "wisdom, perception, stealth", Description: "apprehension (D20-003)"},
			{Name: "ca, hit_points, size", Description: "defence, damage track, reach (D20-030)"},
			{Name: "extra_segments", Description: "−1, 6, 7 for high-level characters (D20-014)"},
		},
		Actions: []*rulesetv1.ActionDescriptor{
			{Name: "attack", Cost: strings.Join(attackCost, "; "), Rule: "D20-017"},
			{Name: "cast", Cost: strings.Join(cast, "; "), Rule: "D20-018"},
			{Name: "other", Description: "move, draw a weapon, stand up, use an object", Cost: plural(n.OtherCost) + " unless the GM says otherwise", Rule: "D20-022"},
			{Name: "end turn", Cost: "the rest of the round", Rule: "D20-016"},
			{Name: "surprise", Description: "the GM declares a surprise attack: apprehension rolls; each attacker's free action first, in Initiative order, then " +
				surprise + "; those named neither attacker nor defender take no part", Cost: "GM", Rule: "D20-004"},
		},
		Options: []*rulesetv1.OptionDescriptor{
			{Name: "apprehension_scale", Description: "light, medium and high apprehension modifiers",
				DefaultValue: fmt.Sprintf("%d,%d,%d", n.ApprehensionScale[0], n.ApprehensionScale[1], n.ApprehensionScale[2]), Rule: "D20-002"},
			{Name: "carry_over", Description: "an action that does not fit in the round runs on into the next round's first segments", DefaultValue: "false", Rule: "D20-020"},
			{Name: "down_at", Description: "a combatant is down at this many hit points or fewer", DefaultValue: strconv.Itoa(int(n.DownAt)), Rule: "D20-044"},
			{Name: "skip_apprehension", Description: "no apprehension rolls: every defender of a surprise attack is surprised", DefaultValue: "false", Rule: "D20-000"},
		},
		Tables: []*rulesetv1.Table{
			{Name: "Initiative modifiers", Rule: "D20-010", Header: []string{"equipment", "modifier"}, Rows: initiative},
			{Name: "Attack cost", Rule: "D20-017", Header: []string{"BBA", "segments"}, Rows: pairs(attackRows)},
			{Name: "Space and reach", Rule: "D20-030", Header: []string{"size", "space", "reach"}, Rows: sizes},
		},
	}
}

// equipmentRows: the rows of the Initiative modifiers table (D20-010), in the seed's order.
var equipmentRows = []struct {
	label    string
	modifier func(Numbers) int32
}{
	{"no armour", func(n Numbers) int32 { return n.Armour[d20segv1.Armour_ARMOUR_NONE] }},
	{"light armour", func(n Numbers) int32 { return n.Armour[d20segv1.Armour_ARMOUR_LIGHT] }},
	{"medium armour", func(n Numbers) int32 { return n.Armour[d20segv1.Armour_ARMOUR_MEDIUM] }},
	{"heavy armour", func(n Numbers) int32 { return n.Armour[d20segv1.Armour_ARMOUR_HEAVY] }},
	{"shield", func(n Numbers) int32 { return n.Shield[d20segv1.Shield_SHIELD_SHIELD] }},
	{"pavise", func(n Numbers) int32 { return n.Shield[d20segv1.Shield_SHIELD_PAVISE] }},
	{"unarmed", func(n Numbers) int32 { return n.Weapon[d20segv1.WeaponClass_WEAPON_CLASS_UNARMED] }},
	{"light weapon", func(n Numbers) int32 { return n.Weapon[d20segv1.WeaponClass_WEAPON_CLASS_LIGHT] }},
	{"one-handed weapon", func(n Numbers) int32 { return n.Weapon[d20segv1.WeaponClass_WEAPON_CLASS_ONE_HANDED] }},
	{"two-handed weapon", func(n Numbers) int32 { return n.Weapon[d20segv1.WeaponClass_WEAPON_CLASS_TWO_HANDED] }},
	{"ranged or thrown", func(n Numbers) int32 { return n.Weapon[d20segv1.WeaponClass_WEAPON_CLASS_RANGED] }},
}

// sizeRows: the rows of the space and reach table (D20-030); a Colossal one takes 9 m or more.
var sizeRows = []struct {
	label string
	size  d20segv1.Size
	open  bool
}{
	{"I", d20segv1.Size_SIZE_I, false}, {"Min", d20segv1.Size_SIZE_MIN, false}, {"Tp", d20segv1.Size_SIZE_TP, false},
	{"P", d20segv1.Size_SIZE_P, false}, {"M", d20segv1.Size_SIZE_M, false}, {"G", d20segv1.Size_SIZE_G, false},
	{"Tg", d20segv1.Size_SIZE_TG, false}, {"Gig", d20segv1.Size_SIZE_GIG, false}, {"Col", d20segv1.Size_SIZE_COL, true},
}

// spellCategories: the names of the spell categories of the casting-time table, in the order
// of Numbers.SpellCosts (D20-018).
var spellCategories = [len(Numbers{}.SpellCosts)]string{"pre-magic", "weak magic", "moderate magic", "supreme magic"}

// levels names a category's levels: "0", "1–3".
func levels(c SpellCostStep) string {
	if c.FromLevel == c.ToLevel {
		return strconv.Itoa(int(c.FromLevel))
	}
	return fmt.Sprintf("%d–%d", c.FromLevel, c.ToLevel)
}

// signed writes a modifier as the tables do: "+1", "0", "−1" (a real minus sign).
func signed(v int32) string {
	switch {
	case v > 0:
		return "+" + strconv.Itoa(int(v))
	case v < 0:
		return "−" + strconv.Itoa(int(-v))
	}
	return "0"
}

// metres writes a length in centimetres as the seed does: "15 cm", "1.5 m", "3 m", "0"; open
// adds "+" (or more).
func metres(cm int32, open bool) string {
	s := "0"
	switch {
	case cm >= 100:
		s = strconv.FormatFloat(float64(cm)/100, 'f', -1, 64) + " m"
	case cm > 0:
		s = strconv.Itoa(int(cm)) + " cm"
	}
	if open {
		s += "+"
	}
	return s
}

func pairs(cells []string) []*rulesetv1.TableRow {
	var out []*rulesetv1.TableRow
	for i := 0; i+1 < len(cells); i += 2 {
		out = append(out, &rulesetv1.TableRow{Cells: []string{cells[i], cells[i+1]}})
	}
	return out
}
