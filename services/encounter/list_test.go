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
	sums, err := m.Summaries(context.Background(), "dev/david")
	require.NoError(t, err)
	require.Len(t, sums, 1)
	require.Equal(t, id, sums[0].EncounterID)
	require.Equal(t, encounterv1.Role_ROLE_PLAYER, sums[0].Members["dev/david"])
	require.False(t, sums[0].LastActivity.IsZero())
}
