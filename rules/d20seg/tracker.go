package d20seg

import "github.com/fray-rpg/fray/rules/engine"

// CostUnit: its costs are segments of the round (D20-017): an action takes the next ones.
func (System) CostUnit() engine.CostUnit { return engine.CostUnit{One: "segment", Many: "segments"} }
