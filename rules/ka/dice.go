package ka

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// DiceEnd returns the furthest position of the dice stream a roll of a Ka event reaches
// (engine.DiceEnder): the rolls that take the cards, and those of a reshuffle, where the
// events put them, found without the engine's reflective walk. false: not a Ka event.
func (System) DiceEnd(ev *encounterv1.Event) (uint64, bool) {
	return engine.DiceEndOf(ev.GetKa(), diceEnd)
}

// diceEnd is DiceEnd of one of its own events.
func diceEnd(e *kav1.Event) uint64 {
	switch k := e.GetKind().(type) {
	case *kav1.Event_DeckShuffled:
		return engine.DiceEnd(k.DeckShuffled.GetRolls()...)
	case *kav1.Event_AttackDrawn:
		return drawEnd(k.AttackDrawn.GetDraw())
	case *kav1.Event_DefenceDrawn:
		return drawEnd(k.DefenceDrawn.GetDraw())
	case *kav1.Event_AttackResolved:
		return drawEnd(k.AttackResolved.GetDeathDraw())
	case *kav1.Event_DisarmDrawn:
		return max(drawEnd(k.DisarmDrawn.GetDraw()), drawEnd(k.DisarmDrawn.GetResistance()))
	case *kav1.Event_TerrorDrawn:
		return drawEnd(k.TerrorDrawn.GetDraw())
	}
	return 0
}

// drawEnd is DiceEnd of a draw: its reshuffle's rolls and those that took its cards.
func drawEnd(r *kav1.DrawResult) uint64 {
	d := r.GetDraw()
	return max(engine.DiceEnd(d.GetReshuffle().GetRolls()...), engine.DiceEnd(d.GetRolls()...))
}
