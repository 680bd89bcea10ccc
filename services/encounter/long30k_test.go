package encounter_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strconv"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/google/uuid"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// serviceTail is how many of recordJoiningOnJetStream's last commands go through a service:
// enough for it to cross a multiple of SnapshotEvery (8) and write a snapshot.
const serviceTail = 16

// recordJoiningOnJetStream records an n-command encounter on JetStream, the commands opening
// and closing joining under the ids "cmd-<i>" as playJoining's, in a few seconds where
// n Submits would take minutes under the race detector. The create and the first two commands
// go through a service. The next ones, all but the last serviceTail, are those two records
// again (new event ids and times, their sequences and command ids) published in a pipeline as
// the store appends (expected last subject sequence, the Fray-Previous link, the message id
// "<encounter>/<command id>"), each acknowledged at the position it was expected at. The last
// serviceTail go through a new service, which loads the log and writes snapshots as it goes.
// It returns the encounter's id.
func recordJoiningOnJetStream(t testing.TB, js *store.JetStream, n int) string {
	t.Helper()
	require.Greater(t, n, 2+serviceTail)
	ctx := context.Background()
	gm := incoming("gm")
	sum := sha256.Sum256([]byte("fray-long-jetstream"))
	first := newService(js, encounter.Options{NewSeed: func() []byte { return sum[:] }, Snapshots: js})
	created, err := first.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{CommandId: "create-" + uuid.NewString(), Encounter: &encounterv1.CreateEncounter{Name: "Long", RuleSystem: "loss"}})
	require.NoError(t, err)
	id := created.GetEncounterId()
	for i := range 2 {
		_, err := first.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: fmt.Sprintf("cmd-%d", i), Command: joining(i%2 == 0)})
		require.NoError(t, err)
	}
	recs, err := js.Load(ctx, id, 0)
	require.NoError(t, err)
	require.Len(t, recs, 3)
	templates := [2]*encounterv1.EventBatch{recs[1].Batch, recs[2].Batch}
	perCommand := uint64(len(templates[0].GetEvents()))
	require.Len(t, templates[1].GetEvents(), int(perCommand))

	stream := js.JetStream()
	subject := js.Subject(id)
	position := recs[2].Position
	const window = 1000 // acknowledgements awaited after this many publishes
	var pending []jetstream.PubAckFuture
	var want []uint64
	await := func() {
		for k, f := range pending {
			select {
			case ack := <-f.Ok():
				require.Equal(t, want[k], ack.Sequence, "record at its expected position")
				require.False(t, ack.Duplicate)
			case err := <-f.Err():
				t.Fatalf("record at %d: %v", want[k], err)
			case <-time.After(time.Minute):
				t.Fatalf("no acknowledgement for %d", want[k])
			}
		}
		pending, want = pending[:0], want[:0]
	}
	for i := 2; i < n-serviceTail; i++ {
		b := proto.Clone(templates[i%2]).(*encounterv1.EventBatch)
		now := timestamppb.Now()
		cmdID := "cmd-" + strconv.Itoa(i)
		for _, ev := range b.GetEvents() {
			ev.Sequence += uint64(i-i%2) * perCommand
			ev.EventId = uuid.Must(uuid.NewV7()).String()
			ev.Time = now
			ev.CommandId = cmdID
		}
		data, err := proto.Marshal(b)
		require.NoError(t, err)
		msg := &nats.Msg{Subject: subject, Data: data, Header: nats.Header{}}
		msg.Header.Set(store.PreviousHeader, strconv.FormatUint(position, 10))
		f, err := stream.PublishMsgAsync(msg, jetstream.WithExpectLastSequencePerSubject(position), jetstream.WithMsgID(id+"/"+cmdID), jetstream.WithStallWait(time.Minute))
		require.NoError(t, err)
		position++ // nothing else is appended meanwhile: the ack checks it
		pending, want = append(pending, f), append(want, position)
		if len(pending) == window {
			await()
		}
	}
	await()

	last := newService(js, encounter.Options{Snapshots: js, MaxEvents: 200_000})
	for i := n - serviceTail; i < n; i++ {
		if _, err := last.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: fmt.Sprintf("cmd-%d", i), Command: joining(i%2 == 0)}); err != nil {
			t.Fatalf("command %d: %v", i, err)
		}
	}
	return id
}

