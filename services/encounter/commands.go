package encounter

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter/store"
)

// DefaultRecentCommands is how many of an encounter's latest command ids a snapshot keeps
// (Options.RecentCommands).
const DefaultRecentCommands = 256

// commandRef is where a command was recorded: its record's log position, and its digest if it
// was recorded with one.
type commandRef struct {
	position uint64
	digest   []byte
}

// commandIDs is what an entry knows of the command ids recorded on its encounter: the latest
// (at most max, in a ring, the oldest at head once full), and, when complete, every older one
// too (older). When not complete (loaded from a snapshot that left older ones out), a command
// id it does not know is looked up in the log (Service.commandAt), once per load: the log is
// read through and the older ids kept.
type commandIDs struct {
	max    int
	recent map[string]commandRef
	// order holds the recent ones as a snapshot lists them, made once each (never changed
	// after: snapshots share them).
	order    []*encounterv1.Snapshot_RecentCommand
	head     int
	older    map[string]uint64
	complete bool
	// keepOlder: a recent id that makes way is kept in older (when complete), not forgotten.
	// Set once the log was read for the older ids (commandAt): the log's duplicate window no
	// longer covers the encounter, or there is none. Otherwise an id older than the recent
	// ones is the log's to catch (Append's Duplicate), and holding every id ever recorded
	// made a long-played encounter's memory grow without end (issue 31: fray dev's memory
	// grew by tens of MiB a minute at a steady load, most of it these ids).
	keepOlder bool
}

func newCommandIDs(max int, complete bool) commandIDs {
	return commandIDs{max: max, recent: map[string]commandRef{}, older: map[string]uint64{}, complete: complete}
}

// add records a command id; the oldest recent one moves to older (or, not complete, is
// forgotten: the log has it).
func (c *commandIDs) add(id string, position uint64, digest []byte) {
	r := &encounterv1.Snapshot_RecentCommand{CommandId: id, Position: position, Digest: digest}
	if _, ok := c.recent[id]; ok {
		c.recent[id] = commandRef{position, digest}
		for i, o := range c.order {
			if o.GetCommandId() == id {
				c.order[i] = r
			}
		}
		return
	}
	if len(c.order) < c.max {
		c.order = append(c.order, r)
	} else {
		old := c.order[c.head].GetCommandId()
		if c.complete && c.keepOlder {
			c.older[old] = c.recent[old].position
		} else {
			c.complete = false // old is the log's to know now (commandAt)
		}
		delete(c.recent, old)
		c.order[c.head] = r
		c.head = (c.head + 1) % c.max
	}
	c.recent[id] = commandRef{position, digest}
}

// lookup returns where id was recorded (found), or whether it is surely new (sure).
func (c *commandIDs) lookup(id string) (ref commandRef, found, sure bool) {
	if r, ok := c.recent[id]; ok {
		return r, true, true
	}
	if p, ok := c.older[id]; ok {
		return commandRef{position: p}, true, true
	}
	return commandRef{}, false, c.complete
}

func (c *commandIDs) len() int { return len(c.recent) + len(c.older) }

// latest are the recent command ids, the oldest first (shared, not to be changed).
func (c *commandIDs) latest() []*encounterv1.Snapshot_RecentCommand {
	out := make([]*encounterv1.Snapshot_RecentCommand, 0, len(c.order))
	out = append(out, c.order[c.head:]...)
	return append(out, c.order[:c.head]...)
}

// commandIDsOf restores what a snapshot knows of the command ids: its recent ones, or, from a
// snapshot written before they were (fields commands and command_digests), every one.
func commandIDsOf(snap *encounterv1.Snapshot, max int) commandIDs {
	if recent := snap.GetRecentCommands(); len(recent) > 0 || snap.GetRecentCommandsComplete() {
		c := newCommandIDs(max, snap.GetRecentCommandsComplete())
		for _, r := range recent {
			c.add(r.GetCommandId(), r.GetPosition(), r.GetDigest())
		}
		return c
	}
	all := snap.GetCommands()
	c := newCommandIDs(max, len(all) > 0) // a snapshot of the old kind holds every command id
	ids := make([]string, 0, len(all))
	for id := range all {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Compare(all[a], all[b]) })
	for _, id := range ids {
		c.add(id, all[id], snap.GetCommandDigests()[id])
	}
	return c
}

