package resolver_test

import (
	"context"
	"net"
	"testing"
	"time"

	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/sheets"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/fray-rpg/fray/services/resolver"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// serveResolver serves srv over a loopback listener and returns a client of it.
func serveResolver(t *testing.T, srv *resolver.Server) rulesv1.RulesServiceClient {
	t.Helper()
	s := server.New(telemetry.NewLogger("text", "error"), authtest.ServerOptions()...)
	rulesv1.RegisterRulesServiceServer(s.GRPC, srv)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	return rulesv1.NewRulesServiceClient(cc)
}

// withDigests is req with the digest of each sheet of its state; stripped: the combatants
// without their sheets.
func withDigests(req *rulesv1.ResolveRequest, stripped bool) *rulesv1.ResolveRequest {
	out := proto.CloneOf(req)
	out.SheetSha256 = nil
	for _, c := range out.GetState().GetCombatants() {
		out.SheetSha256 = append(out.SheetSha256, sheets.Digest(c))
		if stripped {
			c.Sheet = nil
		}
	}
	return out
}

// reasonOf is the ErrorInfo of err (nil if none).
func reasonOf(t *testing.T, err error) *errdetails.ErrorInfo {
	t.Helper()
	for _, d := range status.Convert(err).Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info
		}
	}
	return nil
}

// Sheets sent once with their digests are kept: a request naming them by digest only gets
// the same events and state hash as one carrying them in full. A resolver that never saw
// them (cold) says which are missing, with a reason the encounter service recognises.
func TestSheetsByDigest(t *testing.T) {
	ctx := authtest.As("encounter-service", identity.ScopeResolve)
	full := lossAttackRequest(t, 4)
	full.OmitStateSha256 = false
	warm := resolver.New(systems.Registry())
	c := serveResolver(t, warm)
	plain, err := c.Resolve(ctx, full)
	require.NoError(t, err)

	sent, err := c.Resolve(ctx, withDigests(full, false))
	require.NoError(t, err)
	require.True(t, proto.Equal(plain, sent))
	n, size := warm.CachedSheets()
	require.Equal(t, 4, n)
	require.Greater(t, size, 4*200)

	byDigest := withDigests(full, true)
	require.Less(t, proto.Size(byDigest), proto.Size(full)*2/3, "the request without its sheets is small")
	for range 3 {
		got, err := c.Resolve(ctx, byDigest)
		require.NoError(t, err)
		require.True(t, proto.Equal(plain, got), "same events and hash by digest")
	}

	cold := serveResolver(t, resolver.New(systems.Registry()))
	_, err = cold.Resolve(ctx, byDigest)
	require.Equal(t, codes.FailedPrecondition, status.Code(err), "%v", err)
	info := reasonOf(t, err)
	require.NotNil(t, info)
	require.Equal(t, sheets.ReasonNotCached, info.GetReason())
	require.Equal(t, sheets.RulesDomain, info.GetDomain())
	require.Equal(t, "c0,c1,c2,c3", info.GetMetadata()["combatants"])
	require.Contains(t, status.Convert(err).Message(), "holds no sheet for 4 combatants (c0, c1, c2, c3)")
	require.Equal(t, sheets.ReasonNotCached, sheets.Reason(err))

	// Partly: one combatant in full (kept), the others by digest (missing).
	mixed := withDigests(full, true)
	mixed.State.Combatants[2].Sheet = full.GetState().GetCombatants()[2].GetSheet()
	_, err = cold.Resolve(ctx, mixed)
	require.Equal(t, "c0,c1,c3", reasonOf(t, err).GetMetadata()["combatants"])
	got, err := cold.Resolve(ctx, withDigests(full, false))
	require.NoError(t, err, "sent in full, the cold resolver answers")
	require.True(t, proto.Equal(plain, got))
	got, err = cold.Resolve(ctx, byDigest)
	require.NoError(t, err, "and now knows them")
	require.True(t, proto.Equal(plain, got))
}

