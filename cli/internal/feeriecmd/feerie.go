// Package feeriecmd is the `fray feerie` subcommands of Contes de Fées (declare, act, change,
// renounce, gesture, object, advance, …) with their intent and circumstance flags, and its part
// of `fray state`: WriteState, LegalText.
package feeriecmd

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/proto"
)

// actions are the table of `fray feerie SUBCOMMAND`: the actions of Contes de Fées
// (docs/rules/feerie.md), each a fray.feerie.v1.Action.
var actions = []client.Action{{
	Name:     "declare",
	Summary:  "step 1: declare the intention (activity, target, Attributes applied) and the tactic (FEE-033, FEE-040)",
	Synopsis: "ENCOUNTER COMBATANT --kind " + kindChoices.List() + " [--target T] [--attack a,b] [--defense a] [--damage a] [--soak a] [--initiative a] [--tactic NAME | --tactic-values I/A/D] [--strike S,...] [--physical] [--pace P] [--charge] [--aspect A --difficulty N] [flags]",
	Help: "COMBATANT declares its intention for this Action at step 1: the activity, its target, the\n" +
		"Attributes it applies to each combat value, and its tactic (FEE-030…FEE-034, FEE-040).\n" +
		"Once every combatant able to act has declared, Initiative is rolled and the countdown starts.\n" +
		"  fray feerie declare $id rubezahl --kind melee --target serpent --attack bâton --defense bâton --tactic-values 0/+2/-2",
	MinArgs: 2, MaxArgs: 2, Flags: feerieDeclareFlags,
}, {
	Name:     "act",
	Summary:  "perform the activity at the current rank; intent flags make it a change of intention (FEE-042, FEE-050, FEE-060)",
	Odds:     true,
	Synopsis: "ENCOUNTER COMBATANT [intent flags] [--essence N] [--lighting L] [--ranged-difficulty D | --range R] [--target-pace P] [--terrain T] [--cover S [--cover-thick] [--cover-soak N]] [--cover-opaque|--cover-semi-transparent] [--angles N] [--undefended] [--modifier N] [--exposed N] [--small-object N] [flags]",
	Help: "COMBATANT performs its activity at the current rank of the countdown: at its Initiative or\n" +
		"later without penalty, earlier by anticipating (−1 per rank, on the roll and on Defense to\n" +
		fmt.Sprintf("the end of the Action); a further activity comes %d ranks after the previous one, at −%d each\n", latest.SupplementaryRanks, latest.SupplementaryMalus) +
		"(FEE-042, FEE-050, FEE-060, FEE-061). The activity is resolved when the GM advances.\n" +
		fmt.Sprintf("Without intent flags it is the activity declared; with them, a change of intention (−%d,\n", latest.ChangeMalus) +
		"FEE-070). " + intentHelp,
	MinArgs: 2, MaxArgs: 2, Flags: feerieActFlags,
}, {
	Name:     "change",
	Summary:  "declare a change of intention at the current rank, acted on later (FEE-070, FEE-071)",
	Synopsis: "ENCOUNTER COMBATANT intent flags [flags]",
	Help: fmt.Sprintf("COMBATANT changes its intention at the current rank, to act on it later: −%d on the activity\n", latest.ChangeMalus) +
		fmt.Sprintf("and on Defense from now to the end of the Action, −%d on the whole next Action; a new tactic\n", latest.ChangeMalus) +
		"moves its acting rank (rolled Initiative − old tactic + new, at most the current rank)\n" +
		"(FEE-070…FEE-074). A change of target alone is not a change (FEE-182).\n" + intentHelp + "\n" +
		"  fray feerie change $id pixie --tactic-values 0/-5/+5 --defense couardise,esquive",
	MinArgs: 2, MaxArgs: 2, Flags: feerieChangeFlags,
}, {
	Name:     "renounce",
	Summary:  "give up the activity declared, at no cost (FEE-075)",
	Synopsis: "ENCOUNTER COMBATANT [flags]",
	Help:     "COMBATANT gives up the activity it declared, at no cost: it is not a change of intention (FEE-075).",
	MinArgs:  2, MaxArgs: 2, Flags: client.Empty(&feeriev1.Renounce{}),
}, {
	Name:     "gesture",
	Summary:  "something free alongside the activities: talking, walking slowly, a simple gesture (FEE-047)",
	Synopsis: "ENCOUNTER COMBATANT DESCRIPTION... [flags]",
	Help: "COMBATANT does something free alongside its activities: walking slowly, talking, a simple\n" +
		"gesture, the ordinary use of a Power that costs no Essence. No roll, no penalty (FEE-047).\n" +
		"  fray feerie gesture $id rubezahl shouts a warning to the Lutin",
	MinArgs: 3, MaxArgs: -1, Flags: feerieGestureFlags,
}, {
	Name:     "object",
	Summary:  "take, or with --end leave, the status of an inanimate object through a Power (FEE-026)",
	Synopsis: "ENCOUNTER COMBATANT --power P [--end] [flags]",
	Help: "COMBATANT uses a Power that gives it the status of an inanimate object (a wooden puppet): it\n" +
		"takes damage as an object and renounces every activity; --end leaves the status (FEE-026).",
	MinArgs: 2, MaxArgs: 2, Flags: feerieObjectFlags,
}, {
	Name:     "advance",
	Summary:  "the GM moves the countdown down, resolving the rank's activities (FEE-041, FEE-044)",
	NoActor:  true,
	Synopsis: "ENCOUNTER [--to N] [flags]",
	Help: "The GM resolves the activities performed at the current rank, in order of priority (FEE-044,\n" +
		"FEE-045), and moves the countdown down: one rank, or to rank --to. From rank 1 it goes to\n" +
		"rank 0, the impersonal events (FEE-046); from rank 0, the next Action begins at step 1.",
	MinArgs: 1, MaxArgs: 1, Flags: feerieAdvanceFlags,
}, {
	Name:     "impersonal",
	Summary:  "the GM's impersonal event at rank 0, costing Essence (FEE-046)",
	NoActor:  true,
	Synopsis: "ENCOUNTER TARGET ESSENCE_LOSS DESCRIPTION... [flags]",
	Help: "At rank 0, after every character, the GM makes an impersonal event happen (fire, drowning)\n" +
		"that costs TARGET ESSENCE_LOSS Essence (FEE-046):\n" +
		"  fray feerie impersonal $id serpent 3 the burning hut collapses",
	MinArgs: 4, MaxArgs: -1, Flags: feerieImpersonalFlags,
}, {
	Name:     "surprise",
	Summary:  "the GM marks a combatant surprised (FEE-080, FEE-082)",
	Synopsis: "ENCOUNTER COMBATANT [--actions N] [--no-activity] [flags]",
	Help: fmt.Sprintf("At step 1, the GM marks COMBATANT surprised: −%d Initiative, −%d Defense and no tactic for the\n", latest.SurpriseInitiative, latest.SurpriseDefense) +
		"next Action (FEE-080), or --actions N of them; --no-activity forbids it any activity while it\n" +
		"lasts (drunk, asleep, spellbound; FEE-082).",
	MinArgs: 2, MaxArgs: 2, Flags: feerieSurpriseFlags,
}, {
	Name:     "unseen",
	Summary:  "the GM rules that a combatant attacks unseen: its dissimulation roll (FEE-081, FEE-186)",
	Synopsis: "ENCOUNTER COMBATANT VICTIM --aspect A [--applied a,b] [flags]",
	Help: "At step 1, the GM rules that COMBATANT attacks VICTIM unseen while VICTIM is on guard: it rolls\n" +
		"its dissimulation (the Aspect plus the Attributes applied) against VICTIM's Vigilance score,\n" +
		"and on a success gains half the margin in Initiative this Action (FEE-081, FEE-186).",
	MinArgs: 3, MaxArgs: 3, Flags: feerieUnseenFlags,
}, {
	Name:     "helpless",
	Summary:  "the GM rules a combatant helpless (asleep, paralysed, unconscious), or with --clear no longer (FEE-022)",
	Synopsis: "ENCOUNTER COMBATANT [--clear] [--reason R] [flags]",
	Help: "The GM rules that COMBATANT is helpless — asleep, paralysed, unconscious — until cleared: every\n" +
		"attack on it meets Defense 0, so the whole Attack total is the margin, and it cannot act\n" +
		"(FEE-022, FEE-024); --clear: it is no longer. At 0 Essence one is helpless without a ruling.\n" +
		"  fray feerie helpless $id hippogriffe --reason asleep",
	MinArgs: 2, MaxArgs: 2, Flags: feerieHelplessFlags,
}, {
	Name:     "rule",
	Summary:  "the GM cancels or modifies a tactic, or gives a malus (FEE-036)",
	Synopsis: "ENCOUNTER COMBATANT [--cancel-tactic | --tactic NAME | --tactic-values I/A/D] [--malus N] [--reason R] [flags]",
	Help: "The GM rules on COMBATANT's tactic when its description does not fit: cancels it, or replaces\n" +
		"it, and/or gives a malus to its activity rolls to the end of the Action (FEE-036).",
	MinArgs: 2, MaxArgs: 2, Flags: feerieRuleFlags,
}}

