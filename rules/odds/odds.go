package odds

import (
	"fmt"
	"math"
	"strings"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
)

// Of returns the odds of cmd, given by actor, on st. st is the state as the caller sees it
// (engine.Registry.View): the odds use only the numbers it holds, and a combatant whose sheet
// it does not hold (hidden from the caller) gets no odds computed from its numbers. The
// encounter's rule system computes them (engine.System.Odds), deciding the command by the real
// rules (engine.Registry.Decide) with dice that read what it rolls and with which numbers; a
// command the rules refuse is refused with their error, one the system computes no odds for
// with the actions it does (engine.System.WithOdds).
func Of(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*oddsv1.Odds, error) {
	sys, err := reg.Lookup(st.GetRuleSystem(), st.GetRulesVersion())
	if err != nil {
		return nil, err
	}
	o, err := sys.Odds(reg, st, cmd, actor)
	if err != nil {
		return nil, err
	}
	if o == nil {
		return nil, engine.Invalid("", "%s", noOdds(sys))
	}
	o.RuleSystem = st.GetRuleSystem()
	return o, nil
}

// noOdds says which actions of sys have odds.
func noOdds(sys engine.System) string {
	return fmt.Sprintf("in %s, odds are computed for: %s", sys.Name(), strings.Join(sys.WithOdds(), ", "))
}

// Probe is a dice.Roller for deciding a command to read its numbers: its first roll totals
// First, every later one Rest; it records what is rolled (Exprs).
type Probe struct {
	First, Rest int32
	Exprs       []dice.Expr
}

func (p *Probe) Roll(e dice.Expr) *dicev1.Roll {
	t := p.Rest
	if len(p.Exprs) == 0 {
		t = p.First
	}
	p.Exprs = append(p.Exprs, e)
	return &dicev1.Roll{Expression: e.String(), Faces: []int32{t}, Total: t}
}

// HiddenTarget is why a section holds no odds when the target is hidden from the caller.
const HiddenTarget = "the target's numbers are hidden from you"

// Far is far beyond any Difficulty or total: a Probe's roll that reaches or misses everything.
const Far = 1 << 20

// Decide decides cmd on st with pr and returns the events and the state they lead to.
func Decide(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string, pr *Probe) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
	evs, err := reg.Decide(st, cmd, engine.Env{Actor: actor, Dice: pr})
	if err != nil {
		return nil, nil, err
	}
	sys, err := reg.Lookup(st.GetRuleSystem(), st.GetRulesVersion())
	if err != nil {
		return nil, nil, err
	}
	next := engine.Fork(sys, st)
	for _, ev := range evs {
		if err := reg.Evolve(next, ev); err != nil {
			return nil, nil, err
		}
	}
	return evs, next, nil
}

// Chance is a chance of an odds section.
func Chance(key, label, rule string, p float64) *oddsv1.Chance {
	return &oddsv1.Chance{Key: key, Label: label, Probability: clamp(p), Rule: rule}
}

// clamp keeps a probability summed in floating point within [0, 1].
func clamp(p float64) float64 { return math.Min(1, math.Max(0, p)) }

// Distribution is d as an odds section's distribution: its values of non-zero probability.
func Distribution(key, label string, d Dist) *oddsv1.Distribution {
	out := &oddsv1.Distribution{Key: key, Label: label, Mean: d.Mean()}
	outcomes := make([]oddsv1.Outcome, len(d.P)) // one allocation for them all
	out.Outcomes = make([]*oddsv1.Outcome, 0, len(d.P))
	for i, p := range d.P {
		if p > 0 {
			o := &outcomes[i]
			o.Value, o.Probability = int64(d.Min+i), clamp(p)
			out.Outcomes = append(out.Outcomes, o)
		}
	}
	return out
}

// Plural writes n with its noun: "1 Exploit", "2 Exploits".
func Plural(n int32, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
