package natstest

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ClusterOption shapes a cluster StartCluster runs.
type ClusterOption func(*clusterConfig)

type clusterConfig struct {
	slow    int // index of the node whose routes are slow, -1 for none
	latency time.Duration
}

// SlowRoutes makes every route to and from node i (0-based) carry each byte latency later
// than it was sent, as a node across a slow link: its copy of a replicated stream applies
// what the leader acknowledged that much later (the leader's quorum is the other nodes), while
// its clients are served at once — the copy its clients' direct gets read lags.
func SlowRoutes(i int, latency time.Duration) ClusterOption {
	return func(c *clusterConfig) { c.slow, c.latency = i, latency }
}

// Cluster is a NATS cluster on loopback whose routes each go through a proxy of the test's:
// a node's routes can be cut (a partition of the routes only: its clients are still served)
// and healed.
type Cluster struct {
	Nodes   []*server.Server
	mu      sync.Mutex
	proxies []*routeProxy
}

// URLs is every node's client URL, comma-separated, as NATS clients take a server pool.
func (c *Cluster) URLs() string {
	var urls []string
	for _, n := range c.Nodes {
		urls = append(urls, n.ClientURL())
	}
	return strings.Join(urls, ",")
}

// Node is the node of that server name.
func (c *Cluster) Node(name string) (int, *server.Server) {
	for i, n := range c.Nodes {
		if n.Name() == name {
			return i, n
		}
	}
	return -1, nil
}

// Partition cuts every route to and from node i (0-based) and refuses new ones until Heal:
// the node keeps serving its clients but hears nothing from its peers.
func (c *Cluster) Partition(i int) { c.setCut(i, true) }

// Heal lets node i's routes connect again.
func (c *Cluster) Heal(i int) { c.setCut(i, false) }

func (c *Cluster) setCut(i int, cut bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.proxies {
		if p.from == i || p.to == i {
			p.setCut(cut)
		}
	}
}

// StartCluster runs n JetStream servers clustered on loopback (cluster "fray-test", servers
// n1…nn, each with its own store directory, only the routes given, none learned by gossip,
// each through a proxy), waits until JetStream answers on every one of them and the meta
// leader counts them all, and returns them. Cleanup shuts them down. A stream with Replicas
// 3 on it has a leader and followers: a client of a follower's node has its direct gets
// answered by that follower's copy.
func StartCluster(t testing.TB, n int, opts ...ClusterOption) *Cluster {
	t.Helper()
	cfg := clusterConfig{slow: -1}
	for _, o := range opts {
		o(&cfg)
	}
	// Every route port chosen (held open) before any server starts, so each server is given
	// them all.
	ports := make([]int, n)
	var held []net.Listener
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, l)
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	for _, l := range held {
		l.Close()
	}
	// Every route through a proxy to its target: one to or from the slow node delays.
	c := &Cluster{}
	routeTo := func(from, to int) *url.URL {
		var latency time.Duration
		if cfg.slow == from || cfg.slow == to {
			latency = cfg.latency
		}
		p := startRouteProxy(t, from, to, fmt.Sprintf("127.0.0.1:%d", ports[to]), latency)
		c.proxies = append(c.proxies, p)
		return &url.URL{Scheme: "nats", Host: p.addr}
	}
	servers := make([]*server.Server, n)
	for i := range servers {
		var routes []*url.URL
		for j := range servers {
			if j != i {
				routes = append(routes, routeTo(i, j))
			}
		}
		servers[i] = start(t, func(o *server.Options) {
			o.ServerName = fmt.Sprintf("n%d", i+1)
			o.Cluster = server.ClusterOpts{Name: "fray-test", Host: "127.0.0.1", Port: ports[i], NoAdvertise: true}
			o.Routes = routes
		})
	}
	// Ready: JetStream answers on every node, and the meta leader counts every other node as
	// a current peer (a stream of n replicas can then be placed).
	deadline := time.Now().Add(60 * time.Second)
	for i, s := range servers {
		nc, err := nats.Connect(s.ClientURL())
		if err != nil {
			t.Fatal(err)
		}
		js, _ := jetstream.New(nc)
		for {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			_, err := js.AccountInfo(ctx)
			cancel()
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				nc.Close()
				t.Fatalf("JetStream did not answer on n%d within 60s: %v", i+1, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
		nc.Close()
	}
	for !allPeersCurrent(servers) {
		if time.Now().After(deadline) {
			t.Fatalf("the JetStream meta group did not count all %d nodes within 60s", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.Nodes = servers
	return c
}

// allPeersCurrent: the meta leader sees every other node as a current peer.
func allPeersCurrent(servers []*server.Server) bool {
	for _, s := range servers {
		if !s.JetStreamIsLeader() {
			continue
		}
		jsz, err := s.Jsz(nil)
		if err != nil || jsz.Meta == nil {
			return false
		}
		current := 0
		for _, p := range jsz.Meta.Replicas {
			if p.Current {
				current++
			}
		}
		return current == len(servers)-1
	}
	return false
}

// routeProxy forwards the route connections from node `from` to node `to`, each chunk in
// both directions written latency after it was read (in order, without holding back what
// follows); while cut, it closes them all and refuses new ones.
type routeProxy struct {
	from, to int
	addr     string
	target   string
	latency  time.Duration

	mu    sync.Mutex
	cut   bool
	conns []net.Conn
}

func startRouteProxy(t testing.TB, from, to int, target string, latency time.Duration) *routeProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &routeProxy{from: from, to: to, addr: l.Addr().String(), target: target, latency: latency}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		l.Close()
		p.setCut(true)
		wg.Wait()
	})
	wg.Go(func() {
		for {
			in, err := l.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			cut := p.cut
			p.mu.Unlock()
			if cut {
				in.Close()
				continue
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			// Cut while dialling: a route accepted just before the cut must not survive it (on
			// a busy machine one did, and a node "cut off" kept its routes, and its quorum).
			p.mu.Lock()
			if p.cut {
				p.mu.Unlock()
				in.Close()
				out.Close()
				continue
			}
			p.conns = append(p.conns, in, out)
			p.mu.Unlock()
			wg.Go(func() { delayCopy(out, in, latency) })
			wg.Go(func() { delayCopy(in, out, latency) })
		}
	})
	return p
}

func (p *routeProxy) setCut(cut bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = cut
	if cut {
		for _, c := range p.conns {
			c.Close()
		}
		p.conns = nil
	}
}

// delayCopy copies src to dst, each chunk latency after it was read; it closes both when
// either side ends.
func delayCopy(dst io.WriteCloser, src io.ReadCloser, latency time.Duration) {
	defer dst.Close()
	defer src.Close()
	if latency == 0 {
		_, _ = io.Copy(dst, src)
		return
	}
	type chunk struct {
		due  time.Time
		data []byte
	}
	q := make(chan chunk, 4096)
	go func() {
		defer close(q)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				q <- chunk{time.Now().Add(latency), buf[:n]}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range q {
		time.Sleep(time.Until(c.due))
		if _, err := dst.Write(c.data); err != nil {
			return
		}
	}
}
