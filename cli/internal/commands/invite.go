package commands

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	invitev1 "github.com/fray-rpg/fray/gen/fray/invite/v1"
	"github.com/spf13/cobra"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/durationpb"
)

// inviteCmd is `fray invite ENCOUNTER --player COMBATANT[,…] | --observer`: the GM grants the
// role to a new principal (InviteService) and gets the link to the page that lets them in.
func inviteCmd() *cobra.Command {
	command, fs := client.NewCommand("invite", "ENCOUNTER --player COMBATANT[,COMBATANT...] | --observer [flags]",
		"Invites someone to the encounter (GM and co-GMs): grants a new principal of your tenant the\n"+
			"role, a player of the named combatants (they are its from then on) or an observer, and\n"+
			"prints the link that opens the page at the encounter as that principal (its token in the\n"+
			"link's fragment, which the browser never sends to a server); what it did goes to stderr.\n"+
			"Send the link to the one invited: whoever holds it plays that role until --ttl ends, or\n"+
			"until the role is revoked. The link is good for that encounter only, never longer than\n"+
			"your own token (--token), and its calls count against your rate limit.\n"+
			"Served by `fray dev` (it mints the token with its dev key); with --web off it prints the\n"+
			"token instead, for the CLI's --token.", 1, 1)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, false)
	player := fs.String("player", "", "invite a player of these combatants, by id, comma-separated")
	observer := fs.Bool("observer", false, "invite an observer, who reads the encounter and commands nothing")
	name := fs.String("name", "", "the start of the invited principal's name (default: the first combatant's id, or observer); a random suffix follows")
	ttl := fs.Duration("ttl", 12*time.Hour, "how long the link is valid (at most 168h)")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		// A token minted for --as lives as long as the invite it mints (and a minute more:
		// the invite is minted a moment later).
		c.DevTTL = *ttl + time.Minute
		asked := time.Now().Add(*ttl)
		req := &invitev1.CreateInviteRequest{EncounterId: pos[0], CommandId: c.ID(), Name: *name, Ttl: durationpb.New(*ttl)}
		for _, id := range strings.Split(*player, ",") {
			if id = strings.TrimSpace(id); id != "" {
				req.CombatantIds = append(req.CombatantIds, id)
			}
		}
		switch {
		case len(req.CombatantIds) > 0 && *observer:
			return client.ShortUsagef("--player or --observer, not both")
		case len(req.CombatantIds) > 0:
			req.Role = encounterv1.Role_ROLE_PLAYER
		case *observer:
			req.Role = encounterv1.Role_ROLE_OBSERVER
		default:
			return client.ShortUsagef("say whom to invite: --player COMBATANT[,COMBATANT...] or --observer")
		}
		cc, err := c.Dial(c.Addr)
		if err != nil {
			return err
		}
		defer cc.Close()
		res, err := invitev1.NewInviteServiceClient(cc).CreateInvite(c.Outgoing(ctx), req)
		if err != nil {
			return err
		}
		if c.Raw {
			b, err := protojson.Marshal(res)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(stdout, string(b))
			return err
		}
		what := "an observer"
		if req.Role == encounterv1.Role_ROLE_PLAYER {
			what = "a player of " + strings.Join(req.CombatantIds, ", ")
		}
		until := res.GetExpiresAt().AsTime().Local().Format("2006-01-02 15:04 MST")
		if res.GetExpiresAt().AsTime().Before(asked.Add(-time.Minute)) {
			fmt.Fprintf(stderr, "the invite ends when your own token does, at %s, not after --ttl %s: an invite never outlives the token that mints it\n", until, *ttl)
		}
		if res.GetUrl() == "" {
			fmt.Fprintf(stderr, "%s is %s; this server serves no page: give them the token below (the CLI's --token, or FRAY_TOKEN), valid until %s\n", res.GetPrincipal(), what, until)
			_, err = fmt.Fprintln(stdout, res.GetToken())
			return err
		}
		fmt.Fprintf(stderr, "%s is %s; send them this link, valid until %s:\n", res.GetPrincipal(), what, until)
		_, err = fmt.Fprintln(stdout, res.GetUrl())
		return err
	})
	return command
}
