package losscmd

import (
	"fmt"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/proto"
)

// exploitEffect is an Exploit effect as the CLI names it: its --effect name, how Describe
// shows it, and the Exploits it takes (LOS-060…LOS-078, LOS-085).
type exploitEffect struct {
	Name    string // the --effect name
	Text    string // in descriptions
	Effect  lossv1.ExploitEffect
	Cost    int32
	Attack  bool // may be declared with `fray attack`
	Defence bool // may be declared with `fray react`
	multi   bool // reaches further targets (--also)
}

// ExploitEffects is the Exploit table, in the order of the ExploitEffect enum. The names and
// costs are the rules' (a test checks them against loss.System.Describe).
var ExploitEffects = []exploitEffect{
	{Name: "extra-damage", Text: "extra damage", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE, Cost: 1, Attack: true},
	{Name: "assaut", Text: "Assaut", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_ASSAUT, Cost: 1, Attack: true},
	{Name: "counter-attack", Text: "counter-attack", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_COUNTER_ATTACK, Cost: 1, Defence: true},
	{Name: "total-dodge", Text: "total dodge", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_TOTAL_DODGE, Cost: 1, Defence: true},
	{Name: "feint", Text: "feint", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_FEINT, Cost: 1, Attack: true, Defence: true},
	{Name: "defensive-wall", Text: "defensive wall", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_DEFENSIVE_WALL, Cost: 1, Defence: true},
	{Name: "take-advantage", Text: "take the advantage", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_TAKE_ADVANTAGE, Cost: 1, Attack: true, Defence: true},
	{Name: "protect", Text: "protect", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_PROTECT, Cost: 1, Defence: true},
	{Name: "aim-limb", Text: "aim at a limb", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_LIMB, Cost: 1, Attack: true},
	{Name: "two-weapons", Text: "two weapons", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS, Cost: 2, Attack: true, multi: true},
	{Name: "moulinet", Text: "Moulinet", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_MOULINET, Cost: 2, Attack: true, multi: true},
	{Name: "overthrow", Text: "overthrow", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_OVERTHROW, Cost: 2, Attack: true, Defence: true},
	{Name: "aim-zone", Text: "aim at a precise zone", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_ZONE, Cost: 2, Attack: true},
	{Name: "disarm", Text: "disarm", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_DISARM, Cost: 3, Attack: true, Defence: true},
	{Name: "aim-point", Text: "aim at a precise point", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_AIM_POINT, Cost: 3, Attack: true},
	{Name: "neutralise", Text: "neutralise", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_NEUTRALISE, Cost: 4, Attack: true, Defence: true},
	{Name: "storm-of-blades", Text: "storm of blades", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_STORM_OF_BLADES, Cost: 4, Attack: true, multi: true},
	{Name: "kill-outright", Text: "kill outright", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_KILL_OUTRIGHT, Cost: 5, Attack: true},
	{Name: "ricochet", Text: "ricochet", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_RICOCHET, Cost: 2, Attack: true},
	{Name: "shoot-through", Text: "shoot through", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_SHOOT_THROUGH, Cost: 2, Attack: true, multi: true},
	{Name: "rain-of-projectiles", Text: "rain of projectiles", Effect: lossv1.ExploitEffect_EXPLOIT_EFFECT_RAIN_OF_PROJECTILES, Cost: 4, Attack: true, multi: true},
}

// maxExploits is the most Exploits a Test declares (LOS-010, LOS-012).
const maxExploits = 5

func effectInfo(e lossv1.ExploitEffect) (exploitEffect, bool) {
	for _, x := range ExploitEffects {
		if x.Effect == e {
			return x, true
		}
	}
	return exploitEffect{}, false
}

// exploitCount is the number of Exploits a list of effects takes; an effect the CLI does not
// know counts 1.
func exploitCount(xs []lossv1.ExploitEffect) int32 {
	var n int32
	for _, x := range xs {
		if i, ok := effectInfo(x); ok {
			n += i.Cost
		} else {
			n++
		}
	}
	return n
}

// effectNames lists the --effect names allowed by ok, with their costs: "feint (1), disarm (3)".
func effectNames(ok func(exploitEffect) bool) string {
	var parts []string
	for _, x := range ExploitEffects {
		if ok(x) {
			parts = append(parts, fmt.Sprintf("%s (%d)", x.Name, x.Cost))
		}
	}
	return strings.Join(parts, ", ")
}

// effectFlag is the repeatable --effect flag: Exploit effects by name, for an attack or a
// defence.
type effectFlag struct {
	defence bool
	list    []exploitEffect
}

func (f *effectFlag) allowed(x exploitEffect) bool {
	if f.defence {
		return x.Defence
	}
	return x.Attack
}

func (f *effectFlag) String() string {
	if f == nil {
		return ""
	}
	names := make([]string, len(f.list))
	for i, x := range f.list {
		names[i] = x.Name
	}
	return strings.Join(names, ",")
}

// Type names the value in the usage.
func (*effectFlag) Type() string { return "effect" }

