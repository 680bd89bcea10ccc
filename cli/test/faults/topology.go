//go:build unix

package faults

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// Binaries are the programs of the topology, built from the repository.
type Binaries struct {
	Encounter, Resolver, NATSServer string
}

// Build compiles the encounter service, the resolver and nats-server (the version the
// repository requires) into dir, with one go command, from the repository at root (the folder
// of go.work).
func Build(ctx context.Context, root, dir string) (Binaries, error) {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", dir+string(filepath.Separator),
		"./services/encounter/cmd/encounter", "./services/resolver/cmd/resolver", "github.com/nats-io/nats-server/v2")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return Binaries{}, fmt.Errorf("go build: %w\n%s", err, out)
	}
	b := Binaries{Encounter: filepath.Join(dir, "encounter"), Resolver: filepath.Join(dir, "resolver"), NATSServer: filepath.Join(dir, "nats-server")}
	for _, p := range []string{b.Encounter, b.Resolver, b.NATSServer} {
		if _, err := os.Stat(p); err != nil {
			return Binaries{}, fmt.Errorf("go build made no %s: %w", p, err)
		}
	}
	return b, nil
}

// StreamName is the event stream of the topology (the services' default).
const StreamName = "FRAY_ENCOUNTERS"

// natsNode is one nats-server of the cluster.
type natsNode struct {
	*process
	name       string // server_name, as JetStream names its leaders
	clientAddr string
}

// service is an encounter service or a resolver.
type service struct {
	*process
	addr string
	// A resolver's plaintext health port and Prometheus metrics (host:port).
	health, metrics string
}

// Topology is the running processes.
type Topology struct {
	Dir        string
	NATS       []*natsNode
	Resolvers  []*service
	Encounters []*service
	// Users are the NATS passwords of the encounter and auditor users.
	Users  natsconn.Users
	Signer auth.Signer
	// Net: the NATS nodes' network namespaces, nil when they run on 127.0.0.1 (no partitions);
	// NetUnavailable then says why.
	Net            *Network
	NetUnavailable string
	// DNS serves ResolverName, the resolvers' one name.
	DNS *NameServer
	// Health: a monitor of each encounter service's gRPC health, for the whole run.
	Health []*HealthMonitor

	auditor      *nats.Conn
	js           jetstream.JetStream
	bins         Binaries
	security     []string
	tls          TLSFiles
	resolverPort int
}

// freePort is a loopback TCP port free when asked, below the kernel's ephemeral range
// (ip_local_port_range, 32768–60999 by default). A process killed here is restarted on its
// port; a port from the ephemeral range can meanwhile become the local end of any outgoing
// connection (a NATS route redialling, a client), and the restart then fails with "address
// already in use", as TestFaults once did. Below that range only a listener takes a port.
func freePort() (int, error) {
	lo, _ := ephemeralRange()
	const floor = 10000
	if lo-floor < 1000 { // a range that leaves nothing below: take what the kernel gives
		return kernelPort()
	}
	for range 200 {
		p := floor + rand.IntN(lo-floor)
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			continue // taken
		}
		l.Close()
		return p, nil
	}
	return 0, fmt.Errorf("no free port found between %d and %d", floor, lo)
}

// kernelPort is a free port the kernel picks (in its ephemeral range).
func kernelPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// ephemeralRange is the kernel's range of ports for outgoing connections (Linux's
// /proc/sys/net/ipv4/ip_local_port_range), or the IANA range where it cannot be read.
func ephemeralRange() (lo, hi int) {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err == nil {
		if _, err := fmt.Sscan(string(b), &lo, &hi); err == nil && lo > 0 && hi >= lo {
			return lo, hi
		}
	}
	return 49152, 65535
}

