package d20seg

import (
	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// DiceEnd returns the furthest position of the dice stream a roll of a d20seg event reaches
// (engine.DiceEnder), found where the events put the rolls, without the engine's reflective
// walk. false: not a d20seg event.
func (System) DiceEnd(ev *encounterv1.Event) (uint64, bool) {
	return engine.DiceEndOf(ev.GetD20Seg(), diceEnd)
}

// diceEnd is DiceEnd of one of its own events.
func diceEnd(e *d20segv1.Event) uint64 {
	var end uint64
	switch k := e.GetKind().(type) {
	case *d20segv1.Event_CombatStarted:
		for _, r := range k.CombatStarted.GetRollOffs() {
			end = max(end, engine.DiceEnd(r.GetRolls()...))
		}
	case *d20segv1.Event_SurpriseRoundStarted:
		for _, a := range k.SurpriseRoundStarted.GetApprehension() {
			end = max(end, engine.DiceEnd(a.GetRoll(), a.GetStealthRoll()))
		}
	case *d20segv1.Event_AttackRolled:
		end = engine.DiceEnd(k.AttackRolled.GetRoll(), k.AttackRolled.GetDamageRoll())
	}
	return end
}
