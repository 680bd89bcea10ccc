package loss

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// DiceEnd returns the furthest position of the dice stream a roll of a Loss event reaches
// (engine.DiceEnder): the rolls are where the events put them, found without the engine's
// reflective walk. false: not a Loss event.
func (System) DiceEnd(ev *encounterv1.Event) (uint64, bool) {
	return engine.DiceEndOf(ev.GetLoss(), diceEnd)
}

// diceEnd is DiceEnd of one of its own events.
func diceEnd(e *lossv1.Event) uint64 {
	switch k := e.GetKind().(type) {
	case *lossv1.Event_TourStarted:
		var end uint64
		for _, r := range k.TourStarted.GetInitiative() {
			end = max(end, engine.DiceEnd(r.GetRoll()))
		}
		return end
	case *lossv1.Event_AttackRolled:
		return engine.DiceEnd(k.AttackRolled.GetTest().GetRoll())
	case *lossv1.Event_DefenceRolled:
		return engine.DiceEnd(k.DefenceRolled.GetTest().GetRoll())
	case *lossv1.Event_AttackResolved:
		return engine.DiceEnd(k.AttackResolved.GetDamage().GetRoll(), k.AttackResolved.GetSecondDamage().GetRoll())
	case *lossv1.Event_PursuitActed:
		a := k.PursuitActed
		return engine.DiceEnd(a.GetTest().GetRoll(), a.GetDodge().GetRoll(), a.GetShot().GetRoll())
	}
	return 0
}
