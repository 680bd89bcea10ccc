package deploy

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

// The NATS exporter of the manifests, for real: its release (deploy/go.mod's tool line, the
// version of the sidecar's image, TestExporterIsTheSidecarsRelease) run as a process with the
// sidecar's arguments against a 3-node JetStream cluster configured as the prod overlay's (the
// routes' TLS, the users' NKeys), holding fray's stream and buckets and a consumer.
type exporterRig struct {
	nodes [3]*server.Server
	url   string // the exporter's /metrics
}

// scrape is one scrape of the exporter: each sample's line, by metric name.
func (x *exporterRig) scrape(t *testing.T) map[string][]string {
	t.Helper()
	resp, err := http.Get(x.url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	out := map[string][]string{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name := line[:strings.IndexAny(line, "{ ")]
		out[name] = append(out[name], line)
	}
	require.NoError(t, sc.Err())
	return out
}

// value is the value of the first sample of name whose line holds every one of labels.
func value(samples map[string][]string, name string, labels ...string) (float64, bool) {
	for _, l := range samples[name] {
		ok := true
		for _, want := range labels {
			ok = ok && strings.Contains(l, want)
		}
		if !ok {
			continue
		}
		f := strings.Fields(l)
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		return v, err == nil
	}
	return 0, false
}

var (
	exporterBinOnce sync.Once
	exporterBin     string
	exporterBinErr  error
)

// buildExporter builds the exporter of deploy/go.mod's tool line, once per test run.
func buildExporter(t *testing.T) string {
	t.Helper()
	exporterBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fray-exporter-")
		if err != nil {
			exporterBinErr = err
			return
		}
		exporterBin = filepath.Join(dir, "prometheus-nats-exporter")
		cmd := exec.Command("go", "build", "-o", exporterBin, "github.com/nats-io/prometheus-nats-exporter")
		cmd.Env = append(os.Environ(), "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			exporterBinErr = fmt.Errorf("go build the exporter: %v\n%s", err, out)
		}
	})
	require.NoError(t, exporterBinErr)
	return exporterBin
}

func startExporterRig(t *testing.T) *exporterRig {
	t.Helper()
	r := render(t, "k8s/overlays/prod")
	cr := credentials(t)
	x := &exporterRig{}
	var routes []string
	for i := range x.nodes {
		ns, _ := startNATS(t, r, cr, fmt.Sprintf("nats-%d", i), routes, true, true)
		x.nodes[i] = ns
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", ns.ClusterAddr().Port))
	}
	// Each node routes to those before it; all three meet and elect a meta leader.
	eventually(t, "3 nodes routed, a meta leader elected", func() bool {
		for _, ns := range x.nodes {
			if ns.NumRemotes() != 2 || !ns.JetStreamIsCurrent() {
				return false
			}
		}
		return true
	})

	// fray's stream and buckets at 3 replicas, as the encounter service creates them, and an
	// event.
	dir := t.TempDir()
	seed, ca := filepath.Join(dir, "nkey"), filepath.Join(dir, "ca.crt")
	require.NoError(t, os.WriteFile(seed, []byte(cr.user["encounter"].seed), 0o600))
	require.NoError(t, os.WriteFile(ca, []byte(cr.ca.certPEM), 0o600))
	auth, err := natsconn.Auth{NKey: seed, TLSCA: ca}.Options() // prod: the client port speaks TLS
	require.NoError(t, err)
	nc, err := nats.Connect(x.nodes[0].ClientURL(), append(natsconn.EncounterOptions(), auth...)...)
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err = store.Open(ctx, nc, store.Config{Replicas: 3})
	require.NoError(t, err)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	_, err = js.Publish(ctx, "fray.enc.enc-exporter", []byte("{}"))
	require.NoError(t, err)
	// A durable consumer at 3 replicas, as `fray audit tail` makes (on every node, so node 0's
	// exporter shows it).
	_, err = js.CreateOrUpdateConsumer(ctx, "FRAY_ENCOUNTERS", jetstream.ConsumerConfig{Durable: "exporter-test", Replicas: 3, AckPolicy: jetstream.AckExplicitPolicy})
	require.NoError(t, err)

	// The sidecar's arguments, its port and nats-server's monitoring address those of this
	// machine.
	sidecar := container(workload(t, r, "nats"), "metrics")
	require.NotNil(t, sidecar)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := lis.Addr().(*net.TCPAddr).Port
	require.NoError(t, lis.Close())
	var args []string
	for _, a := range sidecar.Args {
		switch {
		case strings.HasPrefix(a, "-port="):
			a = fmt.Sprintf("-port=%d", port)
		case strings.HasPrefix(a, "http://localhost:8222"):
			a = "http://" + x.nodes[0].MonitorAddr().String() + "/"
		}
		args = append(args, a)
	}
	cmd := exec.Command(buildExporter(t), append([]string{"-a=127.0.0.1"}, args...)...)
	var logs syncBuf
	cmd.Stdout, cmd.Stderr = &logs, &logs
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("exporter: %s", logs.String())
		}
	})
	x.url = fmt.Sprintf("http://127.0.0.1:%d/metrics", port)
	var last string
	t.Cleanup(func() {
		if t.Failed() {
			os.WriteFile("/tmp/deploy-scrape.txt", []byte(last), 0o600)
		}
	})
	eventually(t, "the exporter serves the stream's and the consumer's figures", func() bool {
		resp, err := http.Get(x.url)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		last = string(b)
		return strings.Contains(last, `stream_name="FRAY_ENCOUNTERS"`) && strings.Contains(last, "nats_consumer_num_pending")
	})
	return x
}

