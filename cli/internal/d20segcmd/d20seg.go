// Package d20segcmd is the `fray d20` subcommands of the d20 segments rule system (surprise,
// attack, cast, other, end) and its part of `fray state`: WriteState, LegalText.
package d20segcmd

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/proto"
)

// latest are the numbers of the rules a new encounter gets, which the help states; `fray rules
// --encounter ENC` gives those of the version an encounter pinned.
var latest = d20seg.New(d20seg.Latest).Numbers()

// actions are the table of `fray d20 SUBCOMMAND`: the actions of the d20 variant with rounds
// of segments (docs/rules/d20seg.md), each a fray.d20seg.v1.Action.
var actions = []client.Action{{
	Name:     "surprise",
	Summary:  "the GM declares a surprise attack before round 1: the defenders' apprehension rolls (D20-000…D20-006)",
	NoActor:  true,
	Synopsis: "ENCOUNTER --attackers A,B --defender ID[:SITUATION+SITUATION[:SPELL_MODIFIER]]... [flags]",
	Help: "The GM declares a surprise attack, once, before anyone acts in round 1 (D20-000, D20-004). Each\n" +
		"--defender rolls its apprehension, d20 + Wisdom + perception + the situations' modifiers (and\n" +
		"a divination or protection spell's own modifier), against the stealthiest attacker's stealth\n" +
		"roll, or 15 (D20-001…D20-003); a surprised defender is flat-footed (D20-006). First each\n" +
		"attacker's free action (--free), in Initiative order, then segments 0 to 2 of a surprise\n" +
		"round, where the attackers and the defenders who are not surprised act (D20-004, D20-005);\n" +
		"a combatant named neither attacker nor defender takes no part in it (D20-003).\n" +
		client.WrapText("Situations (D20-001): "+strings.Join(situationChoices.Names, ", ")+"; impaired=N sets the impaired malus, light to medium (D20-002).", 96) + "\n" +
		"  fray d20 surprise $id --attackers veteran,maitre --defender novice:cluttered-view+night \\\n" +
		"      --defender soldat:night+impaired=5 --defender mage::+2",
	MinArgs: 1, MaxArgs: 1, Flags: d20SurpriseFlags,
}, {
	Name:     "attack",
	Summary:  "attack a target with a weapon: d20 + bonus against its CA, at the cost of the BBA (D20-017, D20-040)",
	Odds:     true,
	Synopsis: "ENCOUNTER COMBATANT TARGET [--weapon W] [--distance CM] [--modifier N] [--damage-modifier N] [--free] [flags]",
	Help: "COMBATANT attacks TARGET at its next free segment: d20 + BBA + Agility + weapon + feats +\n" +
		"--modifier against TARGET's CA (flat-footed when surprised, D20-006); 20 or more above the CA\n" +
		"is a critical (D20-040…D20-042). The attack costs segments by BBA: 0–5: 4, 6–10: 3, 11–15: 2,\n" +
		"16+: 1 then 2 (D20-017). A melee attack needs TARGET within reach: --distance (D20-031).\n" +
		"--free: the surprise round's free action of an attacker (D20-004).\n" +
		"  fray d20 attack $id maitre soldat --weapon \"épée longue\" --distance 1.5m",
	MinArgs: 3, MaxArgs: 3, Flags: d20AttackFlags,
}, {
	Name:     "cast",
	Summary:  "cast a spell, its casting time by level or stated (D20-018…D20-021)",
	Synopsis: "ENCOUNTER COMBATANT SPELL... (--level N [--special] | [--pure] --segments N) [--next-round] [--free] [flags]",
	Help: "COMBATANT casts SPELL at its next free segment. The casting time is by --level: 0 (pre-magic) 1\n" +
		"segment, 1–3 2, 4–6 3, 7–9 4, and 1 more for a damaging, summoning or special spell\n" +
		"(--special) (D20-018); a spell's own stated time (--segments) prevails, and pure magic\n" +
		"(--pure) has no other (D20-021). --next-round: the spell takes effect at the start of the\n" +
		"next round (D20-019). --free: the surprise round's free action (D20-004).\n" +
		"  fray d20 cast $id mage boule de feu --level 3 --special",
	MinArgs: 3, MaxArgs: -1, Flags: d20CastFlags,
}, {
	Name:     "other",
	Summary:  "any other action: move, draw a weapon, stand up, use an object; " + client.SegmentsText(latest.OtherCost) + " (D20-022)",
	Synopsis: "ENCOUNTER COMBATANT DESCRIPTION... [--segments N] [--free] [flags]",
	Help: "COMBATANT does something other than attacking or casting at its next free segment: moves,\n" +
		"draws a weapon, stands up, uses an object. It costs " + client.SegmentsText(latest.OtherCost) + " unless the GM says otherwise\n" +
		"(--segments, given by the GM) (D20-022). --free: the surprise round's free action (D20-004).\n" +
		"  fray d20 other $id soldat draws his sword",
	MinArgs: 3, MaxArgs: -1, Flags: d20OtherFlags,
}, {
	Name:     "end",
	Summary:  "end the combatant's turn for this round (D20-016)",
	Synopsis: "ENCOUNTER COMBATANT [flags]",
	Help:     "COMBATANT ends its turn: it gives up the segments it has left this round (D20-016).",
	MinArgs:  2, MaxArgs: 2, Flags: client.Empty(&d20segv1.EndTurn{}),
}}

