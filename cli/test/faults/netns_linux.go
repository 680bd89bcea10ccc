//go:build linux

package faults

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// netnsPrefix starts the name of every network namespace the harness creates:
// fray-faults-<pid>-<run>-<role>, so that a run's leftovers are found (and removed) by the
// next run once the process that made them is gone. linkPrefix starts the only link made in
// the host's namespace (the host's end of the veth to the router), named linkPrefix<run>.
const (
	netnsPrefix = "fray-faults-"
	linkPrefix  = "fyf"
)

// Network is the NATS nodes' own network: each node in a network namespace of its own, joined
// by a veth pair to a router namespace, which a veth pair joins to the host's namespace where
// the encounter services, the resolvers and the harness run. Every packet between two nodes,
// or between a client and a node, crosses the router, where a partition is a pair of ip rules
// of type blackhole: the router drops those packets silently (no ICMP), as a cut cable or a
// firewall's DROP does, and both ends learn of it only by their own timeouts. It needs root
// (ip netns); iproute2 is the only tool it runs (no iptables, which this machine lacks).
type Network struct {
	run    string // 5 hex digits, unique among the runs alive
	prefix netip.Prefix
	// Nodes' namespaces and addresses, in order.
	namespaces []string
	addrs      []netip.Addr
	router     string
	hostLink   string
	// rules: the partition rules in the router now, by node.
	rules map[int][]string
	prio  int
}

// networkUnavailable says why the host cannot give the nodes namespaces, or "" when it can.
func networkUnavailable() string {
	if os.Geteuid() != 0 {
		return "not root: ip netns needs CAP_SYS_ADMIN"
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return "no ip command (iproute2)"
	}
	return ""
}

// ip runs the ip command with args and returns its error with its output.
func ip(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, "ip", args...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("ip %s: %w: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
}

func ipOutput(ctx context.Context, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, "ip", args...).Output()
	if err != nil {
		return "", fmt.Errorf("ip %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}

// NewNetwork makes the namespaces of nodes NATS nodes and their links, after removing what
// runs of the harness no longer alive left behind. Close removes everything it made.
func NewNetwork(ctx context.Context, nodes int) (_ *Network, err error) {
	if why := networkUnavailable(); why != "" {
		return nil, errors.New(why)
	}
	removeStale(ctx)
	n := &Network{run: fmt.Sprintf("%05x", rand.IntN(1<<20)), rules: map[int][]string{}, prio: 100}
	if n.prefix, err = freeSubnet(ctx); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			n.Close()
		}
	}()
	base := fmt.Sprintf("%s%d-%s-", netnsPrefix, os.Getpid(), n.run)
	n.router = base + "r"
	n.hostLink = linkPrefix + n.run
	a := n.prefix.Addr().As4()
	at := func(link, host byte) netip.Addr { return netip.AddrFrom4([4]byte{a[0], a[1], link, host}) }
	if err := ip(ctx, "netns", "add", n.router); err != nil {
		return nil, err
	}
	// The router forwards, and accepts packets whatever interface their replies leave by.
	if err := nsWrite(ctx, n.router, "/proc/sys/net/ipv4/ip_forward", "1"); err != nil {
		return nil, err
	}
	for _, f := range []string{"all", "default"} {
		if err := nsWrite(ctx, n.router, "/proc/sys/net/ipv4/conf/"+f+"/rp_filter", "0"); err != nil {
			return nil, err
		}
	}
	host, hostR := at(0, 1), at(0, 2)
	steps := [][]string{
		{"link", "add", n.hostLink, "type", "veth", "peer", "name", "host", "netns", n.router},
		{"addr", "add", host.String() + "/24", "dev", n.hostLink},
		{"link", "set", n.hostLink, "up"},
		{"-n", n.router, "addr", "add", hostR.String() + "/24", "dev", "host"},
		{"-n", n.router, "link", "set", "host", "up"},
		{"-n", n.router, "link", "set", "lo", "up"},
		// The host reaches the nodes through the router: one route, gone with the link.
		{"route", "add", n.prefix.String(), "via", hostR.String(), "dev", n.hostLink},
	}
	for i := range nodes {
		ns := fmt.Sprintf("%sn%d", base, i+1)
		link := fmt.Sprintf("n%d", i+1)
		gw, addr := at(byte(i+1), 1), at(byte(i+1), 2)
		if err := ip(ctx, "netns", "add", ns); err != nil {
			return nil, err
		}
		n.namespaces = append(n.namespaces, ns)
		n.addrs = append(n.addrs, addr)
		steps = append(steps,
			[]string{"link", "add", link, "netns", n.router, "type", "veth", "peer", "name", "eth0", "netns", ns},
			[]string{"-n", n.router, "addr", "add", gw.String() + "/24", "dev", link},
			[]string{"-n", n.router, "link", "set", link, "up"},
			[]string{"-n", ns, "addr", "add", addr.String() + "/24", "dev", "eth0"},
			[]string{"-n", ns, "link", "set", "eth0", "up"},
			[]string{"-n", ns, "link", "set", "lo", "up"},
			[]string{"-n", ns, "route", "add", "default", "via", gw.String()})
	}
	for _, s := range steps {
		if err := ip(ctx, s...); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// nsWrite writes value to a /proc/sys file inside namespace ns.
func nsWrite(ctx context.Context, ns, file, value string) error {
	out, err := exec.CommandContext(ctx, "ip", "netns", "exec", ns, "sh", "-c", "echo "+value+" > "+file).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s in %s: %w: %s", file, ns, err, bytes.TrimSpace(out))
	}
	return nil
}

// freeSubnet is a 10.x.0.0/16 that no route nor address of the host's namespace overlaps
// (10.255/16 is left alone: resolvers and such often live there).
func freeSubnet(ctx context.Context) (netip.Prefix, error) {
	out, err := ipOutput(ctx, "-4", "route", "show", "table", "all")
	if err != nil {
		return netip.Prefix{}, err
	}
	addrs, err := ipOutput(ctx, "-4", "-o", "addr", "show")
	if err != nil {
		return netip.Prefix{}, err
	}
	var used []netip.Prefix
	for _, f := range strings.Fields(out + " " + addrs) {
		if p, err := netip.ParsePrefix(f); err == nil {
			used = append(used, p)
		} else if a, err := netip.ParseAddr(f); err == nil && a.Is4() {
			used = append(used, netip.PrefixFrom(a, 32))
		}
	}
	for range 100 {
		p := netip.PrefixFrom(netip.AddrFrom4([4]byte{10, byte(100 + rand.IntN(150)), 0, 0}), 16)
		free := true
		for _, u := range used {
			if u.Bits() > 0 && u.Overlaps(p) {
				free = false
				break
			}
		}
		if free {
			return p, nil
		}
	}
	return netip.Prefix{}, errors.New("no free 10.x.0.0/16 for the NATS nodes' network")
}

// removeStale deletes the namespaces and host links of runs whose process is gone.
func removeStale(ctx context.Context) {
	out, _ := ipOutput(ctx, "netns", "list")
	liveRuns := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], netnsPrefix) {
			continue
		}
		parts := strings.Split(strings.TrimPrefix(f[0], netnsPrefix), "-") // pid, run, role
		if len(parts) != 3 {
			continue
		}
		if pid, err := strconv.Atoi(parts[0]); err == nil && alive(pid) {
			liveRuns[parts[1]] = true
			continue
		}
		_ = ip(ctx, "netns", "del", f[0])
	}
	links, _ := ipOutput(ctx, "-o", "link", "show")
	for _, line := range strings.Split(links, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimSuffix(f[1], ":"), "@")
		run, ok := strings.CutPrefix(name, linkPrefix)
		if ok && len(run) == 5 && !liveRuns[run] {
			_ = ip(ctx, "link", "del", name)
		}
	}
}

