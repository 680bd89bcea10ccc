package feeriecmd

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The flags of the Contes de Fées actions: the intent, the circumstances, the tactics.

var (
	kindChoices = client.NewEnumChoices(feeriev1.ActivityKind(0).Descriptor(), "ACTIVITY_KIND_",
		map[string]string{"melee": "melee-attack", "ranged": "ranged-attack"})
	strikeChoices      = client.NewEnumChoices(feeriev1.SpecialStrike(0).Descriptor(), "SPECIAL_STRIKE_", nil)
	paceChoices        = client.NewEnumChoices(feeriev1.Pace(0).Descriptor(), "PACE_", nil)
	lightingChoices    = client.NewEnumChoices(feeriev1.Lighting(0).Descriptor(), "LIGHTING_", nil)
	difficultyChoices  = client.NewEnumChoices(feeriev1.RangedDifficulty(0).Descriptor(), "RANGED_DIFFICULTY_", nil)
	rangeChoices       = client.NewEnumChoices(feeriev1.Range(0).Descriptor(), "RANGE_", nil)
	terrainChoices     = client.NewEnumChoices(feeriev1.Terrain(0).Descriptor(), "TERRAIN_", nil)
	aspectNames        = []string{"vigilance", "habilete", "puissance", "resistance", "charme"}
	coverSolidityNames = []string{"fragile", "normal", "solid"}
)

// presetTactic finds a named tactic of FEE-034.
func presetTactic(name string) (*feeriev1.Tactic, error) {
	var names []string
	for _, p := range feerie.Presets {
		if client.FoldName(p.Name) == client.FoldName(name) {
			return &feeriev1.Tactic{Preset: p.Name, Initiative: p.Init, Attack: p.Att, Defense: p.Def}, nil
		}
		names = append(names, p.Name)
	}
	return nil, fmt.Errorf("--tactic %q: the tactics of FEE-034 are %s (or none; any other triple with --tactic-values)", name, strings.Join(names, ", "))
}

// parseTacticValues reads "I/A/D": "-2/+4/-2".
func parseTacticValues(s string) (*feeriev1.Tactic, error) {
	parts := strings.Split(strings.ReplaceAll(s, "−", "-"), "/")
	bad := fmt.Errorf("--tactic-values %q: give Initiative/Attack/Defense, such as -2/+4/-2", s)
	if len(parts) != 3 {
		return nil, bad
	}
	var v [3]int32
	for i, p := range parts {
		n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 32)
		if err != nil {
			return nil, bad
		}
		v[i] = int32(n)
	}
	if sum := v[0] + v[1] + v[2]; sum != 0 {
		return nil, fmt.Errorf("--tactic-values %s: a tactic's three modifiers add up to 0, these add up to %s (FEE-031)", s, client.Signed(sum))
	}
	return &feeriev1.Tactic{Initiative: v[0], Attack: v[1], Defense: v[2]}, nil
}

// intentFlags are the flags of an Intent, shared by declare, act and change.
type intentFlags struct {
	fs                                        *pflag.FlagSet
	kind, target                              string
	initiative, attack, defense, damage, soak client.ListFlag
	tactic, tacticValues                      string
	strikes                                   client.ListFlag
	physical, charge, intimidation            bool
	pace, aspect, description                 string
	difficulty                                int
}

