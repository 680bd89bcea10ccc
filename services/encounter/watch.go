package encounter

import (
	"context"
	"fmt"
	"sync"

	"github.com/fray-rpg/fray/services/encounter/store"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Defaults of the watch limits (Options).
const (
	DefaultMaxWatchesPerPrincipal  = 16
	DefaultMaxWatchersPerEncounter = 256
	DefaultWatchBuffer             = 256
	// catchUpPage is how many records a watcher reads from the log at a time on its way to
	// the live tail.
	catchUpPage = 64
)

// hub fans the records of each watched encounter out to its watchers in this service: one
// store.Follow per encounter watched here, opened by its first watcher and closed when the
// last one leaves. A watcher that does not keep up is cut off; it never holds the others up.
type hub struct {
	log          store.Log
	perPrincipal int
	perEncounter int
	buffer       int

	mu        sync.Mutex
	topics    map[string]*topic
	principal map[string]int // principal → watches open
}

// topic is one followed encounter.
type topic struct {
	id    string
	ready chan struct{} // closed once followed, or when following failed (err)
	err   error
	stop  context.CancelFunc
	done  <-chan error
	open  int // watchers joined and not left (cut-off ones included)

	mu       sync.Mutex
	watchers map[*watcher]struct{} // watchers still fed
}

// watcher is one watch's place in its topic.
type watcher struct {
	principal string
	topic     *topic
	records   chan store.Record
	cut       chan struct{} // closed when the hub feeds it no more (why says why)
	why       error
	left      bool
}

func newHub(log store.Log, perPrincipal, perEncounter, buffer int) *hub {
	return &hub{log: log, perPrincipal: perPrincipal, perEncounter: perEncounter, buffer: buffer,
		topics: map[string]*topic{}, principal: map[string]int{}}
}

// join adds a watcher of the encounter for principal, following the encounter if nobody here
// does yet. Once it returns, every record stored later reaches the watcher (or cuts it off).
func (h *hub) join(ctx context.Context, id, principal string) (*watcher, error) {
	h.mu.Lock()
	if n := h.principal[principal]; n >= h.perPrincipal {
		h.mu.Unlock()
		return nil, status.Errorf(codes.ResourceExhausted,
			"%s already has %d watches open on this server, the most one caller may have: close one (cancel its stream) to free a slot, then watch again", principal, n)
	}
	t, ok := h.topics[id]
	if ok && t.open >= h.perEncounter {
		h.mu.Unlock()
		return nil, status.Errorf(codes.ResourceExhausted,
			"%s already has %d watchers on this server, the most an encounter may have: a slot frees when a watch is closed; try again later", id, t.open)
	}
	if !ok {
		t = &topic{id: id, ready: make(chan struct{}), watchers: map[*watcher]struct{}{}}
		h.topics[id] = t
	}
	t.open++
	h.principal[principal]++
	w := &watcher{principal: principal, topic: t, records: make(chan store.Record, h.buffer), cut: make(chan struct{})}
	t.mu.Lock()
	t.watchers[w] = struct{}{}
	t.mu.Unlock()
	h.mu.Unlock()

	if !ok {
		h.follow(t)
	}
	select {
	case <-t.ready:
	case <-ctx.Done():
		h.leave(w)
		return nil, ctx.Err()
	}
	if t.err != nil {
		h.leave(w)
		return nil, t.err
	}
	return w, nil
}

// follow starts following the topic's encounter; ready is closed when it follows or failed.
func (h *hub) follow(t *topic) {
	ctx, stop := context.WithCancel(context.Background())
	done, err := h.log.Follow(ctx, t.id, t.dispatch)
	if err != nil {
		stop()
		t.err = unavailable(fmt.Errorf("cannot follow %s: %w", t.id, err))
		h.mu.Lock()
		if h.topics[t.id] == t {
			delete(h.topics, t.id)
		}
		h.mu.Unlock()
		close(t.ready)
		return
	}
	t.stop, t.done = stop, done
	close(t.ready)
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

// dispatch hands a record to every watcher fed; one whose buffer is full is cut off.
func (t *topic) dispatch(r store.Record) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for w := range t.watchers {
		select {
		case w.records <- r:
		default:
			delete(t.watchers, w)
			w.why = errFellBehind
			close(w.cut)
		}
	}
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
	h.mu.Unlock()
	if last && t.stop != nil {
		t.stop()
		for range t.done { // until the consumer is deleted
		}
	}
}

// watching is how many encounters this hub follows and how many watchers it feeds.
func (h *hub) watching() (encounters, watchers int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, t := range h.topics {
		watchers += t.open
	}
	return len(h.topics), watchers
}

// Watching is how many encounters this service follows for its watchers, and how many
// watches it holds open.
func (s *Service) Watching() (encounters, watchers int) { return s.watches.watching() }
