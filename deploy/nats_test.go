package deploy

import (
	"context"
	"crypto/tls"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// What the NATS configuration of every overlay gives, parsed and checked by nats-server's
// own code as a pod sees it: the two users of permissions.conf by their NKeys (no password),
// the payload and the flushes chosen, lame duck within the grace period, the store on the
// volume, routes to every node over TLS admitting only the routes' certificate, and TLS on the
// client port in prod.
func TestNATSConfiguration(t *testing.T) {
	perms, err := os.ReadFile(filepath.Join(repoRoot, "deploy/nats/permissions.conf"))
	require.NoError(t, err)
	cr := credentials(t)
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		cm := r.ConfigMap("nats-permissions")
		require.NotNil(t, cm)
		require.Equal(t, string(perms), cm.Data["permissions.conf"], "the cluster enforces deploy/nats/permissions.conf as it is")

		// The placeholders fail closed: nats-server refuses to start on them.
		_, err := server.ProcessConfigFile(layNATSPod(t, r).conf())
		require.Error(t, err, "nats-server starts on the placeholders")

		opts, w := natsOptions(t, r)
		// nats-server's own checks of the options, as at its start (nothing started here).
		srv, err := server.NewServer(opts)
		require.NoError(t, err)
		srv.Shutdown()
		c := container(w, "nats")
		port := func(name string) int {
			p, ok := portOf(c.Ports, intstr.FromString(name))
			require.True(t, ok, name)
			return int(p.ContainerPort)
		}
		require.Equal(t, "nats-0", opts.ServerName)
		require.Equal(t, port("client"), opts.Port)
		require.Equal(t, port("monitor"), opts.HTTPPort)
		require.True(t, opts.JetStream)
		require.True(t, mountedAt(c, opts.StoreDir, "data"), "the JetStream store %s is on the volume claim", opts.StoreDir)
		require.True(t, mountedAt(c, opts.PidFile, "pid"))

		// The two users of permissions.conf, each by its NKey with its permissions; no
		// password, no anonymous client.
		require.Empty(t, opts.Users, "no user signs in with a password")
		require.Empty(t, opts.NoAuthUser)
		require.Len(t, opts.Nkeys, 2)
		byKey := map[string]*server.NkeyUser{}
		for _, u := range opts.Nkeys {
			byKey[u.Nkey] = u
		}
		for name, want := range map[string]*server.Permissions{"encounter": natsconn.EncounterPermissions(), "auditor": natsconn.AuditorPermissions()} {
			u := byKey[cr.user[name].pub]
			require.NotNilf(t, u, "users.conf gives the %s user its NKey", name)
			requireSamePermissions(t, want, u.Permissions)
		}

		// A snapshot of a state at the encounter limit fits in a message, and so does a
		// record of the event stream (the numbers of nats.conf's comment).
		require.EqualValues(t, natsconn.MaxPayload, opts.MaxPayload, "the max_payload of fray's every NATS server")
		require.GreaterOrEqual(t, int(opts.MaxPayload), 2*encounter.DefaultMaxEncounterBytes, "a state at FRAY_MAX_ENCOUNTER_BYTES and as much again for its command ids")
		require.GreaterOrEqual(t, int(opts.MaxPayload), store.MaxRecordBytes, "the stream's max_msg_size within max_payload")
		enc := container(workload(t, r, "encounter"), "encounter")
		_, limited := env(enc, "FRAY_MAX_ENCOUNTER_BYTES")
		require.False(t, limited, "the manifests keep the default FRAY_MAX_ENCOUNTER_BYTES, which max_payload is sized for")

		// Flushed to disk every second, not at NATS's default of 2 minutes (sync.conf).
		require.Equal(t, time.Second, opts.SyncInterval)
		require.False(t, opts.SyncAlways)

		// Lame duck on the way out, within the pod's grace period.
		require.Equal(t, 30*time.Second, opts.LameDuckDuration)
		require.Less(t, opts.LameDuckDuration+opts.LameDuckGracePeriod, time.Duration(*w.Template.Spec.TerminationGracePeriodSeconds)*time.Second)
		require.NotNil(t, c.Lifecycle)
		require.NotNil(t, c.Lifecycle.PreStop)
		require.Equal(t, []string{"/nats-server", "-sl=ldm=" + opts.PidFile}, c.Lifecycle.PreStop.Exec.Command)

		// TLS on the client port in prod, checked by the encounter service against fray-ca.
		url, _ := env(enc, "FRAY_NATS_URL")
		if o.prod {
			require.NotNil(t, opts.TLSConfig, "prod: clients reach NATS over TLS")
			require.Equal(t, tls.NoClientCert, opts.TLSConfig.ClientAuth, "clients sign in with their NKeys")
			require.True(t, strings.HasPrefix(url, "tls://"), url)
			ca, _ := env(enc, "FRAY_NATS_TLS_CA")
			require.Equal(t, "/etc/fray/ca/ca.crt", ca)
		} else {
			require.Nil(t, opts.TLSConfig)
			require.True(t, strings.HasPrefix(url, "nats://"), url)
		}
		nkey, _ := env(enc, "FRAY_NATS_NKEY")
		require.NotEmpty(t, nkey, "the encounter service signs in with its NKey seed, a mounted file")
		for _, e := range enc.Env {
			require.NotContains(t, e.Name, "PASSWORD")
		}

		// A cluster of every node of the StatefulSet, reached by its headless Service,
		// over TLS: each end presents the routes' certificate and checks the other's, whose
		// subject is the route user (verify_and_map).
		if o.natsNodes == 1 {
			require.Empty(t, opts.Cluster.Name, "one node runs without a cluster")
			require.Empty(t, opts.Routes)
			return
		}
		require.NotEmpty(t, opts.Cluster.Name)
		require.Equal(t, port("cluster"), opts.Cluster.Port)
		require.NotNil(t, opts.Cluster.TLSConfig, "routes over TLS")
		require.Equal(t, tls.RequireAndVerifyClientCert, opts.Cluster.TLSConfig.ClientAuth)
		require.True(t, opts.Cluster.TLSMap, "a route's certificate names its user")
		require.Equal(t, "CN=nats-route", opts.Cluster.Username)
		sts := r.StatefulSets[0]
		var routes []string
		for _, u := range opts.Routes {
			routes = append(routes, u.Host)
		}
		var want []string
		for i := range o.natsNodes {
			want = append(want, fmt.Sprintf("%s-%d.%s:%d", sts.Name, i, sts.Spec.ServiceName, port("cluster")))
		}
		require.ElementsMatch(t, want, routes)
	})
}