// natsConfig is one node's nats-server configuration: JetStream in its own store folder,
// cluster routes to every node, and fray's two users with exactly the permissions the
// services and tools are given everywhere else (natsconn.EncounterPermissions and
// AuditorPermissions, which a test keeps equal to deploy/nats/permissions.conf).
func natsConfig(name, listen, cluster string, routes []string, store string, users natsconn.Users) (string, error) {
	// server.Permissions marshals to the configuration's own keys (publish, subscribe, allow,
	// deny); the configuration knows no \u escapes (of '>').
	perm := func(p any) (string, error) {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		err := enc.Encode(p)
		return strings.TrimSpace(b.String()), err
	}
	enc, err := perm(natsconn.EncounterPermissions())
	if err != nil {
		return "", err
	}
	aud, err := perm(natsconn.AuditorPermissions())
	if err != nil {
		return "", err
	}
	var rs []string
	for _, r := range routes {
		rs = append(rs, fmt.Sprintf("%q", "nats-route://"+r))
	}
	q := func(s string) string { v, _ := perm(s); return v }
	return fmt.Sprintf(`server_name: %s
listen: %q
logtime: true
jetstream {
  store_dir: %s
  max_memory_store: 64MB
  max_file_store: 16GB
}
cluster {
  name: "fray-faults"
  listen: %q
  routes: [%s]
}
authorization {
  users = [
    {user: %s, password: %s, permissions: %s}
    {user: %s, password: %s, permissions: %s}
  ]
}
`, q(name), listen, q(store), cluster, strings.Join(rs, ", "),
		q(natsconn.EncounterUser), q(users.Encounter), enc,
		q(natsconn.AuditorUser), q(users.Auditor), aud), nil
}

// ResolverName is the DNS name of the resolvers, served by the topology's own NameServer.
const ResolverName = "resolvers.fray.test"

// resolverIP is the loopback address of resolver i (127.0.0.2, 127.0.0.3…): one name, an
// address each, one port, as a headless Service's pods.
func resolverIP(i int) string { return fmt.Sprintf("127.0.0.%d", 2+i) }

