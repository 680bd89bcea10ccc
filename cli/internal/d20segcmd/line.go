package d20segcmd

import (
	"strconv"

	"github.com/fray-rpg/fray/cli/internal/client"
	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
)

// commandLine writes a legal action's pre-filled command of the d20 segments as the `fray d20`
// command that sends it (`fray d20 attack ENC maitre TARGET --weapon "épée longue"`), a
// placeholder for each required choice; found is false for one no member sends as it is:
// a cast or another action whose words are still to be given (the command takes them as its
// arguments, the pre-filled command has none), printed as a `fray submit`. A test runs every
// line of a fight's legal actions.
func commandLine(cmd *encounterv1.Command) (client.CommandLine, bool) {
	a := cmd.GetD20Seg()
	if a == nil {
		return client.CommandLine{}, false
	}
	who := a.GetCombatantId()
	line := func(action string, args ...string) client.CommandLine {
		return client.CommandLine{Action: action, Args: append([]string{who}, args...)}
	}
	switch k := a.GetKind().(type) {
	case *d20segv1.Action_EndTurn:
		return line("end"), true
	case *d20segv1.Action_Attack:
		at := k.Attack
		if at.GetModifier() != 0 || at.GetDamageModifier() != 0 {
			return client.CommandLine{}, false
		}
		target := at.GetTargetId()
		if target == "" {
			target = "TARGET"
		}
		l := line("attack", target)
		if w := at.GetWeapon(); w != "" {
			l.Flags = append(l.Flags, "--weapon", w)
		}
		if d := at.GetDistanceCm(); d != 0 {
			l.Flags = append(l.Flags, "--distance", strconv.Itoa(int(d)))
		}
		if at.GetFree() {
			l.Flags = append(l.Flags, "--free")
		}
		return l, true
	case *d20segv1.Action_Other:
		if d := k.Other.GetDescription(); d != "" && k.Other.GetSegments() == 0 {
			l := line("other", d)
			if k.Other.GetFree() {
				l.Flags = []string{"--free"}
			}
			return l, true
		}
	}
	return client.CommandLine{}, false
}

// choiceFlags say how each choice of a legal action of the d20 segments is given on its
// commandLine.
var choiceFlags = map[string]client.ChoiceFlag{
	"d20seg.attack.target_id":   {Give: "TARGET"},
	"d20seg.attack.distance_cm": {Give: "--distance CM"},
	"d20seg.cast.spell":         {Give: "SPELL… (the words after the combatant)"},
	"d20seg.cast.special":       {Give: "--special", Value: func(v string) string { return map[string]string{"true": "--special", "false": "(none)"}[v] }},
	"d20seg.other.description":  {Give: "DESCRIPTION… (the words after the combatant)"},
}
