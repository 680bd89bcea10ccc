// Package kacmd is the `fray ka` subcommands of the Ka rule system (attack, react, disarm,
// pick-up, terror, pass) and its part of `fray state`: WriteState, LegalText.
package kacmd

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/proto"
)

func init() {
	client.RegisterSystem(client.System{
		ID: ka.ID, Name: "Ka", Group: "ka",
		Summary: "Ka: attack (stun, burst), react, disarm, pickup, pass; terror (GM)",
		Help: "The actions of a Ka encounter (create it with --system ka). Each round a combatant has as many\n" +
			"actions as its lowest sphere (KA-010); round the table, pass after pass, the highest Animalité\n" +
			"acts first, one action per pass (KA-014, KA-015). An attack is declared; the target announces\n" +
			"whether it defends (fray ka react) before anyone acts again; then the cards are drawn, added to\n" +
			"sphere + skill (KA-004, KA-020).",
		Actions:    actions,
		Options:    "reshuffle: every_draw",
		Sheet:      "{spheres, skills, encaissement, protection, ka_dice, reality_points, weapons}",
		State:      "its round and pass, the deck, each combatant's Ka dice, points de réalité, actions and conditions",
		WriteState: WriteState,
		LegalText:  LegalText,
		Answer: func(st *encounterv1.EncounterState, defender string) (string, string) {
			return "ka react", answers(st, defender)
		},
		CommandLine: commandLine, ChoiceFlags: choiceFlags,
	})
}

// latest are the numbers of the rules new encounters get, which the help states.
var latest = ka.New(ka.Latest).Numbers()

