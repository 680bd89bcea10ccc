package loss

import (
	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
)

// DiceEnd returns the furthest position of the dice stream a roll of a Loss event reaches
// (engine.DiceEnder): the rolls are where the events put them, found without the engine's
// reflective walk. false: not a Loss event.
func (System) DiceEnd(ev *encounterv1.Event) (uint64, bool) {
	e := ev.GetLoss()
	if e == nil {
		return 0, false
	}
	end := func(rs ...*dicev1.Roll) uint64 {
		var n uint64
		for _, r := range rs {
			n = max(n, r.GetOffset()+r.GetDraws())
		}
		return n
	}
	switch k := e.GetKind().(type) {
	case *lossv1.Event_TourStarted:
		var n uint64
		for _, r := range k.TourStarted.GetInitiative() {
			n = max(n, end(r.GetRoll()))
		}
		return n, true
	case *lossv1.Event_AttackRolled:
		return end(k.AttackRolled.GetTest().GetRoll()), true
	case *lossv1.Event_DefenceRolled:
		return end(k.DefenceRolled.GetTest().GetRoll()), true
	case *lossv1.Event_AttackResolved:
		return end(k.AttackResolved.GetDamage().GetRoll(), k.AttackResolved.GetSecondDamage().GetRoll()), true
	case *lossv1.Event_PursuitActed:
		a := k.PursuitActed
		return end(a.GetTest().GetRoll(), a.GetDodge().GetRoll(), a.GetShot().GetRoll()), true
	}
	return 0, true
}
