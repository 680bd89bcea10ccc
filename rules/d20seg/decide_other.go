package d20seg

import (
	"fmt"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

func (sys System) decideOther(st *encounterv1.EncounterState, f fighter, o *d20segv1.Other, gm bool) ([]*encounterv1.Event, error) {
	cost := o.GetSegments()
	if cost <= 0 {
		cost = sys.n.OtherCost // D20-022
	}
	if cost != sys.n.OtherCost && !gm {
		return nil, &engine.RuleError{Code: engine.CodePermission, Rule: "D20-022", Msg: fmt.Sprintf(
			"%s's action costs %s unless the GM says otherwise; only the GM (%s) may make it cost %d", f.name(), plural(sys.n.OtherCost), st.GetGameMaster(), cost)}
	}
	what := o.GetDescription()
	if what == "" {
		what = "an action"
	}
	paid, err := sys.fits(st, f, cost, o.GetFree(), what, "")
	if err != nil {
		return nil, err
	}
	return one(&d20segv1.Event{Kind: &d20segv1.Event_OtherDone{OtherDone: &d20segv1.OtherDone{
		CombatantId: f.id(), Description: o.GetDescription(), Segment: f.cs.GetNextSegment(), Cost: paid, Free: o.GetFree(),
	}}}), nil
}
