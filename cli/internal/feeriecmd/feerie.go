// Package feeriecmd is the `fray feerie` subcommands of Contes de Fées (declare, act, change,
// renounce, gesture, object, advance, …) with their intent and circumstance flags, and its part
// of `fray state`: WriteState, LegalText.
package feeriecmd

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// `fray feerie SUBCOMMAND`: the actions of Contes de Fées (docs/rules/feerie.md), each sent
// as a fray.feerie.v1.Action through Submit.

var feerieMembers = []client.Member{
	{Name: "declare", Summary: "step 1: declare the intention (activity, target, Attributes applied) and the tactic (FEE-033, FEE-040)", Cmd: feerieDeclareCmd},
	{Name: "act", Summary: "perform the activity at the current rank; intent flags make it a change of intention (FEE-042, FEE-050, FEE-060)", Cmd: feerieActCmd},
	{Name: "change", Summary: "declare a change of intention at the current rank, acted on later (FEE-070, FEE-071)", Cmd: feerieChangeCmd},
	{Name: "renounce", Summary: "give up the activity declared, at no cost (FEE-075)", Cmd: feerieRenounceCmd},
	{Name: "gesture", Summary: "something free alongside the activities: talking, walking slowly, a simple gesture (FEE-047)", Cmd: feerieGestureCmd},
	{Name: "object", Summary: "take, or with --end leave, the status of an inanimate object through a Power (FEE-026)", Cmd: feerieObjectCmd},
	{Name: "advance", Summary: "the GM moves the countdown down, resolving the rank's activities (FEE-041, FEE-044)", Cmd: feerieAdvanceCmd},
	{Name: "impersonal", Summary: "the GM's impersonal event at rank 0, costing Essence (FEE-046)", Cmd: feerieImpersonalCmd},
	{Name: "surprise", Summary: "the GM marks a combatant surprised (FEE-080, FEE-082)", Cmd: feerieSurpriseCmd},
	{Name: "unseen", Summary: "the GM rules that a combatant attacks unseen: its dissimulation roll (FEE-081, FEE-186)", Cmd: feerieUnseenCmd},
	{Name: "helpless", Summary: "the GM rules a combatant helpless (asleep, paralysed, unconscious), or with --clear no longer (FEE-022)", Cmd: feerieHelplessCmd},
	{Name: "rule", Summary: "the GM cancels or modifies a tactic, or gives a malus (FEE-036)", Cmd: feerieRuleCmd},
}

func init() {
	client.RegisterSystem(client.System{
		ID: feerie.ID, Name: "Contes de Fées", Group: "feerie",
		Summary: "Contes de Fées: declare, act, change, renounce, gesture, object; advance, impersonal, surprise, unseen, rule (GM)",
		Help: "The actions of a Contes de Fées encounter (create it with --system feerie). Each Action runs:\n" +
			"every combatant declares (step 1), Initiative is rolled once all have, then the countdown goes\n" +
			"down from the highest Initiative: at each rank combatants act (fray feerie act), and the GM\n" +
			"resolves the rank and moves on (fray feerie advance); at rank 0 come the impersonal events,\n" +
			"and advancing from there starts the next Action.",
		Members:    feerieMembers,
		WriteState: WriteState,
		LegalText:  LegalText,
	})
}

func feerieCommand(a *feeriev1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Feerie{Feerie: a}}
}

