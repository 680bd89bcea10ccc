// Package losscmd is the subcommands of Les Chants de Loss: attack, react, pass, declare, wait,
// aim, act, disaster, dying, pursuit, chase, grant, with their exploit effects, situation and
// spending flags.
package losscmd

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/proto"
)

func init() {
	client.RegisterSystem(client.System{
		ID: loss.ID, Name: "Les Chants de Loss", Default: true, Group: "loss", Flat: true,
		Summary: "Les Chants de Loss: attack, react, pass, declare, wait, aim, act, dying, chase; pursuit, grant, disaster (GM)",
		Help: "The actions of a Les Chants de Loss encounter (the default system of fray create). Each Tour\n" +
			"the combatants act in phases, from their Initiative down, spending their PA (Points d'Action);\n" +
			"an attack waits for its target's answer (fray loss react) before anything else happens.\n" +
			"Each action also runs without `loss`: fray attack is fray loss attack, fray react fray loss\n" +
			"react, and so on (fray grant also grants roles).",
		Actions:     actions,
		Options:     "gm_fursa: 1",
		Sheet:       "{kind, traits, talents, initiative, weapons, parry, dodge, armour, ...}",
		State:       "its Tour, each combatant's PA and NS, the reaction it waits for",
		WriteState:  WriteState,
		LegalText:   LegalText,
		Answer:      answers,
		CommandLine: commandLine, ChoiceFlags: choiceFlags,
	})
}

