package client

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-rpg/fray/services/platform"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Func is the body of a subcommand: pos are its positional arguments, its flags are parsed.
type Func func(ctx context.Context, pos []string, stdout, stderr io.Writer) error

// NewCommand makes the cobra.Command of a client subcommand. name is its path below fray
// ("attack", "feerie declare": the last word names it); synopsis (its positional arguments and
// flags) and help show in its usage; it takes between minPos and maxPos positional arguments
// (maxPos < 0: no limit). Add the flags to the FlagSet returned, then set RunE with runE.
func NewCommand(name, synopsis, help string, minPos, maxPos int) (*cobra.Command, *pflag.FlagSet) {
	words := strings.Fields(name)
	cmd := &cobra.Command{
		Use:  words[len(words)-1] + " " + synopsis,
		Long: help,
		Args: Positional(minPos, maxPos),
	}
	return cmd, cmd.Flags()
}

// RunE adapts a Func to cobra's RunE.
func RunE(fn Func) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, pos []string) error {
		return fn(cmd.Context(), pos, cmd.OutOrStdout(), cmd.ErrOrStderr())
	}
}

// Positional checks that there are between minPos and maxPos positional arguments (maxPos < 0:
// no limit).
func Positional(minPos, maxPos int) cobra.PositionalArgs {
	return func(_ *cobra.Command, pos []string) error {
		switch {
		case len(pos) < minPos:
			return ShortUsagef("missing arguments: %d given, %d needed", len(pos), minPos)
		case maxPos >= 0 && len(pos) > maxPos:
			return ShortUsagef("too many arguments: %s", strings.Join(restoreNegatives(pos[maxPos:]), " "))
		}
		return nil
	}
}

// NoArgs refuses positional arguments with a usage error.
var NoArgs = Positional(0, 0)

// Execute runs args on root (a fray root or a command alone) with fray's conventions: help on
// stdout, errors returned unprinted (flag errors as *UsageError), negative numbers as
// Positional arguments, flags not given taken from the environment variable their usage names.
func Execute(ctx context.Context, root *cobra.Command, args []string, stdout, stderr io.Writer) (*cobra.Command, error) {
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SilenceErrors = true
	root.SilenceUsage = true
	root.SetHelpFunc(help)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &UsageError{Msg: err.Error(), Short: true}
	})
	root.PersistentPreRunE = func(cmd *cobra.Command, pos []string) error {
		copy(pos, restoreNegatives(pos)) // in place: RunE gets the same slice
		return applyEnv(cmd.Flags())
	}
	if len(args) == 0 || !strings.HasPrefix(args[0], "__complete") {
		args = hideNegatives(root, args)
	}
	usageErrors(root)
	root.SetArgs(args)
	if args == nil {
		root.SetArgs([]string{}) // not os.Args
	}
	return root.ExecuteContextC(ctx)
}

// usageErrors makes cobra's own commands (completion) follow fray's: a group without its
// subcommand, or with an unknown one, and wrong arguments are usage errors.
func usageErrors(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	if c := findSub(root, "completion"); c != nil {
		c.Short = "print the shell completion script of fray: bash, zsh, fish or powershell"
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if c.HasParent() && c.HasSubCommands() && !c.Runnable() {
			asGroup(c)
		}
		if args := c.Args; args != nil {
			c.Args = func(c *cobra.Command, pos []string) error {
				err := args(c, pos)
				var ue *UsageError
				if err != nil && !errors.As(err, &ue) {
					return &UsageError{Msg: err.Error(), Short: true}
				}
				return err
			}
		}
	}
	walk(root)
	completions(root)
}