func init() {
	client.RegisterSystem(client.System{
		ID: d20seg.ID, Name: "d20 à segments", Group: "d20",
		Summary: "d20 à segments (d20seg): attack, cast, other, end; surprise (GM)",
		Help: "The actions of a d20seg encounter (create it with --system d20seg). Initiative is fixed for the\n" +
			fmt.Sprintf("combat (D20-010…D20-012); each round of 30 seconds runs segments %d to %d (D20-013), and the\n", latest.FirstSegment, latest.LastSegment) +
			"combatant with the earliest free segment acts next, the higher Initiative first at the same\n" +
			"segment (D20-015). An attack costs segments by BBA (D20-017), a spell by its level (D20-018);\n" +
			"the round ends when everyone has spent its segments or ended its turn (D20-016).\n" +
			fmt.Sprintf("The numbers here are version %d's; fray rules d20seg lists the costs and tables, and\n", d20seg.Latest) +
			"fray rules --encounter ENC those of the version an encounter pinned.",
		Actions:     actions,
		Options:     "carry_over: true",
		Sheet:       "{rapidite, armour, shield, weapon_class, bba, agility, strength, ca, hit_points, size, weapons, feats}",
		State:       "its round, each combatant's Initiative, hit points, next segment and attacks",
		WriteState:  WriteState,
		LegalText:   LegalText,
		CommandLine: commandLine, ChoiceFlags: choiceFlags,
	})
}

var situationChoices = client.NewEnumChoices(d20segv1.Situation(0).Descriptor(), "SITUATION_", nil)

// defenderFlag is --defender ID[:SITUATION+SITUATION[:SPELL_MODIFIER]], repeatable.
type defenderFlag []string

func (d *defenderFlag) String() string {
	if d == nil {
		return ""
	}
	return strings.Join(*d, " ")
}

// Type names the value in the usage.
func (*defenderFlag) Type() string { return "defender" }

func (d *defenderFlag) Set(s string) error {
	*d = append(*d, s)
	return nil
}

