package commands

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
)

// idle is an operator's: a tenant's administration, through the encounter service
// (ListIdleEncounters, EndIdleEncounters), whose ends are recorded as every end is.
func init() { Register(idleCmd) }

func idleCmd() *cobra.Command {
	g := client.Group("idle", "A tenant's idle encounters: those not ended that have recorded no event for a while\n"+
		"(--older-than; default: the server's idle end time, FRAY_IDLE_END). The server ends them by\n"+
		"itself once idle that long; `fray idle end` ends them now, each by an EncounterEnded that\n"+
		"reveals its dice seed, as the GM's end does. Both need a token of the tenant holding the\n"+
		"\""+identity.ScopeAdmin+"\" scope (--token); against fray dev, the CLI mints one for --as NAME of --tenant.",
		[]client.Member{
			{Name: "list", Summary: "list a tenant's idle encounters, the longest idle first", Cmd: idleListCmd},
			{Name: "end", Summary: "end a tenant's idle encounters now, revealing their seeds", Cmd: idleEndCmd},
		})
	return summary(g, "list or end a tenant's idle encounters (the tenant's administrator)")
}

// idleFlags are the flags both take.
type idleFlags struct {
	c         *client.Conn
	tenant    *string
	olderThan *time.Duration
	max       *int
	asJSON    *bool
}

func addIdleFlags(fs *pflag.FlagSet) *idleFlags {
	f := &idleFlags{c: client.AddConnFlags(fs)}
	f.tenant = fs.String("tenant", client.EnvOr("FRAY_TENANT", ""), "the tenant, which the token must be of (env FRAY_TENANT; required)")
	f.olderThan = fs.Duration("older-than", 0, "idle for at least this long, such as 720h or 48h (default: the server's idle end time)")
	f.max = fs.Int("max", 0, "at most this many encounters (0: the server's default, 100; at most 1000)")
	f.asJSON = fs.Bool("json", false, "print the server's response in protojson")
	return f
}

// request checks the flags and dials the service with a token of the tenant's administrator.
func (f *idleFlags) request() (encounterv1.EncounterServiceClient, func(), *durationpb.Duration, error) {
	if *f.tenant == "" {
		return nil, nil, nil, client.ShortUsagef("--tenant: name the tenant (or set FRAY_TENANT)")
	}
	if err := identity.CheckName("tenant", *f.tenant); err != nil {
		return nil, nil, nil, client.ShortUsagef("--tenant: %v", err)
	}
	if *f.olderThan < 0 || (*f.olderThan > 0 && *f.olderThan < time.Second) {
		return nil, nil, nil, client.ShortUsagef("--older-than %s: give 1s or more (or none, for the server's idle end time)", *f.olderThan)
	}
	if *f.max < 0 || *f.max > 1000 {
		return nil, nil, nil, client.ShortUsagef("--max %d: give 1 to 1000, or 0 for the server's default (100)", *f.max)
	}
	f.c.Raw = *f.asJSON
	f.c.DevTenant, f.c.DevScopes = *f.tenant, []string{identity.ScopeAdmin}
	cl, done, err := f.c.Encounters()
	if err != nil {
		return nil, nil, nil, err
	}
	var older *durationpb.Duration
	if *f.olderThan > 0 {
		older = durationpb.New(*f.olderThan)
	}
	return cl, done, older, nil
}

func idleRows(encounters []*encounterv1.IdleEncounter) []string {
	rows := []string{"ID\tNAME\tSYSTEM\tSTATUS\tEVENTS\tGM\tLAST ACTIVE"}
	for _, e := range encounters {
		rows = append(rows, fmt.Sprintf("%s\t%s\t%s\t%s\t%d\t%s\t%s", e.GetEncounterId(), e.GetName(), client.Dash(e.GetRuleSystem()),
			statusText(e.GetStatus()), e.GetSequence(), client.Dash(e.GetGameMaster()), e.GetLastActivity().AsTime().Local().Format("2006-01-02 15:04")))
	}
	return rows
}

// print writes the answer: whole as JSON with --json, else a table of encounters then line.
func (f *idleFlags) print(stdout io.Writer, resp proto.Message, encounters []*encounterv1.IdleEncounter, line string) error {
	if *f.asJSON {
		return client.PrintJSON(stdout, resp, client.PrettyJSON)
	}
	if len(encounters) > 0 {
		if err := client.Table(stdout, idleRows(encounters)); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(stdout, line)
	return err
}

func idleListCmd() *cobra.Command {
	command, fs := client.NewCommand("idle list", "--tenant T [--older-than D] [--max N] [--json] [flags]",
		"Lists the tenant's encounters not ended that have recorded no event for --older-than (default:\n"+
			"the server's idle end time), the longest idle first, and how many of the tenant's are open.", 0, 0)
	f := addIdleFlags(fs)
	command.RunE = client.RunE(func(ctx context.Context, _ []string, stdout, _ io.Writer) error {
		cl, done, older, err := f.request()
		if err != nil {
			return err
		}
		defer done()
		resp, err := cl.ListIdleEncounters(f.c.Outgoing(ctx), &encounterv1.ListIdleEncountersRequest{Tenant: *f.tenant, OlderThan: older, Max: int32(*f.max)})
		if err != nil {
			return client.RPCErr("", err)
		}
		line := fmt.Sprintf("%d idle; tenant %s has %d open", len(resp.GetEncounters()), *f.tenant, resp.GetOpen())
		if len(resp.GetEncounters()) > 0 {
			line += fmt.Sprintf("; `fray idle end --tenant %s` ends them", *f.tenant)
		}
		return f.print(stdout, resp, resp.GetEncounters(), line)
	})
	return command
}

func idleEndCmd() *cobra.Command {
	command, fs := client.NewCommand("idle end", "--tenant T [--older-than D] [--max N] [--json] [flags]",
		"Ends the tenant's encounters not ended that have recorded no event for --older-than (default:\n"+
			"the server's idle end time), the longest idle first: each by an EncounterEnded that reveals\n"+
			"its dice seed and names you, recorded as the server's end for idleness. One that records an\n"+
			"event meanwhile is left open. Prints those it ended, and how many of the tenant's are open.", 0, 0)
	f := addIdleFlags(fs)
	command.RunE = client.RunE(func(ctx context.Context, _ []string, stdout, _ io.Writer) error {
		cl, done, older, err := f.request()
		if err != nil {
			return err
		}
		defer done()
		resp, err := cl.EndIdleEncounters(f.c.Outgoing(ctx), &encounterv1.EndIdleEncountersRequest{Tenant: *f.tenant, OlderThan: older, Max: int32(*f.max)})
		if err != nil {
			return client.RPCErr("", err)
		}
		return f.print(stdout, resp, resp.GetEnded(), fmt.Sprintf("ended %d; tenant %s has %d open", len(resp.GetEnded()), *f.tenant, resp.GetOpen()))
	})
	return command
}
