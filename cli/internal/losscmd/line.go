package losscmd

import (
	"strconv"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
)

// commandLine writes a legal action's pre-filled command of Les Chants de Loss as the command of
// the table above that sends it (`fray attack ENC diego TARGET --weapon épée`), with a
// placeholder for each required choice (choiceFlags names them); found is false for a command
// no member sends. A test runs every line of a fight's legal actions and compares what it
// sends with the pre-filled command.
func commandLine(cmd *encounterv1.Command) (client.CommandLine, bool) {
	a := cmd.GetLoss()
	if a == nil {
		return client.CommandLine{}, false
	}
	who := a.GetCombatantId()
	l := func(action string, args ...string) client.CommandLine {
		return client.CommandLine{Action: action, Args: append([]string{who}, args...)}
	}
	switch k := a.GetKind().(type) {
	case *lossv1.Action_PassTurn:
		return l("pass"), true
	case *lossv1.Action_Wait:
		if k.Wait.GetUntilPhase() != 0 {
			return l("wait", strconv.Itoa(int(k.Wait.GetUntilPhase()))), true
		}
		return l("wait", "PHASE"), true
	case *lossv1.Action_Declare:
		if k.Declare.GetIntention() != "" {
			return l("declare", k.Declare.GetIntention()), true
		}
		return l("declare", "INTENTION"), true
	case *lossv1.Action_Simple:
		for name, kind := range simpleKinds {
			if kind == k.Simple.GetKind() && k.Simple.GetDescription() == "" {
				return l("act", name), true
			}
		}
	case *lossv1.Action_React:
		for name, r := range map[string]lossv1.Reaction{"parry": lossv1.Reaction_REACTION_PARRY, "dodge": lossv1.Reaction_REACTION_DODGE, "none": lossv1.Reaction_REACTION_NONE} {
			if r == k.React.GetReaction() && len(k.React.GetEffects()) == 0 && k.React.GetExploits() == 0 && k.React.GetSpend() == nil {
				return l("react", name), true
			}
		}
	case *lossv1.Action_Aim:
		line := l("aim", k.Aim.GetWeapon())
		switch {
		case k.Aim.GetWholeTour():
			line.Flags = []string{"--tour"}
		case k.Aim.GetPoints() > 0:
			line.Flags = []string{"--points", strconv.Itoa(int(k.Aim.GetPoints()))}
		default:
			line.Flags = []string{"--points", "POINTS"}
		}
		return line, k.Aim.GetWeapon() != ""
	case *lossv1.Action_Attack:
		at := k.Attack
		if at.GetSituation() != nil || at.GetSpend() != nil || len(at.GetMoreTargetIds()) > 0 || at.GetSecondWeapon() != "" || at.GetWithDamage() || at.GetUnseen() {
			return client.CommandLine{}, false // not pre-filled by the rules: `fray submit`
		}
		target := at.GetTargetId()
		if target == "" {
			target = "TARGET"
		}
		line := l("attack", target)
		switch at.GetManoeuvre() {
		case lossv1.Manoeuvre_MANOEUVRE_GRAB:
			line.Flags = append(line.Flags, "--grab")
		case lossv1.Manoeuvre_MANOEUVRE_TRIP:
			line.Flags = append(line.Flags, "--trip")
		default:
			if at.GetWeapon() == "" {
				line.Flags = append(line.Flags, "MANOEUVRE")
			}
		}
		if w := at.GetWeapon(); w != "" {
			line.Flags = append(line.Flags, "--weapon", w)
		}
		for _, e := range at.GetExploits() {
			x, ok := effectInfo(e)
			if !ok {
				return client.CommandLine{}, false
			}
			line.Flags = append(line.Flags, "--effect", x.Name)
		}
		return line, true
	case *lossv1.Action_Pursuit:
		p := k.Pursuit
		if p.GetSpend() != nil || p.GetExploits() != 0 {
			return client.CommandLine{}, false
		}
		word := ""
		for name, kind := range chaseKinds {
			if kind == p.GetKind() && (kind != lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE || (name == "closer") == p.GetCloser()) {
				word = name
			}
		}
		if word == "" {
			return client.CommandLine{}, false
		}
		line := l("chase", word)
		needsTarget := p.GetKind() != lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE && p.GetKind() != lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS
		switch {
		case p.GetTargetId() != "":
			line.Flags = append(line.Flags, "--target", p.GetTargetId())
		case needsTarget:
			line.Flags = append(line.Flags, "--target", "TARGET")
		}
		if w := p.GetWeapon(); w != "" {
			line.Flags = append(line.Flags, "--weapon", w)
		}
		return line, true
	}
	return client.CommandLine{}, false
}

// choiceFlags say how each choice of a legal action of Les Chants de Loss is given on its
// commandLine: a placeholder of it (TARGET, PHASE…) or a flag.
var choiceFlags = func() map[string]client.ChoiceFlag {
	effect := func(v string) string {
		if e, ok := lossv1.ExploitEffect_value[v]; ok {
			if x, ok := effectInfo(lossv1.ExploitEffect(e)); ok {
				return x.Name
			}
		}
		return v
	}
	m := map[string]client.ChoiceFlag{
		"loss.attack.target_id":          {Give: "TARGET"},
		"loss.attack.more_target_ids":    {Give: "--also TARGET, repeatable"},
		"loss.attack.exploits":           {Give: "--effect NAME, repeatable", Value: effect},
		"loss.react.effects":             {Give: "--effect NAME, repeatable", Value: effect},
		"loss.react.exploits":            {Give: "--exploits N"},
		"loss.attack.situation.distance": {Give: "--distance METRES"},
		"loss.attack.manoeuvre": {Give: "MANOEUVRE", Value: func(v string) string {
			return map[string]string{lossv1.Manoeuvre_MANOEUVRE_GRAB.String(): "--grab", lossv1.Manoeuvre_MANOEUVRE_TRIP.String(): "--trip"}[v]
		}},
		"loss.wait.until_phase":  {Give: "PHASE"},
		"loss.declare.intention": {Give: "INTENTION"},
		"loss.aim.points":        {Give: "POINTS"},
		"loss.pursuit.target_id": {Give: "TARGET"},
		"loss.pursuit.exploits":  {Give: "--exploits N"},
		"loss.pursuit.closer":    {Give: "closer or farther, after the combatant", Value: func(v string) string { return map[string]string{"true": "closer", "false": "farther"}[v] }},
	}
	for _, test := range []string{"attack", "react", "pursuit"} {
		m["loss."+test+".spend.fursa"] = client.ChoiceFlag{Give: "--fursa N"}
		m["loss."+test+".spend.free_raises"] = client.ChoiceFlag{Give: "--free-raises N"}
		m["loss."+test+".spend.inspiration"] = client.ChoiceFlag{Give: "--inspiration VERTU=N"}
	}
	return m
}()