func init() {
	client.RegisterSystem(client.System{
		ID: feerie.ID, Name: "Contes de Fées", Group: "feerie",
		Summary: "Contes de Fées: declare, act, change, renounce, gesture, object; advance, impersonal, surprise, unseen, rule (GM)",
		Help: "The actions of a Contes de Fées encounter (create it with --system feerie). Each Action runs:\n" +
			"every combatant declares (step 1), Initiative is rolled once all have, then the countdown goes\n" +
			"down from the highest Initiative: at each rank combatants act (fray feerie act), and the GM\n" +
			"resolves the rank and moves on (fray feerie advance); at rank 0 come the impersonal events,\n" +
			"and advancing from there starts the next Action.",
		Actions:     actions,
		Options:     "roll: 2d10-11",
		Sheet:       "{vigilance, habilete, puissance, resistance, taille, charme, essence, attributes}",
		State:       "its Action and rank, each combatant's Essence, Initiative, activities, penalties and conditions",
		WriteState:  WriteState,
		LegalText:   LegalText,
		CommandLine: commandLine, ChoiceFlags: choiceFlags,
	})
}

func feerieDeclareFlags(fs *pflag.FlagSet) client.Reader {
	var in intentFlags
	in.register(fs)
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		if in.kind == "" {
			return nil, client.ShortUsagef("declare the activity with --kind %s", kindChoices.List())
		}
		intent, err := in.intent(nil)
		if err != nil {
			return nil, err
		}
		return &feeriev1.Declare{Intent: intent}, nil
	}
}