// parseApprehension reads one --defender: "novice", "novice:night+cluttered-view",
// "soldat:impaired=5:+2" (an impaired malus of 5, a spell modifier of +2), "mage::-2".
func parseApprehension(s string) (*d20segv1.Apprehension, error) {
	parts := strings.Split(s, ":")
	bad := func(format string, args ...any) error {
		return fmt.Errorf("--defender %q: %s", s, fmt.Sprintf(format, args...))
	}
	if len(parts) > 3 {
		return nil, bad("give ID[:SITUATION+SITUATION[:SPELL_MODIFIER]]")
	}
	ap := &d20segv1.Apprehension{DefenderId: strings.TrimSpace(parts[0])}
	if ap.DefenderId == "" {
		return nil, bad("the defender's id is empty")
	}
	if len(parts) > 1 {
		for _, w := range strings.FieldsFunc(parts[1], func(r rune) bool { return r == '+' || r == ',' }) {
			name, malus, hasMalus := strings.Cut(strings.TrimSpace(w), "=")
			v, err := situationChoices.Parse("situation", name)
			if err != nil {
				return nil, bad("%s", err)
			}
			sit := d20segv1.Situation(v)
			if slices.Contains(ap.Situations, sit) {
				return nil, bad("situation %s given twice", name)
			}
			if hasMalus {
				if sit != d20segv1.Situation_SITUATION_IMPAIRED {
					return nil, bad("only impaired takes a malus (impaired=N, light to medium, D20-002)")
				}
				m, err := strconv.Atoi(strings.TrimSpace(malus))
				if err != nil || m < 1 {
					return nil, bad("impaired=%s: give the malus as a positive number, light to medium (D20-002)", malus)
				}
				ap.ImpairedMalus = int32(m)
			}
			ap.Situations = append(ap.Situations, sit)
		}
	}
	if len(parts) > 2 {
		m, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(parts[2]), "−", "-"))
		if err != nil {
			return nil, bad("the spell modifier %q is not a number", parts[2])
		}
		ap.SpellModifier = int32(m)
	}
	return ap, nil
}

func d20SurpriseFlags(fs *pflag.FlagSet) client.Reader {
	var attackers client.ListFlag
	fs.Var(&attackers, "attackers", "the attackers (repeatable, or a,b)")
	var defenders defenderFlag
	fs.Var(&defenders, "defender", "a defender and its apprehension: ID[:SITUATION+SITUATION[:SPELL_MODIFIER]] (repeatable)")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		usage := client.ShortUsagef
		if len(attackers) == 0 {
			return nil, usage("name the attackers: --attackers A,B (D20-004)")
		}
		if len(defenders) == 0 {
			return nil, usage("name the defenders, each with its situations: --defender ID[:SITUATION+SITUATION[:SPELL_MODIFIER]] (D20-003)")
		}
		sp := &d20segv1.Surprise{}
		seen := map[string]string{}
		for _, a := range attackers {
			if seen[a] != "" {
				return nil, usage("--attackers: %s is given twice", a)
			}
			seen[a] = "attacker"
			sp.AttackerIds = append(sp.AttackerIds, a)
		}
		for _, d := range defenders {
			ap, err := parseApprehension(d)
			if err != nil {
				return nil, usage("%s", err)
			}
			switch seen[ap.GetDefenderId()] {
			case "attacker":
				return nil, usage("%s cannot be both attacker and defender", ap.GetDefenderId())
			case "defender":
				return nil, usage("--defender: %s is given twice", ap.GetDefenderId())
			}
			seen[ap.GetDefenderId()] = "defender"
			sp.Defenders = append(sp.Defenders, ap)
		}
		// A surprise attack names no combatant: the Action's combatant_id is left empty.
		return sp, nil
	}
}

// distanceFlag is a distance in centimetres: "150", "150cm", "1.5m".
type distanceFlag int32

func (d *distanceFlag) String() string {
	if d == nil {
		return "0"
	}
	return fmt.Sprint(int32(*d))
}

// Type names the value in the usage.
func (*distanceFlag) Type() string { return "distance" }

func (d *distanceFlag) Set(s string) error {
	s = strings.TrimSpace(strings.ToLower(s))
	unit := 1.0
	switch {
	case strings.HasSuffix(s, "cm"):
		s = strings.TrimSuffix(s, "cm")
	case strings.HasSuffix(s, "m"):
		s, unit = strings.TrimSuffix(s, "m"), 100
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(s), ",", "."), 64)
	if err != nil || v < 0 {
		return fmt.Errorf("a distance of 0 or more, in centimetres (150) or metres (1.5m)")
	}
	*d = distanceFlag(v*unit + 0.5)
	return nil
}

