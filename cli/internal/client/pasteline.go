package client

import (
	"fmt"
	"strings"
	"unicode"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// A CommandLine is a legal action's pre-filled command written as the CLI's own command, for
// `fray legal` to print a line a person pastes: `fray attack ENC diego TARGET --weapon épée`.
type CommandLine struct {
	// Action is the action's name in the system's group ("attack").
	Action string
	// Args come after ENCOUNTER: the combatant acting, then what the command holds or a
	// placeholder for a required choice ("TARGET").
	Args []string
	// Flags follow them ("--weapon", "épée").
	Flags []string
}

// A ChoiceFlag says how a choice of a legal action (its field, "loss.attack.exploits") is given
// on the CommandLine: Give, a placeholder among its Args ("TARGET") or a flag ("--effect NAME,
// repeatable"); Value writes an option's value as the flag takes it ("counter-attack" for
// EXPLOIT_EFFECT_COUNTER_ATTACK; nil: as it is).
type ChoiceFlag struct {
	Give  string
	Value func(string) string
}

// PasteLine is the command line that sends cmd, a legal action's pre-filled command, to
// encounter enc: the system's own command when its CommandLine writes one, else `fray submit
// ENC --command '{...}'`, which sends any command. Words the shell would split or read are
// quoted.
func PasteLine(sys System, ok bool, enc string, cmd *encounterv1.Command) string {
	if ok && sys.CommandLine != nil {
		if l, found := sys.CommandLine(cmd); found {
			words := []string{"fray"}
			if !sys.Flat {
				words = append(words, sys.Group)
			}
			words = append(words, l.Action, enc)
			words = append(append(words, l.Args...), l.Flags...)
			return shellWords(words)
		}
	}
	b, err := protojson.Marshal(cmd)
	if err != nil {
		return fmt.Sprintf("# %v", err)
	}
	return shellWords([]string{"fray", "submit", enc, "--command", string(b)})
}

// ChoiceLine writes a choice as the command line takes it: its placeholder or flag, a * when
// required, what it is, and the values it may take (each option's label and cost, or a
// range), "TARGET* (the target): ruffian (Le malfrat)". Without a ChoiceFlag, the command
// field it fills ("loss.attack.target_id*"), which `fray submit` takes.
func ChoiceLine(c *rulesetv1.Choice, how ChoiceFlag, found bool) string {
	s := c.GetField()
	if found {
		s = how.Give
	}
	if c.GetRequired() {
		s += "*"
	}
	if d := c.GetDescription(); d != "" {
		s += " (" + d + ")"
	}
	if len(c.GetOptions()) == 0 {
		return s + fmt.Sprintf(": %d to %d", c.GetMin(), c.GetMax())
	}
	var opts []string
	for _, o := range c.GetOptions() {
		v := o.GetValue()
		if found && how.Value != nil {
			v = how.Value(v)
		}
		var about []string
		if l := o.GetLabel(); l != "" && l != o.GetValue() && l != v {
			about = append(about, l)
		}
		if o.GetCost() != 0 {
			about = append(about, fmt.Sprint(o.GetCost()))
		}
		if len(about) > 0 {
			opts = append(opts, v+" ("+strings.Join(about, ", ")+")")
		} else {
			opts = append(opts, v)
		}
	}
	s += ": " + strings.Join(opts, ", ")
	if b := c.GetBudget(); b > 0 {
		s += fmt.Sprintf("; costs at most %d in all", b)
	}
	return s
}

// shellWords joins words for a POSIX shell, quoting those it would split or read.
func shellWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = shellQuote(w)
	}
	return strings.Join(out, " ")
}

func shellQuote(w string) string {
	if w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_./:,=@%+", r))
	}) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
