package encounter_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/validate"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
)

func TestLimitsRefuseCleanlyAndLoseNothing(t *testing.T) {
	b := store.NewMemory()
	c := serve(t, b, encounter.Options{MaxEvents: 3, MaxBatchBytes: 600})
	id := create(t, c)
	ctx := as("gm")

	// A record larger than allowed: a combatant with a very long sheet.
	big := fighter("diego", "david", 8, sword(4))
	for i := range 40 {
		big.GetLoss().Talents[strings.Repeat("x", 10)+string(rune('a'+i%26))+string(rune('a'+i/26))] = 1
	}
	_, err := c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: big})
	requireCode(t, err, codes.ResourceExhausted, "bytes", "nothing was recorded")
	require.Equal(t, 1, records(t, b, id))

	// Up to the maximum number of events, then a clear refusal.
	for _, who := range []string{"diego", "ruffian"} {
		_, err := c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter(who, "gm", 5, sword(3))})
		require.NoError(t, err)
	}
	_, err = c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("canahan", "gm", 5, sword(3))})
	requireCode(t, err, codes.ResourceExhausted, "at most 3", "nothing was recorded")
	got, err := c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	require.Equal(t, uint64(3), got.GetState().GetSequence())
	require.Len(t, got.GetState().GetCombatants(), 2, "what was recorded is intact")

	// A command beyond the request limit.
	huge := fighter("x", "gm", 5, sword(3))
	huge.Name = strings.Repeat("n", validate.MaxRequestBytes)
	_, err = c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: huge})
	requireCode(t, err, codes.ResourceExhausted)
}

func TestStreamDeniesDeleteAndPurge(t *testing.T) {
	_, nc := natstest.Start(t)
	st, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	c := serve(t, st, encounter.Options{})
	id := create(t, c)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	stream, err := js.Stream(context.Background(), "FRAY_ENCOUNTERS")
	require.NoError(t, err)
	info, err := stream.Info(context.Background())
	require.NoError(t, err)
	require.True(t, info.Config.DenyDelete)
	require.True(t, info.Config.DenyPurge)
	require.Error(t, stream.DeleteMsg(context.Background(), info.State.LastSeq))
	require.Error(t, stream.Purge(context.Background()))
	recs, err := st.Load(context.Background(), id, 0)
	require.NoError(t, err)
	require.Len(t, recs, 1, "the record is still there")
}

func TestCacheIsBoundedAndReloads(t *testing.T) {
	b := store.NewMemory()
	reg := systems.Registry()
	svc := encounter.New(b, b, encounter.LocalDecider{Registry: reg}, reg, encounter.Options{MaxCached: 3, Snapshots: b})
	ctx := authtest.Identity("gm")
	var ids []string
	for i := range 6 {
		r, err := svc.CreateEncounter(ctx, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: fmt.Sprint("E", i), RuleSystem: "loss"}})
		require.NoError(t, err)
		ids = append(ids, r.GetEncounterId())
		require.LessOrEqual(t, svc.Cached(), 3)
	}
	for i, id := range ids { // every one still answers, from the log when it was dropped
		got, err := svc.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id})
		require.NoError(t, err)
		require.Equal(t, fmt.Sprint("E", i), got.GetState().GetName())
		require.LessOrEqual(t, svc.Cached(), 3)
	}
}