func requireSamePermissions(t *testing.T, want, got *server.Permissions) {
	t.Helper()
	require.NotNil(t, got)
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
	require.Equal(t, sorted(want.Publish.Allow), sorted(got.Publish.Allow), "publish allow")
	require.Equal(t, sorted(want.Publish.Deny), sorted(got.Publish.Deny), "publish deny")
	require.Equal(t, sorted(want.Subscribe.Allow), sorted(got.Subscribe.Allow), "subscribe allow")
	require.Equal(t, sorted(want.Subscribe.Deny), sorted(got.Subscribe.Deny), "subscribe deny")
}

// The component nats-sync-always flushes every write before its acknowledgement.
func TestNATSSyncAlwaysComponent(t *testing.T) {
	dir := t.TempDir()
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		require.NoError(t, err)
		rel, err := filepath.Rel(dir, a)
		require.NoError(t, err)
		return filepath.ToSlash(rel)
	}
	k := fmt.Sprintf("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- %s\ncomponents:\n- %s\n",
		abs("k8s/overlays/prod"), abs("k8s/components/nats-sync-always"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k), 0o600))
	r, err := Render(dir)
	require.NoError(t, err)
	opts, _ := natsOptions(t, r)
	require.True(t, opts.SyncAlways)
}

// natsLog keeps what a server logs, for a test to wait on.
type natsLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *natsLog) add(level, format string, v ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, level+" "+fmt.Sprintf(format, v...))
}
func (l *natsLog) Noticef(f string, v ...any) { l.add("INF", f, v...) }
func (l *natsLog) Warnf(f string, v ...any)   { l.add("WRN", f, v...) }
func (l *natsLog) Fatalf(f string, v ...any)  { l.add("FTL", f, v...) }
func (l *natsLog) Errorf(f string, v ...any)  { l.add("ERR", f, v...) }
func (l *natsLog) Debugf(f string, v ...any)  { l.add("DBG", f, v...) }
func (l *natsLog) Tracef(f string, v ...any)  {}

