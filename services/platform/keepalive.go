package platform

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
