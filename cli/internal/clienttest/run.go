package clienttest

import (
	"bytes"
	"context"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/stretchr/testify/require"
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

// RequireUsageError runs `fray ARGS` and requires a usage error: exit code 2, nothing on
// stdout, and each of want on stderr, which it returns.
func RequireUsageError(t *testing.T, args []string, want ...string) string {
	t.Helper()
	code, out, errOut := Run(t, args...)
	require.Equal(t, 2, code, "%v: %s", args, errOut)
	require.Empty(t, out, args)
	for _, w := range want {
		require.Contains(t, errOut, w, args)
	}
	return errOut
}