// since are the lines logged from the n-th on, and how many there are now.
func (l *natsLog) since(n int) ([]string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines[n:]), len(l.lines)
}

// eventually waits for cond with a generous deadline, logging how long it took.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	start := time.Now()
	deadline := start.Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after %v", what, time.Since(start))
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("%s after %v", what, time.Since(start).Round(time.Millisecond))
}

// startNATS runs in this process a node configured as the overlay's pod (placeholders filled
// with cr's credentials, or the test's), on loopback ports, routing to routes.
func startNATS(t *testing.T, r *Rendered, cr *testCreds, name string, routes []string, jetStream, monitor bool) (*server.Server, *natsLog) {
	t.Helper()
	p := layNATSPod(t, r)
	p.fill(t, cr)
	opts, err := server.ProcessConfigFile(p.conf())
	require.NoError(t, err)
	opts.ServerName = name
	opts.Host, opts.Port, opts.HTTPPort = "127.0.0.1", -1, 0
	if monitor {
		opts.HTTPHost, opts.HTTPPort = "127.0.0.1", -1
	}
	opts.PidFile = ""
	opts.StoreDir = t.TempDir()
	opts.JetStream = jetStream
	opts.JetStreamMaxStore = 32 << 30 // a limit, not a reservation: the store's default bytes fit
	opts.NoSigs = true
	if opts.Cluster.Name != "" {
		opts.Cluster.Host, opts.Cluster.Port = "127.0.0.1", -1
		opts.Routes = server.RoutesFromStr(strings.Join(routes, ","))
	}
	ns, err := server.NewServer(opts)
	require.NoError(t, err)
	log := &natsLog{}
	ns.SetLoggerV2(log, true, false, false)
	ns.Start()
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	require.True(t, ns.ReadyForConnections(30*time.Second), "%s did not start", name)
	return ns, log
}

// Anything that reaches a node's route port but holds no certificate of the routes' CA
// naming the route user does not join the cluster, and so never sees a subject (the seeds'
// included): a plaintext route, a certificate of another CA, and one of the right CA for
// another subject (a service's) are all refused, while the nodes' own certificate joins.
func TestNATSRoutesAdmitOnlyTheRouteCertificate(t *testing.T) {
	r := render(t, "k8s/overlays/prod")
	cr := credentials(t)
	a, aLog := startNATS(t, r, cr, "a", nil, false, false)
	routeOfA := fmt.Sprintf("nats://127.0.0.1:%d", a.ClusterAddr().Port)
	b, _ := startNATS(t, r, cr, "b", []string{routeOfA}, false, false)
	eventually(t, "a and b routed to each other", func() bool { return a.NumRemotes() == 1 && b.NumRemotes() == 1 })

	other, err := newCreds() // another CA: its CA, its route certificate, its keys
	require.NoError(t, err)
	wrongName := *cr
	wrongName.route, err = newCert("encounter", &cr.ca, []string{"*.nats-headless", "localhost"}, cr.route.cert.IPAddresses)
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		creds *testCreds
		plain bool
	}{
		{"plaintext", cr, true},
		{"another CA", other, false},
		{"the routes' CA, another subject", &wrongName, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, mark := aLog.since(0)
			var intruder *server.Server
			if tc.plain {
				intruder = plainRoute(t, routeOfA)
			} else {
				intruder, _ = startNATS(t, r, tc.creds, "intruder", []string{routeOfA}, false, false)
			}
			var refusal string
			eventually(t, "a refused the intruder's route", func() bool {
				lines, _ := aLog.since(mark)
				i := slices.IndexFunc(lines, func(l string) bool {
					l = strings.ToLower(l)
					return strings.HasPrefix(l, "err") && (strings.Contains(l, "tls") || strings.Contains(l, "authoriz") || strings.Contains(l, "authentic"))
				})
				if i >= 0 {
					refusal = lines[i]
				}
				return i >= 0
			})
			t.Logf("a: %s", refusal)
			require.Zero(t, intruder.NumRemotes(), "the intruder joined")
			require.Equal(t, 1, a.NumRemotes(), "a's peers: b alone")
			intruder.Shutdown()
			intruder.WaitForShutdown()
		})
	}
}

