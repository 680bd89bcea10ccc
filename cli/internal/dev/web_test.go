package dev_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/fray-rpg/fray/cli/internal/commands"
	"github.com/fray-rpg/fray/cli/internal/dev"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	invitev1 "github.com/fray-rpg/fray/gen/fray/invite/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/types/known/durationpb"
)

// startWeb runs fray dev with the demo's dice and its browser listener on free ports; it
// returns the gRPC address and the page's URL.
func startWeb(t *testing.T) (addr, page string) {
	t.Helper()
	pageURL := make(chan string, 1)
	addr, stop := start(t, t.TempDir(), func(c *dev.Config) {
		c.Demo = true
		c.Web = "127.0.0.1:0"
		c.WebReady = func(u string) { pageURL <- u }
	})
	t.Cleanup(stop)
	select { // fray dev says where the page is after it says where it serves gRPC
	case page = <-pageURL:
	case <-time.After(2 * time.Minute):
		t.Fatal("fray dev did not say where the page is")
	}
	require.True(t, strings.HasPrefix(page, "http://127.0.0.1:"), page)
	return addr, page
}

// browser is a Connect client (JSON, as a page's fetch sends it) of the EncounterService at
// base, with token as its bearer ("" for none).
type browser struct {
	base, token string
}

func (b browser) opts() []connect.ClientOption {
	opts := []connect.ClientOption{connect.WithProtoJSON()}
	if b.token != "" {
		opts = append(opts, connect.WithInterceptors(authHeader(b.token)))
	}
	return opts
}

func call[Req, Res any](t *testing.T, b browser, method string, req *Req) (*Res, error) {
	t.Helper()
	c := connect.NewClient[Req, Res](http.DefaultClient, b.base+"fray.encounter.v1.EncounterService/"+method, b.opts()...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := c.CallUnary(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, err
	}
	return res.Msg, nil
}

// authHeader sends "Authorization: Bearer token" on unary and streaming calls.
type authHeader string

func (a authHeader) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, r connect.AnyRequest) (connect.AnyResponse, error) {
		r.Header().Set("Authorization", "Bearer "+string(a))
		return next(ctx, r)
	}
}

func (a authHeader) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return func(ctx context.Context, spec connect.Spec) connect.StreamingClientConn {
		c := next(ctx, spec)
		c.RequestHeader().Set("Authorization", "Bearer "+string(a))
		return c
	}
}

func (authHeader) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return next
}

