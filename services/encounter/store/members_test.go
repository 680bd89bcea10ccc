package store_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

// memberships counts, for each encounter, how many times Memberships passed it.
func memberships(t *testing.T, idx store.Index, principal string) map[string]int {
	t.Helper()
	seen := map[string]int{}
	require.NoError(t, idx.Memberships(context.Background(), principal, func(s store.Summary) error {
		require.Len(t, s.Members, 1, "a listing names its principal alone")
		_, ok := s.Members[principal]
		require.True(t, ok, "%s listed to %s", s.EncounterID, principal)
		seen[s.EncounterID]++
		return nil
	}))
	return seen
}

// Each membership is a key of its own, m.<tenant>.<subject>.<encounter>, whatever a tenant
// or a subject holds (dots, wildcards, accents: printable characters but '/'), and a principal
// lists its encounters only, not those of a principal whose name begins like its own.
func TestEachMembershipIsAKeyOfItsOwn(t *testing.T) {
	ctx := context.Background()
	s := natstest.StartSecured(t)
	st, err := store.Open(ctx, s.Encounter, store.Config{})
	require.NoError(t, err)
	principals := []string{"dev/gm", "dev/gm.x", "dev.x/gm", "dév/*>", "dev/>", "noslash", "t/s=", "a/b/c"}
	for i, p := range principals {
		require.NoError(t, st.PutSummary(ctx, store.Summary{EncounterID: fmt.Sprintf("enc-%d", i), Tenant: "dev", Sequence: 1,
			Members: map[string]encounterv1.Role{p: encounterv1.Role_ROLE_GM, "dev/all": encounterv1.Role_ROLE_OBSERVER}}))
	}
	for i, p := range principals {
		require.Equal(t, map[string]int{fmt.Sprintf("enc-%d", i): 1}, memberships(t, st, p), p)
	}
	require.Len(t, memberships(t, st, "dev/all"), len(principals))
	require.Empty(t, memberships(t, st, "dev/g"))
	require.Empty(t, memberships(t, st, ""))

	js, err := jetstream.New(s.Encounter)
	require.NoError(t, err)
	kv, err := js.KeyValue(ctx, "FRAY_INDEX")
	require.NoError(t, err)
	keys, err := kv.ListKeysFiltered(ctx, "m.>")
	require.NoError(t, err)
	n := 0
	for k := range keys.Keys() {
		n++
		tokens := strings.Split(k, ".")
		require.Len(t, tokens, 4, k)
		require.True(t, strings.HasPrefix(tokens[3], "enc-"), k)
	}
	require.Equal(t, 2*len(principals), n, "one key per principal and encounter")
}

// A principal who leaves an encounter is no longer listed, and whoever writes the later
// summary, concurrent writers of one encounter end with its members' keys as the latest
// summary says: each writer reads the summary back after its keys and writes them again as a
// later one says.
func TestConcurrentWritersEndWithTheLatestMembers(t *testing.T) {
	ctx := context.Background()
	_, nc := natstest.Start(t)
	open := func() *store.JetStream {
		st, err := store.Open(ctx, nc, store.Config{})
		require.NoError(t, err)
		return st
	}
	at := time.Date(2025, 1, 1, 20, 0, 0, 0, time.UTC)
	sum := func(seq int) store.Summary {
		m := map[string]encounterv1.Role{"dev/gm": encounterv1.Role_ROLE_GM}
		if seq%2 == 0 {
			m["dev/david"] = encounterv1.Role_ROLE_PLAYER
		} else {
			m["dev/erin"] = encounterv1.Role_ROLE_OBSERVER
		}
		return store.Summary{EncounterID: "enc-a", Tenant: "dev", Sequence: uint64(seq), LastActivity: at.Add(time.Duration(seq) * time.Second), Members: m}
	}
	replicas := []*store.JetStream{open(), open(), open(), open()}
	seq := 0
	for round := range 25 {
		done := make(chan error, 8)
		for i := range 8 {
			seq++
			r, s := replicas[i%len(replicas)], sum(seq)
			go func() { done <- r.PutSummary(ctx, s) }()
		}
		for range 8 {
			require.NoError(t, <-done)
		}
		davidIn, erinIn := seq%2 == 0, seq%2 == 1
		require.Equal(t, map[string]int{"enc-a": 1}, memberships(t, replicas[0], "dev/gm"), "round %d", round)
		require.Equal(t, davidIn, len(memberships(t, replicas[0], "dev/david")) == 1, "round %d: david", round)
		require.Equal(t, erinIn, len(memberships(t, replicas[0], "dev/erin")) == 1, "round %d: erin", round)
		got, err := store.Summaries(ctx, replicas[1], "dev/gm")
		require.NoError(t, err)
		require.Equal(t, uint64(seq), got[0].Sequence, "round %d: the latest summary is listed", round)
		seq++ // the next round's last writer adds the other one
	}
}