func (f *intentFlags) register(fs *pflag.FlagSet) {
	f.fs = fs
	fs.StringVar(&f.kind, "kind", "", "the activity: "+kindChoices.List())
	fs.StringVar(&f.target, "target", "", "the target's combatant id (an attack needs one)")
	fs.Var(&f.initiative, "initiative", "Attributes applied to Initiative (repeatable, or a,b) (FEE-010)")
	fs.Var(&f.attack, "attack", "Attributes applied to the Attack or the roll (repeatable, or a,b) (FEE-011, FEE-012)")
	fs.Var(&f.defense, "defense", "Attributes applied to Defense (repeatable, or a,b) (FEE-013)")
	fs.Var(&f.damage, "damage", "Attributes applied to Damage, none of the Attack's (repeatable, or a,b) (FEE-014, FEE-016)")
	fs.Var(&f.soak, "soak", "Attributes applied to Soak, none of the Defense's (repeatable, or a,b) (FEE-015, FEE-017)")
	fs.StringVar(&f.tactic, "tactic", "", "a named tactic of FEE-034 (\"Attaque brutale\", attaque-brutale...), or none")
	fs.StringVar(&f.tacticValues, "tactic-values", "", "a tactic as Initiative/Attack/Defense adding up to 0, such as -2/+4/-2 (FEE-031, FEE-032)")
	fs.Var(&f.strikes, "strike", "special strikes of an attack (repeatable, or a,b): "+strings.Join(strikeChoices.Names, ", ")+" (FEE-149)")
	fs.BoolVar(&f.physical, "physical", false, "the conflict is physical: Taille counts (FEE-170; default true for an attack, false otherwise)")
	fs.StringVar(&f.pace, "pace", "", "moving at a pace: "+paceChoices.List()+" (FEE-100)")
	fs.BoolVar(&f.charge, "charge", false, "an attack during straight-line movement at --pace: more Damage (FEE-101)")
	fs.StringVar(&f.aspect, "aspect", "", "another activity (--kind other): the Aspect rolled, "+strings.Join(aspectNames, ", "))
	fs.IntVar(&f.difficulty, "difficulty", 0, "another activity (--kind other): the difficulty to beat")
	fs.BoolVar(&f.intimidation, "intimidation", false, "another activity (--kind other) that is an intimidation: takes a frightening blow's bonus (FEE-181)")
	fs.StringVar(&f.description, "description", "", "what the activity is, in words")
}

// given reports whether the flag named was on the command line.
func (f *intentFlags) given(name string) bool { return f.fs.Changed(name) }

var intentFlagNames = []string{"kind", "target", "initiative", "attack", "defense", "damage", "soak", "tactic", "tactic-values",
	"strike", "physical", "pace", "charge", "aspect", "difficulty", "intimidation", "description"}

// any reports whether any intent flag was given.
func (f *intentFlags) any() bool {
	for _, n := range intentFlagNames {
		if f.given(n) {
			return true
		}
	}
	return false
}

// intent builds the Intent of the flags: a new one with --kind, else the declared intent
// (base, which may be nil) amended by the flags given. Errors are usage errors.
func (f *intentFlags) intent(base *feeriev1.Intent) (*feeriev1.Intent, error) {
	usage := client.ShortUsagef
	in := &feeriev1.Intent{}
	fresh := f.kind != ""
	switch {
	case fresh:
		k, err := kindChoices.Parse("--kind", f.kind)
		if err != nil {
			return nil, usage("%s", err)
		}
		in.Kind = feeriev1.ActivityKind(k)
		in.Physical = in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK || in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	case base != nil:
		in = proto.CloneOf(base)
	default:
		return nil, usage("give the activity with --kind %s", kindChoices.List())
	}
	set := func(name string, fn func()) {
		if fresh || f.given(name) {
			fn()
		}
	}
	applied := func() *feeriev1.Applied {
		if in.Applied == nil {
			in.Applied = &feeriev1.Applied{}
		}
		return in.Applied
	}
	set("target", func() { in.TargetId = f.target })
	set("initiative", func() { applied().Initiative = f.initiative })
	set("attack", func() { applied().Attack = f.attack })
	set("defense", func() { applied().Defense = f.defense })
	set("damage", func() { applied().Damage = f.damage })
	set("soak", func() { applied().Soak = f.soak })
	if in.Applied != nil && proto.Size(in.Applied) == 0 {
		in.Applied = nil
	}
	if f.given("physical") {
		in.Physical = f.physical
	}
	set("description", func() { in.Description = f.description })
	set("aspect", func() { in.Aspect = f.aspect })
	set("difficulty", func() { in.Difficulty = int32(f.difficulty) })
	set("intimidation", func() { in.Intimidation = f.intimidation })
	set("charge", func() { in.Charge = f.charge })
	var err error
	set("pace", func() {
		in.Pace = feeriev1.Pace_PACE_UNSPECIFIED
		if f.pace != "" {
			var p protoreflect.EnumNumber
			if p, err = paceChoices.Parse("--pace", f.pace); err == nil {
				in.Pace = feeriev1.Pace(p)
			}
		}
	})
	if err != nil {
		return nil, usage("%s", err)
	}
	set("strike", func() {
		in.Strikes = nil
		for _, s := range f.strikes {
			if strings.EqualFold(s, "none") {
				continue
			}
			var v protoreflect.EnumNumber
			if v, err = strikeChoices.Parse("--strike", s); err != nil {
				return
			}
			in.Strikes = append(in.Strikes, feeriev1.SpecialStrike(v))
		}
	})
	if err != nil {
		return nil, usage("%s", err)
	}
	switch {
	case f.tactic != "" && f.tacticValues != "":
		return nil, usage("--tactic and --tactic-values: choose one")
	case f.tactic != "" && strings.EqualFold(f.tactic, "none"):
		in.Tactic = nil
	case f.tactic != "":
		if in.Tactic, err = presetTactic(f.tactic); err != nil {
			return nil, usage("%s", err)
		}
	case f.tacticValues != "":
		if in.Tactic, err = parseTacticValues(f.tacticValues); err != nil {
			return nil, usage("%s", err)
		}
	case fresh:
		in.Tactic = nil
	}
	return in, checkIntentFlags(in, usage)
}