// latest are the numbers of the latest version of Contes de Fées, which the help states: a new
// encounter gets that version.
var latest = feerie.New(feerie.Latest).Numbers()

func feerieActFlags(fs *pflag.FlagSet) client.Reader {
	var in intentFlags
	in.register(fs)
	var circ circumstanceFlags
	circ.register(fs)
	essence := fs.Int("essence", 0, "Essence spent on the roll, +1 each (FEE-005)")
	supplementary := fs.Bool("supplementary", false, "mark the activity as a further one in this Action (FEE-060; the rules count them anyway)")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		var err error
		usage := client.ShortUsagef
		if *essence < 0 {
			return nil, usage("--essence %d: cannot be negative", *essence)
		}
		act := &feeriev1.Act{Essence: int32(*essence), Supplementary: *supplementary}
		if act.Circumstances, err = circ.circumstances(usage); err != nil {
			return nil, err
		}
		if in.any() {
			var base *feeriev1.Intent
			if in.kind == "" {
				if base, err = declaredIntent(ctx, c, pos[0], pos[1]); err != nil {
					return nil, err
				}
			}
			if act.Intent, err = in.intent(base); err != nil {
				return nil, err
			}
		}
		return act, nil
	}
}

func feerieChangeFlags(fs *pflag.FlagSet) client.Reader {
	var in intentFlags
	in.register(fs)
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		var err error
		if !in.any() {
			return nil, client.ShortUsagef("give the new intention: --kind and the intent flags, or the flags that differ from the declaration")
		}
		var base *feeriev1.Intent
		if in.kind == "" {
			if base, err = declaredIntent(ctx, c, pos[0], pos[1]); err != nil {
				return nil, err
			}
		}
		intent, err := in.intent(base)
		if err != nil {
			return nil, err
		}
		return &feeriev1.Change{Intent: intent}, nil
	}
}

func feerieGestureFlags(fs *pflag.FlagSet) client.Reader {
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		desc, err := client.Words("description", pos[2:])
		if err != nil {
			return nil, err
		}
		return &feeriev1.Gesture{Description: desc}, nil
	}
}