type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var (
	exportedOnce  sync.Once
	exportedNames map[string]bool
)

// natsExported are the names the sidecar exports of a cluster holding fray's stream,
// buckets and a consumer, scraped from the real exporter (one rig per test run).
func natsExported(t *testing.T) map[string]bool {
	t.Helper()
	exportedOnce.Do(func() {
		x := startExporterRig(t)
		exportedNames = map[string]bool{}
		for name := range x.scrape(t) {
			exportedNames[name] = true
		}
	})
	require.NotEmpty(t, exportedNames, "the exporter rig failed in an earlier test")
	return exportedNames
}

// The sidecar's image is the release of the exporter the tests run (deploy/go.mod).
func TestExporterIsTheSidecarsRelease(t *testing.T) {
	v, ok := requiredVersion(t, "go.mod", "github.com/nats-io/prometheus-nats-exporter")
	require.True(t, ok, "deploy/go.mod requires the exporter")
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		sidecar := container(workload(t, r, "nats"), "metrics")
		require.NotNil(t, sidecar)
		require.Contains(t, sidecar.Image, "/prometheus-nats-exporter:"+strings.TrimPrefix(v, "v")+"@sha256:")
	})
}

// What README's NATS alerts rest on, as the real exporter shows it: nats_varz_remotes counts a
// node's peers (2 in a 3-node cluster, whatever the route pooling, which nats_varz_routes
// counts) and falls to 1 on the others when a node is lost; when nats-server itself is down,
// nats_healthz_status_value says so (0, value="unreachable") while the varz figures keep
// their last values.
func TestNATSAlertsAsTheExporterShowsThem(t *testing.T) {
	x := startExporterRig(t)
	s := x.scrape(t)
	remotes, ok := value(s, "nats_varz_remotes")
	require.True(t, ok, "nats_varz_remotes exported")
	require.Equal(t, 2.0, remotes, "a node of 3 has 2 peers")
	routes, _ := value(s, "nats_varz_routes")
	healthy, ok := value(s, "nats_healthz_status_value", `value="ok"`)
	require.True(t, ok, "nats_healthz_status_value{value=\"ok\"} exported: %v", s["nats_healthz_status_value"])
	require.Equal(t, 1.0, healthy)

	// A peer lost: the alert nats_varz_remotes < 2 fires on the nodes left.
	x.nodes[2].Shutdown()
	x.nodes[2].WaitForShutdown()
	eventually(t, "nats_varz_remotes < 2 on a node left", func() bool {
		v, ok := value(x.scrape(t), "nats_varz_remotes")
		return ok && v < 2
	})
	after, _ := value(x.scrape(t), "nats_varz_routes")
	t.Logf("nats_varz_routes %v with 2 peers, %v with 1 (route pooling): a count of routes is no count of peers", routes, after)

	// nats-server down beside its exporter: the health says so.
	x.nodes[0].Shutdown()
	x.nodes[0].WaitForShutdown()
	eventually(t, `nats_healthz_status_value{value="unreachable"} == 0`, func() bool {
		v, ok := value(x.scrape(t), "nats_healthz_status_value", `value="unreachable"`)
		return ok && v == 0
	})
	_, stale := value(x.scrape(t), "nats_varz_remotes")
	t.Logf("nats_varz_remotes still served with nats-server down: %v", stale)
}