// A sheet is only ever found under the digest of its own content: one sent with another's
// digest is refused (InvalidArgument, SHEET_DIGEST_MISMATCH) and not kept under it.
func TestSheetDigestMustMatch(t *testing.T) {
	ctx := authtest.As("encounter-service", identity.ScopeResolve)
	full := lossAttackRequest(t, 4)
	srv := resolver.New(systems.Registry())
	c := serveResolver(t, srv)
	lying := withDigests(full, false)
	lying.SheetSha256[0], lying.SheetSha256[1] = lying.SheetSha256[1], lying.SheetSha256[0]
	_, err := c.Resolve(ctx, lying)
	require.Equal(t, codes.InvalidArgument, status.Code(err))
	require.Equal(t, sheets.ReasonDigestMismatch, sheets.Reason(err))
	require.Equal(t, "c0", reasonOf(t, err).GetMetadata()["combatant"])
	require.Contains(t, status.Convert(err).Message(), `sheet_sha256[0] is not the digest of the sheet of combatant "c0"`)

	// c0's sheet was not kept under c1's digest (nor c1's under c0's): asked by digest, both
	// are missing.
	_, err = c.Resolve(ctx, withDigests(full, true))
	require.Equal(t, codes.FailedPrecondition, status.Code(err))
	require.Contains(t, reasonOf(t, err).GetMetadata()["combatants"], "c0,c1")

	// A digest of a sheet never sent, and a digest of the wrong length.
	unknown := withDigests(full, true)
	unknown.SheetSha256[3] = make([]byte, 32)
	_, err = c.Resolve(ctx, unknown)
	require.Equal(t, codes.FailedPrecondition, status.Code(err))
	short := withDigests(full, true)
	short.SheetSha256[3] = []byte("short")
	_, err = c.Resolve(ctx, short)
	require.Equal(t, codes.InvalidArgument, status.Code(err))
	require.Contains(t, status.Convert(err).Message(), "sheet_sha256[3]")
	fewer := withDigests(full, true)
	fewer.SheetSha256 = fewer.SheetSha256[:3]
	_, err = c.Resolve(ctx, fewer)
	require.Equal(t, codes.InvalidArgument, status.Code(err))
	require.Contains(t, status.Convert(err).Message(), "3 entries for the state's 4 combatants")

	// Only the encounter service's scope reaches the cache.
	_, err = c.Resolve(authtest.As("mallory"), withDigests(full, false))
	require.Equal(t, codes.PermissionDenied, status.Code(err))
	n, _ := srv.CachedSheets()
	require.Zero(t, n)
}

// The sheets kept are bounded in bytes, least recently used out first; an evicted sheet is
// asked for again (FailedPrecondition), one still kept is used.
func TestSheetCacheIsBounded(t *testing.T) {
	ctx := authtest.As("encounter-service", identity.ScopeResolve)
	full := lossAttackRequest(t, 4)
	probe := resolver.New(systems.Registry())
	_, err := serveResolver(t, probe).Resolve(ctx, withDigests(full, false))
	require.NoError(t, err)
	n, four := probe.CachedSheets()
	require.Equal(t, 4, n)
	one := four / 4 // what one sheet costs the cache (they are about the same size)
	bound := 10 * one
	srv := resolver.New(systems.Registry(), resolver.WithSheetCache(bound))
	c := serveResolver(t, srv)
	var reqs []*rulesv1.ResolveRequest
	for i := range 8 { // 8 fights of 4 distinct sheets each: 32 sheets
		req := proto.CloneOf(full)
		for _, cb := range req.GetState().GetCombatants() {
			cb.GetLoss().Traits["Esprit"] = int32(i)
		}
		_, err := c.Resolve(ctx, withDigests(req, false))
		require.NoError(t, err)
		n, size := srv.CachedSheets()
		require.LessOrEqual(t, size, bound)
		require.LessOrEqual(t, n, 10)
		reqs = append(reqs, req)
	}
	n, _ = srv.CachedSheets()
	require.GreaterOrEqual(t, n, 8, "filled up to about its bound")
	_, err = c.Resolve(ctx, withDigests(reqs[0], true))
	require.Equal(t, codes.FailedPrecondition, status.Code(err), "the first fight's sheets went first")
	_, err = c.Resolve(ctx, withDigests(reqs[7], true))
	require.NoError(t, err, "the last fight's are kept")

	// A sheet larger than the whole bound is used, not kept.
	tiny := resolver.New(systems.Registry(), resolver.WithSheetCache(one/2))
	_, err = serveResolver(t, tiny).Resolve(ctx, withDigests(full, false))
	require.NoError(t, err)
	n, _ = tiny.CachedSheets()
	require.Zero(t, n)
}
