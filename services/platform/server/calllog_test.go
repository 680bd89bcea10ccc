package server_test

import (
	"context"
	"log/slog"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// hotEncDesc is encDesc under the name of a hot method, EncounterService.GetEncounter.
var hotEncDesc = func() grpc.ServiceDesc {
	d := encDesc
	d.ServiceName = "fray.encounter.v1.EncounterService"
	m := d.Methods[0]
	inner := m.Handler
	m.MethodName = "GetEncounter"
	m.Handler = func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
		return inner(srv, ctx, dec, func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
			return interceptor(ctx, req, &grpc.UnaryServerInfo{FullMethod: encounterv1.EncounterService_GetEncounter_FullMethodName}, h)
		})
	}
	d.Methods = []grpc.MethodDesc{m}
	return d
}()

// TestHotCallsAreLoggedOnlyWhenTheyFailAtInfo: at INFO a hot call's success writes no line (the
// logging interceptor is skipped); its errors write the line any call writes, at the same level
// and with the same fields; at DEBUG every hot call is logged, its success at DEBUG.
func TestHotCallsAreLoggedOnlyWhenTheyFailAtInfo(t *testing.T) {
	for _, tc := range []struct {
		name     string
		infoOnly bool
	}{{"info", true}, {"debug", false}} {
		t.Run(tc.name, func(t *testing.T) {
			logs := &captured{infoOnly: tc.infoOnly}
			srv := server.New(slog.New(logs), authtest.ServerOptions()...)
			srv.GRPC.RegisterService(&encDesc, struct{}{})
			hot := hotEncDesc
			srv.GRPC.RegisterService(&hot, struct{}{})
			lis, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
			t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
			cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
			require.NoError(t, err)
			defer cc.Close()
			get := func(method, id string) error {
				return cc.Invoke(authtest.As("david"), method, &encounterv1.GetEncounterRequest{EncounterId: id}, &encounterv1.GetEncounterResponse{})
			}
			hotGet := encounterv1.EncounterService_GetEncounter_FullMethodName

			require.NoError(t, get(hotGet, "ok"))
			require.Equal(t, codes.NotFound, status.Code(get(hotGet, "nope")))
			require.Equal(t, codes.Internal, status.Code(get(hotGet, "fail")))
			require.Equal(t, codes.NotFound, status.Code(get("/test.Enc/Get", "nope")))
			_, err = healthpb.NewHealthClient(cc).Check(authtest.As("david"), &healthpb.HealthCheckRequest{})
			require.NoError(t, err)

			lines, checks := logs.finished("GetEncounter"), logs.finished("Check")
			if tc.infoOnly {
				require.Len(t, lines, 2, "no line for the success")
				require.Empty(t, checks)
			} else {
				require.Len(t, lines, 3)
				ok := lines[0]
				require.Equal(t, "DEBUG", ok["level"])
				require.Equal(t, "OK", ok["grpc.code"])
				require.Equal(t, "dev/david", ok["principal"])
				require.Equal(t, "ok", ok["encounter"])
				require.Len(t, checks, 1)
				require.Equal(t, "DEBUG", checks[0]["level"])
				lines = lines[1:]
			}
			notFound, internal := lines[0], lines[1]
			require.Equal(t, "INFO", notFound["level"])
			require.Equal(t, "NotFound", notFound["grpc.code"])
			require.Equal(t, "dev/david", notFound["principal"])
			require.Equal(t, "dev", notFound["tenant"])
			require.Equal(t, "nope", notFound["encounter"])
			require.Contains(t, notFound["grpc.error"], "there is no encounter")
			require.Equal(t, "ERROR", internal["level"])
			require.Equal(t, "Internal", internal["grpc.code"])
			require.Equal(t, "fail", internal["encounter"])
			// The same fields as the line of a call that is not hot.
			cold := logs.finished("Get")
			require.Len(t, cold, 1)
			require.Equal(t, slices.Sorted(maps.Keys(cold[0])), slices.Sorted(maps.Keys(notFound)))
			_, err = time.Parse(time.RFC3339, notFound["grpc.start_time"])
			require.NoError(t, err)
		})
	}
}

