// Package commands implements the client subcommands of the fray CLI and the dispatcher that
// runs them. Subcommands live in a registry: this package registers the client commands in its
// init, and any other package (cli/internal/dev for `fray dev`) may add its own with Register
// before Run is called.
package commands

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/fray-rpg/fray/services/platform"
	"google.golang.org/grpc/status"
)

// Func runs one subcommand. args are the arguments after the subcommand's name. A *UsageError
// (see Usagef and ParseArgs) makes Run exit with code 2, flag.ErrHelp with 0, any other error
// with 1.
type Func func(ctx context.Context, args []string, stdout, stderr io.Writer) error

type entry struct {
	name    string
	summary string
	fn      Func
	seq     int // registration order, for the usage listing
}

var (
	registryMu sync.RWMutex
	registry   = map[string]entry{}
)

// Register adds a subcommand. It panics if name is empty, fn is nil or name is already taken.
func Register(name, summary string, fn func(ctx context.Context, args []string, stdout, stderr io.Writer) error) {
	if name == "" || fn == nil {
		panic("commands.Register: empty name or nil function")
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[name]; dup {
		panic(fmt.Sprintf("commands.Register: subcommand %q registered twice", name))
	}
	registry[name] = entry{name: name, summary: summary, fn: fn, seq: len(registry)}
}

func lookup(name string) (entry, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	e, ok := registry[name]
	return e, ok
}

func entries() []entry {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]entry, 0, len(registry))
	for _, e := range registry {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b entry) int { return a.seq - b.seq })
	return out
}

// Exit codes of Run.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
)

// Run dispatches args (os.Args[1:]) to a registered subcommand, prints any error to stderr and
// returns the process exit code: 0 on success, 1 on an error (a gRPC error prints its status
// code and message), 2 on a usage error.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "fray: missing subcommand")
		fmt.Fprintln(stderr)
		printUsage(stderr)
		return ExitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && name == "help" {
			if e, ok := lookup(args[1]); ok {
				// `fray help feerie declare`: a group passes the rest on to its member.
				return report(e.name, e.fn(ctx, append(slices.Clone(args[2:]), "-h"), stdout, stderr), stderr)
			}
			fmt.Fprintf(stderr, "fray help: unknown subcommand %q\n", args[1])
			return ExitUsage
		}
		printUsage(stdout)
		return ExitOK
	}
	e, ok := lookup(name)
	if !ok {
		fmt.Fprintf(stderr, "fray: unknown subcommand %q\n\n", name)
		printUsage(stderr)
		return ExitUsage
	}
	return report(e.name, e.fn(ctx, args[1:], stdout, stderr), stderr)
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: fray SUBCOMMAND [ARGS] [FLAGS]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Subcommands:")
	es := entries()
	width := 0
	for _, e := range es {
		width = max(width, len(e.name))
	}
	for _, e := range es {
		fmt.Fprintf(w, "  %-*s  %s\n", width, e.name, e.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'fray help SUBCOMMAND' (or 'fray SUBCOMMAND -h') for its arguments and flags.")
	fmt.Fprintln(w, "Environment: FRAY_ADDR (default --addr), FRAY_PRINCIPAL (default --as),")
	fmt.Fprintln(w, "FRAY_RULES_ADDR (default --rules-addr).")
}

// report prints err for subcommand name and returns the exit code.
func report(name string, err error, stderr io.Writer) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	var se *SubcommandError
	if errors.As(err, &se) && se.Name != "" {
		name = se.Name // "feerie declare"
	}
	var ue *UsageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "fray %s: %s\n", name, ue.Msg)
		if ue.Usage != nil {
			ue.Usage(stderr)
		}
		return ExitUsage
	}
	fmt.Fprintf(stderr, "fray %s: %s\n", name, Printable(errorText(err)))
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

// SubcommandError is the error of a member of a subcommand group: Run reports it under the
// member's full name ("fray feerie declare: ...") and exits as Err says.
type SubcommandError struct {
	// Name is the group and the member: "feerie declare".
	Name string
	Err  error
}

func (e *SubcommandError) Error() string { return e.Err.Error() }
func (e *SubcommandError) Unwrap() error { return e.Err }

// UsageError is a command line the subcommand cannot run: Run prints it with the usage and
// exits with code 2.
type UsageError struct {
	Msg string
	// Usage prints the subcommand's usage; may be nil.
	Usage func(io.Writer)
}