// actions are the table of `fray loss SUBCOMMAND`, also run without the group's name (`fray
// attack`), each a fray.loss.v1.Action.
var actions = []client.Action{{
	Name:     "attack",
	Summary:  "attack with a weapon",
	Odds:     true,
	Synopsis: "ENCOUNTER ATTACKER TARGET [--weapon W] [--effect NAME]... [--exploits N] [--also TARGET]... [--second-weapon W] [--with-damage] [--grab|--trip] [situation flags] [--fursa N] [--inspiration Courage=1] [--free-raises N] [--unseen] [flags]",
	Help: fmt.Sprintf("ATTACKER attacks TARGET (combatant ids). Each Exploit raises the Difficulty by %d; the effects\n", latest.ExploitStep) +
		"declared with --effect buy what the Exploits do when they stand, and their Exploits add up\n" +
		fmt.Sprintf("(at most %d). --exploits N declares N more extra-damage Exploits (+1d10 each).\n", latest.MaxExploits) +
		client.WrapText("Effects (Exploits): "+effectNames(func(x exploitEffect) bool { return x.Attack })+".", 95) + "\n" +
		"Multi-target effects (two-weapons, moulinet, storm-of-blades, shoot-through,\n" +
		"rain-of-projectiles) name further targets with --also. --grab and --trip are made bare-handed\n" +
		"with Athletics (" + pa(latest.ManoeuvreCost) + "), without Exploits.\n" + versionNote,
	MinArgs: 3, MaxArgs: 3, Flags: attackFlags,
}, {
	Name:     "react",
	Summary:  "answer an attack: parry, dodge or none",
	Odds:     true,
	Synopsis: "ENCOUNTER DEFENDER parry|dodge|none [--exploits N] [--effect NAME]... [--ally ID] [--counter-weapon W] [--with-weapon] [--darkness] [--lower|--higher] [--cover-at-hand] [--fursa N] [--inspiration Courage=1] [--free-raises N] [flags]",
	Help: "DEFENDER answers the attack waiting for it: parry or dodge (" + pa(latest.DefenceCost) + ", a Test against the\n" +
		fmt.Sprintf("attacker's Difficulty + %d per Exploit declared here), or none to take the blow. Plain\n", latest.ExploitStep) +
		fmt.Sprintf("Exploits (--exploits) become a +%d on the defender's next action on a success (LOS-016);\n", latest.DefenceBonus) +
		"the effects declared with --effect buy what they do instead, and their Exploits add up.\n" +
		client.WrapText("Effects (Exploits): "+effectNames(func(x exploitEffect) bool { return x.Defence })+".", 95) + "\n" +
		"A pursuit action (charge, clothesline, tackle, shot at the legs) is only dodged.\n" + versionNote,
	MinArgs: 3, MaxArgs: 3, Flags: reactFlags,
}, {
	Name:     "pass",
	Summary:  "end a combatant's actions for this Tour",
	Synopsis: "ENCOUNTER COMBATANT [flags]",
	Help:     "COMBATANT ends its actions for this Tour; the PA it keeps serve only to parry or dodge.",
	MinArgs:  2, MaxArgs: 2, Flags: client.Empty(&lossv1.Pass{}),
}, {
	Name:     "declare",
	Summary:  "declare a combatant's intention for its first action (LOS-038)",
	Synopsis: "ENCOUNTER COMBATANT INTENTION... [flags]",
	Help:     "COMBATANT declares the intention of its first action this Tour, before acting (LOS-038):\n  fray declare $id canahan I charge the griffon",
	MinArgs:  3, MaxArgs: -1, Flags: declareFlags,
}, {
	Name:     "wait",
	Summary:  "wait and act at a lower phase (LOS-040)",
	Synopsis: "ENCOUNTER COMBATANT PHASE [flags]",
	Help:     "COMBATANT waits (se prépare) and acts at the lower PHASE: its PA drop by 1 per phase waited,\nand so does the cost of its next action, to a minimum of 2 (LOS-040).",
	MinArgs:  3, MaxArgs: 3, Flags: waitFlags,
}, {
	Name:     "aim",
	Summary:  "aim with a ranged weapon (LOS-035, LOS-084)",
	Synopsis: "ENCOUNTER COMBATANT WEAPON [--points N | --tour] [flags]",
	Help: fmt.Sprintf("COMBATANT aims with the ranged WEAPON: 1 PA per +1 on its next Test with it, at most +%d\n", latest.MaxAim) +
		"(LOS-035); or, with --tour, for the whole Tour: its first action of the Tour, taking all its\n" +
		fmt.Sprintf("PA, for +%d (+%d with Visée of that weapon type) on its next shot with WEAPON (LOS-084).\n", latest.AimTourBonus, latest.AimTourVisee) +
		versionNote,
	MinArgs: 3, MaxArgs: 3, Flags: aimFlags,
}, {
	Name:     "act",
	Summary:  "speak, use a social Talent, pick up, move, stand up, recover a weapon",
	Synopsis: "ENCOUNTER COMBATANT " + strings.Join(simpleNames, "|") + " [--description D] [flags]",
	Help: "COMBATANT takes an action without a Test (LOS-035): speak or shout (0 PA, at any time),\n" +
		fmt.Sprintf("a social Talent (1 PA), pick up an object (%s), move at least 3 m (%s), stand up or regain\n", pa(latest.PickUpCost), pa(latest.MoveCost)) +
		fmt.Sprintf("one's balance (%s, LOS-072; after a Disarm too, LOS-074), recover one's weapon after a Disarm\n", pa(latest.StandUpCost)) +
		fmt.Sprintf("(pick it up: %s, LOS-074).\n", pa(latest.PickUpCost)) + versionNote,
	MinArgs: 3, MaxArgs: 3, Flags: actFlags,
}, {
	Name:     "dying",
	Summary:  "save or finish off a dying combatant (LOS-023)",
	Synopsis: "ENCOUNTER COMBATANT TARGET sacrifice|care|finish [--vertu V] [flags]",
	Help: "COMBATANT decides the fate of the dying TARGET (LOS-023): TARGET itself sacrifices an\n" +
		"Inspiration of the Vertu --vertu and is saved; urgent care saves it; or the one who felled it\n" +
		"(or the GM) finishes it off.",
	MinArgs: 4, MaxArgs: 4, Flags: dyingFlags,
}, {
	Name:     "pursuit",
	Summary:  "start a pursuit (GM, LOS-100)",
	NoActor:  true,
	Synopsis: "ENCOUNTER --pursuers ID[,ID...] --pursued ID[,ID...] --distance N [flags]",
	Help:     "The GM opens a moving combat (LOS-100) at a distance of 1 (contact) to 6 (out of range)\nunits; its actions are then made with `fray chase`.",
	MinArgs:  1, MaxArgs: 1, Flags: pursuitFlags,
}, {
	Name:     "chase",
	Summary:  "make a pursuit action: charge, closer, farther, zigzags... (LOS-102…LOS-107)",
	Synopsis: "ENCOUNTER COMBATANT " + strings.Join(chaseNames, "|") + " [--target T] [--exploits N] [--weapon W] [--fursa N] [--inspiration Courage=1] [--free-raises N] [flags]",
	Help: "COMBATANT makes a pursuit action (LOS-102…LOS-107):\n" +
		fmt.Sprintf("  charge       a pursuer at distance 2, Difficulty %d: unseats or throws down --target (%s)\n", latest.ChargeDifficulty, pa(latest.ChargeCost)) +
		fmt.Sprintf("  clothesline  the pursued turning back at distance 2, Athletics %d: --target falls (%s)\n", latest.AthleticsDiff, pa(latest.PursuitActionCost)) +
		fmt.Sprintf("  closer       change distance by 1 (2 with 2 Exploits) towards the other side (%s)\n", pa(latest.PursuitActionCost)) +
		fmt.Sprintf("  farther      change distance by 1 (2 with 2 Exploits) away from the other side (%s)\n", pa(latest.PursuitActionCost)) +
		fmt.Sprintf("  tackle       a pursuer at contact, Athletics %d: the pursuit becomes a fight (%s)\n", latest.AthleticsDiff, pa(latest.PursuitActionCost)) +
		fmt.Sprintf("  shoot-legs   within %d units: keep pace at %d, then shoot --target at %d with --weapon\n", latest.LegsShotMaxRange, latest.KeepPaceDifficulty, latest.LegsShotDifficulty) +
		fmt.Sprintf("  zigzags      the pursued, at %d: the pursuers' actions get harder (%s)\n", latest.KeepPaceDifficulty, pa(latest.PursuitActionCost)) +
		"Charge, clothesline, tackle and shoot-legs name their --target, who may dodge.\n" + versionNote,
	MinArgs: 3, MaxArgs: 3, Flags: chaseFlags,
}, {
	Name:     "grant",
	Summary:  "grant free raises to a combatant (GM, LOS-004)",
	Synopsis: "ENCOUNTER COMBATANT N [--reason R] [flags]",
	Help:     fmt.Sprintf("The GM grants COMBATANT N free raises (Augmentations Gratuites, +%d each when spent) from a\nsituation or equipment; a negative N takes them back (LOS-004).", latest.SpendBonus),
	MinArgs:  3, MaxArgs: 3, Flags: grantFlags,
}, {
	Name:     "disaster",
	Summary:  "turn a failed Exploit into a Disaster (GM, LOS-006)",
	Synopsis: "ENCOUNTER COMBATANT DESCRIPTION... [flags]",
	Help:     "The GM turns COMBATANT's failed Exploit (the last Test with Exploits, failed by a player\ncharacter or a thrower) into a Disaster (Désastre) and describes it (LOS-006, LOS-086).",
	MinArgs:  3, MaxArgs: -1, Flags: disasterFlags,
}}

