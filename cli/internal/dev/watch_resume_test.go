package dev_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/stretchr/testify/require"
)

// watcher runs `fray watch --json` and hands over each event's sequence as it is printed.
type watcher struct {
	seqs   chan uint64
	done   chan int
	stderr *lockedBuffer
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func watch(t *testing.T, args ...string) *watcher {
	t.Helper()
	r, w := io.Pipe()
	wt := &watcher{seqs: make(chan uint64, 1024), done: make(chan int, 1), stderr: &lockedBuffer{}}
	go func() {
		code := commands.Run(t.Context(), append([]string{"watch", "--json"}, args...), w, wt.stderr)
		w.Close()
		wt.done <- code
	}()
	go func() {
		defer close(wt.seqs)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var ev struct{ Sequence string }
			if json.Unmarshal(sc.Bytes(), &ev) != nil {
				continue
			}
			n, _ := strconv.ParseUint(ev.Sequence, 10, 64)
			wt.seqs <- n
		}
	}()
	return wt
}

// upTo reads the printed sequences up to and including seq.
func (w *watcher) upTo(t *testing.T, seq uint64) []uint64 {
	t.Helper()
	var got []uint64
	for s := range w.seqs {
		got = append(got, s)
		if s >= seq {
			return got
		}
	}
	t.Fatalf("the watch stopped printing at %v before #%d: %s", got, seq, w.stderr.String())
	return nil
}

func sequenceOf(t *testing.T, addr, id string) uint64 {
	t.Helper()
	var st struct{ State struct{ Sequence string } }
	require.NoError(t, json.Unmarshal([]byte(fray(t, "state", "--addr", addr, "--json", id)), &st))
	n, err := strconv.ParseUint(st.State.Sequence, 10, 64)
	require.NoError(t, err)
	return n
}

func oneToN(n uint64) []uint64 {
	var s []uint64
	for i := uint64(1); i <= n; i++ {
		s = append(s, i)
	}
	return s
}

func freeLoopback(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

func newFight(t *testing.T, addr string) string {
	t.Helper()
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--name", "Reprise"))
	sheets := filepath.Join("..", "..", "testdata", "sheets")
	fray(t, "add", "--addr", addr, id, filepath.Join(sheets, "diego.yaml"), filepath.Join(sheets, "ruffian.yaml"))
	fray(t, "start", "--addr", addr, id)
	return id
}

// `fray watch` across a restart of the server: the watch ended by the shutdown
// (Unavailable, "resume from sequence N") comes back once the server is up again, and prints
// every event once, in order, the ones recorded after the restart included.
func TestWatchResumesAcrossARestart(t *testing.T) {
	data, addr := t.TempDir(), freeLoopback(t)
	on := func(c *dev.Config) { c.Listen = addr }
	_, stop := start(t, data, on)
	id := newFight(t, addr)
	before := sequenceOf(t, addr, id)
	w := watch(t, id, "--addr", addr)
	got := w.upTo(t, before)

	stop()
	_, stop = start(t, data, on)
	defer stop()
	fray(t, "grant", "--addr", addr, id, "erin", "observer")
	fray(t, "revoke", "--addr", addr, id, "erin", "observer")
	fray(t, "end", "--addr", addr, id)
	last := sequenceOf(t, addr, id)
	require.Greater(t, last, before+2)
	got = append(got, w.upTo(t, last)...)
	require.Equal(t, 0, <-w.done, "the watch ends with the encounter: %s", w.stderr.String())
	require.Equal(t, oneToN(last), got, "every event once, in order")
	require.Contains(t, w.stderr.String(), "(Unavailable: the server is shutting down; resume from sequence "+strconv.FormatUint(before+1, 10)+"); resuming from #"+strconv.FormatUint(before+1, 10))
	require.Contains(t, w.stderr.String(), "fray watch: resumed from #"+strconv.FormatUint(before+1, 10))
}

// cutter is a TCP proxy whose connections can be cut at once (reset, as by a crashed server
// or a lost network) and refused until restored.
type cutter struct {
	t      *testing.T
	addr   string
	target string
	mu     sync.Mutex
	lis    net.Listener
	conns  []*net.TCPConn
}

func newCutter(t *testing.T, target string) *cutter {
	c := &cutter{t: t, target: target, addr: freeLoopback(t)}
	c.restore()
	t.Cleanup(c.cut)
	return c
}

func (c *cutter) restore() {
	lis, err := net.Listen("tcp", c.addr)
	require.NoError(c.t, err)
	c.mu.Lock()
	c.lis = lis
	c.mu.Unlock()
	go func() {
		for {
			in, err := lis.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", c.target)
			if err != nil {
				in.Close()
				continue
			}
			c.mu.Lock()
			c.conns = append(c.conns, in.(*net.TCPConn), out.(*net.TCPConn))
			c.mu.Unlock()
			go func() { _, _ = io.Copy(out, in); out.Close() }()
			go func() { _, _ = io.Copy(in, out); in.Close() }()
		}
	}()
}

// cut resets every connection and refuses new ones.
func (c *cutter) cut() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lis != nil {
		c.lis.Close()
		c.lis = nil
	}
	for _, conn := range c.conns {
		_ = conn.SetLinger(0) // a reset, not a clean close
		conn.Close()
	}
	c.conns = nil
}

// `fray watch` across a lost connection, while the server goes on recording: the events
// recorded while the watch was cut off are printed when it comes back, each once.
func TestWatchResumesAfterAConnectionReset(t *testing.T) {
	addr, stop := start(t, t.TempDir())
	defer stop()
	id := newFight(t, addr)
	token := strings.TrimSpace(fray(t, "token", "--addr", addr, "--as", "gm"))
	proxy := newCutter(t, addr)
	before := sequenceOf(t, addr, id)
	w := watch(t, id, "--addr", proxy.addr, "--token", token)
	got := w.upTo(t, before)

	proxy.cut()
	fray(t, "grant", "--addr", addr, id, "erin", "observer")
	fray(t, "revoke", "--addr", addr, id, "erin", "observer")
	proxy.restore()
	fray(t, "end", "--addr", addr, id)
	last := sequenceOf(t, addr, id)
	got = append(got, w.upTo(t, last)...)
	require.Equal(t, 0, <-w.done, w.stderr.String())
	require.Equal(t, oneToN(last), got, "every event once, in order")
	require.Contains(t, w.stderr.String(), "fray watch: the stream of "+id+" broke (Unavailable: ")
	require.Contains(t, w.stderr.String(), "fray watch: resumed from #"+strconv.FormatUint(before+1, 10))
}