// fray dev serves the real services to browsers on --web: over the Connect protocol, the GM
// starts the encounter and a player's WatchEncounter receives the narrated events live; the
// player submits a legal command of its combatant and reads the state; a call without a token
// is Unauthenticated, and a player cannot do the GM's things; the page is at /.
func TestDevServesTheServicesToBrowsers(t *testing.T) {
	addr, page := startWeb(t)
	sheets := filepath.Join("..", "..", "testdata", "sheets")
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--as", "gm", "--name", "Ruelle sombre"))
	fray(t, "add", "--addr", addr, "--as", "gm", id, filepath.Join(sheets, "diego.yaml"), filepath.Join(sheets, "ruffian.yaml"))
	gm := browser{base: page, token: strings.TrimSpace(fray(t, "token", "--addr", addr, "--as", "gm"))}
	david := browser{base: page, token: strings.TrimSpace(fray(t, "token", "--addr", addr, "--as", "david"))}

	// Authorisation is the gRPC server's, whatever the protocol.
	_, err := call[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](t, browser{base: page}, "GetEncounter", &encounterv1.GetEncounterRequest{EncounterId: id})
	require.Equal(t, connect.CodeUnauthenticated, connect.CodeOf(err), "%v", err)
	_, err = call[encounterv1.StartEncounterRequest, encounterv1.StartEncounterResponse](t, david, "StartEncounter", &encounterv1.StartEncounterRequest{EncounterId: id, CommandId: "david-start"})
	require.Equal(t, connect.CodePermissionDenied, connect.CodeOf(err), "%v", err)
	_, err = call[encounterv1.EndEncounterRequest, encounterv1.EndEncounterResponse](t, david, "EndEncounter", &encounterv1.EndEncounterRequest{EncounterId: id, CommandId: "david-end"})
	require.Equal(t, connect.CodePermissionDenied, connect.CodeOf(err), "%v", err)

	// David watches, narrated in French, from the start.
	watch := connect.NewClient[encounterv1.WatchEncounterRequest, encounterv1.WatchEncounterResponse](
		http.DefaultClient, page+"fray.encounter.v1.EncounterService/WatchEncounter", david.opts()...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	stream, err := watch.CallServerStream(ctx, connect.NewRequest(&encounterv1.WatchEncounterRequest{EncounterId: id, Language: "fr"}))
	require.NoError(t, err)
	defer stream.Close()
	next := func() *encounterv1.WatchEncounterResponse {
		t.Helper()
		require.True(t, stream.Receive(), "the watch ended: %v", stream.Err())
		return stream.Msg()
	}
	// The log so far: the creation and the two combatants.
	var last uint64
	for range 3 {
		last = next().GetEvent().GetSequence()
	}
	require.Equal(t, uint64(3), last)

	// The GM starts; the event reaches David's open stream.
	started, err := call[encounterv1.StartEncounterRequest, encounterv1.StartEncounterResponse](t, gm, "StartEncounter", &encounterv1.StartEncounterRequest{EncounterId: id, CommandId: "gm-start"})
	require.NoError(t, err)
	for _, ev := range started.GetEvents() {
		got := next()
		require.Equal(t, ev.GetSequence(), got.GetEvent().GetSequence())
		require.NotEmpty(t, got.GetNarration())
		last = ev.GetSequence()
	}

	// Whoever must act takes a pre-filled legal command without choices to make (the GM for
	// the ruffian, David for Diego) until David has acted; each event reaches the stream.
	davidActed := false
	for step := 0; step < 12 && !davidActed; step++ {
		st, err := call[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](t, gm, "GetEncounter", &encounterv1.GetEncounterRequest{EncounterId: id, LegalForAll: true})
		require.NoError(t, err)
		require.NotEmpty(t, st.GetMayAct())
		actor := st.GetMayAct()[0]
		who := gm
		if actor == "diego" {
			who = david
			// David's own view offers him Diego's actions, and no one else's.
			mine, err := call[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](t, david, "GetEncounter", &encounterv1.GetEncounterRequest{EncounterId: id, LegalForAll: true})
			require.NoError(t, err)
			for _, a := range mine.GetActions() {
				require.Equal(t, "diego", a.GetCombatantId())
			}
		}
		cmd := commandWithoutChoices(t, st, actor)
		res, err := call[encounterv1.SubmitRequest, encounterv1.SubmitResponse](t, who, "Submit", &encounterv1.SubmitRequest{EncounterId: id, CommandId: "step-" + string(rune('a'+step)), Command: cmd})
		require.NoError(t, err, "%s: %v", actor, cmd)
		for _, ev := range res.GetEvents() {
			got := next()
			require.Equal(t, ev.GetSequence(), got.GetEvent().GetSequence())
			require.NotEmpty(t, got.GetNarration())
		}
		davidActed = actor == "diego"
	}
	require.True(t, davidActed, "Diego never had an action without choices")

	// David's Connect call of GetEncounter sees the state the GM's commands made.
	mine, err := call[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](t, david, "GetEncounter", &encounterv1.GetEncounterRequest{EncounterId: id, Language: "en"})
	require.NoError(t, err)
	require.Equal(t, id, mine.GetState().GetEncounterId())
	require.NotEmpty(t, mine.GetNarration())

	// The page is at /.
	res, err := http.Get(page)
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(body), "<html")
}

// commandWithoutChoices is the pre-filled command of one of actor's legal actions that needs
// no choice filled in, preferring to pass the turn.
func commandWithoutChoices(t *testing.T, st *encounterv1.GetEncounterResponse, actor string) *encounterv1.Command {
	t.Helper()
	var found *encounterv1.Command
	for _, ca := range st.GetActions() {
		if ca.GetCombatantId() != actor {
			continue
		}
		for _, lc := range ca.GetActions() {
			required := false
			for _, c := range lc.GetAction().GetChoices() {
				required = required || c.GetRequired()
			}
			if required {
				continue
			}
			if found == nil || strings.Contains(lc.GetAction().GetKey(), "pass") {
				found = lc.GetCommand()
			}
		}
	}
	require.NotNil(t, found, "%s has no action without choices: %v", actor, st.GetActions())
	return found
}

