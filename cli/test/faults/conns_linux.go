//go:build linux

package faults

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// connectedTo is which of addrs (host:port, IPv4) process pid has an established TCP
// connection to, read from Linux's /proc (its sockets' inodes, and its namespace's TCP
// table): where an encounter service's NATS connection goes now. -1 when none.
func connectedTo(pid int, addrs []string) (int, error) {
	want := map[netip.AddrPort]int{}
	for i, a := range addrs {
		ap, err := netip.ParseAddrPort(a)
		if err != nil {
			return -1, err
		}
		want[ap] = i
	}
	inodes := map[string]bool{}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return -1, err
	}
	for _, fd := range fds {
		l, err := os.Readlink(filepath.Join(fmt.Sprintf("/proc/%d/fd", pid), fd.Name()))
		if err == nil && strings.HasPrefix(l, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	f, err := os.Open(fmt.Sprintf("/proc/%d/net/tcp", pid))
	if err != nil {
		return -1, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
		fs := strings.Fields(sc.Text())
		if len(fs) < 10 || fs[3] != "01" || !inodes[fs[9]] { // 01: ESTABLISHED
			continue
		}
		ap, err := procAddr(fs[2])
		if err != nil {
			continue
		}
		if i, ok := want[ap]; ok {
			return i, nil
		}
	}
	return -1, sc.Err()
}

// procAddr reads /proc/net/tcp's "0100007F:1F90": the IPv4 address as the host's 32-bit word
// (little-endian on every machine this runs on), the port in hex.
func procAddr(s string) (netip.AddrPort, error) {
	h, p, ok := strings.Cut(s, ":")
	b, err := hex.DecodeString(h)
	if !ok || err != nil || len(b) != 4 {
		return netip.AddrPort{}, fmt.Errorf("address %q", s)
	}
	port, err := strconv.ParseUint(p, 16, 16)
	if err != nil {
		return netip.AddrPort{}, err
	}
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{b[3], b[2], b[1], b[0]}), uint16(port)), nil
}
