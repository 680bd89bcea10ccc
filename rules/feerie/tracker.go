package feerie

import "github.com/fray-rpg/fray/rules/engine"

// CostUnit: its costs are ranks: acting k ranks early is paid −k (FEE-050).
func (System) CostUnit() engine.CostUnit { return engine.CostUnit{One: "rank", Many: "ranks"} }
