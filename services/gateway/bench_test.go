package gateway_test

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/gateway"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// BenchmarkGetEncounter: one authenticated unary call of the fake service on loopback, over
// gRPC and through the gateway (Connect JSON and binary, gRPC-web): the gateway's cost per
// call, the handler's own work being nil.
func BenchmarkGetEncounter(b *testing.B) {
	srv := server.New(telemetry.NewLogger("text", "error"), authtest.ServerOptions()...)
	encounterv1.RegisterEncounterServiceServer(srv.GRPC, fakeEncounters{})
	h, err := gateway.Handler(srv.GRPC, gateway.Config{})
	require.NoError(b, err)
	glis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	hlis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = srv.Serve(ctx, glis, time.Second) }()
	go func() { _ = gateway.Serve(ctx, hlis, h, nil, time.Second) }()
	tok := authtest.Default().Token("gm")
	req := &encounterv1.GetEncounterRequest{EncounterId: "enc-1"}

	b.Run("grpc", func(b *testing.B) {
		cc, err := grpc.NewClient(glis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
		require.NoError(b, err)
		defer cc.Close()
		c := encounterv1.NewEncounterServiceClient(cc)
		octx := authtest.WithToken(context.Background(), tok)
		for b.Loop() {
			if _, err := c.GetEncounter(octx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	for _, tc := range []struct {
		name string
		opts []connect.ClientOption
	}{
		{"connect+json", []connect.ClientOption{connect.WithProtoJSON()}},
		{"connect+proto", nil},
		{"grpc-web", []connect.ClientOption{connect.WithGRPCWeb()}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c := connect.NewClient[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](client,
				"http://"+hlis.Addr().String()+svc+"GetEncounter", append(tc.opts, bearer("gm"))...)
			for b.Loop() {
				if _, err := c.CallUnary(context.Background(), connect.NewRequest(req)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
