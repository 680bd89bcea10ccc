// Command fray is the command-line client of the fray combat engine: it creates encounters,
// adds combatants, plays their actions, and shows and follows the event log, talking gRPC to
// EncounterService (--addr) and RulesService (--rules-addr).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/dev"
	"github.com/fray-rpg/fray/cli/internal/load"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	commands.Register(dev.NewCommand)
	commands.Register(load.NewCommand)
	code := commands.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
