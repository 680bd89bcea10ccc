package commands

import (
	"context"
	"io"
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/ka"
)

// `fray ka SUBCOMMAND`: the actions of Ka (shared/rules/ka.md), each sent as a fray.ka.v1.Action
// through Submit.

var kaMembers = []member{
	{"attack", "attack a target with a weapon; --stun knocks out instead (KA-030), --burst and --also fire a burst (KA-033)", runKaAttack},
	{"react", "answer the attack waiting: dodge (one action), take it, or attack back with tied Animalité (KA-008, KA-013, KA-020)", runKaReact},
	{"disarm", "Humanité + a skill against the target's Humanité + weapon skill (KA-032)", runKaDisarm},
	{"terror", "the Maître de Ka calls for a Terror draw: Animalité + encaissement, failing into Abysse (KA-034)", runKaTerror},
	{"pass", "take no more actions this round (KA-015)", runKaPass},
}

var runKa = groupFunc("ka",
	"The actions of a Ka encounter (create it with --system ka). Each round a combatant has as many\n"+
		"actions as its lowest sphere (KA-010); round the table, pass after pass, the highest Animalité\n"+
		"acts first, one action per pass (KA-014, KA-015). An attack draws cards added to sphere + skill\n"+
		"(KA-004); the target answers it (fray ka react) before anyone acts again (KA-020).",
	kaMembers)

func kaCommand(a *kav1.Action) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_Ka{Ka: a}}
}

func runKaAttack(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ka attack", "ENCOUNTER COMBATANT TARGET [--weapon W] [--stun] [--burst] [--also T,...] [--modifier N] [flags]",
		"COMBATANT attacks TARGET: a draw of the weapon's sphere and skill, −1 per action already taken\n"+
			"this round, plus the Maître de Ka's --modifier (KA-004, KA-011, KA-018). TARGET then dodges,\n"+
			"takes it or attacks back (fray ka react), unless it has no action left (KA-012, KA-020).\n"+
			"--stun: the damage goes to points de réalité, without soak (KA-030). --burst: a sub-machine\n"+
			"gun's burst, Animalité, +12 damage on one target; --also adds targets within 1 m, −1 each on\n"+
			"the draw and +6 damage on each one hit (KA-033).\n"+
			"  fray ka attack $id joshua chien --weapon pistolet --modifier -2", stderr)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	weapon := fs.String("weapon", "", "the weapon (needed when COMBATANT has several)")
	stun := fs.Bool("stun", false, "a stun: points de réalité lost instead of Ka dice, no soak (KA-030)")
	burst := fs.Bool("burst", false, "a burst of a sub-machine gun (KA-033); implied by --also")
	var also listFlag
	fs.Var(&also, "also", "further targets of a burst, within 1 m of TARGET (repeatable, or a,b; KA-033)")
	modifier := fs.Int("modifier", 0, "the Maître de Ka's situational modifier, such as -2 for proximity")
	pos, err := ParseArgs(fs, args, 3, 3)
	if err != nil {
		return err
	}
	usage := usageFor(fs)
	targets := []string{pos[2]}
	for _, t := range also {
		if t == pos[1] || slices.Contains(targets, t) {
			return usage("--also %s: each target once, and not %s itself", t, pos[1])
		}
		targets = append(targets, t)
	}
	if pos[2] == pos[1] {
		return usage("%s cannot attack itself", pos[1])
	}
	if len(targets) > ka.MaxBurstTargets {
		return usage("a burst reaches at most %d targets, not %d (KA-033)", ka.MaxBurstTargets, len(targets))
	}
	at := &kav1.Attack{TargetId: pos[2], Weapon: *weapon, Stun: *stun, MoreTargetIds: also, Modifier: int32(*modifier),
		Burst: *burst || len(also) > 0}
	a := &kav1.Action{CombatantId: pos[1], Kind: &kav1.Action_Attack{Attack: at}}
	return submit(ctx, c, pos[0], kaCommand(a), stdout)
}

// kaReactions are the answers to an attack, by name.
var kaReactions = []struct {
	names              []string
	defend, attackBack bool
}{
	{[]string{"dodge", "defend"}, true, false},
	{[]string{"take", "take-it", "none"}, false, false},
	{[]string{"back", "attack-back"}, false, true},
}

