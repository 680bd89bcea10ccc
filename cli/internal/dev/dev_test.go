package dev_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/stretchr/testify/require"
)

// start runs `fray dev` on free ports over data until the returned stop is called.
func start(t *testing.T, data string) (addr string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- dev.Run(ctx, dev.Config{
			Listen: "127.0.0.1:0", Data: data, NATSHost: "127.0.0.1", NATSPort: -1,
			Grace: 5 * time.Second, Log: platform.NewLogger("text", "error"),
			Ready: func(a string) { ready <- a },
		})
	}()
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("fray dev did not start: %v", err)
	}
	return addr, func() { cancel(); require.NoError(t, <-done) }
}

// fray runs one CLI command and returns its output.
func fray(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	code := commands.Run(context.Background(), args, &out, &errOut)
	require.Equal(t, 0, code, "fray %v: %s", args, errOut.String())
	return out.String()
}

func TestDevServesBothServicesAndKeepsDataAcrossRestarts(t *testing.T) {
	data := t.TempDir()
	sheets := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join("..", "..", "testdata", "sheets", n+".yaml"))
		}
		return out
	}

	addr, stop := start(t, data)
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--name", "Ruelle sombre"))
	require.True(t, strings.HasPrefix(id, "enc-"), id)
	added := fray(t, append([]string{"add", "--addr", addr, id}, sheets("diego", "ruffian")...)...)
	require.Contains(t, added, "Diego")
	require.Contains(t, fray(t, "start", "--addr", addr, id), "Tour 1")
	before := fray(t, "state", "--addr", addr, "--json", id)
	require.Contains(t, fray(t, "rulesets", "--addr", addr), "loss")
	require.Contains(t, fray(t, "roll", "--addr", addr, "3d10+4"), "3d10+4")
	stop()

	// A second run over the same folder finds the encounter where it was.
	addr, stop = start(t, data)
	defer stop()
	require.Contains(t, fray(t, "list", "--addr", addr), id)
	require.Equal(t, before, fray(t, "state", "--addr", addr, "--json", id))
}
