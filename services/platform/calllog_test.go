package platform_test

import (
	"context"
	"log/slog"
	"maps"
	"net"
	"slices"
	"strconv"
	"testing"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/authtest"
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
			srv := platform.NewServer(slog.New(logs), authtest.ServerOptions()...)
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
	srv := platform.NewServer(slog.New(logs), authtest.ServerOptions()...)
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
	if took < platform.CallLogEvery { // all 41 within one interval (a slow machine asserts less)
		require.Len(t, lines, 1, "within one interval, one line")
	}
}