// completions completes what each subcommand's synopsis lists: the words of a positional
// argument (parry|dodge|none), the values of a flag (--system loss|feerie|ka|d20seg), files for
// a FILE.
func completions(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if c.HasSubCommands() || c.ValidArgsFunction != nil || c.Name() == "help" || strings.HasPrefix(c.Name(), "__") {
			return
		}
		words := strings.Fields(Synopsis(c))
		var pos []string // the positional arguments, before the first flag
		for _, w := range words {
			if strings.HasPrefix(w, "[") || strings.HasPrefix(w, "-") || strings.HasPrefix(w, "(") {
				break
			}
			pos = append(pos, w)
		}
		c.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			i := len(args)
			if i >= len(pos) && len(pos) > 0 && strings.HasSuffix(pos[len(pos)-1], "...") {
				i = len(pos) - 1
			}
			if i >= len(pos) {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return completeWord(pos[i])
		}
		for i := 0; i+1 < len(words); i++ {
			name := strings.TrimLeft(words[i], "[")
			if !strings.HasPrefix(name, "--") || c.Flags().Lookup(name[2:]) == nil {
				continue
			}
			value := strings.TrimRight(words[i+1], "]")
			if choices, dir := completeWord(value); len(choices) > 0 || dir == cobra.ShellCompDirectiveDefault {
				_ = c.RegisterFlagCompletionFunc(name[2:], cobra.FixedCompletions(choices, dir))
			}
		}
	}
	walk(root)
}

// completeWord completes a word of a synopsis: "parry|dodge|none" its choices, a FILE files.
func completeWord(w string) ([]cobra.Completion, cobra.ShellCompDirective) {
	w = strings.TrimSuffix(w, "...")
	if strings.HasSuffix(w, "FILE") {
		return nil, cobra.ShellCompDirectiveDefault
	}
	if !strings.Contains(w, "|") || strings.ToLower(w) != w {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return strings.Split(w, "|"), cobra.ShellCompDirectiveNoFileComp
}

// negativePrefix marks a negative number among the positional arguments (`fray grant ENC diego
// -1`), hidden from pflag, which would take it for a flag.
const negativePrefix = "\x00negative "

// hideNegatives replaces the negative numbers among the positional arguments of the command
// args name by placeholders. A negative number right after a flag that takes a value is that
// value, and everything after "--" is left as it is.
func hideNegatives(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil || cmd == nil {
		return args
	}
	fs := cmd.Flags()
	cmd.InheritedFlags() // merges the persistent flags of the parents into fs
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if _, err := strconv.ParseInt(a, 10, 64); err == nil && strings.HasPrefix(a, "-") && !takesValue(fs, args, i) {
			a = negativePrefix + a
		}
		out = append(out, a)
	}
	return out
}

// restoreNegatives returns pos with its hidden negative numbers restored.
func restoreNegatives(pos []string) []string {
	out := make([]string, len(pos))
	for i, p := range pos {
		out[i] = strings.TrimPrefix(p, negativePrefix)
	}
	return out
}

// takesValue reports whether args[i] is the value of the flag before it ("--exploits -1").
func takesValue(fs *pflag.FlagSet, args []string, i int) bool {
	if i == 0 {
		return false
	}
	prev := args[i-1]
	if !strings.HasPrefix(prev, "-") || prev == "-" || strings.Contains(prev, "=") {
		return false
	}
	var f *pflag.Flag
	if strings.HasPrefix(prev, "--") {
		f = fs.Lookup(prev[2:])
	} else {
		f = fs.ShorthandLookup(prev[len(prev)-1:])
	}
	return f != nil && f.NoOptDefVal == ""
}

// applyEnv sets every flag not given on the command line from the environment variable its
// usage names ("env FRAY_…"), when that variable is set and not empty; a value the flag
// refuses is a usage error naming the variable, never a silent fall back to the default.
func applyEnv(fs *pflag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *pflag.Flag) {
		env := platform.EnvOf(&flag.Flag{Usage: f.Usage})
		if err != nil || env == "" || f.Changed {
			return
		}
		v := os.Getenv(env)
		if v == "" {
			return
		}
		if e := f.Value.Set(v); e != nil {
			err = ShortUsagef("%s: %q is not %s", env, v, kindOf(f.Value, e))
		}
	})
	return err
}

// kindOf says what a flag's value must be.
func kindOf(v pflag.Value, err error) string {
	switch v.Type() {
	case "int", "int64", "uint", "uint64", "int32", "uint32":
		return "a whole number"
	case "float64", "float32":
		return "a number"
	case "bool":
		return "true or false (or 1, t, T, TRUE, 0, f, F, FALSE)"
	case "duration":
		return "a duration such as 500ms, 10s, 5m or 1h30m"
	}
	return fmt.Sprintf("accepted: %v", err)
}

