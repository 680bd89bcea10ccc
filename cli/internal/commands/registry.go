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
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"google.golang.org/grpc/status"
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
				return &UsageError{Msg: "missing subcommand", Usage: func(w io.Writer) { fmt.Fprintln(w); rootUsage(c, w) }}
			}
			return &UsageError{Msg: unknownSubcommand(c, args[0]), Usage: func(w io.Writer) { fmt.Fprintln(w); rootUsage(c, w) }}
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
	root.AddCommand(versionCmd())
	root.SetHelpCommand(helpCmd())
	return root
}

// Run runs the command line args (os.Args[1:]), prints any error to stderr and returns the
// process exit code: 0 on success, 1 on an error (a gRPC error prints its status code and
// message), 2 on a usage error. Help goes to stdout.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd, err := execute(ctx, Root(), args, stdout, stderr)
	return report(cmd, err, stderr)
}

// Execute runs cmd, on its own (no `fray` root: a test's `fray dev`), with args, as Run would,
// and returns its error.
func Execute(ctx context.Context, cmd *cobra.Command, args []string, stdout, stderr io.Writer) error {
	_, err := execute(ctx, cmd, args, stdout, stderr)
	return err
}

// report prints err of cmd and returns the exit code.
func report(cmd *cobra.Command, err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	name := "fray"
	if cmd != nil && cmd.HasParent() {
		name = commandPath(cmd)
	}
	var ue *UsageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "%s: %s\n", name, ue.Msg)
		switch {
		case ue.Usage != nil:
			ue.Usage(stderr)
		case ue.Short && cmd != nil:
			shortUsage(cmd, stderr)
		}
		return ExitUsage
	}
	fmt.Fprintf(stderr, "%s: %s\n", name, Printable(errorText(err)))
	return ExitError
}

// errorText renders an error, a gRPC status as "Code: message" after whatever context wraps
// it.
func errorText(err error) string {
	var gs interface {
		error
		GRPCStatus() *status.Status
	}
	if !errors.As(err, &gs) {
		return err.Error()
	}
	if _, ok := gs.(*RPCError); ok {
		return err.Error() // already "context: Code: message"
	}
	s := gs.GRPCStatus()
	return strings.TrimSuffix(err.Error(), gs.Error()) + fmt.Sprintf("%s: %s", s.Code(), s.Message())
}

// RPCError is a failed call: what was being done and the gRPC status the server answered.
type RPCError struct {
	// Context says what the call was for ("adding ruffian.yaml"); may be empty.
	Context string
	Status  *status.Status
}

func (e *RPCError) Error() string {
	msg := fmt.Sprintf("%s: %s", e.Status.Code(), e.Status.Message())
	if e.Context != "" {
		return e.Context + ": " + msg
	}
	return msg
}

// GRPCStatus lets status.FromError and status.Code see through the wrapper.
func (e *RPCError) GRPCStatus() *status.Status { return e.Status }

// rpcErr wraps the error of a gRPC call; nil stays nil.
func rpcErr(context string, err error) error {
	if err == nil {
		return nil
	}
	return &RPCError{Context: context, Status: status.Convert(err)}
}

// UsageError is a command line the subcommand cannot run: Run prints it with the usage and
// exits with code 2.
type UsageError struct {
	Msg string
	// Usage prints the subcommand's usage; may be nil.
	Usage func(io.Writer)
	// Short, without Usage: print the subcommand's synopsis and where to find its flags.
	Short bool
}

func (e *UsageError) Error() string { return e.Msg }

// Usagef returns a *UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// usageError returns a *UsageError that prints the subcommand's synopsis.
func usageError(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...), Short: true}
}
