package natstest

import (
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// SlowAnswers is a proxy between a NATS client and a server that holds each chunk the server
// sends for the latency set at the time: every answer arrives that much late, as to a service
// waiting for the CPU on a busy machine — by a set amount, not a race.
type SlowAnswers struct {
	addr    string
	latency atomic.Int64 // nanoseconds
}

// SetLatency sets how long each answer is held from now on.
func (p *SlowAnswers) SetLatency(d time.Duration) { p.latency.Store(int64(d)) }

// Connect connects to the server through the proxy (not as a secured server's user).
func (p *SlowAnswers) Connect(t testing.TB) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect("nats://"+p.addr, nats.Timeout(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// StartSlowAnswers runs a SlowAnswers proxy to the server at clientURL (nats://host:port),
// with no latency until SetLatency; cleanup closes it and its connections.
func StartSlowAnswers(t testing.TB, clientURL string) *SlowAnswers {
	t.Helper()
	target := strings.TrimPrefix(clientURL, "nats://")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &SlowAnswers{addr: l.Addr().String()}
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
	wg.Go(func() {
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
			wg.Go(func() { _, _ = io.Copy(out, in); out.Close() })
			wg.Go(func() {
				defer in.Close()
				buf := make([]byte, 32<<10)
				for {
					n, err := out.Read(buf)
					if n > 0 {
						time.Sleep(time.Duration(p.latency.Load()))
						if _, werr := in.Write(buf[:n]); werr != nil {
							return
						}
					}
					if err != nil {
						return
					}
				}
			})
		}
	})
	return p
}
