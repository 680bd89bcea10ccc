package encounter

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Defaults of the watch limits (Options).
const (
	DefaultMaxWatchesPerPrincipal  = 16
	DefaultMaxWatchersPerEncounter = 256
	DefaultWatchBuffer             = 256
	// DefaultFollowWait bounds the wait for a follow to begin: a JetStream follow is one
	// consumer created, which its client gives up after 5 s; twice that, and a watch is not
	// held on one that never answers.
	DefaultFollowWait = 10 * time.Second
	// catchUpPage is how many records a watcher reads from the log at a time on its way to
	// the live tail.
	catchUpPage = 64
)

// hub fans the records of each watched encounter out to its watchers in this service: one
// store.Follow per encounter watched here, opened by its first watcher and closed when the
// last one leaves. A watcher that does not keep up is cut off; it never holds the others up.
type hub struct {
	log          store.Log
	reg          *engine.Registry
	perPrincipal int
	perEncounter int
	buffer       int
	followWait   time.Duration

	mu        sync.Mutex
	topics    map[string]*topic
	principal map[string]int // principal → watches open
	closing   int            // topics whose last watcher left, their consumer not yet deleted

	viewed atomic.Uint64 // views made of live events (ViewEvent calls), for tests
	told   atomic.Uint64 // narrations written of live events, for tests
}

// topic is one followed encounter.
type topic struct {
	id string
	// ready is closed once followed, or when following failed or was given up (err): settle.
	ready   chan struct{}
	settled sync.Once
	err     error
	// stop ends following, and a follow still beginning; done, once following, says when it
	// has ended (the consumer deleted). dropped: nobody waits for this topic any more, so a
	// follow that begins after it ends at once. open: watchers joined and not left (cut-off
	// ones included). done, dropped and open are the hub's (h.mu).
	stop    context.CancelFunc
	done    <-chan error
	dropped bool
	open    int

	// Touched by the following goroutine only: the state folded from the live records, at
	// log position pos (set before following begins).
	ctx   context.Context
	state *encounterv1.EncounterState
	pos   uint64

	mu       sync.Mutex
	watchers map[*watcher]struct{} // watchers still fed
}

// watcher is one watch's place in its topic.
type watcher struct {
	principal string
	topic     *topic
	records   chan *live
	cut       chan struct{} // closed when the hub feeds it no more (why says why)
	why       error
	left      bool
}

// live is one record as the hub hands it to every watcher of its encounter: folded once, with
// the state before each of its events (states[i], states[len] after the last), and each event
// viewed once per class of viewer. Shared by the watchers: read only, views made on demand.
type live struct {
	store.Record
	hub    *hub
	states []*encounterv1.EncounterState
	views  []views
}

// views are the views made of one event, by class of viewer, and their narrations by class
// and language.
type views struct {
	mu      sync.Mutex
	byClass map[string]*view
	told    map[string]*view
}

type view struct {
	once  sync.Once
	event *encounterv1.Event
	text  string
}

// classOf is the key of everything a view depends on beyond the event and the state before
// it: whether the viewer sees all, and which combatants it controls.
func classOf(v engine.Viewer) string {
	var b strings.Builder
	if v.SeesAll {
		b.WriteString("all")
	}
	ids := make([]string, 0, len(v.Controls))
	for id, ok := range v.Controls {
		if ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		b.WriteByte('|')
		b.WriteString(id)
	}
	return b.String()
}

// view is event i as v sees it, made once for all the viewers of v's class.
func (l *live) view(i int, v engine.Viewer) *encounterv1.Event {
	key := classOf(v)
	c := &l.views[i]
	c.mu.Lock()
	if c.byClass == nil {
		c.byClass = map[string]*view{}
	}
	vw := c.byClass[key]
	if vw == nil {
		vw = &view{}
		c.byClass[key] = vw
	}
	c.mu.Unlock()
	vw.once.Do(func() {
		l.hub.viewed.Add(1)
		vw.event = l.hub.reg.ViewEvent(l.states[i], l.Batch.GetEvents()[i], v)
	})
	return vw.event
}

// narration is the narration of event i as seen (its view for v), written once for all the
// watchers of v's class who asked for t's language: the first writes it with its narrator,
// the others' narrators learn from the event without writing it again. A narrator that
// learnt from a state (a watch from a later sequence) narrates as one that learnt from every
// event (narrate.Teller.LearnState), so the text is the same for all of them.
func (l *live) narration(i int, v engine.Viewer, t *teller, seen *encounterv1.Event) string {
	if t == nil {
		return ""
	}
	key := classOf(v) + "\x00" + t.n.Language().String()
	c := &l.views[i]
	c.mu.Lock()
	if c.told == nil {
		c.told = map[string]*view{}
	}
	vw := c.told[key]
	if vw == nil {
		vw = &view{}
		c.told[key] = vw
	}
	c.mu.Unlock()
	wrote := false
	vw.once.Do(func() {
		wrote = true
		l.hub.told.Add(1)
		vw.text = t.line(l.states[i], seen, v) + t.ended(t.over(l.states[i]), l.states[i+1])
	})
	if !wrote {
		t.learn(l.states[i], seen, v)
	}
	return vw.text
}

