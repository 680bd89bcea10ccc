// Package feerie implements Contes de Fées combat (docs/rules/feerie.md): a countdown of
// Initiative ranks, tactics, anticipation, supplementary activities, changes of intention and
// special strikes.
package feerie

import (
	"fmt"
	"slices"
	"strings"

	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

// Mods are the terms of a value, each with its reason and rule.

type Mods []*feeriev1.Modifier

func (m *Mods) add(reason, rule string, v int32) {
	if v != 0 {
		*m = append(*m, &feeriev1.Modifier{Reason: reason, Value: v, Rule: rule})
	}
}

func (m Mods) Sum() int32 { return m.sum() }

func (m Mods) sum() int32 {
	var n int32
	for _, x := range m {
		n += x.GetValue()
	}
	return n
}

// attribute finds a named Attribute on a sheet.
func attribute(sh *feeriev1.Sheet, name string) *feeriev1.Attribute {
	for _, a := range sh.GetAttributes() {
		if a.GetName() == name {
			return a
		}
	}
	return nil
}

// applied adds the named Attributes to m and checks that the sheet has them.
func applied(sh *feeriev1.Sheet, names []string, rule string, m *Mods) error {
	seen := map[string]bool{}
	for _, n := range names {
		a := attribute(sh, n)
		if a == nil {
			return engine.Invalid(rule, "there is no Affinity, Power or Accessoire %q on the sheet", n)
		}
		if seen[n] {
			return engine.Invalid(rule, "%q is applied twice", n)
		}
		seen[n] = true
		m.add(n, rule, a.GetValue())
	}
	return nil
}

func taille(sh *feeriev1.Sheet, physical bool) int32 {
	if !physical { // FEE-170
		return 0
	}
	return sh.GetTaille()
}

// Values are a character's combat values for one activity, before circumstances and dice.
type Values struct {
	Initiative, Attack, Defense, Damage, Soak Mods
}

// ComputeValues derives the combat values of an intent (FEE-010…FEE-017).
func (sys System) ComputeValues(sh *feeriev1.Sheet, in *feeriev1.Intent) (*Values, error) {
	a := in.GetApplied()
	if err := checkOverlap(a); err != nil {
		return nil, err
	}
	v := &Values{}
	phys := in.GetPhysical()
	ranged := in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	v.Initiative.add("Vigilance", "FEE-010", sh.GetVigilance())
	if err := applied(sh, a.GetInitiative(), "FEE-010", &v.Initiative); err != nil {
		return nil, err
	}
	if ranged {
		v.Attack.add("Vigilance", "FEE-012", sh.GetVigilance())
	} else {
		v.Attack.add("Habileté", "FEE-011", sh.GetHabilete())
	}
	if err := applied(sh, a.GetAttack(), "FEE-011", &v.Attack); err != nil {
		return nil, err
	}
	v.Defense.add("Habileté", "FEE-013", sh.GetHabilete())
	v.Defense.add("Taille", "FEE-013", -taille(sh, phys))
	if err := applied(sh, a.GetDefense(), "FEE-013", &v.Defense); err != nil {
		return nil, err
	}
	v.Damage.add("Puissance", "FEE-014", sh.GetPuissance())
	v.Damage.add("Taille", "FEE-014", taille(sh, phys))
	if err := applied(sh, a.GetDamage(), "FEE-014", &v.Damage); err != nil {
		return nil, err
	}
	if ranged {
		v.Damage.add("ranged", "FEE-014", -sys.n.RangedDamageMalus)
	}
	v.Soak.add("Résistance", "FEE-015", sh.GetResistance())
	v.Soak.add("Taille", "FEE-015", taille(sh, phys))
	if err := applied(sh, a.GetSoak(), "FEE-015", &v.Soak); err != nil {
		return nil, err
	}
	return v, nil
}

// checkOverlap: an Attribute on the Attack cannot serve the Damage (FEE-016), one on the
// Defense cannot serve the Soak (FEE-017).
func checkOverlap(a *feeriev1.Applied) error {
	for _, n := range a.GetDamage() {
		if slices.Contains(a.GetAttack(), n) {
			return engine.Invalid("FEE-016", "%q already applies to the Attack and cannot also apply to the Damage", n)
		}
	}
	for _, n := range a.GetSoak() {
		if slices.Contains(a.GetDefense(), n) {
			return engine.Invalid("FEE-017", "%q applies to the Defense and cannot also apply to the Soak", n)
		}
	}
	return nil
}

// Cap is the largest tactic modifier an intent allows: the total of the distinct Attributes
// applied to its Attack or its Defense, those that make its combat aptitude (FEE-030,
// FEE-032); one applied only to the Initiative, the Damage or the Soak adds nothing.
func Cap(sh *feeriev1.Sheet, in *feeriev1.Intent) int32 {
	seen := map[string]bool{}
	var c int32
	a := in.GetApplied()
	for _, list := range [][]string{a.GetAttack(), a.GetDefense()} {
		for _, n := range list {
			if at := attribute(sh, n); at != nil && !seen[n] {
				seen[n] = true
				c += at.GetValue()
			}
		}
	}
	return c
}

// combatApplied: the intent applies an Affinity, a Power or an Accessoire (treated like an
// Affinity) that modifies its Attack or its Defense — the seed's « quelque aptitude au combat
// (i.e. des Affinités ou des Pouvoirs qui viennent modifier son Attaque ou sa Défense) »,
// which entitles a tactic (FEE-030).
func combatApplied(sh *feeriev1.Sheet, in *feeriev1.Intent) bool {
	a := in.GetApplied()
	for _, list := range [][]string{a.GetAttack(), a.GetDefense()} {
		for _, n := range list {
			if attribute(sh, n) != nil {
				return true
			}
		}
	}
	return false
}

// Presets are the named tactics of FEE-034 (Initiative, Attack, Defense), for a cap of 4.
var Presets = []struct {
	Name           string
	Init, Att, Def int32
}{
	{"Attaque foudroyante", 4, -2, -2},
	{"Attaque brutale", -2, 4, -2},
	{"Feinte", -4, 1, 3},
	{"Sauve qui peut", 0, -4, 4},
	{"Coûte que coûte", 4, 0, -4},
	{"Passage en force", 0, 4, -4},
	{"Préparation minutieuse", -4, 4, 0},
	{"Botte secrète", 2, 2, -4},
	{"Frappe et file", 1, -4, 3},
	{"Tenir en respect", 3, -4, 1},
	{"Grande parade", 2, -4, 2},
	{"Parade simple", -2, -2, 4},
	{"Riposte œil pour œil", -4, 2, 2},
}

// CheckTactic validates a tactic for an intent and fills in a preset's values (FEE-030…FEE-034).
func CheckTactic(sh *feeriev1.Sheet, in *feeriev1.Intent, who string) error {
	t := in.GetTactic()
	if t == nil {
		return nil
	}
	if p := t.GetPreset(); p != "" {
		i := slices.IndexFunc(Presets, func(x struct {
			Name           string
			Init, Att, Def int32
		}) bool {
			return x.Name == p
		})
		if i < 0 {
			return engine.Invalid("FEE-034", "%s: there is no tactic %q", who, p)
		}
		if t.GetInitiative() == 0 && t.GetAttack() == 0 && t.GetDefense() == 0 {
			t.Initiative, t.Attack, t.Defense = Presets[i].Init, Presets[i].Att, Presets[i].Def
		} else if t.GetInitiative() != Presets[i].Init || t.GetAttack() != Presets[i].Att || t.GetDefense() != Presets[i].Def {
			return engine.Invalid("FEE-034", "%s: %s is %+d/%+d/%+d, not the values given", who, p, Presets[i].Init, Presets[i].Att, Presets[i].Def)
		}
	}
	if t.GetInitiative() == 0 && t.GetAttack() == 0 && t.GetDefense() == 0 {
		return nil
	}
	if in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE {
		return engine.Refused("FEE-030", "%s is passive this Action (it does not use its Attack) and may not declare a tactic", who)
	}
	if !combatApplied(sh, in) {
		return engine.Refused("FEE-030", "%s applies no Affinity or Power to its Attack or its Defense in this activity and may not declare a tactic", who)
	}
	if s := t.GetInitiative() + t.GetAttack() + t.GetDefense(); s != 0 {
		return engine.Invalid("FEE-031", "%s's tactic must add up to 0; %+d%+d%+d adds up to %+d", who, t.GetInitiative(), t.GetAttack(), t.GetDefense(), s)
	}
	c := Cap(sh, in)
	for _, x := range []struct {
		what string
		v    int32
	}{{"Initiative", t.GetInitiative()}, {"Attack", t.GetAttack()}, {"Defense", t.GetDefense()}} {
		if x.v > c || -x.v > c {
			return engine.Invalid("FEE-032", "a tactic modifier of %d to %s exceeds %s's cap of %d (%s)", abs(x.v), x.what, who, c, capText(sh, in))
		}
	}
	return nil
}

// CheckNewCap: a change of the Attributes applied is a de facto change of tactic, and the cap
// is recomputed from the new ones (FEE-035); old is the intent in force, in the new one.
func CheckNewCap(sh *feeriev1.Sheet, old, in *feeriev1.Intent, who string) error {
	if old == nil || proto.Equal(old.GetApplied(), in.GetApplied()) {
		return nil
	}
	c := proto.CloneOf(in)
	err := CheckTactic(sh, c, who)
	if re, ok := engine.AsRuleError(err); ok && re.Rule == "FEE-032" {
		t := c.GetTactic()
		return engine.Invalid("FEE-035", "%s changes the Attributes applied: its tactic cap is now %d (%s, was %d), which the tactic %+d/%+d/%+d exceeds",
			who, Cap(sh, in), capText(sh, in), Cap(sh, old), t.GetInitiative(), t.GetAttack(), t.GetDefense())
	}
	return nil
}

// withName puts the combatant's name in a refusal that lacks it.
func withName(err error, who string) error {
	if re, ok := engine.AsRuleError(err); ok && !strings.Contains(re.Msg, who) {
		return &engine.RuleError{Code: re.Code, Rule: re.Rule, Msg: who + ": " + re.Msg, Why: re.Why, Numbers: re.Numbers}
	}
	return err
}

func capText(sh *feeriev1.Sheet, in *feeriev1.Intent) string {
	seen := map[string]bool{}
	out := ""
	a := in.GetApplied()
	for _, list := range [][]string{a.GetAttack(), a.GetDefense()} {
		for _, n := range list {
			if at := attribute(sh, n); at != nil && !seen[n] {
				seen[n] = true
				if out != "" {
					out += ", "
				}
				out += fmt.Sprintf("%s %+d", n, at.GetValue())
			}
		}
	}
	if out == "" {
		return "nothing applied to the Attack or the Defense"
	}
	return out
}

func abs(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// Surface of a Taille (FEE-092).
func Surface(t int32) int32 {
	switch {
	case t <= -4:
		return 1
	case t <= -2:
		return 2
	case t <= 1:
		return 4
	case t <= 3:
		return 8
	default:
		return 16
	}
}

// AnglesOccupied is how many of a defender's angles an attacker fills (FEE-096).
func AnglesOccupied(attacker, defender, offered int32) int32 {
	return anglesFilled(Surface(attacker), defender, offered)
}

// anglesFilled: ceil(surface / the defender's angle surface) angles, at least 1, at most those
// offered (FEE-096).
func anglesFilled(surface, defender, offered int32) int32 {
	d := Surface(defender)
	n := (surface + d - 1) / d
	return min(max(n, 1), offered)
}

// MaxAttackers reports whether attackers of the given Tailles can all attack a defender in
// melee through the angles offered (FEE-092, FEE-093): they fit while their summed surfaces
// stay within the angles' surface; one creature larger than all the angles attacks alone.
func MaxAttackers(defender int32, offered int32, attackers []int32) bool {
	total := Surface(defender) * offered
	var sum int32
	for _, t := range attackers {
		if Surface(t) > total {
			return len(attackers) == 1
		}
		sum += Surface(t)
	}
	return sum <= total
}

// AngleDefenseMalus is the Defense malus for the angles occupied (FEE-091).
func (sys System) AngleDefenseMalus(occupied int32) int32 {
	if occupied <= 1 {
		return 0
	}
	return -sys.n.AngleMalus * (occupied - 1)
}

// SweepFits reports whether one large attacker can strike all the defenders with one roll
// (FEE-094): their summed surfaces fit within its own.
func SweepFits(attacker int32, defenders []int32) bool {
	var sum int32
	for _, t := range defenders {
		sum += Surface(t)
	}
	return sum <= Surface(attacker)
}

// PaceMalus and PaceSpeed of FEE-100; ChargeDamage of FEE-101.
func PaceMalus(p feeriev1.Pace) int32 {
	switch p {
	case feeriev1.Pace_PACE_TROT:
		return -4
	case feeriev1.Pace_PACE_RUN:
		return -8
	case feeriev1.Pace_PACE_SPRINT:
		return -12
	}
	return 0
}

// PaceSpeed is the distance moved at a pace (FEE-100), divisions rounded down (FEE-171).
func PaceSpeed(sh *feeriev1.Sheet, p feeriev1.Pace) int32 { return paceSpeed(sh, p, RoundDown) }

// paceSpeed rounds its divisions as the option of FEE-171 says.
func paceSpeed(sh *feeriev1.Sheet, p feeriev1.Pace, rounding string) int32 {
	ht := sh.GetHabilete() + sh.GetTaille()
	switch p {
	case feeriev1.Pace_PACE_TROT:
		return divide(ht, 3, rounding)
	case feeriev1.Pace_PACE_RUN:
		return divide(ht, 2, rounding)
	case feeriev1.Pace_PACE_SPRINT:
		return ht
	}
	return divide(ht, 4, rounding)
}

func ChargeDamage(p feeriev1.Pace) int32 {
	switch p {
	case feeriev1.Pace_PACE_TROT:
		return 2
	case feeriev1.Pace_PACE_RUN:
		return 4
	case feeriev1.Pace_PACE_SPRINT:
		return 6
	}
	return 0
}

// LightingMalus of FEE-120, on contact and on ranged or sight-based rolls.
func LightingMalus(l feeriev1.Lighting, ranged bool) int32 {
	var contact int32
	switch l {
	case feeriev1.Lighting_LIGHTING_DUSK:
		contact = -2
	case feeriev1.Lighting_LIGHTING_MOONLIGHT:
		contact = -4
	case feeriev1.Lighting_LIGHTING_STARLIGHT:
		contact = -6
	case feeriev1.Lighting_LIGHTING_DARKNESS:
		contact = -8
	}
	if ranged {
		return 2 * contact
	}
	return contact
}

// RangedDifficultyMod (FEE-130) and RangeMod (FEE-131) modify the target's Defense.
func RangedDifficultyMod(d feeriev1.RangedDifficulty) int32 {
	switch d {
	case feeriev1.RangedDifficulty_RANGED_DIFFICULTY_TRIVIAL:
		return -8
	case feeriev1.RangedDifficulty_RANGED_DIFFICULTY_VERY_HARD:
		return 8
	case feeriev1.RangedDifficulty_RANGED_DIFFICULTY_FORMIDABLE:
		return 16
	case feeriev1.RangedDifficulty_RANGED_DIFFICULTY_NEAR_IMPOSSIBLE:
		return 20
	case feeriev1.RangedDifficulty_RANGED_DIFFICULTY_IMPOSSIBLE:
		return 24
	}
	return 0
}

func RangeMod(r feeriev1.Range) int32 {
	switch r {
	case feeriev1.Range_RANGE_ARMS_LENGTH:
		return -4
	case feeriev1.Range_RANGE_MODERATELY_FAR:
		return 4
	case feeriev1.Range_RANGE_FAR:
		return 12
	case feeriev1.Range_RANGE_VERY_FAR:
		return 20
	case feeriev1.Range_RANGE_HORIZON:
		return 28
	}
	return 0
}

// TargetPaceMalus halves the pace malus of a moving target (FEE-133); TerrainMod of FEE-133.
func TargetPaceMalus(p feeriev1.Pace) int32 { return PaceMalus(p) / 2 }

func TerrainMod(t feeriev1.Terrain) int32 {
	switch t {
	case feeriev1.Terrain_TERRAIN_DENSE_FOREST:
		return -12
	case feeriev1.Terrain_TERRAIN_CORRIDOR:
		return 4
	case feeriev1.Terrain_TERRAIN_WINDING_TUNNEL:
		return -4
	}
	return 0
}

// CoverSoak is the share of the Domain's Soak a cover adds (FEE-111), rounded down.
func CoverSoak(c *feeriev1.Cover) int32 { return coverShare(c, RoundDown) }

// coverShare rounds the share as the option of FEE-171 says.
func coverShare(c *feeriev1.Cover, rounding string) int32 {
	if c == nil {
		return 0
	}
	if c.GetInfluence() > 0 { // made by Influence: its intensity (FEE-112)
		return c.GetInfluence()
	}
	num, den := int32(0), int32(4)
	switch {
	case c.GetSolidity() == "fragile" && !c.GetThick():
		num = 1
	case c.GetSolidity() == "fragile":
		num = 2
	case c.GetSolidity() == "solid" && c.GetThick():
		num = 4
	case c.GetSolidity() == "solid":
		num = 3
	case c.GetThick(): // normal
		num = 3
	default:
		num = 2
	}
	return divide(c.GetDomainSoak()*num, den, rounding)
}

// CoverAttackMalus: −8 opaque, −4 semi-transparent (FEE-111).
func CoverAttackMalus(c *feeriev1.Cover) int32 {
	switch {
	case c.GetOpaque():
		return -8
	case c.GetSemiTransparent():
		return -4
	}
	return 0
}

// MountedMalus: a foot attacker striking a rider (FEE-140), never a bonus.
func MountedMalus(mount, attacker int32) int32 {
	return -max(0, 4+mount-attacker)
}

// MountedChargeTaille: the rider's Taille term on a mounted charge (FEE-142, FEE-184).
func MountedChargeTaille(rider, mount int32) int32 {
	if mount > 0 {
		return rider + mount
	}
	return max(rider, mount)
}

// StrikeMalus is the Attack malus of a special strike (FEE-150…FEE-159); Relentless weighs
// on Defense instead.
func StrikeMalus(s feeriev1.SpecialStrike, ranged bool, own, target int32) int32 {
	switch s {
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_DISARM, feeriev1.SpecialStrike_SPECIAL_STRIKE_KNOCKBACK:
		return -8
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_TRIP:
		return -6
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTANGLE:
		if ranged {
			return -12
		}
		return -8
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_STUN, feeriev1.SpecialStrike_SPECIAL_STRIKE_FRIGHTENING_BLOW:
		return -4
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY:
		return -12 + own - target
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_CRIPPLE:
		return -12
	case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD:
		return -12 + target - own
	}
	return 0
}