// checkIntentFlags catches the intents the rules would refuse for want of a flag.
func checkIntentFlags(in *feeriev1.Intent, usage func(string, ...any) error) error {
	k := in.GetKind()
	attack := k == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK || k == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	other := k == feeriev1.ActivityKind_ACTIVITY_KIND_OTHER
	switch {
	case attack && in.GetTargetId() == "":
		return usage("an attack needs --target")
	case !attack && len(in.GetStrikes()) > 0:
		return usage("--strike goes with an attack (--kind melee or ranged) (FEE-149)")
	case !attack && in.GetCharge():
		return usage("--charge goes with an attack (--kind melee or ranged) (FEE-101)")
	case other && in.GetAspect() == "":
		return usage("another activity needs the Aspect rolled: --aspect %s", strings.Join(aspectNames, "|"))
	case !other && (in.GetAspect() != "" || in.GetDifficulty() != 0 || in.GetIntimidation()):
		return usage("--aspect, --difficulty and --intimidation go with --kind other")
	case in.GetAspect() != "" && !validAspect(in.GetAspect()):
		return usage("--aspect %q: %s", in.GetAspect(), strings.Join(aspectNames, ", "))
	case in.GetDifficulty() < 0:
		return usage("--difficulty %d: cannot be negative", in.GetDifficulty())
	}
	return nil
}

func validAspect(s string) bool {
	for _, a := range aspectNames {
		if client.FoldName(s) == a {
			return true
		}
	}
	return false
}

// circumstanceFlags are the flags of the Circumstances of an activity (FEE-090…FEE-133).
type circumstanceFlags struct {
	lighting, rangedDifficulty, rng, targetPace, terrain string
	cover                                                string
	coverThick, coverOpaque, coverSemi                   bool
	coverSoak, angles, modifier, exposed, smallObject    int
	undefended                                           bool
}

func (c *circumstanceFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&c.lighting, "lighting", "", "the light: "+lightingChoices.List()+" (FEE-120)")
	fs.StringVar(&c.rangedDifficulty, "ranged-difficulty", "", "a ranged shot's global difficulty: "+difficultyChoices.List()+" (FEE-130)")
	fs.StringVar(&c.rng, "range", "", "a ranged shot's range: "+rangeChoices.List()+" (FEE-131; not with --ranged-difficulty, FEE-172)")
	fs.StringVar(&c.targetPace, "target-pace", "", "a ranged shot's target moving at "+paceChoices.List()+" (FEE-133)")
	fs.StringVar(&c.terrain, "terrain", "", "a ranged shot's terrain: "+terrainChoices.List()+" (FEE-133)")
	fs.StringVar(&c.cover, "cover", "", "striking through cover: "+strings.Join(coverSolidityNames, "|")+" (FEE-111)")
	fs.BoolVar(&c.coverThick, "cover-thick", false, "the cover is thick")
	fs.BoolVar(&c.coverOpaque, "cover-opaque", false, "the cover is opaque to the attacker: −8")
	fs.BoolVar(&c.coverSemi, "cover-semi-transparent", false, "the cover is semi-transparent to the attacker: −4")
	fs.IntVar(&c.coverSoak, "cover-soak", 0, "the Soak of the Domain the cover belongs to")
	fs.IntVar(&c.angles, "angles", 0, "attack angles the defender offers, 1 to 6 (FEE-090; default 4, standing in the open)")
	fs.BoolVar(&c.undefended, "undefended", false, "the target does not defend, or is helpless: Defense 0 (FEE-022)")
	fs.IntVar(&c.modifier, "modifier", 0, "the GM's modifier to the roll")
	fs.IntVar(&c.exposed, "exposed", 0, "malus for the exposed part of a defender behind cover (FEE-110)")
	fs.IntVar(&c.smallObject, "small-object", 0, "hitting a small or barely visible object in a hurry: the difficulty of the Attack roll (FEE-025)")
}