// answers: the command and choices of the defender of the attack waiting; a pursuit action is
// only dodged (LOS-102…LOS-106).
func answers(st *encounterv1.EncounterState, defender string) (string, string) {
	if la := st.GetLoss().GetPending(); la.GetDefenderId() == defender && la.GetPursuit() != lossv1.PursuitKind_PURSUIT_KIND_UNSPECIFIED {
		return "react", "dodge|none"
	}
	return "react", "parry|dodge|none"
}

func attackFlags(fs *pflag.FlagSet) client.Reader {
	weapon := fs.String("weapon", "", "weapon name on the attacker's sheet (may be left out when it has one weapon)")
	exploits := fs.Int("exploits", 0, "extra-damage Exploits declared, +1d10 each (added to the --effect ones)")
	effects := &effectFlag{}
	fs.Var(effects, "effect", "an Exploit effect to declare, by the names above (repeatable)")
	var also client.ListFlag
	fs.Var(&also, "also", "a further target of a multi-target effect (repeatable, or a,b)")
	second := fs.String("second-weapon", "", "the second weapon of --effect two-weapons (LOS-070)")
	withDamage := fs.Bool("with-damage", false, "overthrow, aim at a limb or a zone: deal damage too (LOS-069, LOS-072, LOS-073)")
	grab := fs.Bool("grab", false, "grab or bear-hug the target instead of a blow ("+pa(latest.ManoeuvreCost)+"); no automatic effect: the GM applies the situation (LOS-035)")
	trip := fs.Bool("trip", false, tripFlag())
	unseen := fs.Bool("unseen", false, "the target does not see the attack and cannot parry or dodge")
	var sit situationFlags
	sit.registerAttack(fs)
	var sp SpendFlags
	sp.Register(fs)
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		var err error
		usage := client.ShortUsagef
		if *exploits < 0 {
			return nil, usage("--exploits %d: cannot be negative", *exploits)
		}
		a := &lossv1.Attack{TargetId: pos[2], Weapon: *weapon, Unseen: *unseen, MoreTargetIds: also,
			SecondWeapon: *second, WithDamage: *withDamage, Exploits: effects.effects()}
		for range *exploits {
			a.Exploits = append(a.Exploits, lossv1.ExploitEffect_EXPLOIT_EFFECT_EXTRA_DAMAGE)
		}
		switch {
		case *grab && *trip:
			return nil, usage("--grab and --trip: choose one")
		case *grab:
			a.Manoeuvre = lossv1.Manoeuvre_MANOEUVRE_GRAB
		case *trip:
			a.Manoeuvre = lossv1.Manoeuvre_MANOEUVRE_TRIP
		}
		two := effects.has(lossv1.ExploitEffect_EXPLOIT_EFFECT_TWO_WEAPONS)
		multi := slices.ContainsFunc(effects.list, func(x exploitEffect) bool { return x.multi })
		switch n := exploitCount(a.Exploits); {
		case a.Manoeuvre != lossv1.Manoeuvre_MANOEUVRE_UNSPECIFIED && len(a.Exploits) > 0:
			return nil, usage("a grab or a trip takes no Exploits (LOS-035)")
		case a.Manoeuvre != lossv1.Manoeuvre_MANOEUVRE_UNSPECIFIED && *weapon != "":
			return nil, usage("a grab or a trip is made bare-handed with Athletics: drop --weapon")
		case n > maxExploits:
			return nil, usage("the Exploits declared add up to %d; at most %d may be declared (LOS-010)", n, maxExploits)
		case *second != "" && !two:
			return nil, usage("--second-weapon goes with --effect two-weapons")
		case two && *second == "":
			return nil, usage("--effect two-weapons needs --second-weapon W (LOS-070)")
		case len(also) > 0 && !multi:
			return nil, usage("--also names further targets of a multi-target effect: two-weapons, moulinet, storm-of-blades, shoot-through or rain-of-projectiles (LOS-026)")
		}
		if a.Situation, err = sit.situation(); err != nil {
			return nil, err
		}
		if a.Spend, err = sp.Spend(); err != nil {
			return nil, err
		}
		return a, nil
	}
}

