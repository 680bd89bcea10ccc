package commands

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// `fray feerie SUBCOMMAND`: the actions of Contes de Fées (shared/rules/feerie.md), each sent
// as a fray.feerie.v1.Action through Submit.

var feerieMembers = []member{
	{"declare", "step 1: declare the intention (activity, target, Attributes applied) and the tactic (FEE-033, FEE-040)", feerieDeclareCmd},
	{"act", "perform the activity at the current rank; intent flags make it a change of intention (FEE-042, FEE-050, FEE-060)", feerieActCmd},
	{"change", "declare a change of intention at the current rank, acted on later (FEE-070, FEE-071)", feerieChangeCmd},
	{"renounce", "give up the activity declared, at no cost (FEE-075)", feerieRenounceCmd},
	{"gesture", "something free alongside the activities: talking, walking slowly, a simple gesture (FEE-047)", feerieGestureCmd},
	{"object", "take, or with --end leave, the status of an inanimate object through a Power (FEE-026)", feerieObjectCmd},
	{"advance", "the GM moves the countdown down, resolving the rank's activities (FEE-041, FEE-044)", feerieAdvanceCmd},
	{"impersonal", "the GM's impersonal event at rank 0, costing Essence (FEE-046)", feerieImpersonalCmd},
	{"surprise", "the GM marks a combatant surprised (FEE-080, FEE-082)", feerieSurpriseCmd},
	{"unseen", "the GM rules that a combatant attacks unseen: its dissimulation roll (FEE-081, FEE-186)", feerieUnseenCmd},
	{"helpless", "the GM rules a combatant helpless (asleep, paralysed, unconscious), or with --clear no longer (FEE-022)", feerieHelplessCmd},
	{"rule", "the GM cancels or modifies a tactic, or gives a malus (FEE-036)", feerieRuleCmd},
}

func feerieCmd() *cobra.Command {
	return group("feerie",
		"The actions of a Contes de Fées encounter (create it with --system feerie). Each Action runs:\n"+
			"every combatant declares (step 1), Initiative is rolled once all have, then the countdown goes\n"+
			"down from the highest Initiative: at each rank combatants act (fray feerie act), and the GM\n"+
			"resolves the rank and moves on (fray feerie advance); at rank 0 come the impersonal events,\n"+
			"and advancing from there starts the next Action.",
		feerieMembers)
}

func feerieCommand(a *feeriev1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Feerie{Feerie: a}}
}

// enumChoices lists the values of a proto enum by CLI name: the value name without prefix,
// in lower case with dashes ("RANGE_ARMS_LENGTH" → "arms-length"), plus aliases. New values
// of the API get a name without a change here.
type enumChoices struct {
	names  []string
	values map[string]protoreflect.EnumNumber
}

func newEnumChoices(ed protoreflect.EnumDescriptor, prefix string, aliases map[string]string) enumChoices {
	c := enumChoices{values: map[string]protoreflect.EnumNumber{}}
	rename := map[string]string{}
	for alias, full := range aliases {
		rename[full] = alias
	}
	for i := range ed.Values().Len() {
		v := ed.Values().Get(i)
		if v.Number() == 0 {
			continue
		}
		name := strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(string(v.Name()), prefix)), "_", "-")
		if alias, ok := rename[name]; ok {
			c.values[name] = v.Number() // the full name is still understood
			name = alias
		}
		c.names = append(c.names, name)
		c.values[name] = v.Number()
	}
	return c
}

// parse reads a name in any case, with dashes, underscores or spaces.
func (c enumChoices) parse(what, s string) (protoreflect.EnumNumber, error) {
	key := strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '-' || r == '_' || r == ' ' }), "-")
	if v, ok := c.values[key]; ok {
		return v, nil
	}
	return 0, fmt.Errorf("%s %q: %s", what, s, strings.Join(c.names, ", "))
}

func (c enumChoices) list() string { return strings.Join(c.names, "|") }