// CommandPath is "fray attack", "fray feerie declare", also for a command run alone.
func CommandPath(cmd *cobra.Command) string {
	path := cmd.CommandPath()
	if cmd.Root().Name() != "fray" {
		path = "fray " + path
	}
	return path
}

// Synopsis is what cmd's Use says after its name.
func Synopsis(cmd *cobra.Command) string {
	_, syn, _ := strings.Cut(cmd.Use, " ")
	return syn
}

// usageLine is "usage: fray attack ENCOUNTER ATTACKER TARGET [...]".
func usageLine(cmd *cobra.Command) string {
	return strings.TrimSpace("usage: " + CommandPath(cmd) + " " + Synopsis(cmd))
}

// help prints cmd's usage to its stdout: `fray help X`, `fray X --help` and `fray X -h` alike.
func help(cmd *cobra.Command, _ []string) {
	w := cmd.OutOrStdout()
	switch {
	case cmd.HasSubCommands() && !cmd.HasParent() && cmd.Name() == "fray":
		RootUsage(cmd, w)
	case cmd.HasSubCommands():
		groupUsage(cmd, w)
	default:
		leafUsage(cmd, w)
	}
}

// listed are the subcommands a usage lists.
func listed(cmd *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() || (c.Name() == "help" && !cmd.HasParent()) {
			out = append(out, c)
		}
	}
	return out
}

func listCommands(w io.Writer, cmds []*cobra.Command) {
	width := 0
	for _, c := range cmds {
		width = max(width, len(c.Name()))
	}
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.Name(), c.Short)
	}
}

func RootUsage(root *cobra.Command, w io.Writer) {
	root.InitDefaultCompletionCmd()
	fmt.Fprintln(w, "usage: fray SUBCOMMAND [ARGS] [FLAGS]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Subcommands:")
	listCommands(w, listed(root))
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'fray help SUBCOMMAND' (or 'fray SUBCOMMAND -h') for its arguments and flags.")
	fmt.Fprintln(w, "Flags may come before, between or after the arguments; '--' ends them.")
	fmt.Fprintln(w, "Environment: FRAY_ADDR (default --addr), FRAY_PRINCIPAL (default --as),")
	fmt.Fprintln(w, "FRAY_RULES_ADDR (default --rules-addr).")
}

func groupUsage(cmd *cobra.Command, w io.Writer) {
	path := CommandPath(cmd)
	fmt.Fprintf(w, "usage: %s SUBCOMMAND [ARGS] [FLAGS]\n", path)
	if cmd.Long != "" {
		fmt.Fprintf(w, "\n%s\n", cmd.Long)
	}
	fmt.Fprintf(w, "\nSubcommands:\n")
	listCommands(w, listed(cmd))
	rel := strings.TrimPrefix(path, "fray ")
	fmt.Fprintf(w, "\nRun 'fray help %s SUBCOMMAND' (or 'fray %s SUBCOMMAND -h') for its arguments and flags.\n", rel, rel)
}

func leafUsage(cmd *cobra.Command, w io.Writer) {
	cmd.InitDefaultHelpFlag()
	fmt.Fprintln(w, usageLine(cmd))
	if cmd.Long != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(cmd.Long, "\n"))
	}
	if cmd.HasAvailableFlags() {
		fmt.Fprintln(w, "\nFlags:")
		fmt.Fprint(w, shown(cmd.Flags()).FlagUsagesWrapped(100))
	}
}

// shown is fs as its usage shows it: a bool flag as --name, not --name[=true|false].
func shown(fs *pflag.FlagSet) *pflag.FlagSet {
	out := pflag.NewFlagSet(fs.Name(), pflag.ContinueOnError)
	fs.VisitAll(func(f *pflag.Flag) {
		g := *f
		if f.Value.Type() == "bool" && f.NoOptDefVal == "true" {
			g.Value = plainBool{f.Value}
		}
		out.AddFlag(&g)
	})
	return out
}

// plainBool hides IsBoolFlag from pflag's usage.
type plainBool struct{ v pflag.Value }

