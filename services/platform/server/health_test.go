package server_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

// syncBuffer is a log the server writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	return lis
}

func dialPlain(t *testing.T, addr string) *grpc.ClientConn {
	t.Helper()
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	return cc
}

func check(t *testing.T, cc *grpc.ClientConn, service string) healthpb.HealthCheckResponse_ServingStatus {
	t.Helper()
	r, err := healthpb.NewHealthClient(cc).Check(context.Background(), &healthpb.HealthCheckRequest{Service: service}, grpc.WaitForReady(true))
	require.NoError(t, err)
	return r.GetStatus()
}

// blockDesc is a service whose only method waits for the test (blocked).
var blockDesc = grpc.ServiceDesc{
	ServiceName: "test.Block",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Wait",
		Handler: func(_ any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
			in := &emptypb.Empty{}
			if err := dec(in); err != nil {
				return nil, err
			}
			wait := func(context.Context, any) (any, error) {
				b := blocked.Load()
				close(b.in)
				<-b.release
				return &emptypb.Empty{}, nil
			}
			return interceptor(ctx, in, &grpc.UnaryServerInfo{FullMethod: "/test.Block/Wait"}, wait)
		},
	}},
}

type blockCall struct{ in, release chan struct{} }

var blocked atomic.Pointer[blockCall]

const (
	serving    = healthpb.HealthCheckResponse_SERVING
	notServing = healthpb.HealthCheckResponse_NOT_SERVING
)

// Each service follows its dependencies; the whole server ("") is NOT_SERVING as soon as one
// service is, so that a probe naming no service fails honestly. The plaintext health port
// answers the same, without a token, and serves nothing else.
func TestHealthFollowsReadiness(t *testing.T) {
	var logs syncBuffer
	// Calls need a token on the main port (health is exempt there too).
	srv := server.New(slog.New(slog.NewTextHandler(&logs, nil)), authtest.ServerOptions()...)
	srv.GRPC.RegisterService(&panicDesc, struct{}{})
	srv.GRPC.RegisterService(&blockDesc, struct{}{})
	nats := srv.Health.Readiness("test.Panic", "nats")
	resolver := srv.Health.Readiness("test.Panic", "resolver")
	require.Equal(t, notServing, srv.Health.Status(""), "not serving before Serve")

	main, healthPort := listen(t), listen(t)
	srv.ServeHealthOn(healthPort)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, main, 5*time.Second) }()
	mc, hc := dialPlain(t, main.Addr().String()), dialPlain(t, healthPort.Addr().String())

	both := func(service string) []healthpb.HealthCheckResponse_ServingStatus {
		return []healthpb.HealthCheckResponse_ServingStatus{check(t, mc, service), check(t, hc, service)}
	}
	require.Equal(t, []healthpb.HealthCheckResponse_ServingStatus{serving, serving}, both(""))
	require.Equal(t, []healthpb.HealthCheckResponse_ServingStatus{serving, serving}, both("test.Panic"))

	// A probe watching the whole server on the health port sees every change.
	watch, err := healthpb.NewHealthClient(hc).Watch(context.Background(), &healthpb.HealthCheckRequest{})
	require.NoError(t, err)
	next := func() healthpb.HealthCheckResponse_ServingStatus {
		m, err := watch.Recv()
		require.NoError(t, err)
		return m.GetStatus()
	}
	require.Equal(t, serving, next())

	nats.NotReady("disconnected from nats://127.0.0.1:4222")
	require.Equal(t, notServing, next())
	require.Equal(t, []healthpb.HealthCheckResponse_ServingStatus{notServing, notServing}, both(""))
	require.Equal(t, []healthpb.HealthCheckResponse_ServingStatus{notServing, notServing}, both("test.Panic"))
	require.Equal(t, []healthpb.HealthCheckResponse_ServingStatus{serving, serving}, both(server.LivenessService),
		"alive while a dependency is down: a restart would not bring it back")
	require.Equal(t, serving, check(t, mc, "grpc.health.v1.Health"), "another service is not concerned")
	require.Contains(t, logs.String(), `msg="health: not serving" service=test.Panic why="nats: disconnected from nats://127.0.0.1:4222"`)

	// Two dependencies down: serving again only when both are back.
	resolver.NotReady("no resolver reachable")
	nats.Ready()
	require.Equal(t, notServing, check(t, hc, ""))
	resolver.Ready()
	require.Equal(t, serving, next())
	require.Equal(t, []healthpb.HealthCheckResponse_ServingStatus{serving, serving}, both(""))
	require.Contains(t, logs.String(), `msg="health: serving again" service=test.Panic`)

	// A service's own word, as grpc's health.Server takes it, counts the same.
	srv.Health.SetServingStatus("test.Panic", notServing)
	require.Equal(t, notServing, next())
	srv.Health.SetServingStatus("test.Panic", serving)
	require.Equal(t, serving, next())

	// The health port serves health alone: no other service, no reflection.
	err = hc.Invoke(context.Background(), "/test.Panic/Boom", &emptypb.Empty{}, &emptypb.Empty{})
	require.Equal(t, codes.Unimplemented, status.Code(err))
	refl, err := reflectionpb.NewServerReflectionClient(hc).ServerReflectionInfo(context.Background())
	require.NoError(t, err)
	_, err = refl.Recv()
	require.Equal(t, codes.Unimplemented, status.Code(err))
	// The main port still wants a token for everything but health.
	err = mc.Invoke(context.Background(), "/test.Panic/Boom", &emptypb.Empty{}, &emptypb.Empty{})
	require.Equal(t, codes.Unauthenticated, status.Code(err))

	// Shutdown: while a call under way drains, the health port says NOT_SERVING; it closes
	// last.
	inCall := make(chan struct{})
	release := make(chan struct{})
	called := make(chan error, 1)
	blocked.Store(&blockCall{in: inCall, release: release})
	go func() {
		called <- mc.Invoke(authtest.As("gm"), "/test.Block/Wait", &emptypb.Empty{}, &emptypb.Empty{})
	}()
	<-inCall
	cancel()
	require.Equal(t, notServing, next())
	require.Equal(t, notServing, check(t, hc, ""))
	require.Equal(t, notServing, check(t, hc, "test.Panic"))
	require.Equal(t, serving, check(t, hc, server.LivenessService), "alive while it drains")
	close(release)
	require.NoError(t, <-called, "the call under way finished")
	require.NoError(t, <-served)
	_, err = healthpb.NewHealthClient(hc).Check(context.Background(), &healthpb.HealthCheckRequest{})
	require.Equal(t, codes.Unavailable, status.Code(err), "the health port is closed")
	// A dependency coming back after the stop changes nothing.
	nats.Ready()
	require.Equal(t, notServing, srv.Health.Status(""))
}