var (
	kindChoices = newEnumChoices(feeriev1.ActivityKind(0).Descriptor(), "ACTIVITY_KIND_",
		map[string]string{"melee": "melee-attack", "ranged": "ranged-attack"})
	strikeChoices      = newEnumChoices(feeriev1.SpecialStrike(0).Descriptor(), "SPECIAL_STRIKE_", nil)
	paceChoices        = newEnumChoices(feeriev1.Pace(0).Descriptor(), "PACE_", nil)
	lightingChoices    = newEnumChoices(feeriev1.Lighting(0).Descriptor(), "LIGHTING_", nil)
	difficultyChoices  = newEnumChoices(feeriev1.RangedDifficulty(0).Descriptor(), "RANGED_DIFFICULTY_", nil)
	rangeChoices       = newEnumChoices(feeriev1.Range(0).Descriptor(), "RANGE_", nil)
	terrainChoices     = newEnumChoices(feeriev1.Terrain(0).Descriptor(), "TERRAIN_", nil)
	aspectNames        = []string{"vigilance", "habilete", "puissance", "resistance", "charme"}
	coverSolidityNames = []string{"fragile", "normal", "solid"}
)

// foldName folds a name for matching: lower case, no accents, dashes and underscores as
// spaces ("coute-que-coute" matches "Coûte que coûte").
func foldName(s string) string {
	r := strings.NewReplacer("à", "a", "â", "a", "ç", "c", "é", "e", "è", "e", "ê", "e", "ë", "e", "î", "i", "ï", "i",
		"ô", "o", "œ", "oe", "ù", "u", "û", "u", "ü", "u", "-", " ", "_", " ")
	return strings.Join(strings.Fields(r.Replace(strings.ToLower(s))), " ")
}

