package encounter_test

import (
	"context"
	"sync"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
)

// tick is a clock that moves a minute at each reading.
func tick() func() time.Time {
	var mu sync.Mutex
	now := time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Minute)
		return now
	}
}

func grantCmd(p string, role encounterv1.Role, combatants ...string) *encounterv1.Command {
	return &encounterv1.Command{Kind: &encounterv1.Command_GrantRole{GrantRole: &encounterv1.GrantRole{Principal: p, Role: role, CombatantIds: combatants}}}
}

// ListEncounters lists the caller's encounters only, with its role, the most recently active
// first, a page at a time; a bad page size or token is InvalidArgument; another tenant's GM
// sees none of them.
func TestListEncountersPagesTheCallersEncountersByActivity(t *testing.T) {
	t.Run("memory index", func(t *testing.T) { testList(t, store.NewMemory()) })
	t.Run("jetstream index", func(t *testing.T) {
		_, nc := natstest.Start(t)
		js, err := store.Open(context.Background(), nc, store.Config{})
		require.NoError(t, err)
		testList(t, js)
	})
	t.Run("no index: every encounter read", func(t *testing.T) { testList(t, &rival{backend: store.NewMemory(), first: func() {}}) })
}

func testList(t *testing.T, b backend) {
	c := serve(t, b, encounter.Options{Now: tick()})
	gm := as("gm")
	var ids []string // oldest first
	for range 5 {
		ids = append(ids, create(t, c))
	}
	// David plays in the second; the first is touched last.
	_, err := c.AddCombatant(gm, &encounterv1.AddCombatantRequest{EncounterId: ids[1], Combatant: fighter("diego", "david", 8, sword(4))})
	require.NoError(t, err)
	_, err = c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: ids[0], Command: grantCmd("erin", encounterv1.Role_ROLE_OBSERVER)})
	require.NoError(t, err)
	want := []string{ids[0], ids[1], ids[4], ids[3], ids[2]}

	list := func(ctx context.Context, size int32, token string) *encounterv1.ListEncountersResponse {
		t.Helper()
		r, err := c.ListEncounters(ctx, &encounterv1.ListEncountersRequest{PageSize: size, PageToken: token})
		require.NoError(t, err)
		return r
	}
	var got []string
	token := ""
	for pages := 1; ; pages++ {
		r := list(gm, 2, token)
		for _, e := range r.GetEncounters() {
			got = append(got, e.GetEncounterId())
			require.Equal(t, encounterv1.Role_ROLE_GM, e.GetRole())
			require.Equal(t, "Ruelle", e.GetName())
		}
		if token = r.GetNextPageToken(); token == "" {
			require.Equal(t, 3, pages)
			break
		}
	}
	require.Equal(t, want, got, "the most recently active first")
	all := list(gm, 0, "")
	require.Len(t, all.GetEncounters(), 5)
	require.Empty(t, all.GetNextPageToken())
	require.True(t, all.GetEncounters()[0].GetLastActivity().AsTime().After(all.GetEncounters()[1].GetLastActivity().AsTime()))

	d := list(as("david"), 0, "")
	require.Len(t, d.GetEncounters(), 1)
	require.Equal(t, ids[1], d.GetEncounters()[0].GetEncounterId())
	require.Equal(t, encounterv1.Role_ROLE_PLAYER, d.GetEncounters()[0].GetRole())
	require.Equal(t, encounterv1.Role_ROLE_OBSERVER, list(as("erin"), 0, "").GetEncounters()[0].GetRole())
	require.Empty(t, list(as("sam"), 0, "").GetEncounters(), "a stranger of the tenant has none")
	other := authtest.WithToken(context.Background(), authtest.Default().Mint(authtest.Default().Ed, authtest.Claims("guild", "gm")))
	require.Empty(t, list(other, 0, "").GetEncounters(), "the GM of another tenant, named gm too, has none")

	// Revoked, erin lists it no more.
	_, err = c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: ids[0], Command: &encounterv1.Command{Kind: &encounterv1.Command_RevokeRole{
		RevokeRole: &encounterv1.RevokeRole{Principal: "erin", Role: encounterv1.Role_ROLE_OBSERVER}}}})
	require.NoError(t, err)
	require.Empty(t, list(as("erin"), 0, "").GetEncounters())

	for _, bad := range []*encounterv1.ListEncountersRequest{{PageSize: -1}, {PageSize: 201}, {PageToken: "not-a-token"}, {PageToken: "e30"}} {
		_, err := c.ListEncounters(gm, bad)
		requireCode(t, err, codes.InvalidArgument)
	}
	_, err = c.ListEncounters(gm, &encounterv1.ListEncountersRequest{PageSize: 200})
	require.NoError(t, err)
}

