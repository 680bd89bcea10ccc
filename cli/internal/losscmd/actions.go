package losscmd

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/spf13/cobra"
)

// The Les Chants de Loss actions beyond attack, react and pass: each sends one Action through
// Submit and prints the events it caused.

// submitAction sends a Loss action of combatant id.
func submitAction(ctx context.Context, c *client.Conn, enc, id string, a *lossv1.Action, stdout io.Writer) error {
	a.CombatantId = id
	return client.Submit(ctx, c, enc, client.LossCommand(a), stdout)
}

// choice matches word (any case) among the keys of choices, or says what the choices are.
func choice[T any](what, word string, names []string, choices map[string]T) (T, error) {
	v, ok := choices[strings.ToLower(word)]
	if !ok {
		var zero T
		return zero, fmt.Errorf("%s %q: %s", what, word, strings.Join(names, ", "))
	}
	return v, nil
}

func declareCmd() *cobra.Command {
	command, fs := client.NewCommand("declare", "ENCOUNTER COMBATANT INTENTION... [flags]",
		"COMBATANT declares the intention of its first action this Tour, before acting (LOS-038):\n  fray declare $id canahan I charge the griffon", 3, -1)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		intention := strings.TrimSpace(strings.Join(pos[2:], " "))
		if intention == "" {
			return client.ShortUsagef("the intention is empty")
		}
		return submitAction(ctx, c, pos[0], pos[1], &lossv1.Action{Kind: &lossv1.Action_Declare{Declare: &lossv1.Declare{Intention: intention}}}, stdout)
	})
	return command
}

func waitCmd() *cobra.Command {
	command, fs := client.NewCommand("wait", "ENCOUNTER COMBATANT PHASE [flags]",
		"COMBATANT waits (se prépare) and acts at the lower PHASE: its PA drop by 1 per phase waited,\nand so does the cost of its next action, to a minimum of 2 (LOS-040).", 3, 3)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		phase, err := strconv.ParseInt(pos[2], 10, 32)
		if err != nil || phase < 1 {
			return client.ShortUsagef("phase %q: a phase is a number from 1 up", pos[2])
		}
		return submitAction(ctx, c, pos[0], pos[1], &lossv1.Action{Kind: &lossv1.Action_Wait{Wait: &lossv1.Wait{UntilPhase: int32(phase)}}}, stdout)
	})
	return command
}

func aimCmd() *cobra.Command {
	command, fs := client.NewCommand("aim", "ENCOUNTER COMBATANT WEAPON [--points N | --tour] [flags]",
		fmt.Sprintf("COMBATANT aims with the ranged WEAPON: 1 PA per +1 on its next Test with it, at most +%d\n", latest.MaxAim)+
			"(LOS-035); or, with --tour, for the whole Tour: its first action of the Tour, taking all its\n"+
			fmt.Sprintf("PA, for +%d (+%d with Visée of that weapon type) on its next shot with WEAPON (LOS-084).\n", latest.AimTourBonus, latest.AimTourVisee)+
			versionNote, 3, 3)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	points := fs.Int("points", 0, "PA spent aiming, +1 each (default 1)")
	tour := fs.Bool("tour", false, "aim for the whole Tour: the first action of the Tour, all PA")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		aim := &lossv1.Aim{Weapon: pos[2], WholeTour: *tour, Points: int32(*points)}
		switch {
		case *tour && *points != 0:
			return client.ShortUsagef("--points and --tour: choose one")
		case *points < 0:
			return client.ShortUsagef("--points %d: aim with 1 PA or more", *points)
		case !*tour && *points == 0:
			aim.Points = 1
		}
		return submitAction(ctx, c, pos[0], pos[1], &lossv1.Action{Kind: &lossv1.Action_Aim{Aim: aim}}, stdout)
	})
	return command
}

var simpleNames = []string{"speak", "social", "pick-up", "move", "stand-up", "recover-weapon"}

var simpleKinds = map[string]lossv1.SimpleKind{
	"speak":          lossv1.SimpleKind_SIMPLE_KIND_SPEAK,
	"social":         lossv1.SimpleKind_SIMPLE_KIND_SOCIAL,
	"pick-up":        lossv1.SimpleKind_SIMPLE_KIND_PICK_UP,
	"move":           lossv1.SimpleKind_SIMPLE_KIND_MOVE,
	"stand-up":       lossv1.SimpleKind_SIMPLE_KIND_STAND_UP,
	"recover-weapon": lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON,
}

