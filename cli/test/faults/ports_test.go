//go:build unix

package faults

import (
	"net"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// The topology's ports lie below the kernel's ephemeral range, where no outgoing connection
// takes one while its process is down, and each is free to listen on.
func TestFreePortsLieBelowTheEphemeralRange(t *testing.T) {
	lo, hi := ephemeralRange()
	require.Less(t, lo, hi+1)
	seen := map[int]bool{}
	for range 20 {
		p, err := freePort()
		require.NoError(t, err)
		require.GreaterOrEqual(t, p, 10000)
		require.Less(t, p, lo, "below the ephemeral range %d–%d", lo, hi)
		seen[p] = true
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		require.NoError(t, err, "port %d is free", p)
		require.NoError(t, l.Close())
	}
	require.Greater(t, len(seen), 1, "ports are drawn, not fixed")
}
