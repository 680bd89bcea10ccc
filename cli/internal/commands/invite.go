package commands

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/fray-rpg/fray/cli/internal/client"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	invitev1 "github.com/fray-rpg/fray/gen/fray/invite/v1"
	"github.com/fray-rpg/fray/services/gateway"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/spf13/cobra"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/durationpb"
)

// inviteCmd is `fray invite ENCOUNTER --player COMBATANT[,…] | --observer`: the GM grants the
// role to a new principal (InviteService) and gets the link to the page that lets them in.
func inviteCmd() *cobra.Command {
	command, fs := client.NewCommand("invite", "ENCOUNTER --player COMBATANT[,COMBATANT...] | --observer | --gm [flags]",
		"Invites someone to the encounter (GM and co-GMs): grants a new principal of your tenant the\n"+
			"role, a player of the named combatants (they are its from then on) or an observer, and\n"+
			"prints the link that opens the page at the encounter as that principal (its token in the\n"+
			"link's fragment, which the browser never sends to a server); what it did goes to stderr.\n"+
			"Send the link to the one invited: whoever holds it plays that role until --ttl ends, or\n"+
			"until the role is revoked. The link is good for that encounter only, never longer than\n"+
			"your own token (--token), and its calls count against your rate limit.\n"+
			"An invite always names a new principal (a token of an existing one would let the inviter\n"+
			"act as it): the combatants it plays change controller, and their former controller no\n"+
			"longer commands them, which it says. To let someone who already has a token play (`--as\n"+
			"david` against fray dev), grant the role instead: fray grant ENC david player --combatants diego.\n"+
			"Served by `fray dev` (it mints the token with its dev key); with --web off it prints the\n"+
			"token instead, for the CLI's --token.\n"+
			"--gm prints your own link to the same page (the GM's), whatever port fray dev serves it on.", 1, 1)
	c := client.AddConnFlags(fs)
	c.AddCommandFlags(fs, false)
	player := fs.String("player", "", "invite a player of these combatants, by id, comma-separated")
	observer := fs.Bool("observer", false, "invite an observer, who reads the encounter and commands nothing")
	name := fs.String("name", "", "the start of the invited principal's name (default: the first combatant's id, or observer); a random suffix follows")
	ttl := fs.Duration("ttl", 12*time.Hour, "how long the link is valid (at most 168h)")
	gm := fs.Bool("gm", false, "print your own link instead (the GM's, or --as NAME's): the page of the fray dev server at --addr, at the encounter, with a token of yours valid --ttl; nothing is granted")
	command.RunE = client.RunE(func(ctx context.Context, pos []string, stdout, stderr io.Writer) error {
		if *gm {
			if *player != "" || *observer || *name != "" {
				return client.ShortUsagef("--gm prints your own link: give no --player, --observer nor --name with it")
			}
			return ownLink(ctx, c, pos[0], *ttl, stdout)
		}
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
		// Who controls the combatants now: the invite hands them to a new principal, and says
		// so (their controller, a player by `fray grant` or a sheet's controller, loses them).
		before, err := encounterv1.NewEncounterServiceClient(cc).GetEncounter(c.Outgoing(ctx), &encounterv1.GetEncounterRequest{EncounterId: pos[0]})
		if err != nil {
			return client.RPCErr("reading encounter "+pos[0], err)
		}
		res, err := invitev1.NewInviteServiceClient(cc).CreateInvite(c.Outgoing(ctx), req)
		if err != nil {
			return err
		}
		handedOver(stderr, pos[0], before.GetState(), req.CombatantIds, res.GetPrincipal())
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

// ownLink prints the caller's own link to the page of the fray dev server at c.Addr, at
// encounter enc: the page's address as fray dev noted it (its --web), and a token minted for
// --as from its dev key, valid ttl.
func ownLink(ctx context.Context, c *client.Conn, enc string, ttl time.Duration, stdout io.Writer) error {
	page, ok := auth.FindDevPage(c.Addr)
	if !ok {
		return fmt.Errorf("no page is noted for a fray dev serving on %s (not running, or run with --web off): start `fray dev`, or give --addr", c.Addr)
	}
	c.DevTTL = ttl
	tok, err := c.Token(ctx, c.Addr)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, gateway.InviteURL(page, enc, tok))
	return err
}

// handedOver says, for each of ids whose controller changes to to, whose it was and how to
// give it back: an invite's player takes the combatants from whoever controlled them.
func handedOver(w io.Writer, enc string, st *encounterv1.EncounterState, ids []string, to string) {
	names := client.NamesOf(st)
	for _, id := range ids {
		for _, cb := range st.GetCombatants() {
			if cb.GetId() != id || cb.GetController() == "" || cb.GetController() == to {
				continue
			}
			was := cb.GetController()
			subject := was
			if _, s, ok := strings.Cut(was, "/"); ok {
				subject = s
			}
			left := ""
			if !keepsAPart(st, was, ids) {
				left = "; " + was + " has no other part in the encounter, and can no longer read it"
			}
			fmt.Fprintf(w, "%s (%s) was %s's: it is %s's now, and %s no longer commands it%s (to give it back: fray grant %s %s player --combatants %s)\n",
				names.Of(id), id, was, to, was, left, enc, subject, id)
		}
	}
}

// keepsAPart: p still has a role in st, or a combatant other than those handed over.
func keepsAPart(st *encounterv1.EncounterState, p string, handed []string) bool {
	if st.GetGameMaster() == p {
		return true
	}
	for _, g := range st.GetRoles() {
		if g.GetPrincipal() == p {
			return true
		}
	}
	for _, cb := range st.GetCombatants() {
		if cb.GetController() == p && !slices.Contains(handed, cb.GetId()) {
			return true
		}
	}
	return false
}
