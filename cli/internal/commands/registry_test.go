package commands

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// test-echo stands in for a subcommand registered by another package, as `dev` will be.
func init() {
	Register("test-echo", "echo its arguments (test only)", func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := flag.NewFlagSet("test-echo", flag.ContinueOnError)
		fs.SetOutput(stderr)
		fail := fs.String("fail", "", "usage, plain or grpc")
		pos, err := ParseArgs(fs, args, 1, 2)
		if err != nil {
			return err
		}
		switch *fail {
		case "usage":
			return Usagef("bad %s", pos[0])
		case "plain":
			return errors.New("plain failure")
		case "grpc":
			return fmt.Errorf("wrapped: %w", status.Error(codes.NotFound, "no encounter x"))
		}
		fmt.Fprintln(stdout, strings.Join(pos, "|"))
		return nil
	})
}

func TestDispatch(t *testing.T) {
	code, out, errOut := run(t, "test-echo", "a", "--", "-b")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "a|-b\n", out)

	code, out, _ = run(t, "test-echo", "x", "--fail", "usage")
	require.Equal(t, 2, code)
	require.Empty(t, out)

	code, _, errOut = run(t, "test-echo", "x", "--fail=plain")
	require.Equal(t, 1, code)
	require.Equal(t, "fray test-echo: plain failure\n", errOut)

	code, _, errOut = run(t, "test-echo", "--fail", "grpc", "x")
	require.Equal(t, 1, code)
	require.Equal(t, "fray test-echo: wrapped: NotFound: no encounter x\n", errOut)
}

func TestUsageErrors(t *testing.T) {
	clearEnv(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"missing subcommand", "Subcommands:", "create", "rulesets"}},
		{[]string{"fight"}, []string{`unknown subcommand "fight"`, "Subcommands:"}},
		{[]string{"help", "fight"}, []string{`unknown subcommand "fight"`}},
		{[]string{"attack", "enc-1", "diego"}, []string{"fray attack: missing arguments: 2 given, 3 needed", "usage: fray attack ENCOUNTER ATTACKER TARGET", "fray help attack"}},
		{[]string{"pass", "enc-1", "diego", "extra"}, []string{"fray pass: too many arguments: extra"}},
		{[]string{"attack", "e", "a", "b", "--exploits", "many"}, []string{`invalid value "many" for flag -exploits`}},
		{[]string{"attack", "e", "a", "b", "--exploits", "-1"}, []string{"--exploits -1: cannot be negative"}},
		{[]string{"state", "e", "--bogus"}, []string{"flag provided but not defined: -bogus"}},
		{[]string{"react", "e", "ruffian", "block"}, []string{`reaction "block": parry, dodge or none`}},
		{[]string{"create"}, []string{"--name is required"}},
		{[]string{"create", "--name", "R", "extra"}, []string{"too many arguments"}},
		{[]string{"add", "enc-1"}, []string{"missing arguments"}},
		{[]string{"submit", "enc-1"}, []string{"exactly one of --json and --file"}},
		{[]string{"submit", "enc-1", "--json", "{}", "--file", "x"}, []string{"exactly one of --json and --file"}},
		{[]string{"submit", "enc-1", "--json", "{}"}, []string{"the command is empty"}},
		{[]string{"add", "enc-1", "a.yaml", "--expected-sequence", "x"}, []string{`not a sequence number: "x"`}},
		{[]string{"roll"}, []string{"missing arguments"}},
	} {
		code, out, errOut := run(t, tc.args...)
		require.Equal(t, 2, code, "%v: %s", tc.args, errOut)
		require.Empty(t, out, tc.args)
		for _, w := range tc.want {
			require.Contains(t, errOut, w, tc.args)
		}
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := run(t, "help")
	require.Equal(t, 0, code)
	for _, name := range []string{"create", "add", "start", "attack", "react", "pass", "declare", "wait", "aim", "act", "dying",
		"pursuit", "chase", "grant", "disaster", "submit", "end", "state", "watch", "log", "list", "rulesets", "roll", "test-echo"} {
		require.Regexp(t, `(?m)^  `+name+` +\S`, out)
	}
	require.Less(t, strings.Index(out, "  create "), strings.Index(out, "  add "), "listed in registration order")

	code, _, errOut := run(t, "help", "attack")
	require.Equal(t, 0, code)
	require.Contains(t, errOut, "usage: fray attack ENCOUNTER ATTACKER TARGET")
	require.Contains(t, errOut, "-inspiration")

	code, _, errOut = run(t, "watch", "-h")
	require.Equal(t, 0, code)
	require.Contains(t, errOut, "-from")
}

func TestRegisterRejectsDuplicates(t *testing.T) {
	require.Panics(t, func() {
		Register("attack", "again", func(context.Context, []string, io.Writer, io.Writer) error { return nil })
	})
	require.Panics(t, func() {
		Register("", "nameless", func(context.Context, []string, io.Writer, io.Writer) error { return nil })
	})
	require.Panics(t, func() { Register("nil-func", "no function", nil) })
}

func TestParseArgsInterleaves(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	w := fs.String("weapon", "", "")
	u := fs.Bool("unseen", false, "")
	pos, err := ParseArgs(fs, []string{"enc", "--weapon", "épée", "diego", "-unseen", "ruffian"}, 3, 3)
	require.NoError(t, err)
	require.Equal(t, []string{"enc", "diego", "ruffian"}, pos)
	require.Equal(t, "épée", *w)
	require.True(t, *u)

	fs = flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Bool("x", false, "")
	pos, err = ParseArgs(fs, []string{"--", "-x", "y"}, 0, -1)
	require.NoError(t, err)
	require.Equal(t, []string{"-x", "y"}, pos)

	_, err = ParseArgs(fs, []string{"-h"}, 0, 0)
	require.ErrorIs(t, err, flag.ErrHelp)

	// A negative number is a positional argument, unless it is the value of the flag before it.
	fs = flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := fs.Int("n", 0, "")
	b := fs.Bool("b", false, "")
	pos, err = ParseArgs(fs, []string{"enc", "-2", "-n", "-3", "-b", "-10", "--", "-4"}, 0, -1)
	require.NoError(t, err)
	require.Equal(t, []string{"enc", "-2", "-10", "-4"}, pos)
	require.Equal(t, -3, *n)
	require.True(t, *b)
	_, err = ParseArgs(fs, []string{"-1x"}, 0, -1)
	require.ErrorContains(t, err, "flag provided but not defined: -1x")
}