func reactFlags(fs *pflag.FlagSet) client.Reader {
	exploits := fs.Int("exploits", 0, fmt.Sprintf("Exploits declared on the defence; on a success they become a +%d on the defender's next action", latest.DefenceBonus))
	effects := &effectFlag{defence: true}
	fs.Var(effects, "effect", "a defensive Exploit effect to declare, by the names above (repeatable)")
	ally := fs.String("ally", "", "the ally of --effect protect (LOS-068)")
	counterWeapon := fs.String("counter-weapon", "", "the weapon of --effect counter-attack (LOS-062; may be left out when the defender has one weapon)")
	withWeapon := fs.Bool("with-weapon", false, "parry with the weapon rather than the shield")
	var sit situationFlags
	sit.registerDefence(fs)
	fs.BoolVar(&sit.coverAtHand, "cover-at-hand", false, "cover is at hand for a dodge against a ranged attack (Take cover, LOS-093)")
	var sp SpendFlags
	sp.Register(fs)
	return func(ctx context.Context, c *client.Conn, pos []string) (proto.Message, error) {
		var err error
		usage := client.ShortUsagef
		reaction, ok := map[string]lossv1.Reaction{
			"parry": lossv1.Reaction_REACTION_PARRY,
			"dodge": lossv1.Reaction_REACTION_DODGE,
			"none":  lossv1.Reaction_REACTION_NONE,
		}[strings.ToLower(pos[2])]
		if !ok {
			return nil, usage("reaction %q: parry, dodge or none", pos[2])
		}
		list := effects.effects()
		n := exploitCount(list)
		switch {
		case *exploits < 0:
			return nil, usage("--exploits %d: cannot be negative", *exploits)
		case max(n, int32(*exploits)) > maxExploits:
			return nil, usage("the Exploits declared add up to %d; at most %d may be declared (LOS-012)", max(n, int32(*exploits)), maxExploits)
		case reaction == lossv1.Reaction_REACTION_NONE && (len(list) > 0 || *ally != "" || *counterWeapon != "" || *withWeapon):
			return nil, usage("taking the blow has no Exploit effects: parry or dodge to declare them")
		case effects.has(lossv1.ExploitEffect_EXPLOIT_EFFECT_PROTECT) && *ally == "":
			return nil, usage("--effect protect needs --ally ID (LOS-068)")
		case *ally != "" && !effects.has(lossv1.ExploitEffect_EXPLOIT_EFFECT_PROTECT):
			return nil, usage("--ally goes with --effect protect")
		case *counterWeapon != "" && !effects.has(lossv1.ExploitEffect_EXPLOIT_EFFECT_COUNTER_ATTACK):
			return nil, usage("--counter-weapon goes with --effect counter-attack")
		case *withWeapon && reaction != lossv1.Reaction_REACTION_PARRY:
			return nil, usage("--with-weapon is for a parry")
		}
		r := &lossv1.React{Reaction: reaction, Exploits: max(int32(*exploits), n), Effects: list,
			AllyId: *ally, CounterWeapon: *counterWeapon, WithWeapon: *withWeapon}
		if r.Situation, err = sit.situation(); err != nil {
			return nil, err
		}
		if r.Spend, err = sp.Spend(); err != nil {
			return nil, err
		}
		return r, nil
	}
}
