package encounter_test

import (
	"context"
	"crypto/sha256"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// step plays the next command of a plain duel: a pending attack is dodged, otherwise whoever
// is up attacks.
func step(t *testing.T, c encounterv1.EncounterServiceClient, id string) *encounterv1.SubmitResponse {
	t.Helper()
	got, err := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	cmd := nextDuelCommand(got.GetState())
	r, err := c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, Command: cmd})
	require.NoError(t, err)
	return r
}

func TestRewindAcrossARoundBoundaryRestoresEverything(t *testing.T) {
	b := store.NewMemory()
	sum := sha256.Sum256([]byte("fray-rewind"))
	c := serve(t, b, encounter.Options{NewSeed: func() []byte { return sum[:] }})
	ctx := as("gm")
	id := create(t, c)
	for _, f := range []*encounterv1.Combatant{fighter("diego", "david", 8, sword(4)), fighter("ruffian", "gm", 6, sword(3))} {
		f.GetLoss().Armour = 10 // a long duel
		_, err := c.AddCombatant(ctx, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: f})
		require.NoError(t, err)
	}
	_, err := c.StartEncounter(ctx, &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)

	// Play until an attack waits for its defender in the first Tour: that is the point to
	// return to, with PA spent and a pending reaction.
	var mark *encounterv1.GetEncounterResponse
	for range 50 {
		step(t, c, id)
		got, err := c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id})
		require.NoError(t, err)
		if len(got.GetState().GetPending()) > 0 && got.GetState().GetLoss().GetTour() == 1 {
			mark = got
			break
		}
	}
	require.NotNil(t, mark, "no attack waited for a reaction in the first Tour")
	next := step(t, c, id) // what happened next, the first time
	for range 100 {
		got, err := c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id})
		require.NoError(t, err)
		if got.GetState().GetLoss().GetTour() >= 2 && len(got.GetState().GetPending()) == 0 {
			break
		}
		step(t, c, id)
	}
	before, err := c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	require.Equal(t, int32(2), before.GetState().GetLoss().GetTour(), "the fight went on into the second Tour")
	recordsBefore := records(t, b, id)

	// Only the GM rewinds, and only to an earlier event.
	to := mark.GetState().GetSequence()
	_, err = c.RewindEncounter(as("david"), &encounterv1.RewindEncounterRequest{EncounterId: id, ToSequence: to})
	requireCode(t, err, codes.PermissionDenied)
	_, err = c.RewindEncounter(ctx, &encounterv1.RewindEncounterRequest{EncounterId: id, ToSequence: before.GetState().GetSequence()})
	requireCode(t, err, codes.InvalidArgument)

	rw, err := c.RewindEncounter(ctx, &encounterv1.RewindEncounterRequest{EncounterId: id, ToSequence: to, Reason: "the ruffian's player was away"})
	require.NoError(t, err)
	require.Len(t, rw.GetEvents(), 1)
	require.Equal(t, before.GetState().GetSequence()+1, rw.GetEvents()[0].GetSequence(), "the rewind is a new event")
	require.Equal(t, recordsBefore+1, records(t, b, id), "nothing is deleted")

	// Everything is as it was after event `to`: PA, NS, resources, the pending reaction, the
	// Tour and phases — only the sequence moved on, and the dice stream, which goes on from the
	// furthest position ever used: no die is rolled twice.
	now, err := c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	high := before.GetState().GetDiceOffset()
	require.Equal(t, high, rw.GetEvents()[0].GetEncounterRewound().GetDiceOffset())
	require.Equal(t, high, now.GetState().GetDiceOffset())
	require.Equal(t, high, now.GetState().GetDiceHighWater())
	restored := proto.CloneOf(now.GetState())
	restored.Sequence = to
	restored.DiceOffset, restored.DiceHighWater = mark.GetState().GetDiceOffset(), mark.GetState().GetDiceHighWater()
	require.True(t, proto.Equal(mark.GetState(), restored), "restored state differs:\n%v\n%v", mark.GetState(), restored)
	require.Equal(t, mark.GetStateSha256(), engine.Hash(restored))
	require.Equal(t, int32(1), now.GetState().GetLoss().GetTour())
	require.NotEmpty(t, now.GetState().GetPending())

	// The same answer now rolls fresh dice, further along the stream than any roll before.
	again := step(t, c, id)
	first := engine.Rolls(&encounterv1.EventBatch{Events: next.GetEvents()})
	fresh := engine.Rolls(&encounterv1.EventBatch{Events: again.GetEvents()})
	require.NotEmpty(t, first)
	require.NotEmpty(t, fresh)
	for _, r := range fresh {
		require.GreaterOrEqual(t, r.GetOffset(), high, "a roll after the rewind reuses a die")
	}
	require.NotEqual(t, first[0].GetOffset(), fresh[0].GetOffset())

	// A fresh fold of the whole log, and the state as of any earlier sequence, honour it.
	recs, err := b.Load(context.Background(), id, 0)
	require.NoError(t, err)
	var all []*encounterv1.Event
	for _, r := range recs {
		all = append(all, r.Batch.GetEvents()...)
	}
	folded, err := foldAll(all)
	require.NoError(t, err)
	latest, err := c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	require.Equal(t, latest.GetStateSha256(), gmHash(folded))
	past, err := c.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id, AtSequence: before.GetState().GetSequence()})
	require.NoError(t, err)
	require.Equal(t, before.GetStateSha256(), past.GetStateSha256(), "the undone events are still readable as they were")
}

func foldAll(events []*encounterv1.Event) (*encounterv1.EncounterState, error) {
	return systems.Registry().Fold(events)
}

// nextDuelCommand: a pending attack is dodged, otherwise whoever is up attacks, or passes
// when its PA are too few.
func nextDuelCommand(st *encounterv1.EncounterState) *encounterv1.Command {
	var a *lossv1.Action
	if p := st.GetPending(); len(p) > 0 {
		a = &lossv1.Action{CombatantId: p[0].GetCombatantId(), Kind: &lossv1.Action_React{React: &lossv1.React{Reaction: lossv1.Reaction_REACTION_DODGE}}}
	} else {
		var top int32
		for _, who := range []string{"diego", "ruffian"} {
			cs := st.GetLoss().GetCombatants()[who]
			if cs.GetActionPoints() > top && !cs.GetPassed() {
				top = cs.GetActionPoints()
				a = &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{TargetId: map[string]string{"diego": "ruffian", "ruffian": "diego"}[who]}}}
				if cs.GetActionPoints() < 4 {
					a = &lossv1.Action{CombatantId: who, Kind: &lossv1.Action_PassTurn{PassTurn: &lossv1.Pass{}}}
				}
			}
		}
	}
	return &encounterv1.Command{Kind: &encounterv1.Command_Loss{Loss: a}}
}