// Start runs the topology in dir: 3 NATS nodes (each in a namespace of network when it is
// set, else on 127.0.0.1), then 2 resolvers under one DNS name and 2 encounter services
// (stream at 3 replicas), and waits until every encounter service is SERVING. On an error,
// what was started is stopped.
func Start(ctx context.Context, bins Binaries, dir string, network *Network) (_ *Topology, err error) {
	t := &Topology{Dir: dir, Users: natsconn.NewUsers(), Net: network, bins: bins}
	defer func() {
		if err != nil {
			t.Close()
		}
	}()
	ports := make([]int, 0, 8)
	for len(ports) < 8 {
		p, err := freePort()
		if err != nil {
			return nil, err
		}
		if !slices.Contains(ports, p) { // each was free when asked, and closed again
			ports = append(ports, p)
		}
	}
	// In namespaces each node has an address of its own, and NATS's usual ports.
	listen := func(i int) (client, cluster string) {
		if network != nil {
			return network.Addr(i) + ":4222", network.Addr(i) + ":6222"
		}
		return fmt.Sprintf("127.0.0.1:%d", ports[i]), fmt.Sprintf("127.0.0.1:%d", ports[3+i])
	}
	var routes []string
	for i := range 3 {
		_, c := listen(i)
		routes = append(routes, c)
	}
	for i := range 3 {
		name := fmt.Sprintf("n%d", i+1)
		client, cluster := listen(i)
		conf, err := natsConfig(name, client, cluster, routes, filepath.Join(dir, name, "jetstream"), t.Users)
		if err != nil {
			return nil, err
		}
		file := filepath.Join(dir, name+".conf")
		if err := os.WriteFile(file, []byte(conf), 0o600); err != nil {
			return nil, err
		}
		bin, args := bins.NATSServer, []string{"-c", file}
		if network != nil {
			bin, args = network.Wrap(i, bin, args)
		}
		n := &natsNode{name: name, clientAddr: client,
			process: &process{name: "nats " + name, bin: bin, args: args, log: filepath.Join(dir, name+".log")}}
		t.NATS = append(t.NATS, n)
		if err := n.start(); err != nil {
			return nil, err
		}
	}
	if err := t.connectAuditor(ctx); err != nil {
		return nil, err
	}

	// Tokens: a signing key of the topology's own, its public key set in a file the services
	// read (--jwks), the encounter service's token for the resolver in another.
	signer, _, err := auth.LoadOrCreateDevKey(filepath.Join(dir, "keys"))
	if err != nil {
		return nil, err
	}
	t.Signer = signer
	jwks, err := auth.MarshalJWKS(signer.Public())
	if err != nil {
		return nil, err
	}
	jwksFile := filepath.Join(dir, "keys", "jwks.json")
	if err := os.WriteFile(jwksFile, jwks, 0o600); err != nil {
		return nil, err
	}
	tok, err := signer.Mint(auth.DevClaims(auth.DevTenant, "encounter-service", 24*time.Hour, identity.ScopeResolve))
	if err != nil {
		return nil, err
	}
	tokenFile := filepath.Join(dir, "keys", "resolver-token")
	if err := os.WriteFile(tokenFile, []byte(tok+"\n"), 0o600); err != nil {
		return nil, err
	}
	t.security = []string{"--jwks", jwksFile, "--token-issuer", auth.DevIssuer, "--token-audience", auth.DevAudience, "--grace", "2s"}

	// The resolvers: one DNS name, served by the run's own name server, resolving to each
	// resolver's loopback address; reached by that name, they serve TLS for it.
	if t.tls, err = writeTLS(filepath.Join(dir, "tls"), ResolverName); err != nil {
		return nil, err
	}
	if t.DNS, err = NewNameServer(ResolverName); err != nil {
		return nil, err
	}
	if t.resolverPort, err = freePortOn(resolverIP(0), resolverIP(1), resolverIP(2), resolverIP(3)); err != nil {
		return nil, err
	}
	for range 2 {
		if _, err := t.addResolver(ctx); err != nil {
			return nil, err
		}
	}
	for i := range 2 {
		addr := fmt.Sprintf("127.0.0.1:%d", ports[6+i])
		name := fmt.Sprintf("encounter-%d", i+1)
		args := append([]string{"--listen", addr, "--nats-url", t.NATSURL(),
			"--nats-user", natsconn.EncounterUser, "--nats-password", t.Users.Encounter,
			"--resolver", t.ResolverTarget(), "--resolver-ca", t.tls.CA, "--resolver-token-file", tokenFile, "--replicas", "3",
			"--rate-principal", "0", "--rate-tenant", "0"}, t.security...)
		s := &service{addr: addr, process: &process{name: name, bin: bins.Encounter, args: args, log: filepath.Join(dir, name+".log")}}
		t.Encounters = append(t.Encounters, s)
	}
	// The first creates the stream and buckets; the second finds them.
	for _, s := range t.Encounters {
		if err := s.start(); err != nil {
			return nil, err
		}
		if _, err := t.waitServing(ctx, s, time.Minute); err != nil {
			return nil, err
		}
		m, err := watchHealth(s.addr)
		if err != nil {
			return nil, err
		}
		t.Health = append(t.Health, m)
	}
	return t, nil
}

// ResolverTarget is the resolvers' gRPC target as the encounter services are given it: the
// DNS name, asked of the run's name server.
func (t *Topology) ResolverTarget() string {
	return fmt.Sprintf("dns://%s/%s:%d", t.DNS.Addr(), ResolverName, t.resolverPort)
}

