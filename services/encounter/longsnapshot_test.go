package encounter_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// countingSeeds counts the reads of the seed bucket.
type countingSeeds struct {
	backend
	reads atomic.Int64
}

func (c *countingSeeds) Seed(ctx context.Context, id string) ([]byte, error) {
	c.reads.Add(1)
	return c.backend.Seed(ctx, id)
}

// playJoining records n commands that open and close joining, each under the command id
// "cmd-<i>", straight on the service; it returns the encounter's id and its create's command id.
func playJoining(t testing.TB, svc *encounter.Service, n int) (string, string) {
	gm := incoming("gm")
	created, err := svc.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{CommandId: "create-1", Encounter: &encounterv1.CreateEncounter{Name: "Long", RuleSystem: "loss"}})
	require.NoError(t, err)
	id := created.GetEncounterId()
	for i := range n {
		if _, err := svc.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: fmt.Sprintf("cmd-%d", i), Command: joining(i%2 == 0)}); err != nil {
			t.Fatalf("command %d: %v", i, err)
		}
	}
	return id, "create-1"
}

func newService(b backend, opts encounter.Options) *encounter.Service {
	reg := systems.Registry()
	if opts.Log == nil {
		opts.Log = telemetry.NewLogger("text", "error")
	}
	return encounter.New(b, b, encounter.LocalDecider{Registry: reg}, reg, opts)
}

// A 30,000-command encounter keeps a small snapshot (the state and the latest command ids,
// not every id ever recorded), a new service loads it to the state a replay of the log folds
// to, and a retry of its first commands, long out of the snapshot, is still recognised: the
// same command gets what it recorded, another under its id is refused.
func TestALongEncounterSnapshotsSmallAndStillKnowsItsFirstCommands(t *testing.T) {
	n := 30_000
	if testing.Short() {
		n = 3_000
	}
	sum := sha256.Sum256([]byte("fray-long"))
	b := store.NewMemory()
	svc := newService(b, encounter.Options{NewSeed: func() []byte { return sum[:] }, Snapshots: b, MaxEvents: 200_000})
	id, createID := playJoining(t, svc, n)
	ctx := context.Background()
	snap, err := b.Snapshot(ctx, id)
	require.NoError(t, err)
	size := proto.Size(snap)
	t.Logf("%d commands: snapshot of %d bytes (state %d bytes, %d recent command ids)", n, size, proto.Size(snap.GetState()), len(snap.GetRecentCommands()))
	require.Less(t, size, 24<<10, "the snapshot is bounded by the encounter, not its history")
	require.Len(t, snap.GetRecentCommands(), encounter.DefaultRecentCommands)
	require.False(t, snap.GetRecentCommandsComplete())
	require.Empty(t, snap.GetCommands())

	recs, err := b.Load(ctx, id, 0)
	require.NoError(t, err)
	var all []*encounterv1.Event
	for _, r := range recs {
		all = append(all, r.Batch.GetEvents()...)
	}
	full, err := systems.Registry().Fold(all)
	require.NoError(t, err)

	cold := newService(b, encounter.Options{Snapshots: b})
	got, err := cold.GetEncounter(incoming("gm"), &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	require.Equal(t, gmHash(full), got.GetStateSha256(), "snapshot + tail folds to the replay of the log")
	require.Equal(t, full.GetSequence(), got.GetState().GetSequence())

	first := recs[1].Batch.GetEvents()[0]
	require.Equal(t, "cmd-0", first.GetCommandId())
	require.False(t, got.GetState().GetJoiningOpen(), "cmd-1 closed joining; the last command closed it too")
	gm := incoming("gm")
	// Either the log's duplicate window covers the encounter's first commands (the memory
	// log's is endless) and their retries meet the duplicate on append, or the service reads
	// the log for them (no window): the same answers.
	for name, window := range map[string]time.Duration{"within the duplicate window": 0, "read from the log": -1} {
		t.Run(name, func(t *testing.T) {
			cold := newService(b, encounter.Options{Snapshots: b, DuplicateWindow: window})
			again, err := cold.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "cmd-0", Command: joining(true)})
			require.NoError(t, err, "the same first command sent again")
			require.Equal(t, eventIDs(recs[1].Batch.GetEvents()), eventIDs(again.GetEvents()))
			_, err = cold.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "cmd-1", Command: joining(true)})
			requireCode(t, err, codes.AlreadyExists, `command id "cmd-1" was already used for another command`)
			// So for the create.
			created, err := cold.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{CommandId: createID, Encounter: &encounterv1.CreateEncounter{Name: "Long", RuleSystem: "loss"}})
			require.NoError(t, err)
			require.Equal(t, id, created.GetEncounterId())
			require.Equal(t, eventIDs(recs[0].Batch.GetEvents()), eventIDs(created.GetEvents()))
			require.Equal(t, len(recs), records(t, b, id), "nothing recorded")
		})
	}
	cold = newService(b, encounter.Options{Snapshots: b, DuplicateWindow: -1})
	_, err = cold.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "cmd-2", Command: joining(false)})
	requireCode(t, err, codes.AlreadyExists, `"cmd-2"`)

	// A new command id is recorded, once.
	_, err = cold.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "new", Command: joining(n%2 == 0)})
	require.NoError(t, err)
	require.Equal(t, len(recs)+1, records(t, b, id))
}

