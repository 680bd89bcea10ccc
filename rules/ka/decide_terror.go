package ka

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/dice"
)

// terror (KA-034): Animalité + encaissement with the GM's malus; a failure below Animalité × 3
// enters Abysse.
func (s System) terror(st *encounterv1.EncounterState, f fighter, t *kav1.Terror, roller dice.Roller) []*encounterv1.Event {
	d := s.deckOf(st)
	r := drawFor(d, f, Animalite, "", []int32{f.sh.GetEncaissement(), t.GetModifier()}, []string{"encaissement", "situation"}, roller)
	abysse := r.GetTotal() < s.n.SimpleThreshold && r.GetTotal() < f.sh.GetSpheres()[Animalite]*s.n.TerrorFactor
	return one(&kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: f.id(), Draw: r, Abysse: abysse}}})
}