// addResolver starts one more resolver, on the next loopback address, waits until its health
// says SERVING, and adds its address to the name (a scale-up: as a pod joins its Service's
// endpoints once ready). It returns the resolver.
func (t *Topology) addResolver(ctx context.Context) (*service, error) {
	i := len(t.Resolvers)
	host := resolverIP(i)
	hp, err := freePortOn(host)
	if err != nil {
		return nil, err
	}
	mp, err := freePortOn(host)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("resolver-%d", i+1)
	s := &service{addr: fmt.Sprintf("%s:%d", host, t.resolverPort), health: fmt.Sprintf("%s:%d", host, hp), metrics: fmt.Sprintf("%s:%d", host, mp),
		process: &process{name: name, bin: t.bins.Resolver, log: filepath.Join(t.Dir, name+".log"),
			args: append([]string{"--listen", fmt.Sprintf("%s:%d", host, t.resolverPort), "--health-listen", fmt.Sprintf("%s:%d", host, hp),
				"--metrics-listen", fmt.Sprintf("%s:%d", host, mp), "--tls-cert", t.tls.Cert, "--tls-key", t.tls.Key}, t.security...)}}
	t.Resolvers = append(t.Resolvers, s)
	if err := s.start(); err != nil {
		return nil, err
	}
	if _, err := waitHealth(ctx, s, s.health, rulesv1.RulesService_ServiceDesc.ServiceName, time.Minute); err != nil {
		return nil, err
	}
	t.publishResolvers()
	return s, nil
}

// publishResolvers sets the name to every resolver's address.
func (t *Topology) publishResolvers() {
	var addrs []netip.Addr
	for i := range t.Resolvers {
		addrs = append(addrs, netip.MustParseAddr(resolverIP(i)))
	}
	t.DNS.Set(addrs...)
}

// freePortOn is a port free on every one of hosts (loopback addresses), below the ephemeral
// range (freePort).
func freePortOn(hosts ...string) (int, error) {
	for range 100 {
		p, err := freePort()
		if err != nil {
			return 0, err
		}
		free := true
		for _, h := range hosts {
			l, err := net.Listen("tcp", net.JoinHostPort(h, strconv.Itoa(p)))
			if err != nil {
				free = false
				break
			}
			l.Close()
		}
		if free {
			return p, nil
		}
	}
	return 0, fmt.Errorf("no port free on every one of %v", hosts)
}

// NATSURL lists every node, as the services and tools are given it.
func (t *Topology) NATSURL() string {
	var us []string
	for _, n := range t.NATS {
		us = append(us, "nats://"+n.clientAddr)
	}
	return strings.Join(us, ",")
}

// connectAuditor connects the harness's own observer (the auditor user: stream info, reads)
// and waits for the cluster's JetStream to answer.
func (t *Topology) connectAuditor(ctx context.Context) error {
	deadline := time.Now().Add(time.Minute)
	var nc *nats.Conn
	var err error
	for {
		nc, err = nats.Connect(t.NATSURL(), nats.UserInfo(natsconn.AuditorUser, t.Users.Auditor), nats.Name("fray-faults"),
			nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond), nats.Timeout(time.Second),
			nats.PingInterval(time.Second), nats.MaxPingsOutstanding(2))
		if err == nil {
			break
		}
		for _, n := range t.NATS {
			if !n.running() {
				return fmt.Errorf("%s exited:\n%s", n.name, n.tail(20))
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("NATS cluster: %w\n%s", err, t.NATS[0].tail(20))
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
	t.auditor = nc
	t.js, err = jetstream.New(nc)
	if err != nil {
		return err
	}
	// JetStream answers once the cluster has a meta leader: an unknown stream is "not found".
	for {
		c, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := t.js.Stream(c, StreamName)
		cancel()
		if err == nil || errors.Is(err, jetstream.ErrStreamNotFound) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the NATS cluster's JetStream does not answer: %w\n%s", err, t.NATS[0].tail(20))
		}
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return err
		}
	}
}

// waitServing waits until s's health reports the encounter service SERVING, and returns when.
func (t *Topology) waitServing(ctx context.Context, s *service, within time.Duration) (time.Time, error) {
	return waitHealth(ctx, s, s.addr, encounterv1.EncounterService_ServiceDesc.ServiceName, within)
}

