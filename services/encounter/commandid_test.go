package encounter_test

import (
	"context"
	"sync"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

func backends(t *testing.T) map[string]func() backend {
	return map[string]func() backend{
		"memory": func() backend { return store.NewMemory() },
		"jetstream": func() backend {
			_, nc := natstest.Start(t)
			js, err := store.Open(context.Background(), nc, store.Config{})
			require.NoError(t, err)
			return js
		},
	}
}

func joining(open bool) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_SetJoining{SetJoining: &encounterv1.SetJoining{Open: open}}}
}

func eventIDs(events []*encounterv1.Event) []string {
	var ids []string
	for _, ev := range events {
		ids = append(ids, ev.GetEventId())
	}
	return ids
}

// A command id sent again with the same command gets what it recorded; with another command
// it is refused, naming the id, and nothing is recorded. So for a create.
func TestAReusedCommandIDWithAnotherCommandIsRefused(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			b := open()
			c := serve(t, b, encounter.Options{Snapshots: b})
			gm := as("gm")
			id := create(t, c)

			first, err := c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "open-1", Command: joining(true)})
			require.NoError(t, err)
			recs, err := b.Load(context.Background(), id, 0)
			require.NoError(t, err)
			last := recs[len(recs)-1].Batch.GetEvents()[0]
			require.Equal(t, engine.CommandDigest(joining(true), "dev/gm"), last.GetCommandDigest(), "the digest is recorded with the command")

			again, err := c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "open-1", Command: joining(true)})
			require.NoError(t, err, "the same command sent again")
			require.Equal(t, eventIDs(first.GetEvents()), eventIDs(again.GetEvents()))

			_, err = c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "open-1", Command: joining(false)})
			requireCode(t, err, codes.AlreadyExists, `command id "open-1" was already used for another command; use a new id`)
			_, err = c.EndEncounter(gm, &encounterv1.EndEncounterRequest{EncounterId: id, CommandId: "open-1", Reason: "done"})
			requireCode(t, err, codes.AlreadyExists, `command id "open-1" was already used for another command`)
			// Another caller's reuse is refused as before.
			_, err = c.AddCombatant(as("sam"), &encounterv1.AddCombatantRequest{EncounterId: id, CommandId: "open-1", Combatant: fighter("slow", "sam", 0, sword(20))})
			requireCode(t, err, codes.AlreadyExists, "used by someone else")
			require.Equal(t, len(recs), records(t, b, id), "nothing recorded")

			// After a restart (a cold load), the same.
			cold := serve(t, b, encounter.Options{Snapshots: b})
			_, err = cold.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "open-1", Command: joining(false)})
			requireCode(t, err, codes.AlreadyExists, `"open-1"`)
			again, err = cold.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "open-1", Command: joining(true)})
			require.NoError(t, err)
			require.Equal(t, eventIDs(first.GetEvents()), eventIDs(again.GetEvents()))

			// A create: the same sent again names the same encounter; another is refused.
			mk := func(name string) (*encounterv1.CreateEncounterResponse, error) {
				return c.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{CommandId: "new-1", Encounter: &encounterv1.CreateEncounter{Name: name, RuleSystem: "loss"}})
			}
			made, err := mk("Ruelle")
			require.NoError(t, err)
			remade, err := mk("Ruelle")
			require.NoError(t, err)
			require.Equal(t, made.GetEncounterId(), remade.GetEncounterId())
			require.Equal(t, eventIDs(made.GetEvents()), eventIDs(remade.GetEvents()))
			_, err = mk("Quai")
			requireCode(t, err, codes.AlreadyExists, `command id "new-1" was already used for another command`)
			require.Equal(t, 1, records(t, b, made.GetEncounterId()))
		})
	}
}

// olderService records as the service did before digests: without them.
type olderService struct{ backend }

func (o olderService) Append(ctx context.Context, id string, expected uint64, msgID string, batch *encounterv1.EventBatch) (store.Appended, error) {
	batch = proto.CloneOf(batch)
	for _, ev := range batch.GetEvents() {
		ev.CommandDigest = nil
	}
	return o.backend.Append(ctx, id, expected, msgID, batch)
}

// A command recorded without a digest is compared by the command recorded with it.
func TestACommandRecordedWithoutADigestIsComparedByItsCommand(t *testing.T) {
	b := store.NewMemory()
	old := serve(t, olderService{b}, encounter.Options{})
	gm := as("gm")
	id := create(t, old)
	first, err := old.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "open-1", Command: joining(true)})
	require.NoError(t, err)
	made, err := old.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{CommandId: "new-1", Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}})
	require.NoError(t, err)
	n := records(t, b, id)

	c := serve(t, b, encounter.Options{})
	again, err := c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "open-1", Command: joining(true)})
	require.NoError(t, err)
	require.Equal(t, eventIDs(first.GetEvents()), eventIDs(again.GetEvents()))
	_, err = c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, CommandId: "open-1", Command: joining(false)})
	requireCode(t, err, codes.AlreadyExists, `command id "open-1" was already used for another command`)
	require.Equal(t, n, records(t, b, id))

	remade, err := c.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{CommandId: "new-1", Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}})
	require.NoError(t, err)
	require.Equal(t, made.GetEncounterId(), remade.GetEncounterId())
	_, err = c.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{CommandId: "new-1", Encounter: &encounterv1.CreateEncounter{Name: "Quai", RuleSystem: "loss"}})
	requireCode(t, err, codes.AlreadyExists, `"new-1"`)
}

// N creates sent at once with one command id, over gRPC on JetStream, leave one encounter
// and one dice seed, the one it committed to, and every caller is told the same encounter.
func TestConcurrentCreatesWithOneCommandIDMakeOneEncounterAndOneSeed(t *testing.T) {
	const n = 20
	_, nc := natstest.Start(t)
	js, err := store.Open(context.Background(), nc, store.Config{})
	require.NoError(t, err)
	c := serve(t, js, encounter.Options{}) // a fresh random seed for each create
	req := &encounterv1.CreateEncounterRequest{CommandId: "once", Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}}

	ids := make([]string, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			resp, err := c.CreateEncounter(as("gm"), req)
			ids[i], errs[i] = resp.GetEncounterId(), err
		}()
	}
	close(start)
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i], "create %d", i)
		require.Equal(t, ids[0], ids[i], "create %d", i)
	}

	listed, err := js.List(context.Background())
	require.NoError(t, err)
	require.Equal(t, []string{ids[0]}, listed, "one encounter")
	require.Equal(t, 1, records(t, js, ids[0]), "one creation recorded")
	kv, err := js.JetStream().KeyValue(context.Background(), "FRAY_SEEDS")
	require.NoError(t, err)
	keys, err := kv.ListKeys(context.Background())
	require.NoError(t, err)
	var seeds []string
	for k := range keys.Keys() {
		seeds = append(seeds, k)
	}
	require.Equal(t, []string{ids[0]}, seeds, "one seed, the encounter's")
	seed, err := js.Seed(context.Background(), ids[0])
	require.NoError(t, err)
	recs, err := js.Load(context.Background(), ids[0], 0)
	require.NoError(t, err)
	require.Equal(t, dice.Commitment(seed), recs[0].Batch.GetEvents()[0].GetEncounterCreated().GetSeedSha256(), "the seed stored is the one the encounter committed to")
}
