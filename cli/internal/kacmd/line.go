package kacmd

import (
	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/ka"
)

// commandLine writes a legal action's pre-filled command of Ka as the `fray ka` command that
// sends it (`fray ka attack ENC joshua TARGET --weapon pistolet`), a placeholder for each
// required choice (choiceFlags); found is false for one no member sends as it is: a dodge
// names its skill (Esquive), which `fray ka react … dodge` leaves to the rules, so that
// one is printed as a `fray submit`. A test runs every line of a fight's legal actions.
func commandLine(cmd *encounterv1.Command) (client.CommandLine, bool) {
	a := cmd.GetKa()
	if a == nil {
		return client.CommandLine{}, false
	}
	who := a.GetCombatantId()
	line := func(action string, args ...string) client.CommandLine {
		return client.CommandLine{Action: action, Args: append([]string{who}, args...)}
	}
	switch k := a.GetKind().(type) {
	case *kav1.Action_PassTurn:
		return line("pass"), true
	case *kav1.Action_Attack:
		at := k.Attack
		if at.GetStun() || at.GetBurst() || len(at.GetMoreTargetIds()) > 0 || at.GetModifier() != 0 {
			return client.CommandLine{}, false
		}
		target := at.GetTargetId()
		if target == "" {
			target = "TARGET"
		}
		l := line("attack", target)
		if w := at.GetWeapon(); w != "" {
			l.Flags = []string{"--weapon", w}
		}
		return l, true
	case *kav1.Action_React:
		r := k.React
		switch {
		case r.GetAttackBack():
			l := line("react", "back")
			if w := r.GetWeapon(); w != "" {
				l.Flags = []string{"--weapon", w}
			}
			return l, r.GetSkill() == ""
		case r.GetDefend() && r.GetSkill() == "":
			return line("react", "parry", "--skill", "SKILL"), true
		case r.GetDefend():
			if r.GetSkill() == ka.Dodge {
				return client.CommandLine{}, false // the CLI's dodge sends no skill: see above
			}
			return line("react", "parry", "--skill", r.GetSkill()), true
		case r.GetWeapon() == "" && r.GetSkill() == "":
			return line("react", "take"), true
		}
	case *kav1.Action_Disarm:
		d := k.Disarm
		if d.GetModifier() != 0 {
			return client.CommandLine{}, false
		}
		target, skill, weapon := d.GetTargetId(), d.GetSkill(), d.GetWeapon()
		if target == "" {
			target = "TARGET"
		}
		if skill == "" {
			skill = "SKILL"
		}
		if weapon == "" {
			weapon = "WEAPON"
		}
		return line("disarm", target, "--skill", skill, "--weapon", weapon), true
	case *kav1.Action_PickUp:
		if w := k.PickUp.GetWeapon(); w != "" {
			return line("pickup", w), true
		}
		return line("pickup"), true
	}
	return client.CommandLine{}, false
}

// choiceFlags say how each choice of a legal action of Ka is given on its commandLine.
var choiceFlags = map[string]client.ChoiceFlag{
	"ka.attack.target_id":       {Give: "TARGET"},
	"ka.attack.stun":            {Give: "--stun", Value: func(v string) string { return map[string]string{"true": "--stun", "false": "(none)"}[v] }},
	"ka.attack.burst":           {Give: "--burst", Value: func(v string) string { return map[string]string{"true": "--burst", "false": "(none)"}[v] }},
	"ka.attack.more_target_ids": {Give: "--also TARGET, repeatable"},
	"ka.react.skill":            {Give: "SKILL"},
	"ka.disarm.target_id":       {Give: "TARGET"},
	"ka.disarm.skill":           {Give: "SKILL"},
	"ka.disarm.weapon":          {Give: "WEAPON"},
}