// A snapshot written before they were bounded (every command id, fields commands and
// command_digests) still loads, and knows every id without reading the log.
func TestAnOldSnapshotWithEveryCommandIDStillLoads(t *testing.T) {
	sum := sha256.Sum256([]byte("fray-old-snapshot"))
	b := store.NewMemory()
	svc := newService(b, encounter.Options{NewSeed: func() []byte { return sum[:] }, Snapshots: b, RecentCommands: 4})
	id, _ := playJoining(t, svc, 40)
	ctx := context.Background()
	snap, err := b.Snapshot(ctx, id)
	require.NoError(t, err)
	recs, err := b.Load(ctx, id, 0)
	require.NoError(t, err)
	old := &encounterv1.Snapshot{Position: snap.GetPosition(), RuleSystem: snap.GetRuleSystem(), FoldVersion: snap.GetFoldVersion(),
		State: snap.GetState(), Commands: map[string]uint64{}, CommandDigests: map[string][]byte{}}
	for _, r := range recs {
		if r.Position > snap.GetPosition() {
			break
		}
		ev := r.Batch.GetEvents()[0]
		old.Commands[ev.GetCommandId()] = r.Position
		old.CommandDigests[ev.GetCommandId()] = ev.GetCommandDigest()
	}
	require.NoError(t, b.PutSnapshot(ctx, id, old))
	cold := newService(b, encounter.Options{Snapshots: b, RecentCommands: 4})
	gm := incoming("gm")
	again, err := cold.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "cmd-0", Command: joining(true)})
	require.NoError(t, err)
	require.Equal(t, eventIDs(recs[1].Batch.GetEvents()), eventIDs(again.GetEvents()))
	_, err = cold.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "cmd-3", Command: joining(true)})
	requireCode(t, err, codes.AlreadyExists, `"cmd-3"`)
	require.Equal(t, len(recs), records(t, b, id), "nothing recorded")
}

// The dice seed is read from the bucket once per load, not once per command; an ended
// encounter's seed leaves the bucket (its log reveals it).
func TestTheSeedIsReadOncePerLoad(t *testing.T) {
	sum := sha256.Sum256([]byte("fray-seed-cache"))
	b := &countingSeeds{backend: store.NewMemory()}
	svc := newService(b, encounter.Options{NewSeed: func() []byte { return sum[:] }, Snapshots: b})
	id, _ := playJoining(t, svc, 50)
	require.Equal(t, int64(1), b.reads.Load(), "one read for 50 commands")

	cold := newService(b, encounter.Options{Snapshots: b})
	gm := incoming("gm")
	for i := range 10 {
		_, err := cold.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, Command: joining(i%2 == 0)})
		require.NoError(t, err)
	}
	require.Equal(t, int64(2), b.reads.Load(), "one more for the new service's load")

	_, err := cold.EndEncounter(gm, &encounterv1.EndEncounterRequest{EncounterId: id, Reason: "done"})
	require.NoError(t, err)
	_, err = b.Seed(context.Background(), id)
	require.ErrorIs(t, err, store.ErrNotFound, "the ended encounter's seed left the bucket")
}

// On JetStream, a retry of a command id older than the latest a snapshot keeps meets the
// stream's duplicate window (24h) on append: the same command gets what it recorded, another
// is refused, and nothing is recorded, without reading the log for it.
func TestOnJetStreamAnOldCommandIDMeetsTheDuplicateWindow(t *testing.T) {
	_, nc := natstest.Start(t)
	js, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	require.Equal(t, 24*time.Hour, js.DuplicateWindow())
	sum := sha256.Sum256([]byte("fray-js-dedupe"))
	svc := newService(js, encounter.Options{NewSeed: func() []byte { return sum[:] }, Snapshots: js, RecentCommands: 2})
	id, _ := playJoining(t, svc, 20)
	recs, err := js.Load(context.Background(), id, 0)
	require.NoError(t, err)

	cold := newService(js, encounter.Options{Snapshots: js, RecentCommands: 2})
	gm := incoming("gm")
	again, err := cold.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "cmd-0", Command: joining(true)})
	require.NoError(t, err)
	require.Equal(t, eventIDs(recs[1].Batch.GetEvents()), eventIDs(again.GetEvents()))
	_, err = cold.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "cmd-1", Command: joining(true)})
	requireCode(t, err, codes.AlreadyExists, `command id "cmd-1" was already used for another command`)
	require.Equal(t, len(recs), records(t, js, id), "nothing recorded")
}

// Issue 31: an encounter this service played kept every command id ever recorded in memory
// (fray dev's memory grew by tens of MiB a minute at a steady load, most of it those ids).
// Within the log's duplicate window it holds the latest only (RecentCommands), and a retry of
// an older id on the same, warm service still meets the window: the same command gets what it
// recorded, another is refused, nothing is recorded.
func TestAPlayedEncounterHoldsTheLatestCommandIDsOnly(t *testing.T) {
	_, nc := natstest.Start(t)
	js, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	sum := sha256.Sum256([]byte("fray-held-ids"))
	svc := newService(js, encounter.Options{NewSeed: func() []byte { return sum[:] }, Snapshots: js, RecentCommands: 2})
	id, _ := playJoining(t, svc, 40)
	require.Equal(t, 2, svc.CommandIDsHeld(id), "the latest 2 of 41 command ids")
	recs, err := js.Load(context.Background(), id, 0)
	require.NoError(t, err)

	gm := incoming("gm")
	again, err := svc.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "cmd-0", Command: joining(true)})
	require.NoError(t, err)
	require.Equal(t, eventIDs(recs[1].Batch.GetEvents()), eventIDs(again.GetEvents()))
	_, err = svc.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "cmd-1", Command: joining(true)})
	requireCode(t, err, codes.AlreadyExists, `command id "cmd-1" was already used for another command`)
	require.Equal(t, len(recs), records(t, js, id), "nothing recorded")
	require.LessOrEqual(t, svc.CommandIDsHeld(id), 2)
}
