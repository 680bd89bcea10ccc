package commands_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/fray-rpg/fray/cli/internal/clienttest"
	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// test-echo stands in for a subcommand registered by another package, as `dev` is.
func init() {
	commands.Register(func() *cobra.Command {
		cmd, fs := client.NewCommand("test-echo", "A [B] [--fail usage|plain|grpc] [-n N] [-b]", "Echoes its arguments (test only).", 1, 2)
		cmd.Short = "echo its arguments (test only)"
		fail := fs.String("fail", "", "usage, plain or grpc")
		n := fs.IntP("number", "n", 0, "a number, printed after the arguments")
		fs.BoolP("bool", "b", false, "a bool")
		cmd.RunE = client.RunE(func(_ context.Context, pos []string, stdout, _ io.Writer) error {
			switch *fail {
			case "usage":
				return client.Usagef("bad %s", pos[0])
			case "plain":
				return errors.New("plain failure")
			case "grpc":
				return fmt.Errorf("wrapped: %w", status.Error(codes.NotFound, "no encounter x"))
			}
			fmt.Fprintln(stdout, strings.Join(pos, "|"), *n)
			return nil
		})
		return cmd
	})
}

func TestDispatch(t *testing.T) {
	code, out, errOut := clienttest.Run(t, "test-echo", "a", "--", "-b")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "a|-b 0\n", out)

	code, out, _ = clienttest.Run(t, "test-echo", "x", "--fail", "usage")
	require.Equal(t, 2, code)
	require.Empty(t, out)

	code, _, errOut = clienttest.Run(t, "test-echo", "x", "--fail=plain")
	require.Equal(t, 1, code)
	require.Equal(t, "fray test-echo: plain failure\n", errOut)

	code, _, errOut = clienttest.Run(t, "test-echo", "--fail", "grpc", "x")
	require.Equal(t, 1, code)
	require.Equal(t, "fray test-echo: wrapped: NotFound: no encounter x\n", errOut)
}

func TestUsageErrors(t *testing.T) {
	clienttest.ClearEnv(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"missing subcommand", "Subcommands:", "create", "rulesets"}},
		{[]string{"fight"}, []string{`unknown subcommand "fight"`, "Subcommands:"}},
		{[]string{"atack", "e", "a", "b", "--weapon", "x"}, []string{`fray: unknown subcommand "atack"; did you mean attack?`}},
		{[]string{"help", "fight"}, []string{`fray help: unknown subcommand "fight"`}},
		{[]string{"help", "feerie", "acts"}, []string{`fray help: unknown subcommand "acts"; did you mean act?`}},
		{[]string{"feerie"}, []string{"fray feerie: missing subcommand", "Subcommands:", "declare"}},
		{[]string{"feerie", "declar", "e", "a", "--kind", "attack"}, []string{`fray feerie: unknown subcommand "declar"; did you mean declare?`}},
		{[]string{"attack", "enc-1", "diego"}, []string{"fray attack: missing arguments: 2 given, 3 needed", "usage: fray attack ENCOUNTER ATTACKER TARGET", "fray help attack"}},
		{[]string{"pass", "enc-1", "diego", "extra"}, []string{"fray pass: too many arguments: extra"}},
		{[]string{"pass", "enc-1", "diego", "-3"}, []string{"fray pass: too many arguments: -3"}},
		{[]string{"feerie", "act", "e"}, []string{"fray feerie act: missing arguments: 1 given, 2 needed", "usage: fray feerie act ENCOUNTER COMBATANT", "Run 'fray help feerie act' for the flags."}},
		{[]string{"attack", "e", "a", "b", "--exploits", "many"}, []string{`invalid argument "many" for "--exploits" flag`}},
		{[]string{"attack", "e", "a", "b", "--exploits", "-1"}, []string{"--exploits -1: cannot be negative"}},
		{[]string{"state", "e", "--bogus"}, []string{"fray state: unknown flag: --bogus"}},
		{[]string{"react", "e", "ruffian", "block"}, []string{`reaction "block": parry, dodge or none`}},
		{[]string{"create"}, []string{"--name is required"}},
		{[]string{"create", "--name", "R", "extra"}, []string{"too many arguments"}},
		{[]string{"add", "enc-1"}, []string{"missing arguments"}},
		{[]string{"submit", "enc-1"}, []string{"exactly one of --command and --file"}},
		{[]string{"submit", "enc-1", "--command", "{}", "--file", "x"}, []string{"exactly one of --command and --file"}},
		{[]string{"submit", "enc-1", "--command", "{}"}, []string{"the command is empty"}},
		{[]string{"add", "enc-1", "a.yaml", "--expected-sequence", "x"}, []string{`not a sequence number: "x"`}},
		{[]string{"roll"}, []string{"missing arguments"}},
		{[]string{"version", "x"}, []string{"too many arguments: x"}},
		{[]string{"completion"}, []string{"fray completion: missing subcommand", "bash"}},
		{[]string{"completion", "tcsh"}, []string{`fray completion: unknown subcommand "tcsh"`}},
		{[]string{"completion", "bash", "extra"}, []string{"fray completion bash: ", "usage: fray completion bash\n"}},
	} {
		clienttest.RequireUsageError(t, tc.args, tc.want...)
	}
}

