package faults

import (
	"bufio"
	"context"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The name server answers its name with the addresses set last (a scale-up is one more), as
// Go's own resolver — the one gRPC's dns resolver uses — reads them; any other name is
// NXDOMAIN.
func TestNameServerAnswersWhatItIsSet(t *testing.T) {
	s, err := NewNameServer("resolvers.fray.test")
	require.NoError(t, err)
	defer s.Close()
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, s.Addr())
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s.Set(netip.MustParseAddr("127.0.0.2"), netip.MustParseAddr("127.0.0.3"))
	got, err := r.LookupHost(ctx, "resolvers.fray.test")
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"127.0.0.2", "127.0.0.3"}, got)
	s.Set(netip.MustParseAddr("127.0.0.2"), netip.MustParseAddr("127.0.0.3"), netip.MustParseAddr("127.0.0.4"))
	got, err = r.LookupHost(ctx, "resolvers.fray.test")
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"127.0.0.2", "127.0.0.3", "127.0.0.4"}, got)
	require.GreaterOrEqual(t, s.Queries(), 2)

	_, err = r.LookupHost(ctx, "other.fray.test")
	var dnsErr *net.DNSError
	require.ErrorAs(t, err, &dnsErr)
	require.True(t, dnsErr.IsNotFound, "%v", err)
	_, err = r.LookupTXT(ctx, "_grpc_config.resolvers.fray.test")
	require.ErrorAs(t, err, &dnsErr)
	require.True(t, dnsErr.IsNotFound, "no service config from DNS: %v", err)
}

// countHandled sums one method's handled calls over their codes, from Prometheus's text.
func TestCountHandled(t *testing.T) {
	text := `# HELP grpc_server_handled_total Total number of RPCs completed on the server, regardless of success or failure.
# TYPE grpc_server_handled_total counter
grpc_server_handled_total{grpc_code="OK",grpc_method="Resolve",grpc_service="fray.rules.v1.RulesService",grpc_type="unary"} 1234
grpc_server_handled_total{grpc_code="Unavailable",grpc_method="Resolve",grpc_service="fray.rules.v1.RulesService",grpc_type="unary"} 6
grpc_server_handled_total{grpc_code="OK",grpc_method="Roll",grpc_service="fray.rules.v1.RulesService",grpc_type="unary"} 99
grpc_server_started_total{grpc_method="Resolve",grpc_service="fray.rules.v1.RulesService",grpc_type="unary"} 1300
`
	n, err := countHandled(bufio.NewScanner(strings.NewReader(text)), "Resolve")
	require.NoError(t, err)
	require.Equal(t, int64(1240), n)
}

// The health log answers when a status was first said after a time.
func TestFirstStatus(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	log := []HealthChange{{at(0), "SERVING"}, {at(3), "NOT_SERVING"}, {at(5), Unreachable}, {at(6), "SERVING"}}
	require.Equal(t, at(3), firstStatus(log, "NOT_SERVING", at(1), at(10)))
	require.True(t, firstStatus(log, "NOT_SERVING", at(1), at(2)).IsZero(), "not before until")
	require.Equal(t, at(4), firstStatus(log, "NOT_SERVING", at(4), at(10)), "already NOT_SERVING then")
	require.Equal(t, at(6), firstStatus(log, "SERVING", at(3), at(10)))
	require.Equal(t, "", statusAt(log, at(-1)))
	require.Equal(t, Unreachable, statusAt(log, at(5.5)))
}
