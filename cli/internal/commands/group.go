package commands

import (
	"context"
	"flag"
	"fmt"
	"io"
)

// member is one subcommand of a group: `fray feerie declare` is the member declare of the
// group feerie.
type member struct {
	name    string
	summary string
	fn      Func
}

// groupFunc returns the Func of a subcommand group: it runs the member named by its first
// argument with the rest, and reports the member's errors under "group member". Without a
// member, or with an unknown one, it is a usage error listing the members; "-h" or "help"
// lists them, and "help MEMBER" prints the member's usage.
func groupFunc(group, help string, members []member) Func {
	usage := func(w io.Writer) {
		fmt.Fprintf(w, "usage: fray %s SUBCOMMAND [ARGS] [FLAGS]\n", group)
		if help != "" {
			fmt.Fprintf(w, "\n%s\n", help)
		}
		fmt.Fprintf(w, "\nSubcommands:\n")
		width := 0
		for _, m := range members {
			width = max(width, len(m.name))
		}
		for _, m := range members {
			fmt.Fprintf(w, "  %-*s  %s\n", width, m.name, m.summary)
		}
		fmt.Fprintf(w, "\nRun 'fray help %s SUBCOMMAND' (or 'fray %s SUBCOMMAND -h') for its arguments and flags.\n", group, group)
	}
	find := func(name string) (member, bool) {
		for _, m := range members {
			if m.name == name {
				return m, true
			}
		}
		return member{}, false
	}
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		if len(args) == 0 {
			return &UsageError{Msg: "missing subcommand", Usage: usage}
		}
		name, rest := args[0], args[1:]
		switch name {
		case "-h", "-help", "--help", "help":
			if len(rest) > 0 && rest[0] != "-h" {
				if m, ok := find(rest[0]); ok {
					return wrapMember(group, m, m.fn(ctx, []string{"-h"}, stdout, stderr))
				}
				return &UsageError{Msg: fmt.Sprintf("unknown subcommand %q", rest[0]), Usage: usage}
			}
			usage(stderr)
			return flag.ErrHelp
		}
		m, ok := find(name)
		if !ok {
			return &UsageError{Msg: fmt.Sprintf("unknown subcommand %q", name), Usage: usage}
		}
		return wrapMember(group, m, m.fn(ctx, rest, stdout, stderr))
	}
}

func wrapMember(group string, m member, err error) error {
	if err == nil {
		return nil
	}
	return &SubcommandError{Name: group + " " + m.name, Err: err}
}
