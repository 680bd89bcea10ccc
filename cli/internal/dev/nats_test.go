package dev_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/fray-rpg/fray/services/platform/natsconn"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"
)

// startNATS runs `fray dev` like start, and gives the embedded NATS server's URL too.
func startNATS(t *testing.T, data string) (addr, natsURL string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready, natsReady := make(chan string, 1), make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- dev.Run(ctx, dev.Config{
			Listen: "127.0.0.1:0", Data: data, NATSHost: "127.0.0.1", NATSPort: -1,
			Grace: 5 * time.Second, Log: telemetry.NewLogger("text", "error"),
			Ready: func(a string) { ready <- a }, NATSReady: func(u string) { natsReady <- u },
		})
	}()
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("fray dev did not start: %v", err)
	}
	return addr, <-natsReady, func() { cancel(); require.NoError(t, <-done) }
}

// seedRead asks NATS for a live encounter's seed (a KV get: a direct get by subject on the
// bucket's stream) and returns the answer, or the server's refusal.
func seedRead(t *testing.T, natsURL, id string, opts ...nats.Option) ([]byte, error) {
	t.Helper()
	refused := make(chan error, 8)
	nc, err := nats.Connect(natsURL, append(opts, nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		select {
		case refused <- err:
		default:
		}
	}))...)
	require.NoError(t, err)
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	answer := make(chan *nats.Msg, 1)
	go func() {
		m, _ := nc.RequestWithContext(ctx, "$JS.API.DIRECT.GET.KV_FRAY_SEEDS.$KV.FRAY_SEEDS."+id, nil)
		answer <- m
	}()
	select {
	case err := <-refused:
		return nil, err
	case m := <-answer:
		if m == nil {
			return nil, errors.New("no answer")
		}
		return m.Data, nil
	}
}

// fray dev's embedded NATS enforces deploy/nats/permissions.conf: the encounter service
// connects as the encounter user, whose password fray dev makes once and keeps in the data
// folder; the log tools, anonymous, are the auditor: they replay and verify, but neither they
// nor the named auditor can read a live encounter's seed.
func TestDevNATSKeepsTheSeedsToTheService(t *testing.T) {
	data := t.TempDir()
	addr, natsURL, stop := startNATS(t, data)
	usersFile := filepath.Join(data, dev.NATSUsersFile)
	fi, err := os.Stat(usersFile)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	b, err := os.ReadFile(usersFile)
	require.NoError(t, err)
	var users natsconn.Users
	require.NoError(t, json.Unmarshal(b, &users))

	sheet := func(n string) string { return filepath.Join("..", "..", "testdata", "sheets", n+".yaml") }
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--name", "Ruelle sombre"))
	fray(t, "add", "--addr", addr, id, sheet("diego"), sheet("ruffian"))
	require.Contains(t, fray(t, "start", "--addr", addr, id), "Tour 1")

	// The log tools, with no credentials, read the live encounter's log.
	t.Setenv("FRAY_NATS_URL", natsURL)
	require.Contains(t, fray(t, "replay", id), "Tour 1")

	// The seed: the service's, refused to the auditor, anonymous or named.
	seed, err := seedRead(t, natsURL, id, append(natsconn.EncounterOptions(), nats.UserInfo(natsconn.EncounterUser, users.Encounter))...)
	require.NoError(t, err)
	require.Len(t, seed, 32)
	for _, opts := range [][]nats.Option{nil, {nats.UserInfo(natsconn.AuditorUser, users.Auditor)}} {
		_, err := seedRead(t, natsURL, id, opts...)
		require.ErrorIs(t, err, nats.ErrPermissionViolation)
		require.ErrorContains(t, err, `Publish to "$JS.API.DIRECT.GET.KV_FRAY_SEEDS.$KV.FRAY_SEEDS.`+id+`"`)
	}
	stop()

	// Restarted: the same passwords, the encounter where it was, still the auditor's to read.
	addr, natsURL, stop = startNATS(t, data)
	defer stop()
	again, err := os.ReadFile(usersFile)
	require.NoError(t, err)
	require.Equal(t, b, again)
	fray(t, "end", "--addr", addr, id)
	t.Setenv("FRAY_NATS_URL", natsURL)
	require.Contains(t, fray(t, "audit", "verify", id, "--nats-user", natsconn.AuditorUser, "--nats-password", users.Auditor), "intact")
}
