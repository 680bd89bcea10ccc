// Package commands implements the client subcommands of the fray CLI and the root command that
// runs them, on spf13/cobra. Each subcommand is a cobra.Command with pflag flags (flags may come
// anywhere among the positional arguments; "--" ends them); this package builds the client
// commands, and any other package (cli/internal/dev for `fray dev`) may add its own with
// Register before Run is called.
package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/fray-rpg/fray/cli/internal/client"
	"github.com/spf13/cobra"
)

func init() {
	// The usage lists the subcommands in the order they are added, not sorted.
	cobra.EnableCommandSorting = false
}

var (
	registryMu sync.RWMutex
	registered []func() *cobra.Command
	names      = map[string]bool{}
)

// Register adds a subcommand made by newCmd, which Run calls for every command line (a command
// keeps its flags' values). It panics if newCmd is nil, makes a nameless command, or one whose
// name is already taken.
func Register(newCmd func() *cobra.Command) {
	if newCmd == nil {
		panic("commands.Register: nil constructor")
	}
	name := newCmd().Name()
	registryMu.Lock()
	defer registryMu.Unlock()
	if len(names) == 0 {
		for _, c := range builtinCommands() {
			names[c.Name()] = true
		}
	}
	if name == "" || names[name] {
		panic(fmt.Sprintf("commands.Register: subcommand %q nameless or registered twice", name))
	}
	names[name] = true
	registered = append(registered, newCmd)
}

// Exit codes of Run.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
)

// Root is the `fray` command: the client subcommands, those added by Register, version, help
// and completion.
func Root() *cobra.Command {
	root := &cobra.Command{
		Use:   "fray",
		Short: "the command-line client of the fray combat engine",
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return &client.UsageError{Msg: "missing subcommand", Usage: func(w io.Writer) { fmt.Fprintln(w); client.RootUsage(c, w) }}
			}
			return &client.UsageError{Msg: client.UnknownSubcommand(c, args[0]), Usage: func(w io.Writer) { fmt.Fprintln(w); client.RootUsage(c, w) }}
		},
		RunE: func(*cobra.Command, []string) error { return nil }, // never reached: Args refuses
	}
	root.FParseErrWhitelist.UnknownFlags = true // `fray atack --weapon x`: the subcommand is unknown
	root.AddCommand(builtinCommands()...)
	registryMu.RLock()
	for _, newCmd := range registered {
		root.AddCommand(newCmd())
	}
	registryMu.RUnlock()
	root.AddCommand(client.VersionCmd())
	root.SetHelpCommand(client.HelpCmd())
	return root
}

// Run runs the command line args (os.Args[1:]), prints any error to stderr and returns the
// process exit code: 0 on success, 1 on an error (a gRPC error prints its status code and
// message), 2 on a usage error. Help goes to stdout.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd, err := client.Execute(ctx, Root(), args, stdout, stderr)
	return report(cmd, err, stderr)
}

// Execute runs cmd, on its own (no `fray` root: a test's `fray dev`), with args, as Run would,
// and returns its error.
func Execute(ctx context.Context, cmd *cobra.Command, args []string, stdout, stderr io.Writer) error {
	_, err := client.Execute(ctx, cmd, args, stdout, stderr)
	return err
}

// report prints err of cmd and returns the exit code.
func report(cmd *cobra.Command, err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	name := "fray"
	if cmd != nil && cmd.HasParent() {
		name = client.CommandPath(cmd)
	}
	var ue *client.UsageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "%s: %s\n", name, ue.Msg)
		switch {
		case ue.Usage != nil:
			ue.Usage(stderr)
		case ue.Short && cmd != nil:
			client.ShortUsage(cmd, stderr)
		}
		return ExitUsage
	}
	fmt.Fprintf(stderr, "%s: %s\n", name, client.Printable(client.ErrorText(err)))
	return ExitError
}
