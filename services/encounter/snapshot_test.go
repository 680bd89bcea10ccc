package encounter_test

import (
	"context"
	"crypto/sha256"
	"maps"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// longDuel plays a duel of at least n events and returns its id.
func longDuel(t *testing.T, b backend, n uint64) string {
	sum := sha256.Sum256([]byte("fray-long-duel"))
	c := serve(t, b, encounter.Options{NewSeed: func() []byte { return sum[:] }, Snapshots: b, SnapshotEvery: 16})
	id := create(t, c)
	for _, f := range []*encounterv1.Combatant{fighter("diego", "david", 8, sword(4)), fighter("ruffian", "gm", 6, sword(3))} {
		f.GetLoss().Armour = 12 // a long duel
		_, err := c.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: f})
		require.NoError(t, err)
	}
	_, err := c.StartEncounter(as("gm"), &encounterv1.StartEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	for {
		r := step(t, c, id)
		if r.GetState().GetSequence() >= n {
			return id
		}
	}
}

func coldHash(t *testing.T, b backend, id string) []byte {
	t.Helper()
	c := serve(t, b, encounter.Options{Snapshots: b})
	got, err := c.GetEncounter(as("gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	return got.GetStateSha256()
}

// For every prefix of a long fight, the snapshot of that prefix plus the tail folds to the
// same state as the whole log.
func TestSnapshotPlusTailEqualsFullFoldForEveryPrefix(t *testing.T) {
	b := store.NewMemory()
	id := longDuel(t, b, 150)
	recs, err := b.Load(context.Background(), id, 0)
	require.NoError(t, err)
	reg := systems.Registry()
	full := &encounterv1.EncounterState{}
	var states []*encounterv1.EncounterState
	commands := map[string]uint64{}
	var commandsAt []map[string]uint64
	for _, r := range recs {
		for _, ev := range r.Batch.GetEvents() {
			require.NoError(t, reg.Evolve(full, ev))
			commands[ev.GetCommandId()] = r.Position
		}
		states = append(states, proto.CloneOf(full))
		commandsAt = append(commandsAt, maps.Clone(commands))
	}
	want := gmHash(full)
	require.Greater(t, len(recs), 60)
	for i, r := range recs {
		require.NoError(t, b.PutSnapshot(context.Background(), id, &encounterv1.Snapshot{
			Position: r.Position, RuleSystem: loss.ID, FoldVersion: loss.Latest, State: states[i], Commands: commandsAt[i],
		}))
		require.Equal(t, want, coldHash(t, b, id), "snapshot after record %d of %d", i+1, len(recs))
	}
}

func TestSnapshotsOnJetStreamAndUntrustedSnapshots(t *testing.T) {
	_, nc := natstest.Start(t)
	js, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	id := longDuel(t, js, 70)
	snap, err := js.Snapshot(context.Background(), id)
	require.NoError(t, err, "the service wrote snapshots as the fight went")
	require.Equal(t, uint64(64), snap.GetState().GetSequence()/16*16, "the latest at a multiple of 16 events")

	recs, err := js.Load(context.Background(), id, 0)
	require.NoError(t, err)
	var all []*encounterv1.Event
	for _, r := range recs {
		all = append(all, r.Batch.GetEvents()...)
	}
	full, err := systems.Registry().Fold(all)
	require.NoError(t, err)
	require.Equal(t, gmHash(full), coldHash(t, js, id), "snapshot + tail on JetStream")

	// A snapshot folded by another version of the rules is ignored, not trusted: here it
	// claims a state that is wrong, and the load still gives the true one.
	bad := proto.CloneOf(snap)
	bad.FoldVersion = loss.Latest + 1
	bad.GetState().Name = "forged"
	require.NoError(t, js.PutSnapshot(context.Background(), id, bad))
	require.Equal(t, gmHash(full), coldHash(t, js, id))

	// A retried command is still recognised after a load from a snapshot, whether it was
	// recorded before the snapshot (its digest is in the snapshot) or after it (in the log);
	// another command under its id is refused.
	require.NoError(t, js.PutSnapshot(context.Background(), id, snap))
	require.NotEmpty(t, snap.GetRecentCommands(), "the snapshot keeps the latest commands")
	require.NotEmpty(t, snap.GetRecentCommands()[0].GetDigest(), "with their digests")
	require.Empty(t, snap.GetCommands(), "no longer every command id")
	require.Empty(t, snap.GetCommandDigests())
	c := serve(t, js, encounter.Options{Snapshots: js})
	var before, after *encounterv1.Event // a command recorded before the snapshot, the last one
	for _, ev := range all {
		if ev.GetCommand().GetLoss() == nil {
			continue
		}
		if ev.GetSequence() <= snap.GetState().GetSequence() {
			before = ev
		}
		after = ev
	}
	require.NotNil(t, before)
	require.Greater(t, after.GetSequence(), snap.GetState().GetSequence())
	for _, ev := range []*encounterv1.Event{before, after} {
		again, err := c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, CommandId: ev.GetCommandId(), Command: ev.GetCommand()})
		require.NoError(t, err)
		require.Equal(t, ev.GetEventId(), again.GetEvents()[0].GetEventId())
		other := proto.CloneOf(ev.GetCommand())
		other.GetLoss().CombatantId += "x"
		_, err = c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, CommandId: ev.GetCommandId(), Command: other})
		requireCode(t, err, codes.AlreadyExists, "command id \""+ev.GetCommandId()+"\" was already used for another command; use a new id")
	}
	require.Equal(t, len(recs), records(t, js, id), "nothing recorded")
}
