package server_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

// panicDesc is a service whose only method panics.
var panicDesc = grpc.ServiceDesc{
	ServiceName: "test.Panic",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Boom",
		Handler: func(_ any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
			in := &emptypb.Empty{}
			if err := dec(in); err != nil {
				return nil, err
			}
			boom := func(context.Context, any) (any, error) { panic("boom") }
			return interceptor(ctx, in, &grpc.UnaryServerInfo{FullMethod: "/test.Panic/Boom"}, boom)
		},
	}},
}

func TestServerHealthRecoveryAndGracefulShutdown(t *testing.T) {
	srv := server.New(telemetry.NewLogger("text", "error"))
	srv.GRPC.RegisterService(&panicDesc, struct{}{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, lis, 5*time.Second) }()

	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer cc.Close()
	health := healthpb.NewHealthClient(cc)
	watch, err := health.Watch(context.Background(), &healthpb.HealthCheckRequest{}, grpc.WaitForReady(true))
	require.NoError(t, err)
	first, err := watch.Recv()
	require.NoError(t, err)
	require.Equal(t, healthpb.HealthCheckResponse_SERVING, first.GetStatus())

	// A panic becomes Internal; the server stays up.
	err = cc.Invoke(context.Background(), "/test.Panic/Boom", &emptypb.Empty{}, &emptypb.Empty{})
	require.Equal(t, codes.Internal, status.Code(err))
	resp, err := health.Check(context.Background(), &healthpb.HealthCheckRequest{Service: "test.Panic"})
	require.NoError(t, err)
	require.Equal(t, healthpb.HealthCheckResponse_SERVING, resp.GetStatus())

	// Reflection lists the services, for grpcurl and friends.
	refl, err := reflectionpb.NewServerReflectionClient(cc).ServerReflectionInfo(context.Background())
	require.NoError(t, err)
	require.NoError(t, refl.Send(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{ListServices: "*"}}))
	listed, err := refl.Recv()
	require.NoError(t, err)
	var names []string
	for _, s := range listed.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	require.Contains(t, names, "test.Panic")
	require.Contains(t, names, "grpc.health.v1.Health")
	require.NoError(t, refl.CloseSend())

	// Shutdown: the open stream hears NOT_SERVING and is cancelled; Serve returns.
	cancel()
	var last healthpb.HealthCheckResponse_ServingStatus
	for {
		m, err := watch.Recv()
		if err != nil {
			break
		}
		last = m.GetStatus()
	}
	require.Equal(t, healthpb.HealthCheckResponse_NOT_SERVING, last)
	require.NoError(t, <-served)
}

func TestStatusMapsRuleErrors(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code codes.Code
	}{
		{engine.Invalid("LOS-010", "six Exploits"), codes.InvalidArgument},
		{engine.Refused("LOS-035", "Canahan has 1 PA left"), codes.FailedPrecondition},
		{engine.NotFound("no ghost"), codes.NotFound},
		{engine.Forbidden("not yours"), codes.PermissionDenied},
		{engine.Unimplemented("later"), codes.Unimplemented},
		{context.DeadlineExceeded, codes.DeadlineExceeded},
		{status.Error(codes.Aborted, "raced"), codes.Aborted},
		{errors.New("disk on fire"), codes.Internal},
	} {
		got := refusal.Status(tc.err)
		require.Equal(t, tc.code, status.Code(got), tc.err.Error())
	}
	require.Contains(t, status.Convert(refusal.Status(engine.Refused("LOS-035", "Canahan has 1 PA left"))).Message(), "Canahan has 1 PA left (LOS-035)")
}