func newHub(log store.Log, reg *engine.Registry, perPrincipal, perEncounter, buffer int, followWait time.Duration) *hub {
	return &hub{log: log, reg: reg, perPrincipal: perPrincipal, perEncounter: perEncounter, buffer: buffer, followWait: followWait,
		topics: map[string]*topic{}, principal: map[string]int{}}
}

// join adds a watcher of the encounter for principal, following the encounter if nobody here
// does yet, from the state start gives (its log position and the state there, taken before
// following; records missed between are read from the log). Once it returns, every record
// stored later reaches the watcher (or cuts it off). A member of the table (its GM, a co-GM,
// a player) always gets a watch, within its own cap per principal: the cap of watchers per
// encounter holds for observers only, who share what the table leaves (issue 23: 16
// observers filling it locked the GM out).
func (h *hub) join(ctx context.Context, id, principal string, table bool, start func() (uint64, *encounterv1.EncounterState)) (*watcher, error) {
	h.mu.Lock()
	if n := h.principal[principal]; n >= h.perPrincipal {
		h.mu.Unlock()
		return nil, refusal.OverLimit(LimitWatchesPerPrincipal,
			"%s already has %d watches open on this server, the most one caller may have: close one (cancel its stream) to free a slot, then watch again", principal, n)
	}
	t, ok := h.topics[id]
	if ok && t.open >= h.perEncounter && !table {
		h.mu.Unlock()
		return nil, refusal.OverLimit(LimitWatchersPerEncounter,
			"%s already has %d watchers on this server, the most an encounter may have for its observers (its GM, co-GMs and players always get one): a slot frees when a watch is closed; try again later", id, t.open)
	}
	if !ok {
		t = &topic{id: id, ready: make(chan struct{}), watchers: map[*watcher]struct{}{}}
		t.ctx, t.stop = context.WithCancel(context.Background())
		h.topics[id] = t
	}
	t.open++
	h.principal[principal]++
	w := &watcher{principal: principal, topic: t, records: make(chan *live, h.buffer), cut: make(chan struct{})}
	t.mu.Lock()
	t.watchers[w] = struct{}{}
	t.mu.Unlock()
	h.mu.Unlock()

	if !ok {
		t.pos, t.state = start()
		go h.follow(t)
	}
	// A follow that does not begin is given up, not waited on (issue 23: 1 watch in ~1,500
	// churned opens got no first event in 10 s): this watch and those waiting with it are
	// refused, to be retried, and the next one follows afresh.
	wait := time.NewTimer(h.followWait)
	defer wait.Stop()
	select {
	case <-t.ready:
	case <-ctx.Done():
		h.leave(w)
		return nil, ctx.Err()
	case <-wait.C:
		h.drop(t, status.Errorf(codes.Unavailable, "this server could not begin following encounter %s within %s (the event log did not answer); it starts afresh for the next watch: watch again", id, h.followWait))
	}
	if t.err != nil {
		h.leave(w)
		return nil, t.err
	}
	return w, nil
}

// settle closes the topic's ready, with err if following failed; only the first call counts.
func (t *topic) settle(err error) {
	t.settled.Do(func() {
		t.err = err
		close(t.ready)
	})
}

// drop gives up on a topic still beginning to follow: the watchers waiting get why, the next
// watcher of its encounter makes a new one, and the follow, if it ever begins, ends at once.
func (h *hub) drop(t *topic, why error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t.done != nil {
		return // following began meanwhile
	}
	if h.topics[t.id] == t {
		delete(h.topics, t.id)
	}
	t.dropped = true
	t.stop()
	t.settle(why)
}

// follow follows the topic's encounter, then closes ready (settle); if the topic was dropped
// meanwhile (given up, or every watcher left), it stops following at once.
func (h *hub) follow(t *topic) {
	done, err := h.log.Follow(t.ctx, t.id, func(r store.Record) { h.dispatch(t, r) })
	h.mu.Lock()
	switch {
	case err != nil:
		if h.topics[t.id] == t {
			delete(h.topics, t.id)
		}
		t.settle(unavailable(fmt.Errorf("cannot follow %s: %w", t.id, err)))
		h.mu.Unlock()
		t.stop()
		return
	case t.dropped:
		h.closing++
		h.mu.Unlock()
		t.stop()
		for range done { // until the consumer is deleted
		}
		h.mu.Lock()
		h.closing--
		h.mu.Unlock()
		return
	}
	t.done = done
	t.settle(nil)
	h.mu.Unlock()
	go func() {
		// Following stopped on its own (the log failed): the watchers end, and the next one
		// follows afresh.
		err, ok := <-done
		if !ok || err == nil {
			return
		}
		h.mu.Lock()
		if h.topics[t.id] == t {
			delete(h.topics, t.id)
		}
		h.mu.Unlock()
		t.cutAll(unavailable(fmt.Errorf("following %s stopped: %w", t.id, err)))
	}()
}

