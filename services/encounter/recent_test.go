package encounter

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// The latest command ids are listed oldest first, the ring wrapped or not; an id recorded
// again keeps its place with its new position; a list handed to a snapshot is not changed by
// later commands. An id that makes way is forgotten (the log's duplicate window knows it),
// unless the log was read for the older ones.
func TestCommandIDsListTheLatestOldestFirst(t *testing.T) {
	ids := func(rs []*encounterv1.Snapshot_RecentCommand) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.GetCommandId())
		}
		return out
	}
	c := newCommandIDs(3, true)
	require.Empty(t, c.latest())
	c.add("a", 1, []byte{1})
	c.add("b", 2, nil)
	require.Equal(t, []string{"a", "b"}, ids(c.latest()))
	c.add("c", 3, nil)
	snap := c.latest()
	was := make([]*encounterv1.Snapshot_RecentCommand, len(snap))
	for i, r := range snap {
		was[i] = proto.CloneOf(r)
	}
	c.add("d", 4, nil)
	c.add("e", 5, nil)
	require.Equal(t, []string{"c", "d", "e"}, ids(c.latest()))
	c.add("d", 9, []byte{9})
	latest := c.latest()
	require.Equal(t, []string{"c", "d", "e"}, ids(latest))
	require.Equal(t, uint64(9), latest[1].GetPosition())
	require.Equal(t, []byte{9}, latest[1].GetDigest())
	ref, found, _ := c.lookup("d")
	require.True(t, found)
	require.Equal(t, uint64(9), ref.position)
	_, found, sure := c.lookup("a") // within the log's duplicate window: the oldest is the log's to know
	require.False(t, found)
	require.False(t, sure, "no longer complete: an id not held may be an old one")
	require.Empty(t, c.older)

	k := newCommandIDs(3, true)
	k.keepOlder = true // the log was read for the older ids (past the window): they are kept
	for i, id := range []string{"a", "b", "c", "d"} {
		k.add(id, uint64(i+1), nil)
	}
	ref, found, sure = k.lookup("a")
	require.True(t, found)
	require.True(t, sure)
	require.Equal(t, uint64(1), ref.position)
	for i := range snap {
		require.True(t, proto.Equal(was[i], snap[i]), "the snapshot's list is unchanged")
	}
}
