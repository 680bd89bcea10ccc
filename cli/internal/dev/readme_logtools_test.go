package dev_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
)

// The README's log-tools block ("The event log: replay, audit, undo, export"), pasted line by
// line after the five-minute fight against a running `fray dev --demo`: every command is taken,
// and what a comment line under a command says it prints, it prints. The tools find the dev
// server's NATS through FRAY_NATS_URL (the README's default, 127.0.0.1:4222, is another port
// in a test) and the service through FRAY_ADDR; `audit tail`, which follows the log live until
// interrupted, is given --limit to stop.
func TestREADMELogToolsWorkAsPasted(t *testing.T) {
	text := clienttest.DocsText(t, "../../..")
	at := strings.Index(text, "## The event log: replay, audit, undo, export")
	require.GreaterOrEqual(t, at, 0)
	var block []string
	started := false
	for _, l := range strings.Split(text[at:], "\n")[1:] {
		if c, ok := strings.CutPrefix(l, "    "); ok {
			started = true
			block = append(block, c)
		} else if started {
			break
		}
	}
	require.GreaterOrEqual(t, len(block), 8, "the README's log-tools block")

	ctx, cancel := context.WithCancel(context.Background())
	ready, natsReady := make(chan string, 1), make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- dev.Run(ctx, dev.Config{
			Listen: "127.0.0.1:0", Data: t.TempDir(), NATSHost: "127.0.0.1", NATSPort: -1, Demo: true,
			Grace: 5 * time.Second, Log: telemetry.NewLogger("text", "error"),
			Ready: func(a string) { ready <- a }, NATSReady: func(u string) { natsReady <- u },
		})
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("fray dev did not start: %v", err)
	}
	defer func() { cancel(); require.NoError(t, <-done) }()
	t.Setenv("FRAY_ADDR", addr)
	t.Setenv("FRAY_NATS_URL", <-natsReady)

	// The five-minute fight, as the README plays it before this section.
	sheet := func(n string) string { return filepath.Join("..", "..", "testdata", "sheets", n) }
	id := strings.TrimSpace(fray(t, "create", "--name", "Ruelle sombre"))
	fray(t, "add", id, sheet("diego.yaml"), sheet("ruffian.yaml"))
	fray(t, "start", id)
	fray(t, "attack", id, "diego", "ruffian", "--as", "david", "--exploits", "1", "--fursa", "1")
	fray(t, "react", id, "ruffian", "none")

	dir := t.TempDir()
	t.Chdir(dir)
	var last string // what the previous command printed
	ran := 0
	for _, line := range block {
		if want, ok := strings.CutPrefix(line, "# "); ok {
			// A comment under a command shows what it prints, with the demo's dice.
			require.Contains(t, last, want, "the README says %q is printed", want)
			continue
		}
		cmd, _, _ := strings.Cut(line, "  #") // a comment after the command
		args := strings.Fields(strings.ReplaceAll(cmd, "$id", id))
		require.Equal(t, "./fray", args[0], "the README runs the CLI built at the root: %q", line)
		args = unquote(args[1:])
		if len(args) >= 2 && args[0] == "audit" && args[1] == "tail" {
			args = append(args, "--limit", "3") // it follows the log live until interrupted
		}
		var out, errOut bytes.Buffer
		code := commands.Run(context.Background(), args, &out, &errOut)
		require.Equal(t, 0, code, "%q: %s", line, errOut.String())
		last = out.String()
		ran++
		switch args[0] {
		case "replay":
			require.Regexp(t, "(== state|## State) as of event [0-9]+", last, "%q prints the state", line)
		case "export":
			file := args[len(args)-1]
			raw, err := os.ReadFile(filepath.Join(dir, file))
			require.NoError(t, err, "%q writes %s", line, file)
			require.Contains(t, string(raw), `"encounterId":"`+id+`"`)
		}
	}
	require.GreaterOrEqual(t, ran, 8)
}

// unquote joins the words of a double-quoted argument ("wrong target") as a shell would.
func unquote(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, `"`) {
			for !strings.HasSuffix(w, `"`) || len(w) == 1 {
				i++
				w += " " + words[i]
			}
			w = strings.Trim(w, `"`)
		}
		out = append(out, w)
	}
	return out
}