// Help is on stdout, the same whichever way it is asked for, for every subcommand.
func TestHelp(t *testing.T) {
	code, out, errOut := clienttest.Run(t, "help")
	require.Equal(t, 0, code)
	require.Empty(t, errOut)
	for _, name := range []string{"create", "add", "start", "loss", "feerie", "ka", "d20", "grant", "submit", "end", "state",
		"watch", "log", "list", "rulesets", "roll", "test-echo", "version", "completion", "help"} {
		require.Regexp(t, `(?m)^  `+name+` +\S`, out)
	}
	require.Less(t, strings.Index(out, "  create "), strings.Index(out, "  add "), "listed in the order they are added")
	for _, args := range [][]string{{"-h"}, {"--help"}} {
		code, same, _ := clienttest.Run(t, args...)
		require.Equal(t, 0, code)
		require.Equal(t, out, same, args)
	}

	code, out, errOut = clienttest.Run(t, "help", "attack")
	require.Equal(t, 0, code)
	require.Empty(t, errOut)
	require.Contains(t, out, "usage: fray attack ENCOUNTER ATTACKER TARGET")
	require.Contains(t, out, "--inspiration vertu=N")
	require.Contains(t, out, "-h, --help")

	code, out, _ = clienttest.Run(t, "watch", "-h")
	require.Equal(t, 0, code)
	require.Contains(t, out, "--from")

	root := commands.Root()
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			if !sub.IsAvailableCommand() {
				continue
			}
			p := append(slices.Clone(path), sub.Name())
			paths = append(paths, p)
			walk(sub, p)
		}
	}
	walk(root, nil)
	require.Greater(t, len(paths), 60)
	for _, p := range paths {
		code, help, errOut := clienttest.Run(t, append([]string{"help"}, p...)...)
		require.Equal(t, 0, code, p)
		require.Empty(t, errOut, p)
		require.True(t, strings.HasPrefix(help, "usage: fray "+strings.Join(p, " ")), "%v: %s", p, help)
		for _, asked := range [][]string{append(slices.Clone(p), "--help"), append(slices.Clone(p), "-h")} {
			code, same, errOut := clienttest.Run(t, asked...)
			require.Equal(t, 0, code, asked)
			require.Empty(t, errOut, asked)
			require.Equal(t, help, same, asked)
		}
	}
}

func TestCompletionAndVersion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, errOut := clienttest.Run(t, "completion", shell)
		require.Equal(t, 0, code, errOut)
		require.Contains(t, out, "fray", shell)
	}
	code, out, _ := clienttest.Run(t, "__complete", "fe")
	require.Equal(t, 0, code)
	require.Contains(t, out, "feerie")
	code, out, _ = clienttest.Run(t, "__complete", "attack", "e", "a", "b", "--wea")
	require.Equal(t, 0, code)
	require.Contains(t, out, "--weapon")

	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"react", "e", "ruffian", ""}, []string{"parry", "dodge", "none"}},
		{[]string{"ka", "react", "e", "chien", ""}, []string{"dodge", "parry", "take", "back"}},
		{[]string{"joining", "--as", "gm", "e", ""}, []string{"open", "closed"}},
		{[]string{"create", "--system", ""}, systems.IDs()},
		{[]string{"replay", "e", "--format", ""}, []string{"text", "jsonl", "markdown"}},
		{[]string{"feerie", "declare", "e", "r", "--kind", ""}, []string{"melee", "ranged", "other"}},
	} {
		code, out, errOut := clienttest.Run(t, append([]string{"__complete"}, tc.args...)...)
		require.Equal(t, 0, code, errOut)
		for _, w := range tc.want {
			require.Contains(t, strings.Fields(out), w, tc.args)
		}
		require.Contains(t, out, ":4\n", "no file completion: %v", tc.args)
	}
	code, out, _ = clienttest.Run(t, "__complete", "add", "e", "")
	require.Equal(t, 0, code)
	require.Contains(t, out, ":0\n", "files for SHEET_FILE...")

	code, out, errOut := clienttest.Run(t, "version")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `^fray \S+ \(.+\) go1\.\S+ \S+/\S+\n$`, out)
	require.Contains(t, out, runtime.Version())
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}, {Key: "vcs.time", Value: "2026-12-01T19:00:00Z"}}}
	require.Equal(t, "fray v1.2.3 (revision abc123, modified, 2026-12-01T19:00:00Z) go1.26.0 "+runtime.GOOS+"/"+runtime.GOARCH, client.VersionText(bi, true))
}

func TestRegisterRejectsDuplicates(t *testing.T) {
	require.Panics(t, func() { commands.Register(func() *cobra.Command { return &cobra.Command{Use: "attack"} }) })
	require.Panics(t, func() { commands.Register(func() *cobra.Command { return &cobra.Command{} }) })
	require.Panics(t, func() { commands.Register(nil) })
}

// Flags anywhere among the arguments; "--" ends them; a negative number is a positional
// argument, unless it is the value of the flag before it.
func TestFlagsAnywhereAndNegativeNumbers(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"test-echo", "--number", "4", "a", "b"}, "a|b 4"},
		{[]string{"test-echo", "a", "--number", "4", "b"}, "a|b 4"},
		{[]string{"test-echo", "a", "b", "-n", "4"}, "a|b 4"},
		{[]string{"test-echo", "--", "-x", "y"}, "-x|y 0"},
		{[]string{"test-echo", "-2", "--number", "-3"}, "-2 -3"},
		{[]string{"test-echo", "-2", "-n", "-3", "-b", "-10"}, "-2|-10 -3"},
		{[]string{"test-echo", "-2", "--number=-3", "--bool", "--", "-4"}, "-2|-4 -3"},
		{[]string{"test-echo", "enc", "-1.5"}, ""},
	} {
		code, out, errOut := clienttest.Run(t, tc.args...)
		if tc.want == "" {
			require.Equal(t, 2, code, tc.args)
			require.Contains(t, errOut, "unknown shorthand flag", tc.args)
			continue
		}
		require.Equal(t, 0, code, "%v: %s", tc.args, errOut)
		require.Equal(t, tc.want+"\n", out, tc.args)
	}
}