func feerieDeclareCmd() *cobra.Command {
	command, fs := client.NewCommand("feerie declare", "ENCOUNTER COMBATANT --kind "+kindChoices.List()+" [--target T] [--attack a,b] [--defense a] [--damage a] [--soak a] [--initiative a] [--tactic NAME | --tactic-values I/A/D] [--strike S,...] [--physical] [--pace P] [--charge] [--aspect A --difficulty N] [flags]",
		"COMBATANT declares its intention for this Action at step 1: the activity, its target, the\n"+
			"Attributes it applies to each combat value, and its tactic (FEE-030…FEE-034, FEE-040).\n"+
			"Once every combatant able to act has declared, Initiative is rolled and the countdown starts.\n"+
			"  fray feerie declare $id rubezahl --kind melee --target serpent --attack bâton --defense bâton --tactic-values 0/+2/-2", 2, 2)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	var in intentFlags
	in.register(fs)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if in.kind == "" {
			return client.ShortUsagef("declare the activity with --kind %s", kindChoices.List())
		}
		intent, err := in.intent(nil)
		if err != nil {
			return err
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Declare{Declare: &feeriev1.Declare{Intent: intent}}}
		return client.Submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

// latest are the numbers of the latest version of Contes de Fées, which the help states: a new
// encounter gets that version.
var latest = feerie.New(feerie.Latest).Numbers()

func feerieActCmd() *cobra.Command {
	command, fs := client.NewCommand("feerie act", "ENCOUNTER COMBATANT [intent flags] [--essence N] [--lighting L] [--ranged-difficulty D | --range R] [--target-pace P] [--terrain T] [--cover S [--cover-thick] [--cover-soak N]] [--cover-opaque|--cover-semi-transparent] [--angles N] [--undefended] [--modifier N] [--exposed N] [--small-object N] [flags]",
		"COMBATANT performs its activity at the current rank of the countdown: at its Initiative or\n"+
			"later without penalty, earlier by anticipating (−1 per rank, on the roll and on Defense to\n"+
			fmt.Sprintf("the end of the Action); a further activity comes %d ranks after the previous one, at −%d each\n", latest.SupplementaryRanks, latest.SupplementaryMalus)+
			"(FEE-042, FEE-050, FEE-060, FEE-061). The activity is resolved when the GM advances.\n"+
			fmt.Sprintf("Without intent flags it is the activity declared; with them, a change of intention (−%d,\n", latest.ChangeMalus)+
			"FEE-070). "+intentHelp, 2, 2)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	var in intentFlags
	in.register(fs)
	var circ circumstanceFlags
	circ.register(fs)
	essence := fs.Int("essence", 0, "Essence spent on the roll, +1 each (FEE-005)")
	supplementary := fs.Bool("supplementary", false, "mark the activity as a further one in this Action (FEE-060; the rules count them anyway)")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		var err error
		usage := client.ShortUsagef
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
		return client.Submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieChangeCmd() *cobra.Command {
	command, fs := client.NewCommand("feerie change", "ENCOUNTER COMBATANT intent flags [flags]",
		fmt.Sprintf("COMBATANT changes its intention at the current rank, to act on it later: −%d on the activity\n", latest.ChangeMalus)+
			fmt.Sprintf("and on Defense from now to the end of the Action, −%d on the whole next Action; a new tactic\n", latest.ChangeMalus)+
			"moves its acting rank (rolled Initiative − old tactic + new, at most the current rank)\n"+
			"(FEE-070…FEE-074). A change of target alone is not a change (FEE-182).\n"+intentHelp+"\n"+
			"  fray feerie change $id pixie --tactic-values 0/-5/+5 --defense couardise,esquive", 2, 2)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	var in intentFlags
	in.register(fs)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		var err error
		if !in.any() {
			return client.ShortUsagef("give the new intention: --kind and the intent flags, or the flags that differ from the declaration")
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
		return client.Submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieRenounceCmd() *cobra.Command {
	command, fs := client.NewCommand("feerie renounce", "ENCOUNTER COMBATANT [flags]",
		"COMBATANT gives up the activity it declared, at no cost: it is not a change of intention (FEE-075).", 2, 2)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Renounce{Renounce: &feeriev1.Renounce{}}}
		return client.Submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieGestureCmd() *cobra.Command {
	command, fs := client.NewCommand("feerie gesture", "ENCOUNTER COMBATANT DESCRIPTION... [flags]",
		"COMBATANT does something free alongside its activities: walking slowly, talking, a simple\n"+
			"gesture, the ordinary use of a Power that costs no Essence. No roll, no penalty (FEE-047).\n"+
			"  fray feerie gesture $id rubezahl shouts a warning to the Lutin", 3, -1)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		desc := strings.TrimSpace(strings.Join(pos[2:], " "))
		if desc == "" {
			return client.ShortUsagef("the description is empty")
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Gesture{Gesture: &feeriev1.Gesture{Description: desc}}}
		return client.Submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieObjectCmd() *cobra.Command {
	command, fs := client.NewCommand("feerie object", "ENCOUNTER COMBATANT --power P [--end] [flags]",
		"COMBATANT uses a Power that gives it the status of an inanimate object (a wooden puppet): it\n"+
			"takes damage as an object and renounces every activity; --end leaves the status (FEE-026).", 2, 2)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	power := fs.String("power", "", "the Power used")
	end := fs.Bool("end", false, "end the status of an object")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if *power == "" && !*end {
			return client.ShortUsagef("name the Power with --power, or end the status with --end")
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_BecomeObject{BecomeObject: &feeriev1.BecomeObject{Power: *power, End: *end}}}
		return client.Submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieAdvanceCmd() *cobra.Command {
	command, fs := client.NewCommand("feerie advance", "ENCOUNTER [--to N] [flags]",
		"The GM resolves the activities performed at the current rank, in order of priority (FEE-044,\n"+
			"FEE-045), and moves the countdown down: one rank, or to rank --to. From rank 1 it goes to\n"+
			"rank 0, the impersonal events (FEE-046); from rank 0, the next Action begins at step 1.", 1, 1)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	to := fs.Int("to", 0, "go down to this rank, 1 or more (default: one rank down)")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		set := false
		fs.Visit(func(f *pflag.Flag) { set = set || f.Name == "to" })
		if set && *to < 1 {
			return client.ShortUsagef("--to %d: give a rank of 1 or more; without --to the countdown goes one rank down, from rank 1 to 0", *to)
		}
		a := &feeriev1.Action{Kind: &feeriev1.Action_Advance{Advance: &feeriev1.Advance{ToRank: int32(*to)}}}
		return client.Submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieImpersonalCmd() *cobra.Command {
	command, fs := client.NewCommand("feerie impersonal", "ENCOUNTER TARGET ESSENCE_LOSS DESCRIPTION... [flags]",
		"At rank 0, after every character, the GM makes an impersonal event happen (fire, drowning)\n"+
			"that costs TARGET ESSENCE_LOSS Essence (FEE-046):\n"+
			"  fray feerie impersonal $id serpent 3 the burning hut collapses", 4, -1)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		usage := client.ShortUsagef
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
		return client.Submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieSurpriseCmd() *cobra.Command {
	command, fs := client.NewCommand("feerie surprise", "ENCOUNTER COMBATANT [--actions N] [--no-activity] [flags]",
		fmt.Sprintf("At step 1, the GM marks COMBATANT surprised: −%d Initiative, −%d Defense and no tactic for the\n", latest.SurpriseInitiative, latest.SurpriseDefense)+
			"next Action (FEE-080), or --actions N of them; --no-activity forbids it any activity while it\n"+
			"lasts (drunk, asleep, spellbound; FEE-082).", 2, 2)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	actions := fs.Int("actions", 1, "how many Actions the surprise lasts")
	noActivity := fs.Bool("no-activity", false, "no activity at all while it lasts")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if *actions < 1 {
			return client.ShortUsagef("--actions %d: a surprise lasts 1 Action or more", *actions)
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Surprise{Surprise: &feeriev1.Surprise{
			Actions: int32(*actions), NoActivity: *noActivity}}}
		return client.Submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieHelplessCmd() *cobra.Command {
	command, fs := client.NewCommand("feerie helpless", "ENCOUNTER COMBATANT [--clear] [--reason R] [flags]",
		"The GM rules that COMBATANT is helpless — asleep, paralysed, unconscious — until cleared: every\n"+
			"attack on it meets Defense 0, so the whole Attack total is the margin, and it cannot act\n"+
			"(FEE-022, FEE-024); --clear: it is no longer. At 0 Essence one is helpless without a ruling.\n"+
			"  fray feerie helpless $id hippogriffe --reason asleep", 2, 2)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	clear := fs.Bool("clear", false, "it is no longer helpless")
	reason := fs.String("reason", "", "why: asleep, paralysed, unconscious…")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if *clear && *reason != "" {
			return client.ShortUsagef("--reason goes with the ruling that makes it helpless, not with --clear")
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Helpless{Helpless: &feeriev1.Helpless{Clear: *clear, Reason: *reason}}}
		return client.Submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieUnseenCmd() *cobra.Command {
	command, fs := client.NewCommand("feerie unseen", "ENCOUNTER COMBATANT VICTIM --aspect A [--applied a,b] [flags]",
		"At step 1, the GM rules that COMBATANT attacks VICTIM unseen while VICTIM is on guard: it rolls\n"+
			"its dissimulation (the Aspect plus the Attributes applied) against VICTIM's Vigilance score,\n"+
			"and on a success gains half the margin in Initiative this Action (FEE-081, FEE-186).", 3, 3)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	aspect := fs.String("aspect", "", "the Aspect of the dissimulation roll: "+strings.Join(aspectNames, ", "))
	var applied client.ListFlag
	fs.Var(&applied, "applied", "Attributes applied to the roll (repeatable, or a,b)")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if !validAspect(*aspect) {
			return client.ShortUsagef("--aspect %q: %s", *aspect, strings.Join(aspectNames, ", "))
		}
		a := &feeriev1.Action{CombatantId: pos[1], Kind: &feeriev1.Action_Unseen{Unseen: &feeriev1.Unseen{
			VictimId: pos[2], Aspect: *aspect, Applied: applied}}}
		return client.Submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}

func feerieRuleCmd() *cobra.Command {
	command, fs := client.NewCommand("feerie rule", "ENCOUNTER COMBATANT [--cancel-tactic | --tactic NAME | --tactic-values I/A/D] [--malus N] [--reason R] [flags]",
		"The GM rules on COMBATANT's tactic when its description does not fit: cancels it, or replaces\n"+
			"it, and/or gives a malus to its activity rolls to the end of the Action (FEE-036).", 2, 2)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	cancel := fs.Bool("cancel-tactic", false, "cancel the tactic")
	tactic := fs.String("tactic", "", "the tactic as the GM modifies it: a named tactic of FEE-034")
	values := fs.String("tactic-values", "", "the tactic as the GM modifies it: Initiative/Attack/Defense, such as -2/+2/0")
	malus := fs.Int("malus", 0, "a malus to the activity rolls to the end of the Action, as a positive number")
	reason := fs.String("reason", "", "why")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
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
		return client.Submit(ctx, c, pos[0], feerieCommand(a), stdout)
	})
	return command
}