// presetTactic finds a named tactic of FEE-034.
func presetTactic(name string) (*feeriev1.Tactic, error) {
	var names []string
	for _, p := range feerie.Presets {
		if foldName(p.Name) == foldName(name) {
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
		return nil, fmt.Errorf("--tactic-values %s: a tactic's three modifiers add up to 0, these add up to %s (FEE-031)", s, signed(sum))
	}
	return &feeriev1.Tactic{Initiative: v[0], Attack: v[1], Defense: v[2]}, nil
}

// intentFlags are the flags of an Intent, shared by declare, act and change.
type intentFlags struct {
	fs                                        *pflag.FlagSet
	kind, target                              string
	initiative, attack, defense, damage, soak listFlag
	tactic, tacticValues                      string
	strikes                                   listFlag
	physical, charge, intimidation            bool
	pace, aspect, description                 string
	difficulty                                int
}

func (f *intentFlags) register(fs *pflag.FlagSet) {
	f.fs = fs
	fs.StringVar(&f.kind, "kind", "", "the activity: "+kindChoices.list())
	fs.StringVar(&f.target, "target", "", "the target's combatant id (an attack needs one)")
	fs.Var(&f.initiative, "initiative", "Attributes applied to Initiative (repeatable, or a,b) (FEE-010)")
	fs.Var(&f.attack, "attack", "Attributes applied to the Attack or the roll (repeatable, or a,b) (FEE-011, FEE-012)")
	fs.Var(&f.defense, "defense", "Attributes applied to Defense (repeatable, or a,b) (FEE-013)")
	fs.Var(&f.damage, "damage", "Attributes applied to Damage, none of the Attack's (repeatable, or a,b) (FEE-014, FEE-016)")
	fs.Var(&f.soak, "soak", "Attributes applied to Soak, none of the Defense's (repeatable, or a,b) (FEE-015, FEE-017)")
	fs.StringVar(&f.tactic, "tactic", "", "a named tactic of FEE-034 (\"Attaque brutale\", attaque-brutale...), or none")
	fs.StringVar(&f.tacticValues, "tactic-values", "", "a tactic as Initiative/Attack/Defense adding up to 0, such as -2/+4/-2 (FEE-031, FEE-032)")
	fs.Var(&f.strikes, "strike", "special strikes of an attack (repeatable, or a,b): "+strings.Join(strikeChoices.names, ", ")+" (FEE-149)")
	fs.BoolVar(&f.physical, "physical", false, "the conflict is physical: Taille counts (FEE-170; default true for an attack, false otherwise)")
	fs.StringVar(&f.pace, "pace", "", "moving at a pace: "+paceChoices.list()+" (FEE-100)")
	fs.BoolVar(&f.charge, "charge", false, "an attack during straight-line movement at --pace: more Damage (FEE-101)")
	fs.StringVar(&f.aspect, "aspect", "", "another activity (--kind other): the Aspect rolled, "+strings.Join(aspectNames, ", "))
	fs.IntVar(&f.difficulty, "difficulty", 0, "another activity (--kind other): the difficulty to beat")
	fs.BoolVar(&f.intimidation, "intimidation", false, "another activity (--kind other) that is an intimidation: takes a frightening blow's bonus (FEE-181)")
	fs.StringVar(&f.description, "description", "", "what the activity is, in words")
}

// given reports whether the flag named was on the command line.
func (f *intentFlags) given(name string) bool {
	set := false
	f.fs.Visit(func(fl *pflag.Flag) { set = set || fl.Name == name })
	return set
}

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
	usage := usageError
	in := &feeriev1.Intent{}
	fresh := f.kind != ""
	switch {
	case fresh:
		k, err := kindChoices.parse("--kind", f.kind)
		if err != nil {
			return nil, usage("%s", err)
		}
		in.Kind = feeriev1.ActivityKind(k)
		in.Physical = in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK || in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	case base != nil:
		in = proto.CloneOf(base)
	default:
		return nil, usage("give the activity with --kind %s", kindChoices.list())
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
			if p, err = paceChoices.parse("--pace", f.pace); err == nil {
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
			if v, err = strikeChoices.parse("--strike", s); err != nil {
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
		if foldName(s) == a {
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
	fs.StringVar(&c.lighting, "lighting", "", "the light: "+lightingChoices.list()+" (FEE-120)")
	fs.StringVar(&c.rangedDifficulty, "ranged-difficulty", "", "a ranged shot's global difficulty: "+difficultyChoices.list()+" (FEE-130)")
	fs.StringVar(&c.rng, "range", "", "a ranged shot's range: "+rangeChoices.list()+" (FEE-131; not with --ranged-difficulty, FEE-172)")
	fs.StringVar(&c.targetPace, "target-pace", "", "a ranged shot's target moving at "+paceChoices.list()+" (FEE-133)")
	fs.StringVar(&c.terrain, "terrain", "", "a ranged shot's terrain: "+terrainChoices.list()+" (FEE-133)")
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
	pick := func(choices enumChoices, what, s string) (protoreflect.EnumNumber, error) {
		if s == "" {
			return 0, nil
		}
		v, err := choices.parse(what, s)
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
func declaredIntent(ctx context.Context, c *conn, enc, id string) (*feeriev1.Intent, error) {
	cl, done, err := c.encounters()
	if err != nil {
		return nil, err
	}
	defer done()
	resp, err := cl.GetEncounter(c.outgoing(ctx), &encounterv1.GetEncounterRequest{EncounterId: enc})
	if err != nil {
		return nil, rpcErr("reading the intention declared", err)
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

func feerieDeclareCmd() *cobra.Command {
	command, fs := newCommand("feerie declare", "ENCOUNTER COMBATANT --kind "+kindChoices.list()+" [--target T] [--attack a,b] [--defense a] [--damage a] [--soak a] [--initiative a] [--tactic NAME | --tactic-values I/A/D] [--strike S,...] [--physical] [--pace P] [--charge] [--aspect A --difficulty N] [flags]",
		"COMBATANT declares its intention for this Action at step 1: the activity, its target, the\n"+
			"Attributes it applies to each combat value, and its tactic (FEE-030…FEE-034, FEE-040).\n"+
			"Once every combatant able to act has declared, Initiative is rolled and the countdown starts.\n"+
			"  fray feerie declare $id rubezahl --kind melee --target serpent --attack bâton --defense bâton --tactic-values 0/+2/-2", 2, 2)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	var in intentFlags
	in.register(fs)
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if in.kind == "" {
			return usageError("declare the activity with --kind %s", kindChoices.list())
		}
		intent, err := in.intent(nil)
		if err != nil {
			return err
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: intent}}}
		return submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieActCmd() *cobra.Command {
	command, fs := newCommand("feerie act", "ENCOUNTER COMBATANT [intent flags] [--essence N] [--lighting L] [--ranged-difficulty D | --range R] [--target-pace P] [--terrain T] [--cover S [--cover-thick] [--cover-soak N]] [--cover-opaque|--cover-semi-transparent] [--angles N] [--undefended] [--modifier N] [--exposed N] [--small-object N] [flags]",
		"COMBATANT performs its activity at the current rank of the countdown: at its Initiative or\n"+
			"later without penalty, earlier by anticipating (−1 per rank, on the roll and on Defense to\n"+
			"the end of the Action); a further activity comes 8 ranks after the previous one, at −4 each\n"+
			"(FEE-042, FEE-050, FEE-060, FEE-061). The activity is resolved when the GM advances.\n"+
			"Without intent flags it is the activity declared; with them, a change of intention (−4,\n"+
			"FEE-070). "+intentHelp, 2, 2)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	var in intentFlags
	in.register(fs)
	var circ circumstanceFlags
	circ.register(fs)
	essence := fs.Int("essence", 0, "Essence spent on the roll, +1 each (FEE-005)")
	supplementary := fs.Bool("supplementary", false, "mark the activity as a further one in this Action (FEE-060; the rules count them anyway)")
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		var err error
		usage := usageError
		if *essence < 0 {
			return usage("--essence %d: cannot be negative", *essence)
		}
		act := &feeriev1.Act{Essence: int32(*essence), Supplementary: *supplementary}
		if act.Circumstances, err = circ.circumstances(usage); err != nil {
			return err
		}
		if in.any() {
			var base *feeriev1.Intent
			if in.kind == "" {
				if base, err = declaredIntent(ctx, c, pos[0], pos[1]); err != nil {
					return err
				}
			}
			if act.Intent, err = in.intent(base); err != nil {
				return err
			}
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Act{Act: act}}
		return submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieChangeCmd() *cobra.Command {
	command, fs := newCommand("feerie change", "ENCOUNTER COMBATANT intent flags [flags]",
		"COMBATANT changes its intention at the current rank, to act on it later: −4 on the activity\n"+
			"and on Defense from now to the end of the Action, −4 on the whole next Action; a new tactic\n"+
			"moves its acting rank (rolled Initiative − old tactic + new, at most the current rank)\n"+
			"(FEE-070…FEE-074). A change of target alone is not a change (FEE-182).\n"+intentHelp+"\n"+
			"  fray feerie change $id pixie --tactic-values 0/-5/+5 --defense couardise,esquive", 2, 2)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	var in intentFlags
	in.register(fs)
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		var err error
		if !in.any() {
			return usageError("give the new intention: --kind and the intent flags, or the flags that differ from the declaration")
		}
		var base *feeriev1.Intent
		if in.kind == "" {
			if base, err = declaredIntent(ctx, c, pos[0], pos[1]); err != nil {
				return err
			}
		}
		intent, err := in.intent(base)
		if err != nil {
			return err
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Change{Change: &feeriev1.Change{Intent: intent}}}
		return submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieRenounceCmd() *cobra.Command {
	command, fs := newCommand("feerie renounce", "ENCOUNTER COMBATANT [flags]",
		"COMBATANT gives up the activity it declared, at no cost: it is not a change of intention (FEE-075).", 2, 2)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Renounce{Renounce: &feeriev1.Renounce{}}}
		return submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieGestureCmd() *cobra.Command {
	command, fs := newCommand("feerie gesture", "ENCOUNTER COMBATANT DESCRIPTION... [flags]",
		"COMBATANT does something free alongside its activities: walking slowly, talking, a simple\n"+
			"gesture, the ordinary use of a Power that costs no Essence. No roll, no penalty (FEE-047).\n"+
			"  fray feerie gesture $id rubezahl shouts a warning to the Lutin", 3, -1)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		desc := strings.TrimSpace(strings.Join(pos[2:], " "))
		if desc == "" {
			return usageError("the description is empty")
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Gesture{Gesture: &feeriev1.Gesture{Description: desc}}}
		return submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieObjectCmd() *cobra.Command {
	command, fs := newCommand("feerie object", "ENCOUNTER COMBATANT --power P [--end] [flags]",
		"COMBATANT uses a Power that gives it the status of an inanimate object (a wooden puppet): it\n"+
			"takes damage as an object and renounces every activity; --end leaves the status (FEE-026).", 2, 2)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	power := fs.String("power", "", "the Power used")
	end := fs.Bool("end", false, "end the status of an object")
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if *power == "" && !*end {
			return usageError("name the Power with --power, or end the status with --end")
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_BecomeObject{BecomeObject: &feeriev1.BecomeObject{Power: *power, End: *end}}}
		return submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieAdvanceCmd() *cobra.Command {
	command, fs := newCommand("feerie advance", "ENCOUNTER [--to N] [flags]",
		"The GM resolves the activities performed at the current rank, in order of priority (FEE-044,\n"+
			"FEE-045), and moves the countdown down: one rank, or to rank --to. From rank 1 it goes to\n"+
			"rank 0, the impersonal events (FEE-046); from rank 0, the next Action begins at step 1.", 1, 1)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	to := fs.Int("to", 0, "go down to this rank, 1 or more (default: one rank down)")
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		set := false
		fs.Visit(func(f *pflag.Flag) { set = set || f.Name == "to" })
		if set && *to < 1 {
			return usageError("--to %d: give a rank of 1 or more; without --to the countdown goes one rank down, from rank 1 to 0", *to)
		}
		a := &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{ToRank: int32(*to)}}}
		return submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieImpersonalCmd() *cobra.Command {
	command, fs := newCommand("feerie impersonal", "ENCOUNTER TARGET ESSENCE_LOSS DESCRIPTION... [flags]",
		"At rank 0, after every character, the GM makes an impersonal event happen (fire, drowning)\n"+
			"that costs TARGET ESSENCE_LOSS Essence (FEE-046):\n"+
			"  fray feerie impersonal $id serpent 3 the burning hut collapses", 4, -1)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		usage := usageError
		loss, err := strconv.ParseInt(pos[2], 10, 32)
		if err != nil || loss < 0 {
			return usage("Essence loss %q: a number, 0 or more", pos[2])
		}
		desc := strings.TrimSpace(strings.Join(pos[3:], " "))
		if desc == "" {
			return usage("the description is empty")
		}
		a := &feeriev1.Action{Kind: &feeriev1.Action_Impersonal{Impersonal: &feeriev1.Impersonal{
			Description: desc, TargetId: pos[1], EssenceLoss: int32(loss)}}}
		return submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieSurpriseCmd() *cobra.Command {
	command, fs := newCommand("feerie surprise", "ENCOUNTER COMBATANT [--actions N] [--no-activity] [flags]",
		"At step 1, the GM marks COMBATANT surprised: −8 Initiative, −4 Defense and no tactic for the\n"+
			"next Action (FEE-080), or --actions N of them; --no-activity forbids it any activity while it\n"+
			"lasts (drunk, asleep, spellbound; FEE-082).", 2, 2)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	actions := fs.Int("actions", 1, "how many Actions the surprise lasts")
	noActivity := fs.Bool("no-activity", false, "no activity at all while it lasts")
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if *actions < 1 {
			return usageError("--actions %d: a surprise lasts 1 Action or more", *actions)
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Surprise{Surprise: &feeriev1.Surprise{
			Actions: int32(*actions), NoActivity: *noActivity}}}
		return submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieHelplessCmd() *cobra.Command {
	command, fs := newCommand("feerie helpless", "ENCOUNTER COMBATANT [--clear] [--reason R] [flags]",
		"The GM rules that COMBATANT is helpless — asleep, paralysed, unconscious — until cleared: every\n"+
			"attack on it meets Defense 0, so the whole Attack total is the margin, and it cannot act\n"+
			"(FEE-022, FEE-024); --clear: it is no longer. At 0 Essence one is helpless without a ruling.\n"+
			"  fray feerie helpless $id hippogriffe --reason asleep", 2, 2)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	clear := fs.Bool("clear", false, "it is no longer helpless")
	reason := fs.String("reason", "", "why: asleep, paralysed, unconscious…")
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if *clear && *reason != "" {
			return usageError("--reason goes with the ruling that makes it helpless, not with --clear")
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Helpless{Helpless: &feeriev1.Helpless{Clear: *clear, Reason: *reason}}}
		return submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieUnseenCmd() *cobra.Command {
	command, fs := newCommand("feerie unseen", "ENCOUNTER COMBATANT VICTIM --aspect A [--applied a,b] [flags]",
		"At step 1, the GM rules that COMBATANT attacks VICTIM unseen while VICTIM is on guard: it rolls\n"+
			"its dissimulation (the Aspect plus the Attributes applied) against VICTIM's Vigilance score,\n"+
			"and on a success gains half the margin in Initiative this Action (FEE-081, FEE-186).", 3, 3)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	aspect := fs.String("aspect", "", "the Aspect of the dissimulation roll: "+strings.Join(aspectNames, ", "))
	var applied listFlag
	fs.Var(&applied, "applied", "Attributes applied to the roll (repeatable, or a,b)")
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if !validAspect(*aspect) {
			return usageError("--aspect %q: %s", *aspect, strings.Join(aspectNames, ", "))
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Unseen{Unseen: &feeriev1.Unseen{
			VictimId: pos[2], Aspect: *aspect, Applied: applied}}}
		return submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieRuleCmd() *cobra.Command {
	command, fs := newCommand("feerie rule", "ENCOUNTER COMBATANT [--cancel-tactic | --tactic NAME | --tactic-values I/A/D] [--malus N] [--reason R] [flags]",
		"The GM rules on COMBATANT's tactic when its description does not fit: cancels it, or replaces\n"+
			"it, and/or gives a malus to its activity rolls to the end of the Action (FEE-036).", 2, 2)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	cancel := fs.Bool("cancel-tactic", false, "cancel the tactic")
	tactic := fs.String("tactic", "", "the tactic as the GM modifies it: a named tactic of FEE-034")
	values := fs.String("tactic-values", "", "the tactic as the GM modifies it: Initiative/Attack/Defense, such as -2/+2/0")
	malus := fs.Int("malus", 0, "a malus to the activity rolls to the end of the Action, as a positive number")
	reason := fs.String("reason", "", "why")
	command.RunE = runE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		var err error
		usage := usageError
		r := &feeriev1.Ruling{CancelTactic: *cancel, Malus: int32(*malus), Reason: *reason}
		n := 0
		for _, set := range []bool{*cancel, *tactic != "", *values != ""} {
			if set {
				n++
			}
		}
		switch {
		case n > 1:
			return usage("--cancel-tactic, --tactic and --tactic-values: choose one")
		case *malus < 0:
			return usage("--malus %d: give the malus as a positive number", *malus)
		case n == 0 && *malus == 0:
			return usage("rule on something: --cancel-tactic, --tactic, --tactic-values or --malus")
		case *tactic != "":
			if r.Tactic, err = presetTactic(*tactic); err != nil {
				return usage("%s", err)
			}
		case *values != "":
			if r.Tactic, err = parseTacticValues(*values); err != nil {
				return usage("%s", err)
			}
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Ruling{Ruling: r}}
		return submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}
