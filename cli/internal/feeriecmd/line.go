package feeriecmd

import (
	"strconv"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
)

// commandLine writes a legal action's pre-filled command of Contes de Fées as the `fray
// feerie` command that sends it (`fray feerie act ENC farfadet`), a placeholder for each
// required choice; found is false for one no member sends as it is — a declaration or a
// change, whose intention is chosen field by field, printed as a `fray submit`. A test runs
// every line of a fight's legal actions.
func commandLine(cmd *encounterv1.Command) (client.CommandLine, bool) {
	a := cmd.GetFeerie()
	if a == nil {
		return client.CommandLine{}, false
	}
	who := a.GetCombatantId()
	line := func(action string, args ...string) client.CommandLine {
		return client.CommandLine{Action: action, Args: append([]string{who}, args...)}
	}
	switch k := a.GetKind().(type) {
	case *feeriev1.Action_Renounce:
		return line("renounce"), true
	case *feeriev1.Action_Gesture:
		if d := k.Gesture.GetDescription(); d != "" {
			return line("gesture", d), true
		}
		return line("gesture", "DESCRIPTION"), true
	case *feeriev1.Action_Act:
		act := k.Act
		if act.GetIntent() != nil || act.GetCircumstances() != nil || act.GetSupplementary() {
			return client.CommandLine{}, false
		}
		l := line("act")
		if e := act.GetEssence(); e != 0 {
			l.Flags = []string{"--essence", strconv.Itoa(int(e))}
		}
		return l, true
	}
	return client.CommandLine{}, false
}

// choiceFlags say how each choice of a legal action of Contes de Fées is given on its
// commandLine.
var choiceFlags = map[string]client.ChoiceFlag{
	"feerie.act.essence":         {Give: "--essence N"},
	"feerie.gesture.description": {Give: "DESCRIPTION"},
}
