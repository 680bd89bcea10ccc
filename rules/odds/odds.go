package odds

import (
	"fmt"
	"math"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
)

// Of returns the odds of cmd, given by actor, on st. st is the state as the caller sees it
// (engine.Registry.View): the odds use only the numbers it holds, and a combatant whose sheet
// it does not hold (hidden from the caller) gets no odds computed from its numbers. The
// command is decided by the real rules (engine.Registry.Decide) with dice that read what it
// rolls and with which numbers; a command the rules refuse is refused with their error.
func Of(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*oddsv1.Odds, error) {
	var (
		o   *oddsv1.Odds
		err error
	)
	switch {
	case cmd.GetLoss().GetAttack() != nil:
		o, err = lossAttack(reg, st, cmd, actor)
	case cmd.GetD20Seg().GetAttack() != nil:
		o, err = segAttack(reg, st, cmd, actor)
	case cmd.GetFeerie().GetAct() != nil:
		o, err = feerieAttack(reg, st, cmd, actor)
	case cmd.GetKa().GetAttack() != nil:
		o, err = kaAttack(reg, st, cmd, actor)
	default:
		return nil, engine.Invalid("", "odds are computed for an attack (Les Chants de Loss, Ka, d20 segments) or an activity (Contes de Fées)")
	}
	if err != nil {
		return nil, err
	}
	o.RuleSystem = st.GetRuleSystem()
	return o, nil
}

// probe is a dice.Roller for deciding a command to read its numbers: its first roll totals
// first, every later one rest; it records what is rolled.
type probe struct {
	first, rest int32
	exprs       []dice.Expr
}

func (p *probe) Roll(e dice.Expr) *dicev1.Roll {
	t := p.rest
	if len(p.exprs) == 0 {
		t = p.first
	}
	p.exprs = append(p.exprs, e)
	return &dicev1.Roll{Expression: e.String(), Faces: []int32{t}, Total: t}
}

// hiddenTarget is why a section holds no odds when the target is hidden from the caller.
const hiddenTarget = "the target's numbers are hidden from you"

// Far beyond any Difficulty or total: a probe's roll that reaches or misses everything.
const far = 1 << 20

// decide decides cmd on st with pr and returns the events and the state they lead to.
func decide(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string, pr *probe) ([]*encounterv1.Event, *encounterv1.EncounterState, error) {
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

func chance(key, label, rule string, p float64) *oddsv1.Chance {
	return &oddsv1.Chance{Key: key, Label: label, Probability: clamp(p), Rule: rule}
}

// clamp keeps a probability summed in floating point within [0, 1].
func clamp(p float64) float64 { return math.Min(1, math.Max(0, p)) }

func distribution(key, label string, d Dist) *oddsv1.Distribution {
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

func plural(n int32, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
