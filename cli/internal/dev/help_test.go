package dev_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/stretchr/testify/require"
)

// `fray help dev`, `fray dev --help` and `fray dev -h` print the same usage on stdout, as the
// fray command registers dev (cmd/fray/main.go); a flag it does not know is a usage error.
func TestHelpOfDev(t *testing.T) {
	registerDev()
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := commands.Run(context.Background(), args, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	code, help, errOut := run("help", "dev")
	require.Equal(t, 0, code, errOut)
	require.Empty(t, errOut)
	require.Contains(t, help, "usage: fray dev [flags]")
	for _, flag := range []string{"--listen", "--data", "--nats-port int", "--replicas", "--demo", "--rate-principal"} {
		require.Contains(t, help, flag)
	}
	for _, args := range [][]string{{"dev", "--help"}, {"dev", "-h"}} {
		code, same, errOut := run(args...)
		require.Equal(t, 0, code, args)
		require.Empty(t, errOut, args)
		require.Equal(t, help, same, args)
	}
	code, out, _ := run("help")
	require.Equal(t, 0, code)
	require.Regexp(t, `(?m)^  dev +run resolver, encounter service`, out)

	code, out, errOut = run("dev", "--bogus")
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "fray dev: unknown flag: --bogus\nusage: fray dev [flags]\n")

	require.Contains(t, help, "--idle-end duration")
	require.Contains(t, help, "FRAY_IDLE_END")
	code, out, errOut = run("dev", "--idle-end", "-1h")
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "--idle-end (FRAY_IDLE_END) -1h0m0s: a duration of 1s or more (720h: 30 days), or 0 for never")

	// The rate limits given as flags are the ones checked (and used): a negative one is
	// refused. (They were once copied before the flags were parsed, and --rate-principal 0
	// did not lift the limit.) The context is over and the ports free, should it start.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	code = commands.Run(ctx, []string{"dev", "--rate-principal", "-1", "--listen", "127.0.0.1:0", "--nats-port", "-1", "--web", "", "--data", t.TempDir()}, &stdout, &stderr)
	require.Equal(t, 2, code, stderr.String())
	require.Contains(t, stderr.String(), "rate-principal")
}