// actions are `fray ka SUBCOMMAND`: the actions of Ka (docs/rules/ka.md), each a fray.ka.v1.Action.
var actions = []client.Action{{
	Name:     "attack",
	Summary:  "declare an attack on a target with a weapon; --stun knocks out instead (KA-030), --burst and --also fire a burst (KA-033)",
	Synopsis: "ENCOUNTER COMBATANT TARGET [--weapon W] [--stun] [--burst] [--also T,...] [--modifier N] [flags]",
	Help: fmt.Sprintf("COMBATANT declares an attack on TARGET, its action: a draw of the weapon's sphere and skill, −%d\n", latest.ActionMalus) +
		"per action already taken this round, plus the Maître de Ka's --modifier (KA-004, KA-011,\n" +
		"KA-018). TARGET first announces whether it dodges, takes it or attacks back (fray ka react);\n" +
		"then the cards are drawn. A TARGET with no action left cannot defend: the draw is made at once\n" +
		"(KA-012, KA-020). --weapon \"mains nues\": bare hands, Animalité + Bagarre (KA-018, KA-032).\n" +
		"--stun: the damage goes to points de réalité, without soak (KA-030). --burst: a sub-machine\n" +
		fmt.Sprintf("gun's burst, Animalité, −%d on the draw and +%d damage on one target; --also adds targets within\n", latest.BurstMalus, latest.BurstSingle) +
		fmt.Sprintf("1 m, −%d each on the draw and +%d damage on each one hit, up to %d targets (KA-033).\n", latest.BurstMalus, latest.BurstPerBullet, latest.MaxBurstTargets) +
		"  fray ka attack $id joshua chien --weapon pistolet --modifier -2",
	MinArgs: 3, MaxArgs: 3, Odds: true, Flags: attackFlags,
}, {
	Name:     "react",
	Summary:  "answer the attack declared, before the cards: dodge or parry (one action), take it, or attack back with tied Animalité (KA-008, KA-013, KA-020)",
	Odds:     true,
	Synopsis: "ENCOUNTER COMBATANT dodge|parry|take|back [--skill S] [--weapon W] [flags]",
	Help: "COMBATANT announces, before any card is drawn, how it answers the attack declared on it\n" +
		"(KA-020); then the cards are drawn, the attacker's first:\n" +
		"  dodge  the attack's sphere + Esquive against the attacker's total, one action (KA-009, KA-013)\n" +
		"  parry  where the Maître de Ka allows it (option parry): the attack's sphere + --skill, one\n" +
		"         action; not against a stun (KA-013, KA-030)\n" +
		"  take   no defence: the attacker's draw stands alone (KA-020)\n" +
		"  back   with the same Animalité, attack back with --weapon, one action: only the winner\n" +
		"         succeeds (KA-008)\n" +
		"Without the skill, the defence counts it 0 (KA-013).\n" +
		"  fray ka react $id chien dodge --as dog-keeper",
	MinArgs: 3, MaxArgs: 3, Flags: reactFlags,
}, {
	Name:     "disarm",
	Odds:     true,
	Summary:  "Humanité + Bagarre, a held weapon's skill or a power against the target's Humanité + weapon skill (KA-032)",
	Synopsis: "ENCOUNTER COMBATANT TARGET --skill S [--weapon W] [--modifier N] [flags]",
	Help: "COMBATANT tries to disarm TARGET: Humanité + --skill (Bagarre, the skill of a weapon COMBATANT\n" +
		"holds, or one of its powers) against TARGET's Humanité + the skill of its --weapon; strictly\n" +
		"higher, and at least 10, disarms: TARGET loses that weapon until it picks it up (fray ka pickup,\n" +
		"one action), and may fight bare-handed meanwhile. It costs COMBATANT an action; resisting costs\n" +
		"TARGET none (KA-032).\n" +
		"  fray ka disarm $id joshua chien --skill Bagarre",
	MinArgs: 3, MaxArgs: 3, Flags: disarmFlags,
}, {
	Name:     "pickup",
	Summary:  "pick up a weapon lost to a disarm, one action (KA-032)",
	Synopsis: "ENCOUNTER COMBATANT [WEAPON] [flags]",
	Help: "COMBATANT picks up WEAPON, lost to a disarm, with one action (KA-032); without WEAPON, the one\n" +
		"it lost.\n" +
		"  fray ka pickup $id malfrat revolver",
	MinArgs: 2, MaxArgs: 3, Flags: pickUpFlags,
}, {
	Name:     "terror",
	Odds:     true,
	Summary:  "the Maître de Ka calls for a Terror draw: Animalité + encaissement, failing into Abysse (KA-034)",
	Synopsis: "ENCOUNTER COMBATANT [--modifier N] [flags]",
	Help: "The Maître de Ka calls for a Terror draw of COMBATANT: Animalité + encaissement + --modifier\n" +
		"(the GM's malus); below 10 and below Animalité × 3, COMBATANT enters Abysse (KA-034). It is not\n" +
		"an action.\n" +
		"  fray ka terror $id joshua --modifier -3",
	MinArgs: 2, MaxArgs: 2, Flags: terrorFlags,
}, {
	Name:     "pass",
	Summary:  "take no more actions this round (KA-015)",
	Synopsis: "ENCOUNTER COMBATANT [flags]",
	Help:     "COMBATANT takes no more actions this round (KA-015); it may still be attacked, and soaks.",
	MinArgs:  2, MaxArgs: 2, Flags: client.Empty(&kav1.Pass{}),
}}

func attackFlags(fs *pflag.FlagSet) client.Reader {
	weapon := fs.String("weapon", "", "the weapon (needed when COMBATANT has several)")
	stun := fs.Bool("stun", false, "a stun: points de réalité lost instead of Ka dice, no soak (KA-030)")
	burst := fs.Bool("burst", false, "a burst of a sub-machine gun (KA-033); implied by --also")
	var also client.ListFlag
	fs.Var(&also, "also", "further targets of a burst, within 1 m of TARGET (repeatable, or a,b; KA-033)")
	modifier := fs.Int("modifier", 0, "the Maître de Ka's situational modifier, such as -2 for proximity")
	return func(_ context.Context, _ *client.Conn, pos []string) (proto.Message, error) {
		usage := client.ShortUsagef
		targets := []string{pos[2]}
		for _, t := range also {
			if t == pos[1] || slices.Contains(targets, t) {
				return nil, usage("--also %s: each target once, and not %s itself", t, pos[1])
			}
			targets = append(targets, t)
		}
		if pos[2] == pos[1] {
			return nil, usage("%s cannot attack itself", pos[1])
		}
		if len(targets) > int(latest.MaxBurstTargets) {
			return nil, usage("a burst reaches at most %d targets, not %d (KA-033)", latest.MaxBurstTargets, len(targets))
		}
		return &kav1.Attack{TargetId: pos[2], Weapon: *weapon, Stun: *stun, MoreTargetIds: also, Modifier: int32(*modifier),
			Burst: *burst || len(also) > 0}, nil
	}
}