// A watcher whose role is revoked sees the revocation, then its watch ends: PermissionDenied.
func TestWatchEndsWhenTheRoleIsRevoked(t *testing.T) {
	c := serve(t, store.NewMemory(), encounter.Options{})
	id := create(t, c)
	gm := as("gm")
	_, err := c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, Command: grantCmd("erin", encounterv1.Role_ROLE_OBSERVER)})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(as("erin"))
	defer cancel()
	w, err := c.WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	for range 2 {
		_, err := w.Recv()
		require.NoError(t, err)
	}
	_, err = c.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_RevokeRole{
		RevokeRole: &encounterv1.RevokeRole{Principal: "erin", Role: encounterv1.Role_ROLE_OBSERVER}}}})
	require.NoError(t, err)
	r, err := w.Recv()
	require.NoError(t, err)
	require.NotNil(t, r.GetEvent().GetRoleRevoked())
	_, err = w.Recv()
	requireCode(t, err, codes.PermissionDenied, "no longer has a role")
}

// A retried command id returns what it recorded to the one who gave it, never to another.
func TestACommandIDIsTheCallersOwn(t *testing.T) {
	b := store.NewMemory()
	c := serve(t, b, encounter.Options{})
	id := create(t, c)
	_, err := c.Submit(as("gm"), &encounterv1.SubmitRequest{EncounterId: id, CommandId: "open", Command: &encounterv1.Command{Kind: &encounterv1.Command_SetJoining{SetJoining: &encounterv1.SetJoining{Open: true}}}})
	require.NoError(t, err)
	_, err = c.AddCombatant(as("sam"), &encounterv1.AddCombatantRequest{EncounterId: id, CommandId: "open", Combatant: fighter("slow", "sam", 0, sword(20))})
	requireCode(t, err, codes.AlreadyExists, "fresh id")
	require.Equal(t, 2, records(t, b, id))
}

// An index that holds nothing while the log holds encounters is rebuilt from the log.
func TestAnEmptyIndexIsRebuiltFromTheLog(t *testing.T) {
	m := store.NewMemory()
	before := serve(t, &rival{backend: m, first: func() {}}, encounter.Options{}) // writes no index
	id := create(t, before)
	_, err := before.AddCombatant(as("gm"), &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("diego", "david", 8, sword(4))})
	require.NoError(t, err)
	indexed, err := m.Indexed(context.Background())
	require.NoError(t, err)
	require.False(t, indexed)

	svc := encounter.New(m, m, encounter.LocalDecider{Registry: systems.Registry()}, systems.Registry(), encounter.Options{})
	svc.ReindexIfEmpty(context.Background())
	sums, err := store.Summaries(context.Background(), m, "dev/david")
	require.NoError(t, err)
	require.Len(t, sums, 1)
	require.Equal(t, id, sums[0].EncounterID)
	require.Equal(t, encounterv1.Role_ROLE_PLAYER, sums[0].Members["dev/david"])
	require.False(t, sums[0].LastActivity.IsZero())
}

// countingIndex passes each summary written on to the index and to puts.
type countingIndex struct {
	store.Index
	puts chan store.Summary
}

