package clienttest

import (
	"bytes"
	"context"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/commands"
)

// Run runs the CLI (`fray` with args) and returns its exit code, stdout and stderr.
func Run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return RunCtx(t.Context(), args...)
}

// RunCtx is Run with ctx: a test that cancels it interrupts the command, as Ctrl-C does.
func RunCtx(ctx context.Context, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := commands.Run(ctx, args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}