// TestCallLogLevelsFollowWhoseFaultItIs: a line at ERROR is the server's fault and unexpected
// (Internal, DataLoss, Unknown); a dependency out of reach or too slow is WARN (Unavailable,
// DeadlineExceeded); the client's errors are INFO (Unimplemented among them: a method this
// server does not have). A run of Unavailable calls writes its first line at once, then one
// line per CallLogEvery at most, each saying how many calls it stands for.
func TestCallLogLevelsFollowWhoseFaultItIs(t *testing.T) {
	logs := &captured{}
	srv := server.New(slog.New(logs), authtest.ServerOptions()...)
	srv.GRPC.RegisterService(&encDesc, struct{}{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	get := func(code codes.Code) {
		err := cc.Invoke(authtest.As("david"), "/test.Enc/Get", &encounterv1.GetEncounterRequest{EncounterId: "code-" + code.String()}, &encounterv1.GetEncounterResponse{})
		require.Equal(t, code, status.Code(err))
	}
	want := map[codes.Code]string{
		codes.Internal: "ERROR", codes.DataLoss: "ERROR", codes.Unknown: "ERROR",
		codes.Unavailable: "WARN", codes.DeadlineExceeded: "WARN",
		codes.InvalidArgument: "INFO", codes.NotFound: "INFO", codes.PermissionDenied: "INFO",
		codes.FailedPrecondition: "INFO", codes.ResourceExhausted: "INFO", codes.Unimplemented: "INFO",
		codes.Aborted: "INFO", codes.Canceled: "INFO",
	}
	// The first Unavailable call is among these: the outage's interval starts there.
	start := time.Now()
	for code := range want {
		get(code)
	}
	got := map[string]string{}
	for _, l := range logs.finished("Get") {
		got[l["grpc.code"]] = l["level"]
	}
	for code, level := range want {
		require.Equalf(t, level, got[code.String()], "the line of a call answered %s", code)
	}

	// An outage: 40 more calls fail Unavailable.
	for range 40 {
		get(codes.Unavailable)
	}
	took := time.Since(start)
	var lines []map[string]string
	for _, l := range logs.finished("Get") {
		if l["grpc.code"] == "Unavailable" {
			lines = append(lines, l)
		}
	}
	t.Logf("41 Unavailable calls in %v: %d lines", took, len(lines))
	require.Equal(t, "0", lines[0]["unlogged"], "the outage's first failure is written at once")
	total := 0
	for _, l := range lines {
		n, err := strconv.Atoi(l["unlogged"])
		require.NoError(t, err)
		total += 1 + n
	}
	require.LessOrEqual(t, total, 41, "each call counted once")
	if took < server.CallLogEvery { // all 41 within one interval (a slow machine asserts less)
		require.Len(t, lines, 1, "within one interval, one line")
	}
}

// captured is a slog handler keeping every record (at INFO and above if infoOnly).
type captured struct {
	mu       sync.Mutex
	records  []slog.Record
	infoOnly bool
}

func (c *captured) Enabled(_ context.Context, l slog.Level) bool {
	return !c.infoOnly || l >= slog.LevelInfo
}
func (c *captured) Handle(_ context.Context, r slog.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.records = append(c.records, r.Clone())
	return nil
}
func (c *captured) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c *captured) WithGroup(string) slog.Handler      { return c }

// finished returns the "finished call" lines of method, each as its level and attributes.
func (c *captured) finished(method string) []map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []map[string]string
	for _, r := range c.records {
		attrs := map[string]string{"level": r.Level.String()}
		r.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value.String(); return true })
		if r.Message == "finished call" && attrs["grpc.method"] == method {
			out = append(out, attrs)
		}
	}
	return out
}

// encDesc is a service whose Get answers NotFound quoting the encounter id, or Internal for
// the id "fail", OK for "ok", or the code C for "code-C" (code-Unavailable).
var encDesc = grpc.ServiceDesc{
	ServiceName: "test.Enc",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Get",
		Handler: func(_ any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
			in := &encounterv1.GetEncounterRequest{}
			if err := dec(in); err != nil {
				return nil, err
			}
			h := func(ctx context.Context, req any) (any, error) {
				switch id := req.(*encounterv1.GetEncounterRequest).GetEncounterId(); id {
				case "ok":
					return &encounterv1.GetEncounterResponse{}, nil
				case "fail":
					return nil, status.Error(codes.Internal, "the disk is on fire")
				default:
					if name, ok := strings.CutPrefix(id, "code-"); ok {
						for c := codes.OK + 1; c <= codes.Unauthenticated; c++ {
							if c.String() == name {
								return nil, status.Error(c, "answered "+name)
							}
						}
					}
					return nil, status.Errorf(codes.NotFound, "there is no encounter %q", id)
				}
			}
			return interceptor(ctx, in, &grpc.UnaryServerInfo{FullMethod: "/test.Enc/Get"}, h)
		},
	}},
}

func TestRequestLogsNameTheCallerAndAreSafe(t *testing.T) {
	logs := &captured{}
	srv := server.New(slog.New(logs), authtest.ServerOptions()...)
	srv.GRPC.RegisterService(&encDesc, struct{}{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	get := func(ctx context.Context, id string) error {
		return cc.Invoke(ctx, "/test.Enc/Get", &encounterv1.GetEncounterRequest{EncounterId: id}, &encounterv1.GetEncounterResponse{})
	}

	hostile := "\x1b[2J\r\nlevel=ERROR msg=forged\u202e" + strings.Repeat("*", 4000)
	require.NoError(t, get(authtest.As("david"), "ok"))
	// Refused by the validation of ids, or not found: a client's error either way.
	require.Contains(t, []codes.Code{codes.NotFound, codes.InvalidArgument}, status.Code(get(authtest.As("mallory"), hostile)))
	require.Equal(t, codes.Internal, status.Code(get(authtest.As("david"), "fail")))
	require.Equal(t, codes.Unauthenticated, status.Code(get(context.Background(), "ok")))

	lines := logs.finished("Get")
	require.Len(t, lines, 4)
	ok, notFound, internal, unauth := lines[0], lines[1], lines[2], lines[3]
	require.Equal(t, "INFO", ok["level"])
	require.Equal(t, "dev/david", ok["principal"])
	require.Equal(t, "dev", ok["tenant"])
	require.Equal(t, "ok", ok["encounter"])

	// A client's error is INFO; its values are cut and escaped.
	require.Equal(t, "INFO", notFound["level"])
	require.Equal(t, "dev/mallory", notFound["principal"])
	require.Equal(t, `\x1b[2J\x0d\x0alevel=ERROR msg=forged\u202e`+strings.Repeat("*", 64-29)+"…", notFound["encounter"])
	require.LessOrEqual(t, len(notFound["grpc.error"]), server.MaxLoggedValue+8)
	for k, v := range notFound {
		require.NotContains(t, v, "\x1b", k)
		require.NotContains(t, v, "\n", k)
		require.NotContains(t, v, "\u202e", k)
	}

	// The server's failure is ERROR.
	require.Equal(t, "ERROR", internal["level"])
	require.Equal(t, "fail", internal["encounter"])

	// Without a token: INFO, no principal, the encounter still named.
	require.Equal(t, "INFO", unauth["level"])
	require.Empty(t, unauth["principal"])
	require.Equal(t, "ok", unauth["encounter"])
}