func feerieObjectFlags(fs *pflag.FlagSet) client.Reader {
	power := fs.String("power", "", "the Power used")
	end := fs.Bool("end", false, "end the status of an object")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		if *power == "" && !*end {
			return nil, client.ShortUsagef("name the Power with --power, or end the status with --end")
		}
		return &feeriev1.BecomeObject{Power: *power, End: *end}, nil
	}
}

func feerieAdvanceFlags(fs *pflag.FlagSet) client.Reader {
	to := fs.Int("to", 0, "go down to this rank, 1 or more (default: one rank down)")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		if fs.Changed("to") && *to < 1 {
			return nil, client.ShortUsagef("--to %d: give a rank of 1 or more; without --to the countdown goes one rank down, from rank 1 to 0", *to)
		}
		return &feeriev1.Advance{ToRank: int32(*to)}, nil
	}
}

func feerieImpersonalFlags(fs *pflag.FlagSet) client.Reader {
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		usage := client.ShortUsagef
		loss, err := strconv.ParseInt(pos[2], 10, 32)
		if err != nil || loss < 0 {
			return nil, usage("Essence loss %q: a number, 0 or more", pos[2])
		}
		desc, err := client.Words("description", pos[3:])
		if err != nil {
			return nil, err
		}
		return &feeriev1.Impersonal{
			Description: desc, TargetId: pos[1], EssenceLoss: int32(loss)}, nil
	}
}

func feerieSurpriseFlags(fs *pflag.FlagSet) client.Reader {
	actions := fs.Int("actions", 1, "how many Actions the surprise lasts")
	noActivity := fs.Bool("no-activity", false, "no activity at all while it lasts")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		if *actions < 1 {
			return nil, client.ShortUsagef("--actions %d: a surprise lasts 1 Action or more", *actions)
		}
		return &feeriev1.Surprise{
			Actions: int32(*actions), NoActivity: *noActivity}, nil
	}
}

func feerieHelplessFlags(fs *pflag.FlagSet) client.Reader {
	clear := fs.Bool("clear", false, "it is no longer helpless")
	reason := fs.String("reason", "", "why: asleep, paralysed, unconscious…")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		if *clear && *reason != "" {
			return nil, client.ShortUsagef("--reason goes with the ruling that makes it helpless, not with --clear")
		}
		return &feeriev1.Helpless{Clear: *clear, Reason: *reason}, nil
	}
}

func feerieUnseenFlags(fs *pflag.FlagSet) client.Reader {
	aspect := fs.String("aspect", "", "the Aspect of the dissimulation roll: "+strings.Join(aspectNames, ", "))
	var applied client.ListFlag
	fs.Var(&applied, "applied", "Attributes applied to the roll (repeatable, or a,b)")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		if !validAspect(*aspect) {
			return nil, client.ShortUsagef("--aspect %q: %s", *aspect, strings.Join(aspectNames, ", "))
		}
		return &feeriev1.Unseen{
			VictimId: pos[2], Aspect: *aspect, Applied: applied}, nil
	}
}

func feerieRuleFlags(fs *pflag.FlagSet) client.Reader {
	cancel := fs.Bool("cancel-tactic", false, "cancel the tactic")
	tactic := fs.String("tactic", "", "the tactic as the GM modifies it: a named tactic of FEE-034")
	values := fs.String("tactic-values", "", "the tactic as the GM modifies it: Initiative/Attack/Defense, such as -2/+2/0")
	malus := fs.Int("malus", 0, "a malus to the activity rolls to the end of the Action, as a positive number")
	reason := fs.String("reason", "", "why")
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		var err error
		usage := client.ShortUsagef
		r := &feeriev1.Ruling{CancelTactic: *cancel, Malus: int32(*malus), Reason: *reason}
		n := 0
		for _, set := range []bool{*cancel, *tactic != "", *values != ""} {
			if set {
				n++
			}
		}
		switch {
		case n > 1:
			return nil, usage("--cancel-tactic, --tactic and --tactic-values: choose one")
		case *malus < 0:
			return nil, usage("--malus %d: give the malus as a positive number", *malus)
		case n == 0 && *malus == 0:
			return nil, usage("rule on something: --cancel-tactic, --tactic, --tactic-values or --malus")
		case *tactic != "":
			if r.Tactic, err = presetTactic(*tactic); err != nil {
				return nil, usage("%s", err)
			}
		case *values != "":
			if r.Tactic, err = parseTacticValues(*values); err != nil {
				return nil, usage("%s", err)
			}
		}
		return r, nil
	}
}