// circumstances returns the Circumstances of the flags, nil when none is given.
func (c *circumstanceFlags) circumstances(usage func(string, ...any) error) (*feeriev1.Circumstances, error) {
	out := &feeriev1.Circumstances{AnglesOffered: int32(c.angles), Undefended: c.undefended, Modifier: int32(c.modifier),
		ExposedMalus: int32(c.exposed), SmallObjectDifficulty: int32(c.smallObject)}
	pick := func(choices client.EnumChoices, what, s string) (protoreflect.EnumNumber, error) {
		if s == "" {
			return 0, nil
		}
		v, err := choices.Parse(what, s)
		if err != nil {
			return 0, usage("%s", err)
		}
		return v, nil
	}
	var v protoreflect.EnumNumber
	var err error
	if v, err = pick(lightingChoices, "--lighting", c.lighting); err != nil {
		return nil, err
	}
	out.Lighting = feeriev1.Lighting(v)
	if v, err = pick(difficultyChoices, "--ranged-difficulty", c.rangedDifficulty); err != nil {
		return nil, err
	}
	out.RangedDifficulty = feeriev1.RangedDifficulty(v)
	if v, err = pick(rangeChoices, "--range", c.rng); err != nil {
		return nil, err
	}
	out.Distance = feeriev1.Range(v)
	if v, err = pick(paceChoices, "--target-pace", c.targetPace); err != nil {
		return nil, err
	}
	out.TargetPace = feeriev1.Pace(v)
	if v, err = pick(terrainChoices, "--terrain", c.terrain); err != nil {
		return nil, err
	}
	out.Terrain = feeriev1.Terrain(v)
	switch {
	case c.rangedDifficulty != "" && c.rng != "":
		return nil, usage("--ranged-difficulty and --range: give the global estimate or the range, not both (FEE-172)")
	case c.angles < 0 || c.angles > 6:
		return nil, usage("--angles %d: a defender offers 1 to 6 attack angles (FEE-090)", c.angles)
	case c.exposed < 0:
		return nil, usage("--exposed %d: give the malus as a positive number", c.exposed)
	case c.smallObject < 0:
		return nil, usage("--small-object %d: a difficulty cannot be negative", c.smallObject)
	case c.coverSoak < 0:
		return nil, usage("--cover-soak %d: cannot be negative", c.coverSoak)
	case c.coverOpaque && c.coverSemi:
		return nil, usage("--cover-opaque and --cover-semi-transparent: choose one")
	case c.cover == "" && (c.coverThick || c.coverSoak != 0):
		return nil, usage("--cover-thick and --cover-soak go with --cover %s", strings.Join(coverSolidityNames, "|"))
	}
	if c.cover != "" || c.coverOpaque || c.coverSemi {
		solidity := strings.ToLower(c.cover)
		if solidity != "" && !strings.Contains(" "+strings.Join(coverSolidityNames, " ")+" ", " "+solidity+" ") {
			return nil, usage("--cover %q: %s", c.cover, strings.Join(coverSolidityNames, ", "))
		}
		out.Cover = &feeriev1.Cover{Solidity: solidity, Thick: c.coverThick, Opaque: c.coverOpaque,
			SemiTransparent: c.coverSemi, DomainSoak: int32(c.coverSoak)}
	}
	if proto.Size(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// declaredIntent fetches the intent combatant id has declared, for flags that amend it.
func declaredIntent(ctx context.Context, c *client.Conn, enc, id string) (*feeriev1.Intent, error) {
	cl, done, err := c.Encounters()
	if err != nil {
		return nil, err
	}
	defer done()
	resp, err := cl.GetEncounter(c.Outgoing(ctx), &encounterv1.GetEncounterRequest{EncounterId: enc})
	if err != nil {
		return nil, client.RPCErr("reading the intention declared", err)
	}
	in := resp.GetState().GetFeerie().GetCombatants()[id].GetDeclared()
	if in == nil {
		return nil, fmt.Errorf("%s has no intention declared to amend: give the whole intent, starting with --kind", id)
	}
	return in, nil
}

const intentHelp = "The intent flags describe the activity: --kind starts a new intent from the flags alone;\n" +
	"without --kind, the flags given amend the intent COMBATANT declared (an empty value clears a\n" +
	"list: --strike=). An attack is physical unless --physical=false (FEE-170)."
