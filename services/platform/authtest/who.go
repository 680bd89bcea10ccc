package authtest

// A service that tells each caller who the server thinks it is, for the tests of what stands
// before the handlers (authentication, rate limits, bound tokens).

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// WhoDesc is a test service that tells the caller who the server thinks it is: a unary method and
// a server stream.
var WhoDesc = grpc.ServiceDesc{
	ServiceName: "test.Who",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Am",
		Handler: func(_ any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
			in := &emptypb.Empty{}
			if err := dec(in); err != nil {
				return nil, err
			}
			h := func(ctx context.Context, _ any) (any, error) { return wrapperspb.String(describe(ctx)), nil }
			if interceptor == nil {
				return h(ctx, in)
			}
			return interceptor(ctx, in, &grpc.UnaryServerInfo{FullMethod: "/test.Who/Am"}, h)
		},
	}},
	Streams: []grpc.StreamDesc{{
		StreamName:    "Watch",
		ServerStreams: true,
		Handler: func(_ any, stream grpc.ServerStream) error {
			if err := stream.RecvMsg(&emptypb.Empty{}); err != nil {
				return err
			}
			return stream.SendMsg(wrapperspb.String(describe(stream.Context())))
		},
	}},
}

// describe is the caller of ctx as the interceptors left it.
func describe(ctx context.Context) string {
	id, ok := identity.From(ctx)
	if !ok {
		return "nobody"
	}
	s := id.Principal() + " scopes=" + strings.Join(id.Scopes, ",")
	if id.Client != "" {
		s += " client=" + id.Client
	}
	return s
}

// ServeWho serves test.Who over a loopback listener, with the given server options.
func ServeWho(t testing.TB, opts ...grpc.ServerOption) *grpc.ClientConn {
	t.Helper()
	srv := server.New(telemetry.NewLogger("text", "error"), opts...)
	srv.GRPC.RegisterService(&WhoDesc, struct{}{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { cc.Close() })
	return cc
}

// Am calls test.Who/Am: who the server thinks the caller of ctx is.
func Am(ctx context.Context, cc *grpc.ClientConn) (string, error) {
	out := &wrapperspb.StringValue{}
	err := cc.Invoke(ctx, "/test.Who/Am", &emptypb.Empty{}, out)
	return out.GetValue(), err
}

// Watch is Am over test.Who/Watch, a server stream.
func Watch(ctx context.Context, cc *grpc.ClientConn) (string, error) {
	st, err := cc.NewStream(ctx, &WhoDesc.Streams[0], "/test.Who/Watch")
	if err != nil {
		return "", err
	}
	if err := st.SendMsg(&emptypb.Empty{}); err != nil {
		return "", err
	}
	if err := st.CloseSend(); err != nil {
		return "", err
	}
	out := &wrapperspb.StringValue{}
	err = st.RecvMsg(out)
	return out.GetValue(), err
}
