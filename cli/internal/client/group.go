package client

import "github.com/spf13/cobra"

// Member is one subcommand of a group: `fray feerie declare` is the member declare of the
// Group feerie.
type Member struct {
	Name    string
	Summary string
	Cmd     func() *cobra.Command
}

// Group returns the command of a subcommand group: `fray GROUP MEMBER ...` runs the member.
// Without a member, or with an unknown one, it is a usage error listing the members; "-h" or
// "help" lists them, and "help MEMBER" prints the member's usage.
func Group(name, help string, members []Member) *cobra.Command {
	g := &cobra.Command{
		Use:  name + " SUBCOMMAND [ARGS] [FLAGS]",
		Long: help,
	}
	for _, m := range members {
		c := m.Cmd()
		c.Short = m.Summary
		g.AddCommand(c)
	}
	return asGroup(g)
}

// asGroup makes g, a command with subcommands, a group: without a subcommand, or with an
// unknown one, a usage error; `help [SUBCOMMAND]` its usage or the subcommand's.
func asGroup(g *cobra.Command) *cobra.Command {
	g.Args = func(c *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return &UsageError{Msg: "missing subcommand", Short: true}
		case args[0] == "help":
			return nil
		}
		return &UsageError{Msg: UnknownSubcommand(c, args[0]), Short: true}
	}
	g.FParseErrWhitelist.UnknownFlags = true // `fray feerie bogus --kind x`: the member is unknown
	// `fray feerie help [MEMBER]`
	g.RunE = func(c *cobra.Command, args []string) error { return helpOf(g, args[1:], c.OutOrStdout()) }
	return g
}