func (c countingIndex) PutSummary(ctx context.Context, s store.Summary) error {
	err := c.Index.PutSummary(ctx, s)
	c.puts <- s
	return err
}

// written are the summaries written since the last call.
func (c countingIndex) written() []store.Summary {
	var out []store.Summary
	for {
		select {
		case s := <-c.puts:
			out = append(out, s)
		default:
			return out
		}
	}
}

// A command that changes nothing ListEncounters shows but the encounter's sequence and last
// activity writes nothing into the index: its summary is written IndexDelay later (or by
// FlushIndex), once for all the commands in between, and this service lists them at once; a
// command that changes a listed field (members, roles, status) writes it at once.
func TestTheIndexIsWrittenWhenWhatItListsChanges(t *testing.T) {
	for _, tc := range []struct {
		name    string
		backend func(t *testing.T) backend
	}{
		{"memory index", func(*testing.T) backend { return store.NewMemory() }},
		{"jetstream index", func(t *testing.T) backend {
			_, nc := natstest.Start(t)
			js, err := store.Open(context.Background(), nc, store.Config{})
			require.NoError(t, err)
			return js
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.backend(t)
			idx := countingIndex{Index: b.(store.Index), puts: make(chan store.Summary, 64)}
			reg := systems.Registry()
			svc := encounter.New(b, b, encounter.LocalDecider{Registry: reg}, reg, encounter.Options{Index: idx, IndexDelay: time.Hour, Now: tick()})
			ctx, gm := context.Background(), incoming("gm")
			created, err := svc.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}})
			require.NoError(t, err)
			id := created.GetEncounterId()
			require.Len(t, idx.written(), 1, "a new encounter is written at once")
			listed := func(svc *encounter.Service, who string) *encounterv1.EncounterSummary {
				t.Helper()
				r, err := svc.ListEncounters(incoming(who), &encounterv1.ListEncountersRequest{})
				require.NoError(t, err)
				require.Len(t, r.GetEncounters(), 1)
				return r.GetEncounters()[0]
			}

			// Opening it to players changes its sequence only: nothing written, yet listed.
			r, err := svc.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, Command: joining(true)})
			require.NoError(t, err)
			require.Empty(t, idx.written(), "only the sequence and activity changed")
			got := listed(svc, "gm")
			require.Equal(t, r.GetState().GetSequence(), got.GetSequence())
			require.Equal(t, r.GetEvents()[0].GetTime().AsTime(), got.GetLastActivity().AsTime())

			// David's combatant makes him a player: written at once, his sequence with it.
			added, err := svc.AddCombatant(gm, &encounterv1.AddCombatantRequest{EncounterId: id, Combatant: fighter("diego", "david", 8, sword(4))})
			require.NoError(t, err)
			w := idx.written()
			require.Len(t, w, 1, "a new member is written at once")
			require.Equal(t, encounterv1.Role_ROLE_PLAYER, w[0].Members["dev/david"])
			require.Equal(t, added.GetState().GetSequence(), w[0].Sequence)
			require.Equal(t, encounterv1.Role_ROLE_PLAYER, listed(svc, "david").GetRole())

			// Closing it again: nothing written; another replica reading the index lists the
			// sequence written until the due summary is written.
			r, err = svc.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, Command: joining(false)})
			require.NoError(t, err)
			require.Empty(t, idx.written())
			other := encounter.New(b, b, encounter.LocalDecider{Registry: reg}, reg, encounter.Options{Index: idx})
			require.Equal(t, r.GetState().GetSequence()-1, listed(other, "gm").GetSequence())
			require.Equal(t, r.GetState().GetSequence(), listed(svc, "gm").GetSequence())
			svc.FlushIndex(ctx)
			w = idx.written()
			require.Len(t, w, 1)
			require.Equal(t, r.GetState().GetSequence(), w[0].Sequence)
			require.Equal(t, r.GetState().GetSequence(), listed(other, "gm").GetSequence())
			svc.FlushIndex(ctx)
			require.Empty(t, idx.written(), "nothing is due twice")

			// Granting a role and ending the encounter are written at once.
			_, err = svc.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, Command: grantCmd("erin", encounterv1.Role_ROLE_OBSERVER)})
			require.NoError(t, err)
			require.Len(t, idx.written(), 1, "a role granted is written at once")
			require.Equal(t, encounterv1.Role_ROLE_OBSERVER, listed(other, "erin").GetRole())
			r, err = svc.Submit(gm, &encounterv1.SubmitRequest{EncounterId: id, Command: &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{}}}})
			require.NoError(t, err)
			w = idx.written()
			require.Len(t, w, 1, "the end is written at once")
			require.Equal(t, encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED, w[0].Status)
			require.Equal(t, encounterv1.EncounterStatus_ENCOUNTER_STATUS_ENDED, listed(other, "gm").GetStatus())
			require.Equal(t, r.GetState().GetSequence(), listed(other, "gm").GetSequence())
		})
	}
}