func actCmd() *cobra.Command {
	command, fs := client.NewCommand("act", "ENCOUNTER COMBATANT "+strings.Join(simpleNames, "|")+" [--description D] [flags]",
		"COMBATANT takes an action without a Test (LOS-035): speak or shout (0 PA, at any time),\n"+
			fmt.Sprintf("a social Talent (1 PA), pick up an object (%s), move at least 3 m (%s), stand up or regain\n", pa(latest.PickUpCost), pa(latest.MoveCost))+
			fmt.Sprintf("one's balance (%s, LOS-072; after a Disarm too, LOS-074), recover one's weapon after a Disarm\n", pa(latest.StandUpCost))+
			fmt.Sprintf("(pick it up: %s, LOS-074).\n", pa(latest.PickUpCost))+versionNote, 3, 3)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	desc := fs.String("description", "", "what is said or done")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		kind, err := choice("action", pos[2], simpleNames, simpleKinds)
		if err != nil {
			return client.ShortUsagef("%s", err)
		}
		return submitAction(ctx, c, pos[0], pos[1], &lossv1.Action{Kind: &lossv1.Action_Simple{Simple: &lossv1.Simple{Kind: kind, Description: *desc}}}, stdout)
	})
	return command
}

func disasterCmd() *cobra.Command {
	command, fs := client.NewCommand("disaster", "ENCOUNTER COMBATANT DESCRIPTION... [flags]",
		"The GM turns COMBATANT's failed Exploit (the last Test with Exploits, failed by a player\ncharacter or a thrower) into a Disaster (Désastre) and describes it (LOS-006, LOS-086).", 3, -1)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		desc := strings.TrimSpace(strings.Join(pos[2:], " "))
		if desc == "" {
			return client.ShortUsagef("the description is empty")
		}
		return submitAction(ctx, c, pos[0], pos[1], &lossv1.Action{Kind: &lossv1.Action_Disaster{Disaster: &lossv1.Disaster{Description: desc}}}, stdout)
	})
	return command
}

var dyingNames = []string{"sacrifice", "care", "finish"}

var dyingChoices = map[string]lossv1.DyingChoice{
	"sacrifice": lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION,
	"care":      lossv1.DyingChoice_DYING_CHOICE_URGENT_CARE,
	"finish":    lossv1.DyingChoice_DYING_CHOICE_FINISH_OFF,
}

func dyingCmd() *cobra.Command {
	command, fs := client.NewCommand("dying", "ENCOUNTER COMBATANT TARGET sacrifice|care|finish [--vertu V] [flags]",
		"COMBATANT decides the fate of the dying TARGET (LOS-023): TARGET itself sacrifices an\n"+
			"Inspiration of the Vertu --vertu and is saved; urgent care saves it; or the one who felled it\n"+
			"(or the GM) finishes it off.", 4, 4)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	vertu := fs.String("vertu", "", "the Vertu of the sacrificed Inspiration: Sagesse, Honneur or Courage")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		usage := client.ShortUsagef
		ch, err := choice("choice", pos[3], dyingNames, dyingChoices)
		if err != nil {
			return usage("%s", err)
		}
		d := &lossv1.Dying{TargetId: pos[2], Choice: ch}
		switch {
		case ch == lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION && *vertu == "":
			return usage("sacrifice needs --vertu Sagesse|Honneur|Courage")
		case ch != lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION && *vertu != "":
			return usage("--vertu goes with sacrifice")
		case *vertu != "":
			v, ok := vertuOf(*vertu)
			if !ok {
				return usage("--vertu %q: Sagesse, Honneur or Courage", *vertu)
			}
			d.Vertu = v
		}
		return submitAction(ctx, c, pos[0], pos[1], &lossv1.Action{Kind: &lossv1.Action_Dying{Dying: d}}, stdout)
	})
	return command
}

func pursuitCmd() *cobra.Command {
	command, fs := client.NewCommand("pursuit", "ENCOUNTER --pursuers ID[,ID...] --pursued ID[,ID...] --distance N [flags]",
		"The GM opens a moving combat (LOS-100) at a distance of 1 (contact) to 6 (out of range)\nunits; its actions are then made with `fray chase`.", 1, 1)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	var pursuers, pursued client.ListFlag
	fs.Var(&pursuers, "pursuers", "the pursuers (repeatable, or a,b)")
	fs.Var(&pursued, "pursued", "the pursued (repeatable, or a,b)")
	distance := fs.Int("distance", 0, "the starting distance in units: 1 contact, 2 close, 3 in range, 4 far, 5 very far, 6 out of range")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		usage := client.ShortUsagef
		switch {
		case len(pursuers) == 0 || len(pursued) == 0:
			return usage("a pursuit needs --pursuers and --pursued")
		case *distance < 1 || *distance > int(latest.MaxDistance):
			return usage("--distance %d: a pursuit starts at 1 (contact) to %d (out of range) units", *distance, latest.MaxDistance)
		}
		sp := &lossv1.StartPursuit{PursuerIds: pursuers, PursuedIds: pursued, Distance: int32(*distance)}
		// StartPursuit names no combatant: the Action's combatant_id is left empty.
		return submitAction(ctx, c, pos[0], "", &lossv1.Action{Kind: &lossv1.Action_StartPursuit{StartPursuit: sp}}, stdout)
	})
	return command
}

