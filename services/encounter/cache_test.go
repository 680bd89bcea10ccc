package encounter_test

import (
	"fmt"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/stretchr/testify/require"
)

// Inflated encounters (each holding combatants with sheets of about 100 KB) are dropped from
// the cache, least recently used first, once the cache holds more than its bytes; every one
// still answers, loaded again.
func TestCacheIsBoundedInBytes(t *testing.T) {
	const bound = 1 << 20
	b := store.NewMemory()
	reg := systems.Registry()
	svc := encounter.New(b, b, encounter.LocalDecider{Registry: reg}, reg, encounter.Options{MaxCachedBytes: bound, Snapshots: b})
	ctx := authtest.Identity("gm")
	inflated := func(id string) *encounterv1.Combatant {
		c := fighter(id, "gm", 5, sword(3))
		for i := range 100 {
			c.GetLoss().Talents[fmt.Sprintf("%03d", i)+strings.Repeat("x", 1000)] = 1
		}
		return c
	}
	var ids []string
	for i := range 12 {
		r, err := svc.CreateEncounter(ctx, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: fmt.Sprint("E", i), RuleSystem: "loss"}})
		require.NoError(t, err)
		id := r.GetEncounterId()
		ids = append(ids, id)
		for _, who := range []string{"a", "b", "c"} {
			_, err := svc.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: inflated(who)})
			require.NoError(t, err)
			require.LessOrEqual(t, svc.CachedBytes(), bound+400_000, "at most one encounter over the bound: the one in use")
		}
	}
	require.Less(t, svc.Cached(), 12, "some were dropped")
	require.Greater(t, svc.Cached(), 1)
	// The most recently used stays; the least recently used went first.
	last := ids[len(ids)-1]
	for i, id := range ids {
		got, err := svc.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id})
		require.NoError(t, err)
		require.Equal(t, fmt.Sprint("E", i), got.GetState().GetName())
		require.Len(t, got.GetState().GetCombatants(), 3)
		require.LessOrEqual(t, svc.CachedBytes(), bound+400_000)
	}
	// Reading them all in order left the latest ones cached: the last is still there, and
	// touching it costs no load (its bytes do not move).
	before := svc.CachedBytes()
	_, err := svc.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: last})
	require.NoError(t, err)
	require.Equal(t, before, svc.CachedBytes())
}