// A summary due in the index is written IndexDelay after the command, by itself.
func TestADueSummaryIsWrittenAfterTheDelay(t *testing.T) {
	b := store.NewMemory()
	idx := countingIndex{Index: b, puts: make(chan store.Summary, 64)}
	reg := systems.Registry()
	svc := encounter.New(b, b, encounter.LocalDecider{Registry: reg}, reg, encounter.Options{Index: idx, IndexDelay: time.Millisecond})
	gm := incoming("gm")
	created, err := svc.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}})
	require.NoError(t, err)
	require.Equal(t, uint64(1), (<-idx.puts).Sequence)
	for i := range 3 {
		_, err := svc.Submit(gm, &encounterv1.SubmitRequest{EncounterId: created.GetEncounterId(), Command: joining(i%2 == 0)})
		require.NoError(t, err)
	}
	for {
		select {
		case s := <-idx.puts:
			if s.Sequence == 4 {
				return
			}
		case <-time.After(patience):
			t.Fatal("the summary of sequence 4 was never written")
		}
	}
}

// A due summary whose write fails is tried again later, unless the connection to the index was
// closed (the service is stopping): then it is dropped, not retried every IndexDelay for ever.
func TestAFailedDueSummaryIsRetriedUnlessTheConnectionIsClosed(t *testing.T) {
	for _, tc := range []struct {
		name  string
		err   error
		again int
	}{
		{"NATS reconnecting", &store.UnavailableError{Why: "NATS is reconnecting"}, 1},
		{"NATS closed", &store.UnavailableError{Why: "NATS is closed", Closed: true}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := store.NewMemory()
			idx := &switchingIndex{Index: b}
			reg := systems.Registry()
			svc := encounter.New(b, b, encounter.LocalDecider{Registry: reg}, reg, encounter.Options{Index: idx, IndexDelay: time.Hour})
			gm := incoming("gm")
			created, err := svc.CreateEncounter(gm, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Ruelle", RuleSystem: "loss"}})
			require.NoError(t, err)
			_, err = svc.Submit(gm, &encounterv1.SubmitRequest{EncounterId: created.GetEncounterId(), Command: joining(true)})
			require.NoError(t, err)
			require.Equal(t, 1, svc.IndexDue(), "the sequence alone changed: its write is due")
			idx.fail(tc.err)
			svc.FlushIndex(context.Background())
			require.Equal(t, tc.again, svc.IndexDue())
		})
	}
}

// switchingIndex writes into Index until fail is called, then refuses every summary.
type switchingIndex struct {
	store.Index
	mu  sync.Mutex
	err error
}

func (s *switchingIndex) fail(err error) { s.mu.Lock(); s.err = err; s.mu.Unlock() }

func (s *switchingIndex) PutSummary(ctx context.Context, sum store.Summary) error {
	s.mu.Lock()
	err := s.err
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return s.Index.PutSummary(ctx, sum)
}