// foldRecords folds the events of recs.
func foldRecords(t *testing.T, recs []store.Record) *encounterv1.EncounterState {
	t.Helper()
	var all []*encounterv1.Event
	for _, r := range recs {
		all = append(all, r.Batch.GetEvents()...)
	}
	st, err := systems.Registry().Fold(all)
	require.NoError(t, err)
	return st
}

// Issue 13's "done when", on JetStream: a 30,000-command encounter keeps a small snapshot that
// holds the state the log folds to at its position; a fresh service cold-loads it (snapshot +
// tail) to the state a replay of the whole log folds to; one of its commands recorded in the
// pipeline, sent again, meets the duplicate it recorded; and one more command after the cold
// load is recorded once, after the last, and the log replays to the state the service holds.
func TestA30000CommandEncounterOnJetStreamSnapshotsColdLoadsAndReplays(t *testing.T) {
	n := 30_000
	if testing.Short() {
		n = 3_000
	}
	ctx := context.Background()
	_, nc := natstest.Start(t)
	js, err := store.Open(ctx, nc, store.Config{})
	require.NoError(t, err)
	started := time.Now()
	id := recordJoiningOnJetStream(t, js, n)
	recorded := time.Since(started)

	recs, err := js.Load(ctx, id, 0)
	require.NoError(t, err)
	require.Len(t, recs, n+1, "the create and n commands")
	for i, r := range recs[1:] {
		require.Equal(t, fmt.Sprintf("cmd-%d", i), r.Batch.GetEvents()[0].GetCommandId())
	}
	full := foldRecords(t, recs)

	snap, err := js.Snapshot(ctx, id)
	require.NoError(t, err)
	size := proto.Size(snap)
	require.Less(t, size, 24<<10, "the snapshot is bounded by the encounter, not its history")
	require.Len(t, snap.GetRecentCommands(), encounter.DefaultRecentCommands)
	require.Empty(t, snap.GetCommands())
	require.Greater(t, snap.GetPosition(), recs[n-serviceTail].Position, "written by the last commands")
	at := 0
	for at < len(recs) && recs[at].Position <= snap.GetPosition() {
		at++
	}
	require.True(t, proto.Equal(foldRecords(t, recs[:at]), snap.GetState()), "the snapshot holds the state the log folds to at its position")
	require.Equal(t, "cmd-"+strconv.Itoa(at-2), snap.GetRecentCommands()[encounter.DefaultRecentCommands-1].GetCommandId())

	gm := incoming("gm")
	cold := newService(js, encounter.Options{Snapshots: js})
	loadStart := time.Now()
	got, err := cold.GetEncounter(gm, &encounterv1.GetEncounterRequest{EncounterId: id})
	loaded := time.Since(loadStart)
	require.NoError(t, err)
	require.Equal(t, gmHash(full), got.GetStateSha256(), "snapshot + tail folds to the replay of the whole log")
	require.Equal(t, uint64(n+1), got.GetState().GetSequence())
	t.Logf("%d commands: recorded in %v; snapshot of %d bytes at position %d of %d (state %d bytes); cold load %v",
		n, recorded.Round(time.Millisecond), size, snap.GetPosition(), recs[n].Position, proto.Size(snap.GetState()), loaded)

	// A command recorded in the pipeline carries the service's message id: sent again, it
	// meets the duplicate (the stream's 24h window) and gets the events it recorded.
	again, err := cold.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "cmd-2", Command: joining(true)})
	require.NoError(t, err)
	require.Equal(t, eventIDs(recs[3].Batch.GetEvents()), eventIDs(again.GetEvents()))

	open := !got.GetState().GetJoiningOpen()
	after, err := cold.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "after", Command: joining(open)})
	require.NoError(t, err)
	require.Equal(t, uint64(n+2), after.GetState().GetSequence())
	require.Equal(t, open, after.GetState().GetJoiningOpen())
	tail, err := js.Load(ctx, id, recs[n].Position)
	require.NoError(t, err)
	require.Len(t, tail, 1, "the retry recorded nothing, the new command once")
	require.Equal(t, "after", tail[0].Batch.GetEvents()[0].GetCommandId())
	require.Equal(t, uint64(n+2), tail[0].Batch.GetEvents()[0].GetSequence())
	now, err := cold.GetEncounter(gm, &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	require.Equal(t, gmHash(foldRecords(t, append(recs, tail...))), now.GetStateSha256(), "the log replays to the state the service holds")
}
