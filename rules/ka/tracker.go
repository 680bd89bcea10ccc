package ka

import "github.com/fray-rpg/fray/rules/engine"

// CostUnit: its costs are actions of a round (KA-010, KA-013): an attack or a defence spends one.
func (System) CostUnit() engine.CostUnit { return engine.CostUnit{One: "action", Many: "actions"} }