// An index written in the old format, where all of a principal's encounters were one value
// m.<principal in base64url> (encounter → {"s": sequence, "in": member}), loses nothing: the
// principal's first listing passes each encounter the old value lists it in (as the
// encounter's summary says: one it left is not listed), each once, writes their keys and
// deletes the old value; a later listing reads the keys alone. An old value written again
// (by a replica of the older version, during an upgrade) is migrated at the next listing.
func TestTheOldOneValueMembershipIsMigrated(t *testing.T) {
	ctx := context.Background()
	s := natstest.StartSecured(t)
	st, err := store.Open(ctx, s.Encounter, store.Config{})
	require.NoError(t, err)
	js, err := jetstream.New(s.Encounter)
	require.NoError(t, err)
	kv, err := js.KeyValue(ctx, "FRAY_INDEX")
	require.NoError(t, err)
	at := time.Date(2025, 1, 1, 20, 0, 0, 0, time.UTC)
	putSummary := func(id string, members map[string]encounterv1.Role) {
		data, err := json.Marshal(store.Summary{EncounterID: id, Tenant: "dev", Name: "Ruelle", RuleSystem: "loss", Sequence: 3,
			Status: encounterv1.EncounterStatus_ENCOUNTER_STATUS_ACTIVE, LastActivity: at, Members: members})
		require.NoError(t, err)
		_, err = kv.Put(ctx, "e."+id, data)
		require.NoError(t, err)
	}
	oldKey := func(p string) string { return "m." + base64.RawURLEncoding.EncodeToString([]byte(p)) }
	putOld := func(p string, in map[string]bool) {
		var b strings.Builder
		b.WriteString("{")
		first := true
		for id, member := range in {
			if !first {
				b.WriteString(",")
			}
			first = false
			fmt.Fprintf(&b, `%q:{"s":3,"in":%t}`, id, member)
		}
		b.WriteString("}")
		_, err := kv.Put(ctx, oldKey(p), []byte(b.String()))
		require.NoError(t, err)
	}

	// 2,000 encounters of the GM, david in every 10th, as the old version wrote them.
	gm, david := map[string]bool{}, map[string]bool{}
	for i := range 2000 {
		id := fmt.Sprintf("old-%04d", i)
		members := map[string]encounterv1.Role{"dev/gm": encounterv1.Role_ROLE_GM}
		if i%10 == 0 {
			members["dev/david"] = encounterv1.Role_ROLE_PLAYER
			david[id] = true
		}
		putSummary(id, members)
		gm[id] = true
	}
	// The GM left "gone" (its summary says so, the old value was behind); "out" it had left.
	putSummary("gone", map[string]encounterv1.Role{"dev/erin": encounterv1.Role_ROLE_GM})
	gm["gone"], gm["out"] = true, false
	putSummary("out", map[string]encounterv1.Role{"dev/erin": encounterv1.Role_ROLE_GM})
	// One written since by this version: in both formats.
	gm["both"] = true
	require.NoError(t, st.PutSummary(ctx, store.Summary{EncounterID: "both", Tenant: "dev", Sequence: 5, LastActivity: at,
		Members: map[string]encounterv1.Role{"dev/gm": encounterv1.Role_ROLE_GM}}))
	putOld("dev/gm", gm)
	putOld("dev/david", david)

	for range 2 { // the migration, then the keys alone
		began := time.Now()
		seen := memberships(t, st, "dev/gm")
		t.Logf("the GM's %d encounters listed in %s", len(seen), time.Since(began).Round(time.Millisecond))
		require.Len(t, seen, 2001)
		for id, n := range seen {
			require.Equal(t, 1, n, id)
			require.True(t, id == "both" || strings.HasPrefix(id, "old-"), id)
		}
		_, err := kv.Get(ctx, oldKey("dev/gm"))
		require.ErrorIs(t, err, jetstream.ErrKeyNotFound, "the old value is deleted once migrated")
	}
	got, err := store.Summaries(ctx, st, "dev/david")
	require.NoError(t, err)
	require.Len(t, got, len(david))
	for _, sum := range got {
		require.True(t, david[sum.EncounterID])
		require.Equal(t, encounterv1.Role_ROLE_PLAYER, sum.Members["dev/david"])
		require.Equal(t, "Ruelle", sum.Name)
		require.True(t, at.Equal(sum.LastActivity))
	}

	// An older replica writes the old value again.
	putSummary("late", map[string]encounterv1.Role{"dev/gm": encounterv1.Role_ROLE_GM})
	putOld("dev/gm", map[string]bool{"late": true, "old-0001": true})
	seen := memberships(t, st, "dev/gm")
	require.Len(t, seen, 2002)
	require.Equal(t, 1, seen["late"])
	require.Equal(t, 1, seen["old-0001"])
	_, err = kv.Get(ctx, oldKey("dev/gm"))
	require.ErrorIs(t, err, jetstream.ErrKeyNotFound)

	// Once migrated, memberships change as any other: the GM leaves one.
	require.NoError(t, st.PutSummary(ctx, store.Summary{EncounterID: "old-0002", Tenant: "dev", Sequence: 9, LastActivity: at,
		Members: map[string]encounterv1.Role{"dev/erin": encounterv1.Role_ROLE_GM}}))
	require.Len(t, memberships(t, st, "dev/gm"), 2001)
}
