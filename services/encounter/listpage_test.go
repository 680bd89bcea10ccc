package encounter

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// offered is a pass over 1,000 encounters, some (every 9th) passed twice as their summary is
// written again during the pass, the later (more recent) after the earlier, as
// Index.Memberships passes them; and the list it makes, each encounter's latest in order.
func offered() (pass, want []listed) {
	rng := rand.New(rand.NewPCG(1, 2))
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	latest := map[string]listed{}
	for i := range 1000 {
		l := listed{id: fmt.Sprintf("enc-%04d", rng.IntN(10_000)), seq: 1, last: at.Add(time.Duration(rng.IntN(300)) * time.Minute)}
		if _, ok := latest[l.id]; ok {
			continue
		}
		pass, latest[l.id] = append(pass, l), l
		if i%9 == 0 {
			again := l
			again.seq, again.last = 2, l.last.Add(time.Duration(rng.IntN(600))*time.Minute)
			pass, latest[l.id] = append(pass, again), again
		}
	}
	for _, l := range latest {
		want = append(want, l)
	}
	slices.SortFunc(want, listOrder)
	return pass, want
}

// collect is one pass's page after the token (nil: the first) and whole list, keeping them
// all while they fit in limit bytes.
func collect(pass []listed, size int, after *pageToken, limit int) (page, whole []listed) {
	c := newCollector(size, after)
	c.limit = limit
	for _, l := range pass {
		c.offer(l)
	}
	return c.done()
}

// Paging through a list a pass per page gives every encounter once, in the list's order,
// whether a pass keeps them all (a snapshot, whose cut gives the same page) or, past its limit,
// the page only; and a pass that meets an encounter twice keeps its later summary.
func TestEachPassKeepsThePageAfterTheToken(t *testing.T) {
	pass, want := offered()
	var settled []listed // the same encounters, none written during the pass
	for _, l := range pass {
		if l.seq == 1 {
			settled = append(settled, want[slices.IndexFunc(want, func(w listed) bool { return w.id == l.id })])
		}
	}
	for _, limit := range []int{maxSnapshotBytes, 20_000, 0} {
		for _, size := range []int{1, 7, 200} {
			page, whole := collect(pass, size, nil, limit)
			require.Equal(t, want[:size+1], page, "limit %d, size %d: the first page, each encounter's latest", limit, size)
			if limit == maxSnapshotBytes {
				require.Equal(t, want, whole, "the whole list")
			} else {
				require.Nil(t, whole, "past its limit a pass keeps the page only")
			}

			var got []listed
			var after *pageToken
			for pages := 0; ; pages++ {
				require.Less(t, pages, len(want)+1, "paging ends")
				page, whole := collect(settled, size, after, limit)
				if whole != nil {
					require.Equal(t, page, cut(whole, after, size), "the snapshot cuts the same page")
				}
				if len(page) <= size {
					got = append(got, page...)
					break
				}
				got = append(got, page[:size]...)
				last := page[size-1]
				after = &pageToken{Last: last.last.UnixNano(), ID: last.id}
			}
			require.Equal(t, want, got, "limit %d, size %d", limit, size)
		}
	}
}

// An encounter whose later summary, met during the pass, moved onto an earlier page stays
// where its earlier summary put it, and the page is full: no hole where encounters dropped
// from the page would have been.
func TestALaterSummaryOnAnEarlierPageLeavesNoHole(t *testing.T) {
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	l := func(id string, seq uint64, minute int) listed {
		return listed{id: id, seq: seq, last: at.Add(time.Duration(minute) * time.Minute)}
	}
	after := &pageToken{Last: at.Add(50 * time.Minute).UnixNano(), ID: "x"}
	pass := []listed{l("a", 1, 40), l("b", 1, 39), l("c", 1, 38), l("d", 1, 37), l("a", 2, 60)}
	page, _ := collect(pass, 2, after, 0)
	require.Equal(t, []listed{l("a", 1, 40), l("b", 1, 39), l("c", 1, 38)}, page)
	page, _ = collect(append(pass, l("b", 2, 45)), 2, after, 0)
	require.Equal(t, []listed{l("b", 2, 45), l("a", 1, 40), l("c", 1, 38)}, page, "a later summary still on this page replaces the earlier")
}

// A principal's snapshot serves for snapshotTTL; the oldest are dropped past the limit.
func TestSnapshotsExpireAndAreBounded(t *testing.T) {
	now := time.Now()
	list := func(n int) []listed {
		out := make([]listed, n)
		for i := range out {
			out[i] = listed{id: fmt.Sprintf("enc-%04d", i)}
		}
		return out
	}
	one := list(1)[0].size()
	s := snapshots{limit: 25 * one}
	s.put("dev/a", list(10), now)
	s.put("dev/b", list(10), now.Add(time.Second))
	_, ok := s.get("dev/a", now.Add(snapshotTTL-time.Millisecond))
	require.True(t, ok)
	_, ok = s.get("dev/a", now.Add(snapshotTTL))
	require.False(t, ok, "past its TTL")
	s.put("dev/c", list(10), now.Add(2*time.Second))
	_, ok = s.get("dev/a", now.Add(2*time.Second))
	require.False(t, ok, "the oldest dropped to make room")
	for _, p := range []string{"dev/b", "dev/c"} {
		got, ok := s.get(p, now.Add(2*time.Second))
		require.True(t, ok, p)
		require.Len(t, got, 10)
	}
	require.Equal(t, 20*one, s.bytes)
	s.put("dev/b", list(5), now.Add(3*time.Second))
	require.Equal(t, 15*one, s.bytes, "a principal's list replaced")
}