// invite calls InviteService.CreateInvite over the Connect protocol, as the page does.
func invite(t *testing.T, b browser, req *invitev1.CreateInviteRequest) (*invitev1.CreateInviteResponse, error) {
	t.Helper()
	c := connect.NewClient[invitev1.CreateInviteRequest, invitev1.CreateInviteResponse](http.DefaultClient, b.base+"fray.invite.v1.InviteService/CreateInvite", b.opts()...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := c.CallUnary(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, err
	}
	return res.Msg, nil
}

// The GM invites: `fray invite ENC --player diego` prints a link to the page whose fragment
// holds the token of a new principal that controls Diego from then on (a RoleGranted event);
// with it a browser reads the encounter and commands Diego, but cannot do the GM's things nor
// invite; the page's own call (InviteService over Connect) invites an observer, who reads
// and commands nothing; only the GM and co-GMs invite.
func TestInvites(t *testing.T) {
	addr, page := startWeb(t)
	sheets := filepath.Join("..", "..", "testdata", "sheets")
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--as", "gm", "--name", "Ruelle sombre"))
	fray(t, "add", "--addr", addr, "--as", "gm", id, filepath.Join(sheets, "diego.yaml"), filepath.Join(sheets, "ruffian.yaml"))
	// The GM's token outlives the invites' 12 hours: an invite never outlives the token that
	// mints it.
	gm := browser{base: page, token: strings.TrimSpace(fray(t, "token", "--addr", addr, "--as", "gm", "--ttl", "24h"))}

	link := strings.TrimSpace(fray(t, "invite", "--addr", addr, "--as", "gm", id, "--player", "diego", "--command-id", "invite-diego"))
	prefix := page + "#/encounter/" + id + "?token="
	require.True(t, strings.HasPrefix(link, prefix), link)
	u, err := url.Parse(link)
	require.NoError(t, err)
	require.Empty(t, u.RawQuery, "the token is in the fragment, never in what the browser sends")
	token, err := url.QueryUnescape(strings.TrimPrefix(link, prefix))
	require.NoError(t, err)
	player := browser{base: page, token: token}

	st, err := call[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](t, player, "GetEncounter", &encounterv1.GetEncounterRequest{EncounterId: id, LegalForAll: true})
	require.NoError(t, err)
	var controller string
	for _, c := range st.GetState().GetCombatants() {
		if c.GetId() == "diego" {
			controller = c.GetController()
		}
	}
	require.True(t, strings.HasPrefix(controller, "dev/diego-"), "Diego's controller: %q", controller)
	log := fray(t, "log", "--addr", addr, "--as", "gm", id)
	require.Contains(t, log, controller+" is a player from now on, controlling Diego")

	// The same invite again (its command id) names the same principal, recorded once.
	again := strings.TrimSpace(fray(t, "invite", "--addr", addr, "--as", "gm", id, "--player", "diego", "--command-id", "invite-diego"))
	require.True(t, strings.HasPrefix(again, prefix), again)
	require.Equal(t, 1, strings.Count(fray(t, "log", "--addr", addr, "--as", "gm", id), "is a player from now on"))

	// The invited player is a player: not the GM, and invites no one.
	_, err = call[encounterv1.StartEncounterRequest, encounterv1.StartEncounterResponse](t, player, "StartEncounter", &encounterv1.StartEncounterRequest{EncounterId: id, CommandId: "p-start"})
	require.Equal(t, connect.CodePermissionDenied, connect.CodeOf(err), "%v", err)
	_, err = invite(t, player, &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_OBSERVER})
	require.Equal(t, connect.CodePermissionDenied, connect.CodeOf(err), "%v", err)
	_, err = invite(t, browser{base: page}, &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_OBSERVER})
	require.Equal(t, connect.CodeUnauthenticated, connect.CodeOf(err), "%v", err)
	// Nor does a stranger to the encounter.
	florence := browser{base: page, token: strings.TrimSpace(fray(t, "token", "--addr", addr, "--as", "florence"))}
	_, err = invite(t, florence, &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_OBSERVER})
	require.Error(t, err)
	require.Contains(t, []connect.Code{connect.CodePermissionDenied, connect.CodeNotFound}, connect.CodeOf(err), "%v", err)

	// The player commands Diego once the fight is on (the GM starts it).
	_, err = call[encounterv1.StartEncounterRequest, encounterv1.StartEncounterResponse](t, gm, "StartEncounter", &encounterv1.StartEncounterRequest{EncounterId: id, CommandId: "gm-start"})
	require.NoError(t, err)
	mine, err := call[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](t, player, "GetEncounter", &encounterv1.GetEncounterRequest{EncounterId: id, LegalForAll: true})
	require.NoError(t, err)
	require.NotEmpty(t, mine.GetActions(), "the invited player commands Diego")
	for _, a := range mine.GetActions() {
		require.Equal(t, "diego", a.GetCombatantId())
	}

	// The page invites an observer.
	before := time.Now()
	obs, err := invite(t, gm, &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_OBSERVER, Name: "spectator"})
	require.NoError(t, err)
	requireLasts(t, before, time.Now(), 12*time.Hour, obs.GetExpiresAt().AsTime(), "an invite for 12 hours")
	require.True(t, strings.HasPrefix(obs.GetPrincipal(), "dev/spectator-"), obs.GetPrincipal())
	require.True(t, strings.HasPrefix(obs.GetUrl(), prefix), obs.GetUrl())
	require.Len(t, obs.GetEvents(), 1)
	require.Equal(t, encounterv1.Role_ROLE_OBSERVER, obs.GetEvents()[0].GetRoleGranted().GetRole())
	observer := browser{base: page, token: obs.GetToken()}
	seen, err := call[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](t, observer, "GetEncounter", &encounterv1.GetEncounterRequest{EncounterId: id, LegalForAll: true})
	require.NoError(t, err)
	require.Empty(t, seen.GetActions(), "an observer commands nothing")
	_, err = call[encounterv1.SubmitRequest, encounterv1.SubmitResponse](t, observer, "Submit", &encounterv1.SubmitRequest{EncounterId: id, CommandId: "obs", Command: mine.GetActions()[0].GetActions()[0].GetCommand()})
	require.Equal(t, connect.CodePermissionDenied, connect.CodeOf(err), "%v", err)

	// What the request must say.
	for _, tc := range []struct {
		name string
		req  *invitev1.CreateInviteRequest
	}{
		{"no role", &invitev1.CreateInviteRequest{EncounterId: id}},
		{"a GM", &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_GM}},
		{"a player of no one", &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_PLAYER}},
		{"an observer with combatants", &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_OBSERVER, CombatantIds: []string{"diego"}}},
		{"a name with a slash", &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_OBSERVER, Name: "dev/gm"}},
		{"a ttl of a month", &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_OBSERVER, Ttl: durationpb.New(30 * 24 * time.Hour)}},
	} {
		_, err := invite(t, gm, tc.req)
		require.Equal(t, connect.CodeInvalidArgument, connect.CodeOf(err), "%s: %v", tc.name, err)
	}
	_, err = invite(t, gm, &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_PLAYER, CombatantIds: []string{"nobody"}})
	require.Equal(t, connect.CodeNotFound, connect.CodeOf(err), "%v", err)
}

