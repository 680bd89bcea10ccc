package ka

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// decideTerror (KA-034): the Maître de Ka calls for a Terror draw: Animalité + encaissement
// with the GM's malus; a failure below Animalité × 3 enters Abysse.
func (s System) decideTerror(st *encounterv1.EncounterState, id string, t *kav1.Terror, env engine.Env) ([]*encounterv1.Event, error) {
	if !engine.IsGameMaster(st, env.Actor) {
		return nil, engine.Forbidden("only the Maître de Ka calls for a Terror draw")
	}
	f, err := fighterOf(st, id)
	if err != nil {
		return nil, err
	}
	d := s.deckOf(st)
	r := drawFor(d, f, Animalite, "", []int32{f.sh.GetEncaissement(), t.GetModifier()}, []string{"encaissement", "situation"}, env.Dice)
	abysse := r.GetTotal() < s.n.SimpleThreshold && r.GetTotal() < f.sh.GetSpheres()[Animalite]*s.n.TerrorFactor
	return one(&kav1.Event{Kind: &kav1.Event_TerrorDrawn{TerrorDrawn: &kav1.TerrorDrawn{CombatantId: f.id(), Draw: r, Abysse: abysse}}}), nil
}
