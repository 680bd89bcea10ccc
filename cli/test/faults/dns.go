package faults

import (
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync"

	"golang.org/x/net/dns/dnsmessage"
)

// NameServer is a DNS server of one name, over UDP on loopback, whose addresses the harness
// changes as it starts and stops resolvers: what a Kubernetes headless Service's DNS is to
// its pods. The encounter services reach the resolvers by that name through gRPC's dns
// resolver, given this server as its authority (dns://127.0.0.1:port/name:port). It answers
// A queries of the name with its addresses, AAAA with none, and anything else with NXDOMAIN
// (gRPC's TXT lookup of _grpc_config.name included: no service config from DNS).
type NameServer struct {
	name dnsmessage.Name
	conn net.PacketConn
	done chan struct{}

	mu    sync.Mutex
	addrs []netip.Addr
	// queries counts the A queries answered: how often the clients resolved the name.
	queries int
}

// NewNameServer serves name (without the trailing dot) on a free UDP port of 127.0.0.1.
func NewNameServer(name string) (*NameServer, error) {
	n, err := dnsmessage.NewName(strings.TrimSuffix(name, ".") + ".")
	if err != nil {
		return nil, err
	}
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &NameServer{name: n, conn: conn, done: make(chan struct{})}
	go s.serve()
	return s, nil
}

// Addr is the server's address (host:port).
func (s *NameServer) Addr() string { return s.conn.LocalAddr().String() }

// Set makes the name resolve to addrs from now on.
func (s *NameServer) Set(addrs ...netip.Addr) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addrs = append([]netip.Addr(nil), addrs...)
}

// Queries is how many A queries of the name were answered so far.
func (s *NameServer) Queries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queries
}

// Close stops the server.
func (s *NameServer) Close() {
	_ = s.conn.Close()
	<-s.done
}

func (s *NameServer) serve() {
	defer close(s.done)
	buf := make([]byte, 1500)
	for {
		n, from, err := s.conn.ReadFrom(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		if out, err := s.answer(buf[:n]); err == nil {
			_, _ = s.conn.WriteTo(out, from)
		}
	}
}

// answer is the reply to one query message.
func (s *NameServer) answer(query []byte) ([]byte, error) {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil {
		return nil, err
	}
	q, err := p.Question()
	if err != nil {
		return nil, err
	}
	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired}
	ours := strings.EqualFold(q.Name.String(), s.name.String()) && q.Class == dnsmessage.ClassINET
	if !ours {
		rh.RCode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, rh)
	b.EnableCompression()
	if err := b.StartQuestions(); err != nil {
		return nil, err
	}
	if err := b.Question(q); err != nil {
		return nil, err
	}
	if err := b.StartAnswers(); err != nil {
		return nil, err
	}
	if ours && q.Type == dnsmessage.TypeA {
		s.mu.Lock()
		addrs := append([]netip.Addr(nil), s.addrs...)
		s.queries++
		s.mu.Unlock()
		for _, a := range addrs {
			// A TTL of 1 s: the clients' re-resolution is gRPC's (its dns resolver caches
			// nothing itself; it asks again when a connection ends, at most every 30 s).
			rr := dnsmessage.ResourceHeader{Name: q.Name, Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET, TTL: 1}
			if err := b.AResource(rr, dnsmessage.AResource{A: a.As4()}); err != nil {
				return nil, err
			}
		}
	}
	return b.Finish()
}
