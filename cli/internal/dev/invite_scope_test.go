package dev_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
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
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/ratelimit"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// claimsOf reads a token's claims (its signature is the server's to check).
func claimsOf(t *testing.T, token string) map[string]any {
	t.Helper()
	parts := strings.Split(token, ".")
	require.Len(t, parts, 3, token)
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

func expOf(t *testing.T, token string) time.Time {
	t.Helper()
	exp, ok := claimsOf(t, token)["exp"].(float64)
	require.True(t, ok, "exp of %s", token)
	return time.Unix(int64(exp), 0).UTC()
}

// linkToken is the token in an invite link's fragment.
func linkToken(t *testing.T, link, prefix string) string {
	t.Helper()
	require.True(t, strings.HasPrefix(link, prefix), link)
	tok, err := url.QueryUnescape(strings.TrimPrefix(link, prefix))
	require.NoError(t, err)
	return tok
}

// grpcAs is a gRPC client connection to addr and a context sending token.
func grpcAs(t *testing.T, addr, token string) (*grpc.ClientConn, context.Context) {
	t.Helper()
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	ctx, cancel := context.WithTimeout(authtest.WithToken(context.Background(), token), 2*time.Minute)
	t.Cleanup(cancel)
	return cc, ctx
}

// watchFirst opens a WatchEncounter over gRPC and returns how its first receive ended.
func watchFirst(ctx context.Context, cc *grpc.ClientConn, id string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st, err := encounterv1.NewEncounterServiceClient(cc).WatchEncounter(ctx, &encounterv1.WatchEncounterRequest{EncounterId: id})
	if err != nil {
		return err
	}
	_, err = st.Recv()
	return err
}

// requireBound: err is the refusal of a call an invite to id may not make.
func requireBound(t *testing.T, err error, id, why string) {
	t.Helper()
	code, msg := status.Code(err), status.Convert(err).Message()
	if ce := new(connect.Error); errors.As(err, &ce) {
		code, msg = codes.Code(ce.Code()), ce.Message()
	}
	require.Equal(t, codes.PermissionDenied, code, "%s: %v", why, err)
	require.Contains(t, msg, "holds an invite to encounter "+id+", good for that encounter only", why)
}

// An invite is good for its encounter only, within its role, bounded by its inviter, and
// nothing once its role is revoked — over gRPC and over the Connect protocol the page uses.
// The invited player's token reads its encounter, but creates no encounter (the start of the
// chain of invites without end: create, then invite from one's own), lists none, reads no
// other, calls no RulesService, and invites no one. A co-GM by invite invites, each invite
// bound to the encounter, drawing from the root inviter's budget and expiring with the co-GM's
// own token; the GM's short token bounds the invites it mints the same way. After `fray
// revoke`, the token is refused everywhere: on its encounter, and for a create.
func TestAnInviteIsGoodForItsEncounterOnly(t *testing.T) {
	addr, page := startWeb(t)
	sheets := filepath.Join("..", "..", "testdata", "sheets")
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--as", "gm", "--name", "Ruelle sombre"))
	fray(t, "add", "--addr", addr, "--as", "gm", id, filepath.Join(sheets, "diego.yaml"), filepath.Join(sheets, "ruffian.yaml"))
	other := strings.TrimSpace(fray(t, "create", "--addr", addr, "--as", "gm", "--name", "Ailleurs"))
	prefix := page + "#/encounter/" + id + "?token="

	// The player's link: bound to the encounter, drawing from the GM's budget, for 12 hours.
	before := time.Now()
	token := linkToken(t, strings.TrimSpace(fray(t, "invite", "--addr", addr, "--as", "gm", id, "--player", "diego")), prefix)
	requireLasts(t, before, time.Now(), 12*time.Hour, expOf(t, token), "--ttl's default, the CLI's own token minted to last as long")
	c := claimsOf(t, token)
	require.Equal(t, id, c[auth.EncounterClaim])
	require.Equal(t, "dev/gm", c[auth.InviterClaim])
	principal := "dev/" + c["sub"].(string)
	player := browser{base: page, token: token}
	cc, ctx := grpcAs(t, addr, token)
	enc := encounterv1.NewEncounterServiceClient(cc)

	// Its encounter: read.
	_, err := enc.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)
	_, err = call[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](t, player, "GetEncounter", &encounterv1.GetEncounterRequest{EncounterId: id})
	require.NoError(t, err)

	// Nothing else.
	refusedElsewhere := func(when string) {
		t.Helper()
		_, err := enc.CreateEncounter(ctx, &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Mon repaire", RuleSystem: "loss"}})
		requireBound(t, err, id, when+": a create over gRPC")
		_, err = call[encounterv1.CreateEncounterRequest, encounterv1.CreateEncounterResponse](t, player, "CreateEncounter", &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Mon repaire", RuleSystem: "loss"}})
		requireBound(t, err, id, when+": a create over Connect")
		_, err = enc.ListEncounters(ctx, &encounterv1.ListEncountersRequest{})
		requireBound(t, err, id, when+": a list")
		_, err = enc.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: other})
		requireBound(t, err, id, when+": another encounter")
		_, err = call[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](t, player, "GetEncounter", &encounterv1.GetEncounterRequest{EncounterId: other})
		requireBound(t, err, id, when+": another encounter over Connect")
		requireBound(t, watchFirst(ctx, cc, other), id, when+": a watch of another encounter")
		_, err = rulesv1.NewRulesServiceClient(cc).ListRulesets(ctx, &rulesv1.ListRulesetsRequest{})
		requireBound(t, err, id, when+": the RulesService")
		_, err = invite(t, player, &invitev1.CreateInviteRequest{EncounterId: other, Role: encounterv1.Role_ROLE_OBSERVER})
		requireBound(t, err, id, when+": an invite to another encounter")
		var out, errOut bytes.Buffer
		require.Equal(t, 1, commands.Run(context.Background(), []string{"create", "--addr", addr, "--token", token, "--name", "Mon repaire"}, &out, &errOut))
		require.Contains(t, errOut.String(), "PermissionDenied")
		require.Contains(t, errOut.String(), "holds an invite to encounter "+id)
	}
	refusedElsewhere("invited")
	// Within its role: a player invites no one.
	_, err = invite(t, player, &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_OBSERVER})
	require.Equal(t, connect.CodePermissionDenied, connect.CodeOf(err), "%v", err)

	// A co-GM by invite invites: bound to the encounter, from the GM's budget, and expiring
	// with the co-GM's own token whatever it asks.
	gm := browser{base: page, token: strings.TrimSpace(fray(t, "token", "--addr", addr, "--as", "gm", "--ttl", "24h"))}
	before = time.Now()
	co, err := invite(t, gm, &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_OBSERVER, Name: "cogm"})
	require.NoError(t, err)
	requireLasts(t, before, time.Now(), 12*time.Hour, co.GetExpiresAt().AsTime())
	fray(t, "grant", "--addr", addr, "--as", "gm", id, co.GetPrincipal(), "co-gm")
	next, err := invite(t, browser{base: page, token: co.GetToken()}, &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_OBSERVER, Name: "friend", Ttl: durationpb.New(7 * 24 * time.Hour)})
	require.NoError(t, err)
	require.Equal(t, co.GetExpiresAt().AsTime(), next.GetExpiresAt().AsTime(), "an invite never outlives the token that minted it")
	require.Equal(t, expOf(t, co.GetToken()), expOf(t, next.GetToken()))
	nc := claimsOf(t, next.GetToken())
	require.Equal(t, id, nc[auth.EncounterClaim])
	require.Equal(t, "dev/gm", nc[auth.InviterClaim], "the budget of the root inviter, not the co-GM's")
	_, err = call[encounterv1.CreateEncounterRequest, encounterv1.CreateEncounterResponse](t, browser{base: page, token: next.GetToken()}, "CreateEncounter", &encounterv1.CreateEncounterRequest{Encounter: &encounterv1.CreateEncounter{Name: "Mon repaire", RuleSystem: "loss"}})
	requireBound(t, err, id, "the co-GM's invitee creates")

	// The GM's own short token bounds its invites: over Connect, and `fray invite --token`
	// says so.
	short := strings.TrimSpace(fray(t, "token", "--addr", addr, "--as", "gm", "--ttl", "2h"))
	brief, err := invite(t, browser{base: page, token: short}, &invitev1.CreateInviteRequest{EncounterId: id, Role: encounterv1.Role_ROLE_OBSERVER, Ttl: durationpb.New(12 * time.Hour)})
	require.NoError(t, err)
	require.Equal(t, expOf(t, short), brief.GetExpiresAt().AsTime())
	require.Equal(t, expOf(t, short), expOf(t, brief.GetToken()))
	var out, errOut bytes.Buffer
	require.Equal(t, 0, commands.Run(context.Background(), []string{"invite", "--addr", addr, "--token", short, id, "--observer", "--ttl", "12h"}, &out, &errOut), errOut.String())
	require.Contains(t, errOut.String(), "the invite ends when your own token does")
	require.Equal(t, expOf(t, short), expOf(t, linkToken(t, strings.TrimSpace(out.String()), prefix)))

	// Revoked with the role: refused on its encounter, and everywhere else as before.
	fray(t, "revoke", "--addr", addr, "--as", "gm", id, principal, "player")
	_, err = enc.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id})
	require.Equal(t, codes.PermissionDenied, status.Code(err), "%v", err)
	require.Contains(t, status.Convert(err).Message(), principal+" has no role in encounter "+id)
	_, err = call[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](t, player, "GetEncounter", &encounterv1.GetEncounterRequest{EncounterId: id})
	require.Equal(t, connect.CodePermissionDenied, connect.CodeOf(err), "%v", err)
	require.Equal(t, codes.PermissionDenied, status.Code(watchFirst(ctx, cc, id)))
	refusedElsewhere("revoked")
}