// dispatch folds a record and hands it to every watcher fed; one whose buffer is full is cut
// off. A record that cannot be folded ends every watcher, and the next one follows afresh.
func (h *hub) dispatch(t *topic, r store.Record) {
	l, err := h.fold(t, r)
	if err != nil {
		h.mu.Lock()
		if h.topics[t.id] == t {
			delete(h.topics, t.id)
		}
		h.mu.Unlock()
		t.cutAll(err)
		return
	}
	if l == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for w := range t.watchers {
		select {
		case w.records <- l:
		default:
			delete(t.watchers, w)
			w.why = errFellBehind
			close(w.cut)
		}
	}
}

// fold folds the record into the topic's state, first reading from the log any record missed
// since the state the topic started from; nil for a record the state holds already.
func (h *hub) fold(t *topic, r store.Record) (*live, error) {
	if t.state == nil || r.Position <= t.pos {
		return nil, nil
	}
	evs := r.Batch.GetEvents()
	if len(evs) > 0 && evs[0].GetSequence() > t.state.GetSequence()+1 {
		t.state = proto.CloneOf(t.state) // handed out already: fold the gap into a copy
	}
	for len(evs) > 0 && evs[0].GetSequence() > t.state.GetSequence()+1 {
		page, err := h.log.Page(t.ctx, t.id, t.pos, catchUpPage)
		if err != nil {
			return nil, unavailable(fmt.Errorf("cannot read %s: %w", t.id, err))
		}
		if len(page) == 0 || page[0].Position >= r.Position {
			break
		}
		for _, p := range page {
			if p.Position >= r.Position {
				break
			}
			for _, ev := range p.Batch.GetEvents() {
				if ev.GetSequence() <= t.state.GetSequence() {
					continue
				}
				if err := h.reg.Evolve(t.state, ev); err != nil {
					return nil, status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
				}
			}
			t.pos = p.Position
		}
	}
	l := &live{Record: r, hub: h, states: make([]*encounterv1.EncounterState, len(evs)+1), views: make([]views, len(evs))}
	cur := t.state
	l.states[0] = cur
	for i, ev := range evs {
		if ev.GetSequence() > cur.GetSequence() {
			// The states handed out are never changed: fold into a copy.
			next := proto.CloneOf(cur)
			if err := h.reg.Evolve(next, ev); err != nil {
				return nil, status.Errorf(codes.DataLoss, "event %d cannot be folded: %v", ev.GetSequence(), err)
			}
			cur = next
		}
		l.states[i+1] = cur
	}
	t.state, t.pos = cur, r.Position
	return l, nil
}

// errFellBehind marks a watcher cut off for not keeping up (the handler words the status).
var errFellBehind = fmt.Errorf("fell behind")

func (t *topic) cutAll(why error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for w := range t.watchers {
		delete(t.watchers, w)
		w.why = why
		close(w.cut)
	}
}

// leave removes the watcher; the last one to leave stops following the encounter and waits
// until nothing of it is left on the server.
func (h *hub) leave(w *watcher) {
	t := w.topic
	h.mu.Lock()
	if w.left {
		h.mu.Unlock()
		return
	}
	w.left = true
	if h.principal[w.principal]--; h.principal[w.principal] <= 0 {
		delete(h.principal, w.principal)
	}
	t.mu.Lock()
	delete(t.watchers, w)
	t.mu.Unlock()
	t.open--
	last := t.open == 0
	if last && h.topics[t.id] == t {
		delete(h.topics, t.id)
	}
	// The last to leave stops following; a follow still beginning ends itself (dropped).
	var done <-chan error
	if last {
		t.dropped = true
		if done = t.done; done != nil {
			h.closing++
		}
	}
	h.mu.Unlock()
	if last {
		t.stop()
	}
	if done != nil {
		for range done { // until the consumer is deleted
		}
		h.mu.Lock()
		h.closing--
		h.mu.Unlock()
	}
}

// watching is how many encounters this hub follows (a consumer on the server, until it is
// deleted after the last watcher left) and how many watchers it feeds.
func (h *hub) watching() (encounters, watchers int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, t := range h.topics {
		watchers += t.open
	}
	return len(h.topics) + h.closing, watchers
}

// Watching is how many encounters this service follows for its watchers, and how many
// watches it holds open.
func (s *Service) Watching() (encounters, watchers int) { return s.watches.watching() }
