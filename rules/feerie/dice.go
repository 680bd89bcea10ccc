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
	return engine.DiceEndOf(ev.GetFeerie(), diceEnd)
}

// diceEnd is DiceEnd of one of its own events.
func diceEnd(e *feeriev1.Event) uint64 {
	switch k := e.GetKind().(type) {
	case *feeriev1.Event_CountdownStarted:
		var end uint64
		for _, r := range k.CountdownStarted.GetInitiative() {
			end = max(end, resultEnd(r.GetResult()))
		}
		return end
	case *feeriev1.Event_ActivityResolved:
		return resultEnd(k.ActivityResolved.GetAttack())
	case *feeriev1.Event_UnseenRolled:
		return max(resultEnd(k.UnseenRolled.GetRoll()), resultEnd(k.UnseenRolled.GetVigilanceRoll()))
	}
	return 0
}

// resultEnd is DiceEnd of a roll of a score: its dice and its subtracted dice.
func resultEnd(r *feeriev1.RollResult) uint64 { return engine.DiceEnd(r.GetRoll(), r.GetMinus()) }
