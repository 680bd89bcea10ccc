package encounter_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
)

// GetEncounter over JetStream and gRPC carries the rules' tracker as the caller may see it:
// the GM sees the Tour and every combatant's PA, NS and conditions; david, whose Diego faces a
// ruffian the GM hid, gets the ruffian's row with no number and a phase reckoned without the
// ruffian's PA (LOS-031); the conditions come in the language asked.
func TestGetEncounterCarriesTheTrackerAsTheCallerMaySeeIt(t *testing.T) {
	_, nc := natstest.Start(t)
	js, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	sum := sha256.Sum256([]byte("fray-tracker"))
	c := serve(t, js, encounter.Options{NewSeed: func() []byte { return sum[:] }})
	id := create(t, c)
	ruffian := fighter("ruffian", "gm", 30, sword(3))
	ruffian.Hidden = true
	for _, f := range []*encounterv1.Combatant{fighter("diego", "david", 0, sword(4)), ruffian} {
		_, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: f})
		require.NoError(t, err)
	}
	_, err = c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	row := func(tr *rulesetv1.Tracker, id string) *rulesetv1.TrackerRow {
		for _, r := range tr.GetRows() {
			if r.GetCombatantId() == id {
				return r
			}
		}
		require.Failf(t, "no row", "%s", id)
		return nil
	}

	gm, err := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	tr := gm.GetTracker()
	require.Equal(t, []string{"PA", "NS", "Fursa"}, tr.GetHeader())
	require.Len(t, tr.GetRows(), 2)
	st := gm.GetState().GetLoss()
	ruffianPA := st.GetCombatants()["ruffian"].GetActionPoints()
	diegoPA := st.GetCombatants()["diego"].GetActionPoints()
	require.Greater(t, ruffianPA, diegoPA, "Initiative 30 against 0")
	require.Contains(t, tr.GetTurn(), "Tour 1")
	require.Contains(t, tr.GetTurn(), "phase "+fmt.Sprint(ruffianPA)+" PA", "the GM's phase is the ruffian's")
	require.Equal(t, fmt.Sprint(ruffianPA), row(tr, "ruffian").GetCells()[0])

	david, err := c.GetEncounter(as("david"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	tr = david.GetTracker()
	require.Equal(t, []string{"", "", ""}, row(tr, "ruffian").GetCells(), "the hidden ruffian's numbers")
	require.Equal(t, fmt.Sprint(diegoPA), row(tr, "diego").GetCells()[0])
	require.Contains(t, tr.GetTurn(), "phase "+fmt.Sprint(diegoPA)+" PA", "david's phase is reckoned without the ruffian's PA")

	pass := &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: &lossv1.Action{CombatantId: "ruffian", Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}}}
	_, err = c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: pass})
	require.NoError(t, err)
	for lang, want := range map[string]string{"en": "passed", "fr": "passe", "": "passed"} {
		r, err := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id, Language: lang})
		require.NoError(t, err)
		require.Contains(t, row(r.GetTracker(), "ruffian").GetConditions(), want, "language %q", lang)
	}
}