func d20AttackFlags(fs *pflag.FlagSet) client.Reader {
	weapon := fs.String("weapon", "", "the weapon (needed when COMBATANT has several)")
	var distance distanceFlag
	fs.Var(&distance, "distance", "the distance to TARGET, in centimetres (150) or metres (1.5m), for reach (D20-031)")
	modifier := fs.Int("modifier", 0, "a circumstance modifier to the attack roll (D20-040)")
	damageModifier := fs.Int("damage-modifier", 0, "a circumstance modifier to the damage (D20-041)")
	free := fs.Bool("free", false, "the surprise round's free action (D20-004)")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		if pos[1] == pos[2] {
			return nil, client.ShortUsagef("%s cannot attack itself", pos[1])
		}
		return &d20segv1.Attack{
			TargetId: pos[2], Weapon: *weapon, DistanceCm: int32(distance), Modifier: int32(*modifier),
			DamageModifier: int32(*damageModifier), Free: *free}, nil
	}
}

func d20CastFlags(fs *pflag.FlagSet) client.Reader {
	minLevel, maxLevel := latest.SpellCosts[0].FromLevel, latest.SpellCosts[len(latest.SpellCosts)-1].ToLevel
	level := fs.Int("level", 0, fmt.Sprintf("the spell's level, %d to %d (D20-018)", minLevel, maxLevel))
	pure := fs.Bool("pure", false, "pure magic: its casting time is the stated --segments (D20-021)")
	segments := fs.Int("segments", 0, "the spell's own stated casting time in segments, which prevails (D20-018, D20-021)")
	special := fs.Bool("special", false, "a damaging, summoning or other special spell: +"+client.SegmentsText(latest.SpecialSpell)+" (D20-018)")
	nextRound := fs.Bool("next-round", false, "the spell takes effect at the start of the next round (D20-019)")
	free := fs.Bool("free", false, "the surprise round's free action (D20-004)")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		usage := client.ShortUsagef
		spell, err := client.Words("spell's name", pos[2:])
		if err != nil {
			return nil, err
		}
		hasLevel, hasSegments := fs.Changed("level"), fs.Changed("segments")
		switch {
		case hasLevel && (*level < int(minLevel) || *level > int(maxLevel)):
			return nil, usage("--level %d: a spell level runs from %d to %d (D20-018)", *level, minLevel, maxLevel)
		case hasSegments && *segments < 1:
			return nil, usage("--segments %d: a casting time is 1 segment or more", *segments)
		case *pure && hasLevel:
			return nil, usage("--pure and --level: pure magic has no level, only its stated --segments (D20-021)")
		case *pure && !hasSegments:
			return nil, usage("pure magic has no table entry: give its stated casting time with --segments N (D20-021)")
		case *special && hasSegments:
			return nil, usage("--special adds a segment to the time of the level; a stated --segments prevails (D20-018)")
		case !hasLevel && !hasSegments:
			return nil, usage("give the spell's --level %d…%d (D20-018), or its stated casting time with --segments N (--pure for pure magic, D20-021)", minLevel, maxLevel)
		}
		cast := &d20segv1.Cast{Spell: spell, Level: int32(*level), PureMagic: *pure, Special: *special, StatedSegments: int32(*segments),
			NextRound: *nextRound, Free: *free}
		return cast, nil
	}
}

func d20OtherFlags(fs *pflag.FlagSet) client.Reader {
	segments := fs.Int("segments", 0, fmt.Sprintf("what the action costs, in segments, when the GM says it is not %d (D20-022)", latest.OtherCost))
	free := fs.Bool("free", false, "the surprise round's free action (D20-004)")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		desc, err := client.Words("description", pos[2:])
		if err != nil {
			return nil, err
		}
		if fs.Changed("segments") && *segments < 1 {
			return nil, client.ShortUsagef("--segments %d: an action costs 1 segment or more", *segments)
		}
		return &d20segv1.Other{
			Description: desc, Segments: int32(*segments), Free: *free}, nil
	}
}
