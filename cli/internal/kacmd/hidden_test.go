package kacmd_test

import (
	"bytes"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/kacmd"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
)

// The Ka state table as a player reads it when the GM hides a combatant:
// what is known is said, what is withheld is said to be, and no zero stands for a number the
// server kept. (Its events' narration is tested in rules/ka.)

func TestKaStateWithAHiddenCombatant(t *testing.T) {
	st := &encounterv1.EncounterState{EncounterId: "enc-1", Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, RuleSystem: ka.ID,
		Combatants: []*encounterv1.Combatant{
			{Id: "joshua", Name: "Joshua", Controller: "david", Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{
				Spheres: map[string]int32{ka.Animalite: 4, ka.Humanite: 3, "Spiritualité": 2}, Encaissement: 3, KaDice: 14, RealityPoints: 15, PlayerCharacter: true}}},
			{Id: "gargouille", Name: "La gargouille", Controller: "gm", Hidden: true, Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{
				Spheres: map[string]int32{ka.Animalite: 19, ka.Humanite: 17, "Ombres": 2}, KaDice: 1, RealityPoints: 67}}},
		},
		System: &encounterv1.EncounterState_Ka{Ka: &kav1.State{Round: 2, PassNumber: 1, UpNext: []string{"joshua"},
			DeckCount: 54,
			Discard:   []*kav1.Card{{Suit: kav1.Suit_SUIT_BATON, Rank: 2, DrawnBy: "gargouille"}, {Suit: kav1.Suit_SUIT_COUPE, Rank: 4, DrawnBy: "joshua"}},
			Combatants: map[string]*kav1.CombatantState{
				"joshua":     {KaDice: 4, RealityPoints: 15, ActionsLeft: 2},
				"gargouille": {KaDice: 1, RealityPoints: 67, ActionsLeft: 1, ActionsTaken: 1, ActedThisPass: true, WeaponsLost: []string{"Serres-de-Minuit"}},
			}}}}
	reg := engine.NewRegistry(ka.Released()...)
	var b bytes.Buffer
	view := reg.View(st, engine.Viewer{Controls: map[string]bool{"joshua": true}})
	kacmd.WriteState(&b, view, client.NamesOf(view))
	out := b.String()
	t.Logf("fray state:\n%s", out)
	require.Contains(t, out, "Deck: 54 cards left, 2 in the discard (KA-003), 1 of them face down (drawn behind the screen)\n"+
		"Discard, in the order drawn: face down, 4 de coupe\n")
	require.Regexp(t, `  joshua\s+Joshua\s+-\s+david\s+4\s+4/14\s+15/15\s+2 left, 0 taken\s+player character, seuil 15\n`, out)
	require.Regexp(t, `  gargouille\s+La gargouille\s+-\s+gm\s+hidden\s+hidden\s+hidden\s+hidden, 1 taken\s+unhurt, disarmed of 1 weapon \(KA-032\), acted this pass\n`, out)
	require.Contains(t, out, "Pass 1: Joshua acts next: fray ka attack|disarm|pass enc-1 joshua ...\n", "the order of the pass, as the state gives it (KA-014)")
	for _, secret := range []string{"Serres", "19", "67"} {
		require.NotContains(t, out, secret)
	}
	// The GM: every number, every card of the discard.
	b.Reset()
	view = reg.View(st, engine.Viewer{SeesAll: true})
	kacmd.WriteState(&b, view, client.NamesOf(view))
	require.Regexp(t, `  gargouille\s+La gargouille\s+-\s+gm\s+19\s+1/1\s+67/67\s+1 left, 1 taken\s+disarmed of Serres-de-Minuit \(KA-032\), acted this pass, seuil 6\n`, b.String())
	require.Contains(t, b.String(), "Deck: 54 cards left, 2 in the discard (KA-003)\nDiscard, in the order drawn: 2 de bâton, 4 de coupe\n")
}
