package dev_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/stretchr/testify/require"
)

// `fray help dev`, `fray dev --help` and `fray dev -h` print the same usage on stdout, as the
// fray command registers dev (cmd/fray/main.go); a flag it does not know is a usage error.
func TestHelpOfDev(t *testing.T) {
	commands.Register(dev.NewCommand)
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
}
