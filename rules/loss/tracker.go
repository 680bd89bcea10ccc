package loss

import "github.com/fray-rpg/fray/rules/engine"

// CostUnit: its costs are action points (PA, LOS-030, LOS-035): a combatant's phase is its PA left (LOS-031).
func (System) CostUnit() engine.CostUnit { return engine.CostUnit{One: "PA", Many: "PA"} }
