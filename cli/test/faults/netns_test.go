//go:build linux

package faults

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestNetHelper is this test binary run inside a node's namespace by the tests below: with
// FRAY_NET_HELPER=listen:addr it answers "ok" to every connection to addr; with dial:addr it
// exits 0 when addr answers "ok" within a second, 1 otherwise.
func TestNetHelper(t *testing.T) {
	mode, addr, ok := strings.Cut(os.Getenv("FRAY_NET_HELPER"), ":")
	if !ok {
		t.Skip("a helper process of TestNetworkPartitions")
	}
	switch mode {
	case "listen":
		l, err := net.Listen("tcp", addr)
		if err != nil {
			fmt.Println(err)
			os.Exit(2)
		}
		for {
			c, err := l.Accept()
			if err != nil {
				os.Exit(2)
			}
			_, _ = c.Write([]byte("ok"))
			c.Close()
		}
	case "dial":
		if dialOK(addr) {
			os.Exit(0)
		}
		os.Exit(1)
	}
}

// dialOK reports whether addr answers "ok" within a second.
func dialOK(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	b, err := io.ReadAll(c)
	return err == nil && string(b) == "ok"
}

// helper runs this test binary as a helper inside node i's namespace.
func helper(n *Network, i int, env string) *exec.Cmd {
	bin, args := n.Wrap(i, os.Args[0], []string{"-test.run=^TestNetHelper$"})
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "FRAY_NET_HELPER="+env)
	cmd.SysProcAttr = sysProcAttr()
	return cmd
}

// The nodes' network: the host reaches every node, every node every other; a routes-only
// partition of a node cuts it from the other nodes both ways but not from the host; a full
// one from everyone; healing restores each; Close leaves no namespace nor link behind, and a
// run whose process is gone has its leftovers removed by the next.
func TestNetworkPartitions(t *testing.T) {
	if testing.Short() {
		t.Skip("network namespaces and helper processes: a slow family, skipped under -short")
	}
	if why := networkUnavailable(); why != "" {
		t.Skipf("SKIPPED: no network namespaces here (%s)", why)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	n, err := NewNetwork(ctx, 3)
	require.NoError(t, err)
	closed := false
	t.Cleanup(func() {
		if !closed {
			n.Close()
		}
	})
	for i := range 3 {
		cmd := helper(n, i, "listen:"+n.Addr(i)+":7000")
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	}
	addr := func(i int) string { return n.Addr(i) + ":7000" }
	// A connection that should work is tried again until it does (at most 2 minutes): each try
	// gives up after a second, which a busy machine may take to answer. One that should not
	// is tried once: slowness cannot make it answer.
	reaches := func(dial func() bool) bool {
		deadline := time.Now().Add(2 * time.Minute)
		for {
			if dial() {
				return true
			}
			if time.Now().After(deadline) {
				return false
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	fromHost := func(i int) func() bool { return func() bool { return dialOK(addr(i)) } }
	between := func(i, j int) func() bool {
		return func() bool { return helper(n, i, "dial:"+addr(j)).Run() == nil }
	}
	for i := range 3 {
		require.True(t, reaches(fromHost(i)), "the host reaches node %d", i+1)
	}
	require.True(t, reaches(between(0, 1)))
	require.True(t, reaches(between(2, 0)))

	require.NoError(t, n.CutRoutes(ctx, 0))
	require.True(t, reaches(fromHost(0)), "clients still reach a node cut from its routes")
	require.False(t, between(0, 1)(), "node 1 cannot reach node 2")
	require.False(t, between(2, 0)(), "node 3 cannot reach node 1")
	require.True(t, reaches(between(1, 2)), "nodes 2 and 3 still reach each other")
	require.NoError(t, n.Heal(ctx, 0))
	require.True(t, reaches(between(0, 1)))
	require.True(t, reaches(between(2, 0)))

	require.NoError(t, n.CutAll(ctx, 0))
	require.False(t, fromHost(0)(), "clients cannot reach a node cut off from everyone")
	require.False(t, between(1, 0)())
	require.True(t, reaches(between(1, 2)))
	require.NoError(t, n.Heal(ctx, 0))
	require.True(t, reaches(fromHost(0)))

	names := append(append([]string{}, n.namespaces...), n.router)
	n.Close()
	closed = true
	out, err := ipOutput(ctx, "netns", "list")
	require.NoError(t, err)
	for _, ns := range names {
		require.NotContains(t, out, ns)
	}
	links, err := ipOutput(ctx, "link", "show")
	require.NoError(t, err)
	require.NotContains(t, links, n.hostLink)

	// A dead run's namespace (its pid is no process) goes at the next run's start; a live
	// run's stays.
	dead := fmt.Sprintf("%s%d-%s-r", netnsPrefix, deadPID(t), "fffff")
	live := fmt.Sprintf("%s%d-%s-r", netnsPrefix, os.Getpid(), "eeeee")
	for _, ns := range []string{dead, live} {
		require.NoError(t, ip(ctx, "netns", "add", ns))
		t.Cleanup(func() { _ = ip(context.Background(), "netns", "del", ns) })
	}
	removeStale(ctx)
	out, err = ipOutput(ctx, "netns", "list")
	require.NoError(t, err)
	require.NotContains(t, out, dead)
	require.Contains(t, out, live)
}

// deadPID is the id of a process that has exited.
func deadPID(t *testing.T) int {
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	require.False(t, alive(cmd.Process.Pid))
	return cmd.Process.Pid
}

// procAddr reads /proc/net/tcp's little-endian words; connectedTo finds this process's own
// connection.
func TestConnectedTo(t *testing.T) {
	ap, err := procAddr("0100007F:1F90")
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:8080", ap.String())
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	go func() {
		c, err := l.Accept()
		if err == nil {
			defer c.Close()
			time.Sleep(5 * time.Second)
		}
	}()
	c, err := net.Dial("tcp", l.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	i, err := connectedTo(os.Getpid(), []string{"127.0.0.1:1", l.Addr().String()})
	require.NoError(t, err)
	require.Equal(t, 1, i)
	i, err = connectedTo(os.Getpid(), []string{"127.0.0.1:1"})
	require.NoError(t, err)
	require.Equal(t, -1, i)
}