func (e *UsageError) Error() string { return e.Msg }

// Usagef returns a *UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// ParseArgs parses fs from args, letting flags and positional arguments interleave
// (`fray attack ENC diego ruffian --weapon épée`; "--" ends the flags), and checks that there
// are between minPos and maxPos positional arguments (maxPos < 0: no limit). Errors are
// *UsageError carrying fs's usage; -h prints the usage to fs.Output() and returns
// flag.ErrHelp.
func ParseArgs(fs *flag.FlagSet, args []string, minPos, maxPos int) ([]string, error) {
	out := fs.Output()
	usage := shortUsageOf(fs)
	fs.SetOutput(io.Discard) // the flag package's own messages would print before ours
	defer fs.SetOutput(out)
	args, negatives := hideNegatives(fs, args)
	var pos []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			usageOf(fs)(out)
			return nil, flag.ErrHelp
		}
		if err != nil {
			return nil, &UsageError{Msg: err.Error(), Usage: usage}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			pos = append(pos, rest...) // Parse stopped at "--": the rest is positional
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	for i, p := range pos {
		if v, ok := negatives[p]; ok {
			pos[i] = v
		}
	}
	// The flags not given take their environment variable's value, refused when the flag
	// would refuse it (FRAY_TIMEOUT=abc), never silently ignored.
	if err := platform.ApplyEnv(fs); err != nil {
		return nil, &UsageError{Msg: err.Error()}
	}
	switch {
	case len(pos) < minPos:
		return nil, &UsageError{Msg: fmt.Sprintf("missing arguments: %d given, %d needed", len(pos), minPos), Usage: usage}
	case maxPos >= 0 && len(pos) > maxPos:
		return nil, &UsageError{Msg: "too many arguments: " + strings.Join(pos[maxPos:], " "), Usage: usage}
	}
	return pos, nil
}

// hideNegatives replaces the negative numbers among the positional arguments (`fray grant ENC
// diego -1`), which the flag package would take for flags, by placeholders, and returns what
// each placeholder stands for. A negative number right after a flag that takes a value is that
// value, and everything after "--" is left as it is.
func hideNegatives(fs *flag.FlagSet, args []string) ([]string, map[string]string) {
	var out []string
	var negatives map[string]string
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...), negatives
		}
		if _, err := strconv.ParseInt(a, 10, 64); err == nil && strings.HasPrefix(a, "-") && !takesValue(fs, args, i) {
			if negatives == nil {
				negatives = map[string]string{}
			}
			ph := fmt.Sprintf("\x00negative %d", i)
			negatives[ph] = a
			a = ph
		}
		out = append(out, a)
	}
	return out, negatives
}

// takesValue reports whether args[i] is the value of the flag before it ("--exploits -1").
func takesValue(fs *flag.FlagSet, args []string, i int) bool {
	if i == 0 {
		return false
	}
	prev := args[i-1]
	if !strings.HasPrefix(prev, "-") || prev == "-" || strings.Contains(prev, "=") {
		return false
	}
	f := fs.Lookup(strings.TrimLeft(prev, "-"))
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// usageOf prints fs's usage to a writer.
func usageOf(fs *flag.FlagSet) func(io.Writer) {
	return func(w io.Writer) {
		out := fs.Output()
		fs.SetOutput(w)
		fs.Usage()
		fs.SetOutput(out)
	}
}

var synopses sync.Map // subcommand name → synopsis, set by newFlagSet

// shortUsageOf prints the synopsis of a FlagSet made by newFlagSet and where to find more, or
// else the whole usage.
func shortUsageOf(fs *flag.FlagSet) func(io.Writer) {
	syn, ok := synopses.Load(fs.Name())
	if !ok {
		return usageOf(fs)
	}
	return func(w io.Writer) {
		fmt.Fprintf(w, "usage: fray %s %s\nRun 'fray help %s' for the flags.\n", fs.Name(), syn, fs.Name())
	}
}

// newFlagSet makes the FlagSet of a client subcommand, whose usage shows synopsis (the
// positional arguments and flags) and help.
func newFlagSet(name, synopsis, help string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	synopses.Store(name, synopsis)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: fray %s %s\n", name, synopsis)
		if help != "" {
			fmt.Fprintf(w, "\n%s\n", help)
		}
		fmt.Fprintln(w, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}