// waitHealth waits until the health at addr reports service SERVING, and returns when.
func waitHealth(ctx context.Context, s *service, addr, name string, within time.Duration) (time.Time, error) {
	// Dial again within 50 ms of a refused connection (gRPC's default waits a second).
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithConnectParams(grpc.ConnectParams{Backoff: backoff.Config{BaseDelay: 20 * time.Millisecond, Multiplier: 1.2, MaxDelay: 50 * time.Millisecond}, MinConnectTimeout: time.Second}))
	if err != nil {
		return time.Time{}, err
	}
	defer cc.Close()
	h := healthpb.NewHealthClient(cc)
	deadline := time.Now().Add(within)
	var last error
	for {
		c, cancel := context.WithTimeout(ctx, time.Second)
		r, err := h.Check(c, &healthpb.HealthCheckRequest{Service: name})
		cancel()
		if err == nil && r.GetStatus() == healthpb.HealthCheckResponse_SERVING {
			return time.Now(), nil
		}
		if err == nil {
			err = fmt.Errorf("health %s", r.GetStatus())
		}
		last = err
		if !s.running() {
			return time.Time{}, fmt.Errorf("%s exited:\n%s", s.name, s.tail(20))
		}
		if time.Now().After(deadline) {
			return time.Time{}, fmt.Errorf("%s not SERVING within %v (last: %v):\n%s", s.name, within, last, s.tail(20))
		}
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return time.Time{}, err
		}
	}
}

// streamInfo is the event stream's info, asked of the cluster with a short timeout.
func (t *Topology) streamInfo(ctx context.Context) (*jetstream.StreamInfo, error) {
	c, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	s, err := t.js.Stream(c, StreamName)
	if err != nil {
		return nil, err
	}
	return s.Info(c)
}

// leader is the NATS node leading the event stream now.
func (t *Topology) leader(ctx context.Context) (*natsNode, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		info, err := t.streamInfo(ctx)
		if err == nil && info.Cluster != nil && info.Cluster.Leader != "" {
			for _, n := range t.NATS {
				if n.name == info.Cluster.Leader {
					return n, nil
				}
			}
			return nil, fmt.Errorf("the stream's leader %q is none of the nodes", info.Cluster.Leader)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no leader of %s within 30s (last: %v)", StreamName, err)
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

// waitCurrent waits until the stream has a leader and every replica is current, and returns
// when.
func (t *Topology) waitCurrent(ctx context.Context, within time.Duration) (time.Time, error) {
	deadline := time.Now().Add(within)
	var last string
	for {
		info, err := t.streamInfo(ctx)
		switch {
		case err != nil:
			last = err.Error()
		case info.Cluster == nil || info.Cluster.Leader == "":
			last = "no leader"
		case len(info.Cluster.Replicas) != 2:
			last = fmt.Sprintf("%d followers", len(info.Cluster.Replicas))
		default:
			current := true
			for _, r := range info.Cluster.Replicas {
				if !r.Current || r.Offline {
					current = false
					last = fmt.Sprintf("%s: current %v, offline %v, lag %d", r.Name, r.Current, r.Offline, r.Lag)
				}
			}
			if current {
				return time.Now(), nil
			}
		}
		if time.Now().After(deadline) {
			return time.Time{}, fmt.Errorf("the stream's replicas not all current within %v (last: %s)", within, last)
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return time.Time{}, err
		}
	}
}

// processes is every process of the topology.
func (t *Topology) processes() []*process {
	var ps []*process
	for _, n := range t.NATS {
		ps = append(ps, n.process)
	}
	for _, s := range append(append([]*service{}, t.Encounters...), t.Resolvers...) {
		ps = append(ps, s.process)
	}
	return ps
}

// Close kills every process it started (continuing a frozen one first) and waits for them.
func (t *Topology) Close() {
	for _, m := range t.Health {
		m.Close()
	}
	t.Health = nil
	if t.auditor != nil {
		t.auditor.Close()
	}
	for _, p := range t.processes() {
		p.close()
	}
	if t.DNS != nil {
		t.DNS.Close()
		t.DNS = nil
	}
}

// Logs is the end of every process's log.
func (t *Topology) Logs(lines int) string {
	var b strings.Builder
	for _, p := range t.processes() {
		fmt.Fprintf(&b, "---- %s (%s)\n%s\n", p.name, p.log, p.tail(lines))
	}
	return b.String()
}
