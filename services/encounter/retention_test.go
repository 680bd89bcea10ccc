package encounter_test

import (
	"context"
	"io"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
)

// An ended encounter's seed is deleted from the seed bucket: its EncounterEnded event reveals
// it, the audit finds it there, and a later command is told the encounter has ended.
func TestEndedEncounterSeedIsKeptOnlyInItsLog(t *testing.T) {
	ctx := context.Background()
	_, nc := natstest.Start(t)
	st, err := store.Open(ctx, nc, store.Config{})
	require.NoError(t, err)
	c := serve(t, st, encounter.Options{})
	id := create(t, c)
	gm := as("gm")
	for _, f := range []*encounterv1.Combatant{fighter("diego", "gm", 8, sword(4)), fighter("ruffian", "gm", 5, sword(3))} {
		_, err := c.AddCombatant(gm, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: f})
		require.NoError(t, err)
	}
	_, err = c.StartEncounter(gm, &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	seed, err := st.Seed(ctx, id)
	require.NoError(t, err)

	_, err = c.EndEncounter(gm, &encounterv1.EndEncounterRequest{EncounterId: id, Reason: "fin"})
	require.NoError(t, err)
	_, err = st.Seed(ctx, id)
	require.ErrorIs(t, err, store.ErrNotFound, "the seed bucket no longer holds it")

	// A later command: the encounter has ended (not: the seed is unavailable).
	_, err = c.StartEncounter(gm, &encounterv1.StartEncounterRequest{EncounterId: id})
	requireCode(t, err, codes.FailedPrecondition, "ended")

	// The log reveals the seed and the audit verifies the rolls with it.
	exp, err := c.ExportLog(gm, &encounterv1.ExportLogRequest{EncounterId: id})
	require.NoError(t, err)
	var events []*encounterv1.Event
	for {
		r, err := exp.Recv()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		events = append(events, r.GetEvent())
	}
	require.Equal(t, seed, events[len(events)-1].GetEncounterEnded().GetSeed())
	_, err = systems.Registry().Audit(events)
	require.NoError(t, err)

	// A fresh service (another replica, a restart) still loads it and still refuses commands.
	c2 := serve(t, st, encounter.Options{})
	_, err = c2.StartEncounter(gm, &encounterv1.StartEncounterRequest{EncounterId: id})
	requireCode(t, err, codes.FailedPrecondition, "ended")
}
