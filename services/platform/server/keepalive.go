package server

import (
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"
)

// Keepalive of the servers and of their clients (the CLI, the encounter service's
// connections to the resolver). The server pings a connection silent for KeepaliveTime and
// closes it when no answer comes within KeepaliveTimeout, so that a watch whose client
// vanished (a laptop closed, a NAT that forgot the connection) is ended and its resources
// freed, and an idle watch crossing a load balancer is not dropped as idle. A client may ping
// no more often than KeepaliveMinTime, with or without a call under way; faster, the server
// answers GOAWAY too_many_pings and closes the connection. Clients ping every
// ClientKeepaliveTime, above the minimum.
const (
	KeepaliveTime          = time.Minute
	KeepaliveTimeout       = 20 * time.Second
	KeepaliveMinTime       = 15 * time.Second
	ClientKeepaliveTime    = 30 * time.Second
	ClientKeepaliveTimeout = 20 * time.Second
)

// ConnectionAge is how long a server lets a client connection live: after about Max (grpc
// adds ±10% at random) it sends GOAWAY, so the client opens a new connection for its next
// calls, resolving the service's name again: an instance added since (a resolver the
// autoscaler started) gets its share, where a healthy connection would otherwise be kept for
// ever (a resolver added to DNS would get almost none of the calls). Calls and streams under
// way get Grace to finish.
type ConnectionAge struct {
	Max, Grace time.Duration
}

// The connection ages of the services. The resolver's calls are short, and a new resolver
// must take its share within 30 s. The encounter service's watches are long: its connections
// live longer, and a watch still open after the grace is ended with Unavailable, from which
// clients resume after the last event they had (fray watch, the page).
var (
	ResolverConnectionAge  = ConnectionAge{Max: 15 * time.Second, Grace: 10 * time.Second}
	EncounterConnectionAge = ConnectionAge{Max: 5 * time.Minute, Grace: 30 * time.Minute}
)

// WithConnectionAge is the server option of age (with ServerKeepalive's pings).
func WithConnectionAge(age ConnectionAge) grpc.ServerOption {
	p := ServerKeepalive()
	p.MaxConnectionAge, p.MaxConnectionAgeGrace = age.Max, age.Grace
	if age.Max <= 0 {
		p.MaxConnectionAge, p.MaxConnectionAgeGrace = 0, 0 // grpc's "infinity"
	}
	return grpc.KeepaliveParams(p)
}

// ServerKeepalive are the keepalive parameters of NewServer.
func ServerKeepalive() keepalive.ServerParameters {
	return keepalive.ServerParameters{Time: KeepaliveTime, Timeout: KeepaliveTimeout}
}

// KeepalivePolicy is what NewServer allows of its clients' pings.
func KeepalivePolicy() keepalive.EnforcementPolicy {
	return keepalive.EnforcementPolicy{MinTime: KeepaliveMinTime, PermitWithoutStream: true}
}

// ClientKeepalive are the keepalive parameters of fray's clients, within KeepalivePolicy.
func ClientKeepalive() keepalive.ClientParameters {
	return keepalive.ClientParameters{Time: ClientKeepaliveTime, Timeout: ClientKeepaliveTimeout, PermitWithoutStream: true}
}

// WithClientKeepalive is the dial option of ClientKeepalive.
func WithClientKeepalive() grpc.DialOption { return grpc.WithKeepaliveParams(ClientKeepalive()) }