// Stopping fray dev with a browser's WatchEncounter open: the stream ends with Unavailable
// (the page resumes from the last event it has), never a protocol error, and the stop does
// not wait for the grace (an hour here: a stop held for it would fail the test's patience).
func TestDevStopsWithABrowserWatching(t *testing.T) {
	pageURL := make(chan string, 1)
	addr, cancel, done := startRun(t, t.TempDir(), func(c *dev.Config) {
		c.Web = "127.0.0.1:0"
		c.Grace = time.Hour
		c.WebReady = func(u string) { pageURL <- u }
	})
	page := <-pageURL
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--as", "gm", "--name", "Ruelle sombre"))
	gm := browser{base: page, token: strings.TrimSpace(fray(t, "token", "--addr", addr, "--as", "gm"))}
	watch := connect.NewClient[encounterv1.WatchEncounterRequest, encounterv1.WatchEncounterResponse](
		http.DefaultClient, page+"fray.encounter.v1.EncounterService/WatchEncounter", gm.opts()...)
	stream, err := watch.CallServerStream(context.Background(), connect.NewRequest(&encounterv1.WatchEncounterRequest{EncounterId: id}))
	require.NoError(t, err)
	defer stream.Close()
	require.True(t, stream.Receive(), "%v", stream.Err())
	began := time.Now()
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(2 * time.Minute):
		t.Fatal("the open stream held the stop for the grace")
	}
	t.Logf("stopped in %v", time.Since(began).Round(time.Millisecond))
	require.False(t, stream.Receive())
	require.Equal(t, connect.CodeUnavailable, connect.CodeOf(stream.Err()), "%v", stream.Err())
	// The status the watch returned ("resume from sequence 2"), or, when the stopping server
	// closed the call before writing it, the gateway's ("call again").
	require.Contains(t, stream.Err().Error(), "the server is shutting down")
}

// `fray invite` says whom to invite, or it is a usage error.
func TestInviteUsage(t *testing.T) {
	for _, args := range [][]string{
		{"invite", "enc-1"},
		{"invite", "enc-1", "--player", "diego", "--observer"},
	} {
		var out, errOut bytes.Buffer
		require.Equal(t, 2, commands.Run(context.Background(), args, &out, &errOut), "%v", args)
		require.Contains(t, errOut.String(), "--player", "%v", args)
	}
}

// Without the page (--web off), `fray invite` prints the invited principal's token, for the
// CLI's --token, and says so.
func TestInviteWithoutThePage(t *testing.T) {
	addr, stop := start(t, t.TempDir())
	defer stop()
	sheets := filepath.Join("..", "..", "testdata", "sheets")
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--as", "gm", "--name", "Ruelle sombre"))
	fray(t, "add", "--addr", addr, "--as", "gm", id, filepath.Join(sheets, "diego.yaml"))
	var out, errOut bytes.Buffer
	require.Equal(t, 0, commands.Run(context.Background(), []string{"invite", "--addr", addr, "--as", "gm", id, "--observer"}, &out, &errOut), errOut.String())
	require.Contains(t, errOut.String(), "this server serves no page")
	tok := strings.TrimSpace(out.String())
	require.True(t, strings.HasPrefix(tok, "eyJ"), tok)
	require.Contains(t, fray(t, "state", "--addr", addr, "--token", tok, id), "Diego")
}
