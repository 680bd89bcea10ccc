package feerie

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// DiceEnd returns the furthest position of the dice stream a roll of a Contes de Fées event
// reaches (engine.DiceEnder), found where the events put the rolls, without the engine's
// reflective walk. false: not a Contes de Fées event.
func (System) DiceEnd(ev *encounterv1.Event) (uint64, bool) {
	e := ev.GetFeerie()
	if e == nil {
		return 0, false
	}
	switch k := e.GetKind().(type) {
	case *feeriev1.Event_CountdownStarted:
		var end uint64
		for _, r := range k.CountdownStarted.GetInitiative() {
			end = max(end, resultEnd(r.GetResult()))
		}
		return end, true
	case *feeriev1.Event_ActivityResolved:
		return resultEnd(k.ActivityResolved.GetAttack()), true
	case *feeriev1.Event_UnseenRolled:
		return max(resultEnd(k.UnseenRolled.GetRoll()), resultEnd(k.UnseenRolled.GetVigilanceRoll())), true
	}
	return 0, true
}

// resultEnd is DiceEnd of a roll of a score: its dice and its subtracted dice.
func resultEnd(r *feeriev1.RollResult) uint64 { return engine.DiceEnd(r.GetRoll(), r.GetMinus()) }