// commandAt returns where the command id was recorded on the encounter, if it was known; e.mu
// is held. An id the entry does not know, when it does not know them all (loaded from a
// snapshot that keeps only the latest), is either new or older than those it knows:
//   - on an encounter younger than the log's duplicate window, it is taken as new: if it is
//     not, the append of its record meets the duplicate (Append's Duplicate) and the command
//     is answered as a retry then (execute);
//   - otherwise it is looked up by reading the log up to the entry's position, once per load:
//     after that the entry knows every id.
func (s *Service) commandAt(ctx context.Context, id string, e *entry, cmdID string) (commandRef, bool, error) {
	ref, found, sure := e.cmds.lookup(cmdID)
	if found || sure {
		return ref, found, nil
	}
	if w := s.opts.DuplicateWindow; w > 0 {
		if e.born.IsZero() {
			first, err := s.events.Page(ctx, id, 0, 1)
			if err != nil {
				return commandRef{}, false, unavailable(err)
			}
			if len(first) > 0 && len(first[0].Batch.GetEvents()) > 0 {
				e.born = first[0].Batch.GetEvents()[0].GetTime().AsTime()
			}
		}
		// A margin for the clocks of this service and of the log's server.
		if !e.born.IsZero() && time.Since(e.born) < w-w/10 {
			return commandRef{}, false, nil
		}
	}
	recs, err := s.events.Load(ctx, id, 0, store.AtLeast(e.position))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return commandRef{}, false, unavailable(err)
	}
	for _, r := range recs {
		if r.Position > e.position {
			break // not folded yet: a conflict on append will refresh the entry
		}
		evs := r.Batch.GetEvents()
		if len(evs) == 0 || evs[0].GetCommandId() == "" {
			continue
		}
		if c := evs[0].GetCommandId(); !hasRecent(e.cmds, c) {
			e.cmds.older[c] = r.Position
		}
	}
	e.cmds.complete, e.cmds.keepOlder = true, true
	s.account(e)
	ref, found, _ = e.cmds.lookup(cmdID)
	return ref, found, nil
}

func hasRecent(c commandIDs, id string) bool { _, ok := c.recent[id]; return ok }

// pendingSnapshot is a snapshot taken under the entry's lock, to be written after it.
type pendingSnapshot struct {
	position uint64
	snap     *encounterv1.Snapshot
}

// snapshotDue takes a snapshot when the encounter crosses a multiple of SnapshotEvery events;
// e.mu is held. It holds the state and the latest command ids only: its size is bounded by
// the encounter's, not by its history.
func (s *Service) snapshotDue(e *entry, before uint64) *pendingSnapshot {
	n := s.opts.SnapshotEvery
	if s.opts.Snapshots == nil || e.state.GetSequence()/n == before/n {
		return nil
	}
	sys, err := s.reg.Lookup(e.state.GetRuleSystem(), 0)
	if err != nil {
		return nil
	}
	return &pendingSnapshot{position: e.position, snap: &encounterv1.Snapshot{
		Position: e.position, RuleSystem: sys.ID(), FoldVersion: sys.Version(), State: e.state, // never changed (states.go)
		RecentCommands: e.cmds.latest(), RecentCommandsComplete: e.cmds.complete && len(e.cmds.older) == 0,
	}}
}

// writeSnapshot writes a snapshot taken by snapshotDue, without the entry's lock: one write at
// a time per encounter, and never one older than a snapshot written already. A failed write
// is logged; the command it follows stands.
func (s *Service) writeSnapshot(ctx context.Context, id string, e *entry, p *pendingSnapshot) {
	if p == nil {
		return
	}
	e.snapMu.Lock()
	defer e.snapMu.Unlock()
	if p.position <= e.snapWritten {
		return
	}
	err := s.opts.Snapshots.PutSnapshot(ctx, id, p.snap)
	s.obs.snapshotWritten(err)
	if err != nil {
		s.log.WarnContext(ctx, "snapshot not written", "encounter", id, "err", err)
		return
	}
	e.snapWritten = p.position
}

// snapshotWrites serialises an entry's snapshot writes (entry.snapMu guards snapWritten).
type snapshotWrites struct {
	snapMu      sync.Mutex
	snapWritten uint64 // the position of the latest snapshot this service wrote
}