func runKaReact(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ka react", "ENCOUNTER COMBATANT dodge|take|back [--weapon W] [flags]",
		"COMBATANT answers the attack waiting for it (KA-020):\n"+
			"  dodge  the attack's sphere + Esquive against the attacker's total, one action (KA-009, KA-013)\n"+
			"  take   no defence: the attacker's draw stands alone (KA-020)\n"+
			"  back   with the same Animalité, attack back with --weapon, one action: only the winner\n"+
			"         succeeds (KA-008)\n"+
			"  fray ka react $id chien dodge --as dog-keeper", stderr)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	weapon := fs.String("weapon", "", "attacking back: the weapon (needed when COMBATANT has several)")
	pos, err := ParseArgs(fs, args, 3, 3)
	if err != nil {
		return err
	}
	usage := usageFor(fs)
	var r *kav1.React
	answer := strings.ReplaceAll(foldName(pos[2]), " ", "-")
	for _, x := range kaReactions {
		if slices.Contains(x.names, answer) {
			r = &kav1.React{Defend: x.defend, AttackBack: x.attackBack}
		}
	}
	switch {
	case r == nil:
		return usage("answer %q: dodge, take or back", pos[2])
	case *weapon != "" && !r.GetAttackBack():
		return usage("--weapon goes with back: only attacking back uses a weapon")
	}
	r.Weapon = *weapon
	a := &kav1.Action{CombatantId: pos[1], Kind: &kav1.Action_React{React: r}}
	return submit(ctx, c, pos[0], kaCommand(a), stdout)
}

func runKaDisarm(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ka disarm", "ENCOUNTER COMBATANT TARGET --skill S [--weapon W] [--modifier N] [flags]",
		"COMBATANT tries to disarm TARGET: Humanité + --skill (Bagarre, a melee weapon, a firearm, a\n"+
			"power) against TARGET's Humanité + the skill of its --weapon; strictly higher, and at least\n"+
			"10, disarms. It costs COMBATANT an action; resisting costs TARGET none (KA-032).\n"+
			"  fray ka disarm $id joshua chien --skill Bagarre", stderr)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	skill := fs.String("skill", "", "COMBATANT's skill used to disarm (required)")
	weapon := fs.String("weapon", "", "TARGET's weapon to knock away (needed when TARGET has several)")
	modifier := fs.Int("modifier", 0, "the Maître de Ka's situational modifier")
	pos, err := ParseArgs(fs, args, 3, 3)
	if err != nil {
		return err
	}
	usage := usageFor(fs)
	switch {
	case strings.TrimSpace(*skill) == "":
		return usage("name the skill COMBATANT disarms with: --skill Bagarre (KA-032)")
	case pos[1] == pos[2]:
		return usage("%s cannot disarm itself", pos[1])
	}
	a := &kav1.Action{CombatantId: pos[1], Kind: &kav1.Action_Disarm{Disarm: &kav1.Disarm{
		TargetId: pos[2], Skill: *skill, Weapon: *weapon, Modifier: int32(*modifier)}}}
	return submit(ctx, c, pos[0], kaCommand(a), stdout)
}

func runKaTerror(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ka terror", "ENCOUNTER COMBATANT [--modifier N] [flags]",
		"The Maître de Ka calls for a Terror draw of COMBATANT: Animalité + encaissement + --modifier\n"+
			"(the GM's malus); below 10 and below Animalité × 3, COMBATANT enters Abysse (KA-034). It is not\n"+
			"an action.\n"+
			"  fray ka terror $id joshua --modifier -3", stderr)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	modifier := fs.Int("modifier", 0, "the Maître de Ka's malus, such as -3")
	pos, err := ParseArgs(fs, args, 2, 2)
	if err != nil {
		return err
	}
	a := &kav1.Action{CombatantId: pos[1], Kind: &kav1.Action_Terror{Terror: &kav1.Terror{Modifier: int32(*modifier)}}}
	return submit(ctx, c, pos[0], kaCommand(a), stdout)
}

func runKaPass(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ka pass", "ENCOUNTER COMBATANT [flags]",
		"COMBATANT takes no more actions this round (KA-015); it may still be attacked, and soaks.", stderr)
	c := addConnFlags(fs)
	c.addCommandFlags(fs, true)
	pos, err := ParseArgs(fs, args, 2, 2)
	if err != nil {
		return err
	}
	a := &kav1.Action{CombatantId: pos[1], Kind: &kav1.Action_Pass{Pass: &kav1.Pass{}}}
	return submit(ctx, c, pos[0], kaCommand(a), stdout)
}