// reactions are the answers to an attack, by name.
var reactions = []struct {
	names                     []string
	defend, attackBack, parry bool
}{
	{[]string{"dodge", "defend"}, true, false, false},
	{[]string{"parry"}, true, false, true},
	{[]string{"take", "take-it", "none"}, false, false, false},
	{[]string{"back", "attack-back"}, false, true, false},
}

func reactFlags(fs *pflag.FlagSet) client.Reader {
	weapon := fs.String("weapon", "", "attacking back: the weapon (needed when COMBATANT has several)")
	skill := fs.String("skill", "", "parrying: the defence skill, such as Bagarre (KA-013)")
	return func(_ context.Context, _ *client.Conn, pos []string) (proto.Message, error) {
		usage := client.ShortUsagef
		var r *kav1.React
		parry := false
		answer := strings.ReplaceAll(client.FoldName(pos[2]), " ", "-")
		for _, x := range reactions {
			if slices.Contains(x.names, answer) {
				r, parry = &kav1.React{Defend: x.defend, AttackBack: x.attackBack}, x.parry
			}
		}
		switch {
		case r == nil:
			return nil, usage("answer %q: dodge, parry, take or back", pos[2])
		case *weapon != "" && !r.GetAttackBack():
			return nil, usage("--weapon goes with back: only attacking back uses a weapon")
		case parry && strings.TrimSpace(*skill) == "":
			return nil, usage("name the skill COMBATANT parries with: --skill Bagarre (KA-013)")
		case *skill != "" && !parry:
			return nil, usage("--skill goes with parry: a dodge is Esquive (KA-013)")
		}
		r.Weapon, r.Skill = *weapon, strings.TrimSpace(*skill)
		return r, nil
	}
}

func disarmFlags(fs *pflag.FlagSet) client.Reader {
	skill := fs.String("skill", "", "COMBATANT's skill used to disarm (required)")
	weapon := fs.String("weapon", "", "TARGET's weapon to knock away (needed when TARGET has several)")
	modifier := fs.Int("modifier", 0, "the Maître de Ka's situational modifier")
	return func(_ context.Context, _ *client.Conn, pos []string) (proto.Message, error) {
		switch {
		case strings.TrimSpace(*skill) == "":
			return nil, client.ShortUsagef("name the skill COMBATANT disarms with: --skill Bagarre (KA-032)")
		case pos[1] == pos[2]:
			return nil, client.ShortUsagef("%s cannot disarm itself", pos[1])
		}
		return &kav1.Disarm{TargetId: pos[2], Skill: *skill, Weapon: *weapon, Modifier: int32(*modifier)}, nil
	}
}

func pickUpFlags(*pflag.FlagSet) client.Reader {
	return func(_ context.Context, _ *client.Conn, pos []string) (proto.Message, error) {
		p := &kav1.PickUp{}
		if len(pos) == 3 {
			p.Weapon = pos[2]
		}
		return p, nil
	}
}

func terrorFlags(fs *pflag.FlagSet) client.Reader {
	modifier := fs.Int("modifier", 0, "the Maître de Ka's malus, such as -3")
	return func(context.Context, *client.Conn, []string) (proto.Message, error) {
		return &kav1.Terror{Modifier: int32(*modifier)}, nil
	}
}
