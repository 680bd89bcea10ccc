package e2e_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/commands"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// cli runs one fray command and returns its output.
func cli(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	code := commands.Run(context.Background(), args, &out, &errOut)
	require.Equal(t, 0, code, "fray %v: %s", args, errOut.String())
	return strings.TrimSpace(out.String())
}

// `fray watch` across a kill -9 of the encounter service and its restart on the same address:
// the watch resumes after the last event it printed, and prints every event once, in order,
// those recorded after the restart included.
func TestWatchResumesAcrossAKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the service binaries")
	}
	ns, _ := natstest.Start(t)
	bin := t.TempDir()
	resolverBin := build(t, bin, "services/resolver", "./cmd/resolver")
	encounterBin := build(t, bin, "services/encounter", "./cmd/encounter")
	secrets := t.TempDir()
	jwks := authtest.Default().WriteJWKS(t, secrets)
	tokenFile := filepath.Join(secrets, "resolver-token")
	require.NoError(t, os.WriteFile(tokenFile, []byte(authtest.Default().Token("encounter-service", identity.ScopeResolve)), 0o600))
	security := []string{"--jwks", jwks, "--token-issuer", authtest.Issuer, "--token-audience", authtest.Audience}

	resolverAddr, addr := freeAddr(t), freeAddr(t)
	resolver := exec.Command(resolverBin, append([]string{"--listen", resolverAddr}, security...)...)
	require.NoError(t, resolver.Start())
	t.Cleanup(func() { _ = resolver.Process.Kill(); _ = resolver.Wait() })
	var logs lockedBuffer
	startEncounter := func() *exec.Cmd {
		p := exec.Command(encounterBin, append([]string{"--listen", addr, "--nats-url", ns.ClientURL(), "--resolver", resolverAddr, "--resolver-token-file", tokenFile}, security...)...)
		p.Stderr = &logs
		require.NoError(t, p.Start())
		return p
	}
	encounter := startEncounter()
	t.Cleanup(func() { _ = encounter.Process.Kill(); _ = encounter.Wait() })
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	waitServing(t, cc, encounterv1.EncounterService_ServiceDesc.ServiceName)

	tok := authtest.Default().Token("gm")
	conn := []string{"--addr", addr, "--token", tok}
	id := cli(t, append([]string{"create", "--name", "Coupure"}, conn...)...)
	sheets := filepath.Join("..", "..", "testdata", "sheets")
	cli(t, append([]string{"add", id, filepath.Join(sheets, "diego.yaml"), filepath.Join(sheets, "ruffian.yaml")}, conn...)...)
	cli(t, append([]string{"start", id}, conn...)...)
	sequence := func() uint64 {
		var st struct{ State struct{ Sequence string } }
		require.NoError(t, json.Unmarshal([]byte(cli(t, append([]string{"state", id, "--json"}, conn...)...)), &st))
		n, err := strconv.ParseUint(st.State.Sequence, 10, 64)
		require.NoError(t, err)
		return n
	}
	before := sequence()

	// The watch, printing one event a line.
	r, w := io.Pipe()
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		code := commands.Run(t.Context(), append([]string{"watch", id, "--json"}, conn...), w, &stderr)
		w.Close()
		done <- code
	}()
	seqs := make(chan uint64, 1024)
	go func() {
		defer close(seqs)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var ev struct{ Sequence string }
			if json.Unmarshal(sc.Bytes(), &ev) == nil {
				n, _ := strconv.ParseUint(ev.Sequence, 10, 64)
				seqs <- n
			}
		}
	}()
	var got []uint64
	upTo := func(seq uint64) {
		for s := range seqs {
			if got = append(got, s); s >= seq {
				return
			}
		}
		t.Fatalf("the watch stopped at %v before #%d: %s", got, seq, stderr.String())
	}
	upTo(before)

	require.NoError(t, encounter.Process.Kill()) // SIGKILL: no graceful anything
	_ = encounter.Wait()
	encounter = startEncounter()
	waitServing(t, cc, encounterv1.EncounterService_ServiceDesc.ServiceName)
	cli(t, append([]string{"grant", id, "erin", "observer"}, conn...)...)
	cli(t, append([]string{"revoke", id, "erin", "observer"}, conn...)...)
	cli(t, append([]string{"end", id}, conn...)...)
	last := sequence()
	upTo(last)
	require.Equal(t, 0, <-done, "the watch ends with the encounter: %s", stderr.String())
	var want []uint64
	for s := uint64(1); s <= last; s++ {
		want = append(want, s)
	}
	require.Equal(t, want, got, "every event once, in order")
	require.Contains(t, stderr.String(), "fray watch: the stream of "+id+" broke (Unavailable: ")
	require.Contains(t, stderr.String(), "fray watch: resumed from #"+strconv.FormatUint(before+1, 10))
	t.Log(stderr.String())
}