// An invited principal's calls draw from its inviter's bucket: inviting does not multiply a
// budget. The rate is one call in 1000 s, so that none comes back while the test runs.
func TestAnInviteDrawsFromItsInvitersBudget(t *testing.T) {
	const burst = 12
	addr, stop := start(t, t.TempDir(), func(c *dev.Config) {
		c.RateLimits = ratelimit.Limits{PrincipalRate: 0.001, PrincipalBurst: burst}
	})
	defer stop()
	sheets := filepath.Join("..", "..", "testdata", "sheets")
	// The GM's calls: the create, the add, the invite (and the invite's own read and grant).
	id := strings.TrimSpace(fray(t, "create", "--addr", addr, "--as", "gm", "--name", "Ruelle sombre"))
	fray(t, "add", "--addr", addr, "--as", "gm", id, filepath.Join(sheets, "diego.yaml"))
	token := strings.TrimSpace(fray(t, "invite", "--addr", addr, "--as", "gm", id, "--player", "diego"))
	cc, ctx := grpcAs(t, addr, token)
	enc := encounterv1.NewEncounterServiceClient(cc)
	served := 0
	var err error
	for range burst + 1 {
		if _, err = enc.GetEncounter(ctx, &encounterv1.GetEncounterRequest{EncounterId: id}); err != nil {
			break
		}
		served++
	}
	t.Logf("the invited player was served %d calls of the GM's burst of %d", served, burst)
	require.Equal(t, codes.ResourceExhausted, status.Code(err), "%v", err)
	require.Less(t, served, burst, "the GM's calls came out of the same bucket")
	require.Contains(t, status.Convert(err).Message(), "(invited: the budget of dev/gm): more than 0.001 requests/s")
	// The GM's bucket is the one used up; another principal's is not.
	var out, errOut bytes.Buffer
	require.Equal(t, 1, commands.Run(context.Background(), []string{"state", "--addr", addr, "--as", "gm", id}, &out, &errOut))
	require.Contains(t, errOut.String(), "dev/gm: more than 0.001 requests/s")
	require.Contains(t, fray(t, "list", "--addr", addr, "--as", "florence"), "No encounters")
}
