package dev_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

var registered sync.Once

// registerDev adds `fray dev` to the fray command, as cmd/fray/main.go does: once a process.
func registerDev() { registered.Do(func() { commands.Register(dev.NewCommand) }) }

// runDev runs the `fray dev` command line args (on free ports, data in a folder of the
// test's) until the test ends, and returns its gRPC address, read from what it prints.
func runDev(t *testing.T, args ...string) string {
	t.Helper()
	registerDev()
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		// Small storage limits: the embedded NATS reserves them on a disk other tests share.
		code := commands.Run(ctx, append([]string{"dev", "--listen", "127.0.0.1:0", "--nats-port", "-1", "--web", "off", "--data", t.TempDir(),
			"--stream-max-bytes", "67108864", "--snapshots-max-bytes", "16777216", "--index-max-bytes", "16777216", "--seeds-max-bytes", "1048576"}, args...), w, &stderr)
		w.Close()
		done <- code
	}()
	t.Cleanup(func() {
		cancel()
		go io.Copy(io.Discard, r) // its last lines, as it stops
		require.Equal(t, 0, <-done, stderr.String())
	})
	serving := regexp.MustCompile(`^fray dev: serving on (\S+) `)
	lines := bufio.NewScanner(r)
	for lines.Scan() {
		if m := serving.FindStringSubmatch(lines.Text()); m != nil {
			go io.Copy(io.Discard, r)
			waitServing(t, m[1])
			return m[1]
		}
	}
	t.Fatalf("fray dev %v did not start: %s", args, stderr.String())
	return ""
}

// waitServing waits until the encounter service at addr says SERVING (its log open), as a
// probe would.
func waitServing(t *testing.T, addr string) {
	t.Helper()
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	begin := time.Now()
	w, err := healthpb.NewHealthClient(cc).Watch(ctx, &healthpb.HealthCheckRequest{Service: "fray.encounter.v1.EncounterService"})
	require.NoError(t, err)
	for {
		m, err := w.Recv()
		require.NoError(t, err, "waiting for SERVING")
		if m.GetStatus() == healthpb.HealthCheckResponse_SERVING {
			t.Logf("the encounter service was SERVING %s after fray dev said it served", time.Since(begin))
			return
		}
	}
}

// Issue 28, item 9: fray dev sets no rate limit unless asked (the README says so; it was
// 100 requests/s per principal, and a bot met it), and takes every limit flag the encounter
// service takes, with the same names: here --max-open-encounters-per-principal 1 refuses a
// principal's second encounter (before, the flag was unknown to fray dev).
func TestDevTakesTheEncounterServiceLimits(t *testing.T) {
	cmd := dev.NewCommand()
	for _, name := range []string{"rate-principal", "rate-tenant"} {
		require.Equal(t, "0", cmd.Flags().Lookup(name).DefValue, "--%s: fray dev sets no rate limit unless asked", name)
	}
	for _, name := range []string{"cache-bytes", "max-open-encounters", "max-open-encounters-per-principal", "max-watches-per-principal",
		"max-watchers-per-encounter", "watch-buffer", "max-encounter-bytes", "idle-end", "idle-sweep-every", "idle-sweep-batch",
		"burst-principal", "burst-tenant", "stream-max-bytes", "max-age", "max-records-per-encounter", "seeds-max-bytes",
		"snapshots-max-bytes", "index-max-bytes", "apply-storage-limits"} {
		require.NotNil(t, cmd.Flags().Lookup(name), "fray dev --%s, as the encounter service", name)
	}

	begin := time.Now()
	addr := runDev(t, "--max-open-encounters-per-principal", "1")
	t.Logf("fray dev started in %s", time.Since(begin))
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--name", "La première"))
	require.True(t, strings.HasPrefix(id, "enc-"), id)
	var out, errOut bytes.Buffer
	code := commands.Run(context.Background(), []string{"create", "--addr", addr, "--name", "La seconde"}, &out, &errOut)
	require.Equal(t, 1, code, out.String())
	require.Contains(t, errOut.String(), "ResourceExhausted")
	require.Contains(t, errOut.String(), "dev/gm is the GM of 1 encounters not ended, the most")
	fray(t, "end", id, "--addr", addr)
	fray(t, "create", "--addr", addr, "--name", "La seconde, la première finie")

	// A flag of the encounter service's that cannot work is refused by fray dev as by it.
	out.Reset()
	errOut.Reset()
	code = commands.Run(context.Background(), []string{"dev", "--max-watches-per-principal", "-1", "--listen", "127.0.0.1:0", "--nats-port", "-1", "--web", "off", "--data", t.TempDir()}, &out, &errOut)
	require.Equal(t, 2, code, errOut.String())
	require.Contains(t, errOut.String(), "--max-watches-per-principal (FRAY_MAX_WATCHES_PER_PRINCIPAL) -1: must be 0 (the default) or more")
}

// Issue 28, item 13: a taken NATS port is said at once, with "in use" and the flag that moves
// it (it said "did not become ready" after 10 s).
func TestDevSaysItsNATSPortIsInUse(t *testing.T) {
	registerDev()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	var out, errOut bytes.Buffer
	code := commands.Run(context.Background(), []string{"dev", "--listen", "127.0.0.1:0", "--nats-port", port, "--web", "off", "--data", t.TempDir()}, &out, &errOut)
	require.Equal(t, 1, code, errOut.String())
	require.Contains(t, errOut.String(), "embedded NATS: 127.0.0.1:"+port+" is in use (another fray dev, or a NATS server?): address in use: give fray dev another port with --nats-port N (FRAY_NATS_PORT), or -1 for any free one")
}