var chaseNames = []string{"charge", "clothesline", "closer", "farther", "tackle", "shoot-legs", "zigzags"}

var chaseKinds = map[string]lossv1.PursuitKind{
	"charge":      lossv1.PursuitKind_PURSUIT_KIND_CHARGE,
	"clothesline": lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE,
	"closer":      lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE,
	"farther":     lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE,
	"tackle":      lossv1.PursuitKind_PURSUIT_KIND_TACKLE,
	"shoot-legs":  lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS,
	"zigzags":     lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS,
}

func chaseCmd() *cobra.Command {
	command, fs := client.NewCommand("chase", "ENCOUNTER COMBATANT "+strings.Join(chaseNames, "|")+" [--target T] [--exploits N] [--weapon W] [--fursa N] [--inspiration Courage=1] [--free-raises N] [flags]",
		"COMBATANT makes a pursuit action (LOS-102…LOS-107):\n"+
			fmt.Sprintf("  charge       a pursuer at distance 2, Difficulty %d: unseats or throws down --target (%s)\n", latest.ChargeDifficulty, pa(latest.ChargeCost))+
			fmt.Sprintf("  clothesline  the pursued turning back at distance 2, Athletics %d: --target falls (%s)\n", latest.AthleticsDiff, pa(latest.PursuitActionCost))+
			fmt.Sprintf("  closer       change distance by 1 (2 with 2 Exploits) towards the other side (%s)\n", pa(latest.PursuitActionCost))+
			fmt.Sprintf("  farther      change distance by 1 (2 with 2 Exploits) away from the other side (%s)\n", pa(latest.PursuitActionCost))+
			fmt.Sprintf("  tackle       a pursuer at contact, Athletics %d: the pursuit becomes a fight (%s)\n", latest.AthleticsDiff, pa(latest.PursuitActionCost))+
			fmt.Sprintf("  shoot-legs   within %d units: keep pace at %d, then shoot --target at %d with --weapon\n", latest.LegsShotMaxRange, latest.KeepPaceDifficulty, latest.LegsShotDifficulty)+
			fmt.Sprintf("  zigzags      the pursued, at %d: the pursuers' actions get harder (%s)\n", latest.KeepPaceDifficulty, pa(latest.PursuitActionCost))+
			"Charge, clothesline, tackle and shoot-legs name their --target, who may dodge.\n"+versionNote, 3, 3)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	target := fs.String("target", "", "the opponent of a charge, clothesline, tackle or shot at the legs")
	exploits := fs.Int("exploits", 0, "Exploits declared (closer/farther: 2 move 2 units; zigzags: harder still)")
	weapon := fs.String("weapon", "", "the ranged weapon of shoot-legs (may be left out when the combatant has one weapon)")
	var sp SpendFlags
	sp.Register(fs)
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		usage := client.ShortUsagef
		kind, err := choice("pursuit action", pos[2], chaseNames, chaseKinds)
		if err != nil {
			return usage("%s", err)
		}
		needsTarget := kind != lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE && kind != lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS
		switch {
		case needsTarget && *target == "":
			return usage("%s needs --target", strings.ToLower(pos[2]))
		case !needsTarget && *target != "":
			return usage("%s has no --target", strings.ToLower(pos[2]))
		case *weapon != "" && kind != lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS:
			return usage("--weapon goes with shoot-legs")
		case *exploits < 0 || *exploits > maxExploits:
			return usage("--exploits %d: from 0 to %d", *exploits, maxExploits)
		}
		pa := &lossv1.PursuitAction{Kind: kind, TargetId: *target, Exploits: int32(*exploits), Weapon: *weapon,
			Closer: strings.EqualFold(pos[2], "closer")}
		if pa.Spend, err = sp.Spend(); err != nil {
			return err
		}
		return submitAction(ctx, c, pos[0], pos[1], &lossv1.Action{Kind: &lossv1.Action_Pursuit{Pursuit: pa}}, stdout)
	})
	return command
}

func grantCmd() *cobra.Command {
	command, fs := client.NewCommand("grant", "ENCOUNTER COMBATANT N [--reason R] [flags]",
		fmt.Sprintf("The GM grants COMBATANT N free raises (Augmentations Gratuites, +%d each when spent) from a\nsituation or equipment; a negative N takes them back (LOS-004).", latest.SpendBonus), 3, 3)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, true)
	reason := fs.String("reason", "", "why: the situation or equipment")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		n, err := strconv.ParseInt(pos[2], 10, 32)
		if err != nil || n == 0 {
			return client.ShortUsagef("%q: give a number of free raises other than 0 (negative takes them back)", pos[2])
		}
		g := &lossv1.GrantFreeRaises{Count: int32(n), Reason: *reason}
		return submitAction(ctx, c, pos[0], pos[1], &lossv1.Action{Kind: &lossv1.Action_GrantFreeRaises{GrantFreeRaises: g}}, stdout)
	})
	return command
}