func (b plainBool) String() string     { return b.v.String() }
func (b plainBool) Set(s string) error { return b.v.Set(s) }
func (b plainBool) Type() string       { return b.v.Type() }

// ShortUsage prints cmd's synopsis and where to find more.
func ShortUsage(cmd *cobra.Command, w io.Writer) {
	if cmd.HasSubCommands() {
		groupUsage(cmd, w)
		return
	}
	fmt.Fprintf(w, "%s\nRun 'fray help %s' for the flags.\n", usageLine(cmd), strings.TrimPrefix(CommandPath(cmd), "fray "))
}

// UnknownSubcommand says that cmd has no subcommand name, and which it may have meant.
func UnknownSubcommand(cmd *cobra.Command, name string) string {
	msg := fmt.Sprintf("unknown subcommand %q", name)
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	s := cmd.SuggestionsFor(name)
	for _, g := range cmd.Commands() {
		if g.Annotations[flatAnnotation] != "" { // its members run here too, hidden
			g.SuggestionsMinimumDistance = cmd.SuggestionsMinimumDistance
			for _, m := range g.SuggestionsFor(name) {
				if !slices.Contains(s, m) {
					s = append(s, m)
				}
			}
		}
	}
	if len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return msg
}

// HelpCmd is `fray help [SUBCOMMAND...]`: the usage of fray or of a subcommand, on stdout.
func HelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [SUBCOMMAND...]",
		Short: "print the usage of fray or of a subcommand",
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			cmd, _, err := c.Root().Find(args)
			if err != nil || cmd == nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []cobra.Completion
			for _, sub := range listed(cmd) {
				out = append(out, cobra.CompletionWithDesc(sub.Name(), sub.Short))
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error { return helpOf(c.Parent(), args, c.OutOrStdout()) },
	}
}

// helpOf prints the usage of cmd's subcommand path to w.
func helpOf(cmd *cobra.Command, path []string, w io.Writer) error {
	for _, name := range restoreNegatives(path) {
		next := findSub(cmd, name)
		if next == nil {
			return &UsageError{Msg: UnknownSubcommand(cmd, name)}
		}
		cmd = next
	}
	cmd.SetOut(w)
	help(cmd, nil)
	return nil
}

// findSub is cmd's subcommand name, or nil.
func findSub(cmd *cobra.Command, name string) *cobra.Command {
	for _, c := range cmd.Commands() {
		if c.Name() == name || c.HasAlias(name) {
			return c
		}
	}
	return nil
}

// VersionCmd is `fray version`: the module version and VCS revision the binary was built from,
// and the Go version.
func VersionCmd() *cobra.Command {
	cmd, _ := NewCommand("version", "", "Prints fray's module version, the VCS revision it was built from (when the build\nrecorded it) and the Go version.", 0, 0)
	cmd.Short = "print the version of fray, its VCS revision and Go version"
	cmd.RunE = RunE(func(_ context.Context, _ []string, stdout, _ io.Writer) error {
		fmt.Fprintln(stdout, VersionText(debug.ReadBuildInfo()))
		return nil
	})
	return cmd
}

// VersionText is "fray v1.2.3 (revision abc123, modified, 2026-12-01T19:00:00Z) go1.26.0
// linux/amd64".
func VersionText(bi *debug.BuildInfo, ok bool) string {
	version, goVersion := "(unknown)", runtime.Version()
	var vcs []string
	if ok {
		version, goVersion = bi.Main.Version, bi.GoVersion
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		if r := settings["vcs.revision"]; r != "" {
			vcs = append(vcs, "revision "+r)
		}
		if settings["vcs.modified"] == "true" {
			vcs = append(vcs, "modified")
		}
		if t := settings["vcs.time"]; t != "" {
			vcs = append(vcs, t)
		}
	}
	if version == "" {
		version = "(devel)"
	}
	out := "fray " + version
	if len(vcs) > 0 {
		out += " (" + strings.Join(vcs, ", ") + ")"
	} else {
		out += " (no VCS revision recorded)"
	}
	return out + " " + goVersion + " " + runtime.GOOS + "/" + runtime.GOARCH
}