// plainRoute runs a node whose routes are plaintext, routing to url.
func plainRoute(t *testing.T, url string) *server.Server {
	t.Helper()
	ns, err := server.NewServer(&server.Options{
		ServerName: "intruder", Host: "127.0.0.1", Port: -1, NoSigs: true, NoLog: true,
		Cluster: server.ClusterOpts{Name: "fray", Host: "127.0.0.1", Port: -1},
		Routes:  server.RoutesFromStr(url),
	})
	require.NoError(t, err)
	ns.Start()
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	require.True(t, ns.ReadyForConnections(30*time.Second))
	return ns
}

// The encounter service, signed in with its NKey seed to a NATS configured as the
// manifests configure it, stores the snapshot of a state at the encounter limit with the ids
// of 25,000 commands (max_payload), and reads it back.
func TestNATSTakesASnapshotAtTheEncounterLimit(t *testing.T) {
	r := render(t, "k8s/overlays/dev")
	cr := credentials(t)
	ns, _ := startNATS(t, r, cr, "nats-0", nil, true, false)
	seed := filepath.Join(t.TempDir(), "nkey")
	require.NoError(t, os.WriteFile(seed, []byte(cr.user["encounter"].seed), 0o600))
	auth, err := natsconn.Auth{NKey: seed}.Options()
	require.NoError(t, err)
	nc, err := nats.Connect(ns.ClientURL(), append(natsconn.EncounterOptions(), auth...)...)
	require.NoError(t, err)
	defer nc.Close()
	require.EqualValues(t, natsconn.MaxPayload, nc.MaxPayload())

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// What is checked is the size NATS takes, not how fast: a 5 MB put on a machine busy with
	// other builds takes longer than the 2 s a command's call is given (a clean-clone run at
	// load average 33 failed on it), so the calls get the test's own deadline.
	st, err := store.Open(ctx, nc, store.Config{CallTimeout: time.Minute})
	require.NoError(t, err)
	snap := &encounterv1.Snapshot{
		Position: 25_000,
		State:    &encounterv1.EncounterState{Name: strings.Repeat("x", encounter.DefaultMaxEncounterBytes-64)},
		Commands: map[string]uint64{},
	}
	for i := range 25_000 {
		snap.Commands[fmt.Sprintf("cmd-%032d", i)] = uint64(i + 1)
	}
	size := proto.Size(snap)
	t.Logf("snapshot of %d bytes (max_payload %d)", size, nc.MaxPayload())
	require.Greater(t, size, encounter.DefaultMaxEncounterBytes+512<<10)
	require.NoError(t, st.PutSnapshot(ctx, "enc-at-the-limit", snap))
	back, err := st.Snapshot(ctx, "enc-at-the-limit")
	require.NoError(t, err)
	require.True(t, proto.Equal(snap, back))
}