// alive reports whether process pid exists.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Addr is node i's address.
func (n *Network) Addr(i int) string { return n.addrs[i].String() }

// Wrap is the command that runs bin with args inside node i's namespace.
func (n *Network) Wrap(i int, bin string, args []string) (string, []string) {
	return "ip", append([]string{"netns", "exec", n.namespaces[i], bin}, args...)
}

// Describe is the network in words, for the report.
func (n *Network) Describe() string {
	return fmt.Sprintf("each NATS node in its own network namespace (%s…), %s, through a router namespace", n.router[:len(n.router)-1], n.prefix)
}

// rule adds one blackhole rule to the router and notes it under node i.
func (n *Network) rule(ctx context.Context, i int, selector ...string) error {
	n.prio++
	spec := append(append([]string{}, selector...), "blackhole", "priority", strconv.Itoa(n.prio))
	if err := ip(ctx, append([]string{"-n", n.router, "rule", "add"}, spec...)...); err != nil {
		return err
	}
	n.rules[i] = append(n.rules[i], strings.Join(spec, " "))
	return nil
}

// CutRoutes cuts node i off from the other nodes, both ways; clients still reach it.
func (n *Network) CutRoutes(ctx context.Context, i int) error {
	for j := range n.addrs {
		if j == i {
			continue
		}
		a, b := n.addrs[i].String(), n.addrs[j].String()
		if err := n.rule(ctx, i, "from", a, "to", b); err != nil {
			return err
		}
		if err := n.rule(ctx, i, "from", b, "to", a); err != nil {
			return err
		}
	}
	return nil
}

// CutAll cuts node i off from everyone: the other nodes and every client.
func (n *Network) CutAll(ctx context.Context, i int) error {
	a := n.addrs[i].String()
	if err := n.rule(ctx, i, "from", a); err != nil {
		return err
	}
	return n.rule(ctx, i, "to", a)
}

// Heal removes node i's partition rules.
func (n *Network) Heal(ctx context.Context, i int) error {
	var errs []error
	for _, spec := range n.rules[i] {
		if err := ip(ctx, append([]string{"-n", n.router, "rule", "del"}, strings.Fields(spec)...)...); err != nil {
			errs = append(errs, err)
		}
	}
	delete(n.rules, i)
	return errors.Join(errs...)
}

// Close deletes the namespaces (and with them every link and rule in them; the host's end of
// the router's link goes with its peer, and the host's route with it).
func (n *Network) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, ns := range append(append([]string{}, n.namespaces...), n.router) {
		if ns != "" {
			_ = ip(ctx, "netns", "del", ns)
		}
	}
	if n.hostLink != "" {
		_ = ip(ctx, "link", "del", n.hostLink) // gone already, unless the router never had it
	}
}
