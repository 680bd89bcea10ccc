package encounter

// The pages of ListEncounters. The list is in order of activity, which the index cannot read
// in order: a page is one pass over the caller's memberships. A first page (no token) is
// always such a pass; it keeps the whole list as a snapshot (while it fits in
// maxSnapshotBytes), from which the pages after it are cut for snapshotTTL, so that paging
// through N encounters costs one pass, not N/page_size. A principal whose list is larger than
// a snapshot holds has each page cut from its own pass, keeping only that page.

import (
	"slices"
	"sync"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
)

const (
	// snapshotTTL is how long a principal's list serves the pages after the first: a page
	// after that is a new pass.
	snapshotTTL = time.Minute
	// maxSnapshotBytes bounds one principal's snapshot (some 100,000 encounters), and
	// maxListingBytes all of them kept by a service: past it, the oldest are dropped.
	maxSnapshotBytes = 16 << 20
	maxListingBytes  = 64 << 20
)

// listed is one encounter as the list shows it.
type listed struct {
	id, name, system string
	status           encounterv1.EncounterStatus
	seq              uint64
	last             time.Time
	role             encounterv1.Role
}

func listedOf(sum store.Summary, principal string) listed {
	return listed{id: sum.EncounterID, name: sum.Name, system: sum.RuleSystem, status: sum.Status, seq: sum.Sequence,
		last: sum.LastActivity, role: sum.Members[principal]}
}

// size is about what l holds in memory.
func (l listed) size() int { return 96 + len(l.id) + len(l.name) + len(l.system) }

func (l listed) follows(after pageToken) bool {
	return listedBefore(after.Last, after.ID, l.last.UnixNano(), l.id)
}

// listOrder is the list's order: the most recent activity first, then by id.
func listOrder(a, b listed) int {
	switch {
	case a.id == b.id && a.last.Equal(b.last):
		return 0
	case listedBefore(a.last.UnixNano(), a.id, b.last.UnixNano(), b.id):
		return -1
	}
	return 1
}

// collector gathers one pass's encounters, each once (offered again, as its summary was
// written again during the pass, it keeps the later sequence): all of them while they fit in
// maxSnapshotBytes, then only the size+1 first after the page token.
type collector struct {
	size  int
	after *pageToken
	// all the encounters, while they fit in limit bytes; nil past that.
	all   map[string]listed
	bytes int
	limit int
	// past that, the page: in the list's order, and the sequence of each.
	kept []listed
	seq  map[string]uint64
}

func newCollector(size int, after *pageToken) *collector {
	return &collector{size: size, after: after, all: map[string]listed{}, limit: maxSnapshotBytes, seq: map[string]uint64{}}
}

func (c *collector) offer(l listed) {
	if c.all == nil {
		c.keep(l)
		return
	}
	if old, ok := c.all[l.id]; ok {
		if old.seq >= l.seq {
			return
		}
		c.bytes -= old.size()
	}
	c.all[l.id] = l
	if c.bytes += l.size(); c.bytes > c.limit { // too many to keep: the page only
		all := c.all
		c.all = nil
		for _, l := range all {
			c.keep(l)
		}
	}
}

// keep keeps l if it is among the size+1 first after the page token. A later summary of an
// encounter kept replaces it only if it is kept itself: one that moved onto an earlier page
// (its activity during the pass) leaves the earlier summary where it was, listed once, rather
// than a hole that encounters dropped from the page would have filled.
func (c *collector) keep(l listed) {
	if c.after != nil && !l.follows(*c.after) {
		return // on an earlier page
	}
	seq, again := c.seq[l.id]
	if again && seq >= l.seq {
		return
	}
	i, _ := slices.BinarySearchFunc(c.kept, l, listOrder)
	if i > c.size {
		return // after this page and the first of the next
	}
	if again {
		c.kept = slices.DeleteFunc(c.kept, func(k listed) bool { return k.id == l.id })
		i, _ = slices.BinarySearchFunc(c.kept, l, listOrder)
	}
	c.kept = slices.Insert(c.kept, i, l)
	c.seq[l.id] = l.seq
	if len(c.kept) > c.size+1 {
		delete(c.seq, c.kept[c.size+1].id)
		c.kept = c.kept[:c.size+1]
	}
}

// done returns the size+1 first after the page token and, when the pass kept them all, the
// whole list in order (nil otherwise).
func (c *collector) done() (page, whole []listed) {
	if c.all == nil {
		return c.kept, nil
	}
	whole = make([]listed, 0, len(c.all))
	for _, l := range c.all {
		whole = append(whole, l)
	}
	slices.SortFunc(whole, listOrder)
	return cut(whole, c.after, c.size), whole
}

// cut is the size+1 first of whole (in the list's order) after the page token.
func cut(whole []listed, after *pageToken, size int) []listed {
	i := 0
	if after != nil {
		i, _ = slices.BinarySearchFunc(whole, *after, func(l listed, after pageToken) int {
			if l.follows(after) {
				return 1
			}
			return -1
		})
	}
	return whole[i:min(i+size+1, len(whole))]
}

// snapshots keeps principals' whole lists for the pages after the first.
type snapshots struct {
	mu    sync.Mutex
	of    map[string]snapshot
	bytes int
	limit int // maxListingBytes, if 0
}

type snapshot struct {
	list  []listed
	bytes int
	at    time.Time
}

// get is principal's list, if one younger than snapshotTTL is kept.
func (s *snapshots) get(principal string, now time.Time) ([]listed, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sn, ok := s.of[principal]
	if !ok || now.Sub(sn.at) >= snapshotTTL {
		return nil, false
	}
	return sn.list, true
}

// put keeps principal's list, dropping those past snapshotTTL, then the oldest, to keep
// within maxListingBytes.
func (s *snapshots) put(principal string, list []listed, now time.Time) {
	bytes := 0
	for _, l := range list {
		bytes += l.size()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.of == nil {
		s.of = map[string]snapshot{}
	}
	s.drop(principal)
	for p, sn := range s.of {
		if now.Sub(sn.at) >= snapshotTTL {
			s.drop(p)
		}
	}
	limit := s.limit
	if limit == 0 {
		limit = maxListingBytes
	}
	for s.bytes+bytes > limit && len(s.of) > 0 {
		oldest := ""
		for p, sn := range s.of {
			if oldest == "" || sn.at.Before(s.of[oldest].at) {
				oldest = p
			}
		}
		s.drop(oldest)
	}
	s.of[principal] = snapshot{list: list, bytes: bytes, at: now}
	s.bytes += bytes
}

func (s *snapshots) drop(principal string) {
	if sn, ok := s.of[principal]; ok {
		s.bytes -= sn.bytes
		delete(s.of, principal)
	}
}
