package encounter_test

import (
	"context"
	"fmt"
	"io"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/authtest"
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

// A tenant has at most MaxOpenEncounters encounters not ended; ending one makes room; another
// tenant is not counted with it.
func TestOpenEncountersPerTenantAreCapped(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) backend{
		"memory": func(*testing.T) backend { return store.NewMemory() },
		"jetstream": func(t *testing.T) backend {
			_, nc := natstest.Start(t)
			st, err := store.Open(context.Background(), nc, store.Config{})
			require.NoError(t, err)
			return st
		},
	} {
		t.Run(name, func(t *testing.T) {
			c := serve(t, open(t), encounter.Options{MaxOpenEncounters: 2})
			first, second := create(t, c), create(t, c)
			require.NotEqual(t, first, second)
			_, err := c.CreateEncounter(as("david"), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Trop", RuleSystem: "loss"}})
			requireCode(t, err, codes.ResourceExhausted, `tenant "dev" has reached its cap of 2 encounters not ended: end some of your open encounters with `+"`fray end`", "open encounters idle for 720h end by themselves; 2 are open")

			other := authtest.WithToken(context.Background(), authtest.Default().Mint(authtest.Default().Ed, authtest.Claims("other", "olga")))
			_, err = c.CreateEncounter(other, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Ailleurs", RuleSystem: "loss"}})
			require.NoError(t, err, "another tenant has its own count")

			_, err = c.EndEncounter(as("gm"), &encounterv1.EndEncounterRequest{EncounterId: first, Reason: "fin"})
			require.NoError(t, err)
			_, err = c.CreateEncounter(as("david"), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Place", RuleSystem: "loss"}})
			require.NoError(t, err, "an ended encounter makes room")
		})
	}
}

// Issue 23: one member filled its tenant's 1,000 open encounters in 8.3 s, refusing every
// other member, its GM included. A principal may be the GM of MaxOpenPerPrincipal not ended:
// past it the squatter is refused, naming the way out, while the tenant's other members still
// create; an end makes room again.
func TestOpenEncountersPerPrincipalAreCapped(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) backend{
		"memory": func(*testing.T) backend { return store.NewMemory() },
		"jetstream": func(t *testing.T) backend {
			_, nc := natstest.Start(t)
			st, err := store.Open(context.Background(), nc, store.Config{})
			require.NoError(t, err)
			return st
		},
	} {
		t.Run(name, func(t *testing.T) {
			c := serve(t, open(t), encounter.Options{MaxOpenEncounters: 10, MaxOpenPerPrincipal: 3})
			newOne := func(who string) (string, error) {
				r, err := c.CreateEncounter(as(who), &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Squat", RuleSystem: "loss"}})
				return r.GetEncounterId(), err
			}
			var squatted []string
			for range 3 {
				id, err := newOne("mallory")
				require.NoError(t, err)
				squatted = append(squatted, id)
			}
			_, err := newOne("mallory")
			requireCode(t, err, codes.ResourceExhausted, "dev/mallory is the GM of 3 encounters not ended, the most one member of a tenant may have", "`fray end`")
			for _, who := range []string{"gm", "david"} {
				_, err := newOne(who)
				require.NoError(t, err, "%s still creates: the squatter holds 3 of the tenant's 10", who)
			}
			_, err = c.EndEncounter(as("mallory"), &encounterv1.EndEncounterRequest{EncounterId: squatted[0], Reason: "fin"})
			require.NoError(t, err)
			_, err = newOne("mallory")
			require.NoError(t, err, "an ended encounter makes room")
		})
	}
}

// An encounter's state is bounded in bytes: the command that would take it past the bound is
// refused and nothing is recorded.
func TestEncounterBytesAreBounded(t *testing.T) {
	b := store.NewMemory()
	c := serve(t, b, encounter.Options{MaxEncounterBytes: 3000})
	id := create(t, c)
	var err error
	n := 0
	for ; n < 50; n++ {
		_, err = c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter(fmt.Sprint("f", n), "gm", 5, sword(3))})
		if err != nil {
			break
		}
	}
	requireCode(t, err, codes.ResourceExhausted, "more than the 3000 an encounter may hold", "nothing was recorded")
	require.Greater(t, n, 1)
	require.Equal(t, n+1, records(t, b, id), "the refused command recorded nothing")
}