func (f *effectFlag) Set(s string) error {
	name := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "_", "-")
	name = strings.TrimPrefix(name, "exploit-effect-")
	for _, x := range ExploitEffects {
		if x.Name == name && f.allowed(x) {
			f.list = append(f.list, x)
			return nil
		}
	}
	what := "an attack"
	if f.defence {
		what = "a parry or dodge"
	}
	return fmt.Errorf("unknown effect %q for %s; the effects (Exploits) are: %s", s, what, effectNames(f.allowed))
}

// effects returns the declared effects in order.
func (f *effectFlag) effects() []lossv1.ExploitEffect {
	out := make([]lossv1.ExploitEffect, len(f.list))
	for i, x := range f.list {
		out[i] = x.Effect
	}
	return out
}

func (f *effectFlag) has(e lossv1.ExploitEffect) bool {
	for _, x := range f.list {
		if x.Effect == e {
			return true
		}
	}
	return false
}

// coverFlag is --cover partial|full.
type coverFlag lossv1.Cover

func (c *coverFlag) String() string {
	if c == nil {
		return ""
	}
	switch lossv1.Cover(*c) {
	case lossv1.Cover_COVER_PARTIAL:
		return "partial"
	case lossv1.Cover_COVER_FULL:
		return "full"
	}
	return ""
}

// Type names the value in the usage.
func (*coverFlag) Type() string { return "cover" }

func (c *coverFlag) Set(s string) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "partial":
		*c = coverFlag(lossv1.Cover_COVER_PARTIAL)
	case "full":
		*c = coverFlag(lossv1.Cover_COVER_FULL)
	case "none", "":
		*c = coverFlag(lossv1.Cover_COVER_UNSPECIFIED)
	default:
		return fmt.Errorf("cover %q: partial or full", s)
	}
	return nil
}

// situationFlags are the circumstances of a Test (LOS-050…LOS-054, LOS-080…LOS-084).
type situationFlags struct {
	darkness, lower, higher, offHand, behindObstacle, outnumbered bool
	fromBehind, surprised, moving, aimedLong, coverAtHand         bool
	prone, targetProne                                            bool
	cover                                                         coverFlag
	distance                                                      int
}

// registerAttack adds the flags of an attack's situation.
func (s *situationFlags) registerAttack(fs *pflag.FlagSet) {
	s.registerDefence(fs)
	fs.BoolVar(&s.offHand, "off-hand", false, "attacking with the off hand: +5 Difficulty (LOS-050)")
	fs.BoolVar(&s.behindObstacle, "behind-obstacle", false, "the target is behind an obstacle: +10 Difficulty, melee (LOS-050)")
	fs.BoolVar(&s.outnumbered, "outnumbered", false, "surrounded by 3 or more attackers: +5 Difficulty (LOS-050)")
	fs.BoolVar(&s.fromBehind, "from-behind", false, "attacking from behind: +5 to the Test (LOS-052)")
	fs.BoolVar(&s.surprised, "surprised", false, "the target is surprised: +5 to the Test, and it cannot parry or dodge (LOS-052)")
	fs.Var(&s.cover, "cover", "the target's cover against a ranged attack: partial (+10) or full (+15) (LOS-083)")
	fs.IntVar(&s.distance, "distance", 0, "distance to the target in metres, for a ranged attack: sets its Difficulty (LOS-080)")
	fs.BoolVar(&s.moving, "moving", false, "attacker or target is in moving combat (Mounted shooting, LOS-090)")
	fs.BoolVar(&s.aimedLong, "aimed-long", false, "aimed for a Séquence or out of combat: +15 (LOS-084)")
	fs.BoolVar(&s.targetProne, "target-prone", false, "the target is on the ground (after a trip, as the GM says): +10 to the Test, melee or ranged, not with --higher (LOS-052)")
}

// registerDefence adds the flags of a parry's or dodge's situation.
func (s *situationFlags) registerDefence(fs *pflag.FlagSet) {
	fs.BoolVar(&s.darkness, "darkness", false, "fighting in darkness or blinded: +10 Difficulty (LOS-050)")
	fs.BoolVar(&s.lower, "lower", false, "lower than the opponent: +5 Difficulty (LOS-050)")
	fs.BoolVar(&s.higher, "higher", false, "higher than the opponent: +5 to the Test (LOS-052)")
	fs.BoolVar(&s.prone, "prone", false, "fighting from the ground (after a trip, as the GM says): +10 Difficulty (LOS-050)")
}

// situation is the Situation of the flags, nil when none is given.
func (s *situationFlags) situation() (*lossv1.Situation, error) {
	if s.distance < 0 {
		return nil, client.Usagef("--distance %d: a distance in metres cannot be negative", s.distance)
	}
	sit := &lossv1.Situation{
		Darkness: s.darkness, Lower: s.lower, Higher: s.higher, OffHand: s.offHand,
		BehindObstacle: s.behindObstacle, Outnumbered: s.outnumbered, FromBehind: s.fromBehind,
		Surprised: s.surprised, Cover: lossv1.Cover(s.cover), Distance: int32(s.distance),
		Moving: s.moving, CoverAtHand: s.coverAtHand, AimedLong: s.aimedLong,
		Prone: s.prone, TargetProne: s.targetProne,
	}
	if s.lower && s.higher {
		return nil, client.Usagef("--lower and --higher: one cannot be both lower and higher than the opponent")
	}
	if proto.Size(sit) == 0 {
		return nil, nil
	}
	return sit, nil
}
