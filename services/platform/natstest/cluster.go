package natstest

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
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

// StartCluster runs n JetStream servers clustered on loopback (cluster "fray-test", servers
// n1…nn, each with its own store directory, only the routes given, none learned by gossip),
// waits until JetStream answers on every one of them (a meta leader is elected), and returns
// them. Cleanup shuts them down. A stream with Replicas 3 on it has a leader and followers: a
// client of a follower's node has its direct gets answered by that follower's copy.
func StartCluster(t testing.TB, n int, opts ...ClusterOption) []*server.Server {
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
	// A route to or from the slow node goes through a delaying proxy to its target.
	routeTo := func(from, to int) *url.URL {
		addr := fmt.Sprintf("127.0.0.1:%d", ports[to])
		if cfg.slow == from || cfg.slow == to {
			addr = delayingProxy(t, addr, cfg.latency)
		}
		return &url.URL{Scheme: "nats", Host: addr}
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
	return servers
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

// delayingProxy listens on a free loopback port and forwards each connection to target,
// each chunk in both directions written latency after it was read (in order, without
// holding back what follows). Closed at the test's end.
func delayingProxy(t testing.TB, target string, latency time.Duration) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	go func() {
		for {
			in, err := l.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			mu.Lock()
			conns = append(conns, in, out)
			mu.Unlock()
			wg.Add(2)
			go func() { defer wg.Done(); delayCopy(out, in, latency) }()
			go func() { defer wg.Done(); delayCopy(in, out, latency) }()
		}
	}()
	return l.Addr().String()
}

// delayCopy copies src to dst, each chunk latency after it was read; it closes both when
// either side ends.
func delayCopy(dst io.WriteCloser, src io.ReadCloser, latency time.Duration) {
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
	defer dst.Close()
	defer src.Close()
	for c := range q {
		time.Sleep(time.Until(c.due))
		if _, err := dst.Write(c.data); err != nil {
			return
		}
	}
}
