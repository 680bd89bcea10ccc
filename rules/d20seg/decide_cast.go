package d20seg

import (
	"fmt"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

func (sys System) decideCast(st *encounterv1.EncounterState, f fighter, c *d20segv1.Cast) ([]*encounterv1.Event, error) {
	cost, err := sys.SpellCost(c)
	if err != nil {
		if re, ok := engine.AsRuleError(err); ok {
			return nil, &engine.RuleError{Code: re.Code, Rule: re.Rule, Msg: fmt.Sprintf("%s casting %s: %s", f.name(), c.GetSpell(), re.Msg), Why: re.Why, Numbers: re.Numbers}
		}
		return nil, err
	}
	paid, err := sys.fits(st, f, cost, c.GetFree(), fmt.Sprintf("casting %s", c.GetSpell()), "")
	if err != nil {
		return nil, err
	}
	return one(&d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{
		CombatantId: f.id(), Spell: c.GetSpell(), Segment: f.cs.GetNextSegment(), Cost: paid, NextRound: c.GetNextRound(), Free: c.GetFree(),
	}}}), nil
}
