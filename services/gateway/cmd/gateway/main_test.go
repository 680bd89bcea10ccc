package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	invitev1 "github.com/fray-rpg/fray/gen/fray/invite/v1"
	"github.com/fray-rpg/fray/services/gateway/gatewaytest"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// encounters answers GetEncounter with the caller as the encounter's name, and streams two
// events on WatchEncounter.
type encounters struct {
	encounterv1.UnimplementedEncounterServiceServer
}

func (encounters) GetEncounter(ctx context.Context, r *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	return &encounterv1.GetEncounterResponse{State: &encounterv1.EncounterState{EncounterId: r.GetEncounterId(), Name: identity.Principal(ctx)}}, nil
}

func (encounters) WatchEncounter(_ *encounterv1.WatchEncounterRequest, s encounterv1.EncounterService_WatchEncounterServer) error {
	for seq := uint64(1); seq <= 2; seq++ {
		if err := s.Send(&encounterv1.WatchEncounterResponse{Event: &encounterv1.Event{Sequence: seq}}); err != nil {
			return err
		}
	}
	<-s.Context().Done()
	return nil
}

// backend serves the encounter service, authenticated by the test authority, on loopback:
// over TLS when tls is set.
func backend(t *testing.T, tls *authtest.TLSFiles) string {
	t.Helper()
	opts := authtest.ServerOptions()
	if tls != nil {
		creds, err := credentials.NewServerTLSFromFile(tls.Cert, tls.Key)
		require.NoError(t, err)
		opts = append(opts, grpc.Creds(creds))
	}
	srv := server.New(telemetry.NewLogger("text", "error"), opts...)
	encounterv1.RegisterEncounterServiceServer(srv.GRPC, encounters{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, time.Second) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	return lis.Addr().String()
}

// gatewayFor runs the gateway with args until the test ends; it returns its base URL.
func gatewayFor(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		done <- run(ctx, append([]string{"--listen", "127.0.0.1:0", "--log-level", "error"}, args...), &stderr, func(a string) { ready <- a })
	}()
	select {
	case addr := <-ready:
		t.Cleanup(func() { cancel(); require.Equal(t, 0, <-done, stderr.String()) })
		return "http://" + addr
	case code := <-done:
		cancel()
		t.Fatalf("gateway exited %d: %s", code, stderr.String())
	}
	return ""
}

type bearer string

func (b bearer) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, r connect.AnyRequest) (connect.AnyResponse, error) {
		r.Header().Set("Authorization", "Bearer "+string(b))
		return next(ctx, r)
	}
}

func (b bearer) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return func(ctx context.Context, spec connect.Spec) connect.StreamingClientConn {
		c := next(ctx, spec)
		c.RequestHeader().Set("Authorization", "Bearer "+string(b))
		return c
	}
}

func (bearer) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return next
}

// Through the gateway, a browser's Connect calls reach the encounter service, over TLS checked
// against its CA or in plaintext on loopback; the service authenticates them: with a token,
// the token's caller; without, Unauthenticated. Streams stream. /healthz answers; the page is
// at /.
func TestTheGatewaySendsBrowsersCallsToTheEncounterService(t *testing.T) {
	files := authtest.NewTLS(t, t.TempDir())
	for _, tc := range []struct {
		name string
		args func(addr string) []string
		tls  *authtest.TLSFiles
	}{
		{"tls", func(addr string) []string {
			return []string{"--encounter-addr", addr, "--encounter-ca", files.CA, "--encounter-server-name", "localhost"}
		}, &files},
		{"h2c on loopback", func(addr string) []string { return []string{"--encounter-addr", addr} }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := gatewayFor(t, tc.args(backend(t, tc.tls))...)
			get := func(opts ...connect.ClientOption) (*encounterv1.GetEncounterResponse, error) {
				c := connect.NewClient[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](http.DefaultClient,
					base+"/fray.encounter.v1.EncounterService/GetEncounter", append(opts, connect.WithProtoJSON())...)
				res, err := c.CallUnary(context.Background(), connect.NewRequest(&encounterv1.GetEncounterRequest{EncounterId: "enc-1"}))
				if err != nil {
					return nil, err
				}
				return res.Msg, nil
			}
			res, err := get(connect.WithInterceptors(bearer(authtest.Default().Token("gm"))))
			require.NoError(t, err)
			require.Equal(t, "dev/gm", res.GetState().GetName())
			_, err = get()
			require.Equal(t, connect.CodeUnauthenticated, connect.CodeOf(err), "%v", err)

			watch := connect.NewClient[encounterv1.WatchEncounterRequest, encounterv1.WatchEncounterResponse](http.DefaultClient,
				base+"/fray.encounter.v1.EncounterService/WatchEncounter", connect.WithGRPCWeb(), connect.WithInterceptors(bearer(authtest.Default().Token("gm"))))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stream, err := watch.CallServerStream(ctx, connect.NewRequest(&encounterv1.WatchEncounterRequest{EncounterId: "enc-1"}))
			require.NoError(t, err)
			for want := uint64(1); want <= 2; want++ {
				require.True(t, stream.Receive(), "%v", stream.Err())
				require.Equal(t, want, stream.Msg().GetEvent().GetSequence())
			}
			cancel()
			stream.Close()

			// The page's invite form is told why a deployment makes none.
			inv := connect.NewClient[invitev1.CreateInviteRequest, invitev1.CreateInviteResponse](http.DefaultClient,
				base+"/fray.invite.v1.InviteService/CreateInvite", connect.WithProtoJSON())
			_, err = inv.CallUnary(context.Background(), connect.NewRequest(&invitev1.CreateInviteRequest{EncounterId: "enc-1"}))
			require.Equal(t, connect.CodeUnimplemented, connect.CodeOf(err), "%v", err)
			require.Contains(t, err.Error(), "makes no invites")

			for path, want := range map[string]string{"/healthz": "ok", "/": "<html"} {
				r, err := http.Get(base + path)
				require.NoError(t, err)
				b, _ := io.ReadAll(r.Body)
				r.Body.Close()
				require.Equal(t, http.StatusOK, r.StatusCode, path)
				require.Contains(t, string(b), want, path)
			}
		})
	}
}

// The encounter service down: Unavailable, said so.
func TestAnUnreachableEncounterServiceIsUnavailable(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := lis.Addr().String()
	lis.Close()
	base := gatewayFor(t, "--encounter-addr", addr)
	c := connect.NewClient[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](http.DefaultClient,
		base+"/fray.encounter.v1.EncounterService/GetEncounter", connect.WithProtoJSON())
	_, err = c.CallUnary(context.Background(), connect.NewRequest(&encounterv1.GetEncounterRequest{EncounterId: "enc-1"}))
	require.Equal(t, connect.CodeUnavailable, connect.CodeOf(err), "%v", err)
	require.Contains(t, err.Error(), "cannot be reached")
}

func TestBadSettingsExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"--encounter-addr", "encounter"},
		{"--grace", "0s"},
		{"--origins", "table.example"},
		{"--encounter-ca", "/nonexistent/ca.pem"},
		{"--log-format", "xml"},
		{"--allowed-hosts", "https://table.example"},
		{"--allowed-hosts", ","},
		{"--allowed-hosts", "*.example"},
	} {
		var stderr bytes.Buffer
		require.Equal(t, 2, run(context.Background(), args, &stderr, nil), "%v", args)
		require.True(t, strings.HasPrefix(stderr.String(), "gateway: "), stderr.String())
	}
	var out bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"--help"}, &out, nil))
	for _, v := range []string{"FRAY_GATEWAY_LISTEN", "FRAY_ENCOUNTER_ADDR", "FRAY_ENCOUNTER_CA", "FRAY_WEB_ORIGINS", "FRAY_GATEWAY_ALLOWED_HOSTS", "FRAY_GRACE"} {
		require.Contains(t, out.String(), v)
	}
}

// The gateway's port, reachable without a token, is a browser's: a compression bomb in any
// protocol is refused at 4 MiB inflated, having cost the process (the gateway and, here, the
// encounter service behind it) no more than a message at that limit; compressed calls are
// served; malformed JSON and calls without their message are InvalidArgument.
func TestTheGatewayRefusesBombsAndMalformedCalls(t *testing.T) {
	base := gatewayFor(t, "--encounter-addr", backend(t, nil))
	token := authtest.Default().Token("gm")
	t.Run("bombs", func(t *testing.T) { gatewaytest.RequireBombsRefused(t, base, token) })
	t.Run("compressed", func(t *testing.T) {
		gatewaytest.RequireCompressedCallsServed(t, func(t *testing.T, opts ...connect.ClientOption) error {
			c := connect.NewClient[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](http.DefaultClient,
				base+"/fray.encounter.v1.EncounterService/GetEncounter", append(opts, connect.WithInterceptors(bearer(token)))...)
			res, err := c.CallUnary(context.Background(), connect.NewRequest(&encounterv1.GetEncounterRequest{EncounterId: "enc-1"}))
			if err == nil {
				require.Equal(t, "dev/gm", res.Msg.GetState().GetName())
			}
			return err
		})
	})
	t.Run("malformed", func(t *testing.T) { gatewaytest.RequireMalformedRefused(t, base, token) })
}

// The gateway answers under its allowed hosts alone (the loopback names unless told others;
// --allowed-hosts or FRAY_GATEWAY_ALLOWED_HOSTS; * for any), but /healthz under any (the
// kubelet's probes name the pod's address).
func TestTheGatewayAnswersUnderItsHostsAlone(t *testing.T) {
	addr := backend(t, nil)
	base := gatewayFor(t, "--encounter-addr", addr)
	gatewaytest.RequireOnlyHosts(t, base, []string{"localhost", "127.0.0.1:8080", "[::1]"})

	base = gatewayFor(t, "--encounter-addr", addr, "--allowed-hosts", "table.example, 10.1.2.3")
	gatewaytest.RequireOnlyHosts(t, base, []string{"table.example", "Table.Example:443", "10.1.2.3:8080"})
	req, err := http.NewRequest(http.MethodGet, base+"/healthz", nil)
	require.NoError(t, err)
	req.Host = "10.9.8.7:8080"
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)

	t.Setenv("FRAY_GATEWAY_ALLOWED_HOSTS", "*")
	base = gatewayFor(t, "--encounter-addr", addr)
	a := gatewaytest.Send(t, base, "evil.example", "", gatewaytest.Call{Method: "GetEncounter", Body: []byte(`{"encounterId":"e"}`),
		Header: map[string]string{"Content-Type": "application/json", "Connect-Protocol-Version": "1"}})
	require.Equal(t, "unauthenticated", a.Code, "%+v", a)
}

// The deployment's placeholder of the allowed hosts (deploy/k8s/base's fray-gateway) fails
// closed: the gateway refuses to start on it, naming the setting.
func TestTheManifestsPlaceholderHostsStopTheGateway(t *testing.T) {
	k, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "deploy", "k8s", "base", "kustomization.yaml"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^\s*- FRAY_GATEWAY_ALLOWED_HOSTS=(.*)$`).FindStringSubmatch(string(k))
	require.NotNil(t, m, "fray-gateway names the gateway's hosts")
	require.Contains(t, m[1], "REPLACE-ME")
	t.Setenv("FRAY_GATEWAY_ALLOWED_HOSTS", m[1])
	var stderr bytes.Buffer
	require.Equal(t, 2, run(context.Background(), []string{"--listen", "127.0.0.1:0"}, &stderr, nil))
	require.Contains(t, stderr.String(), "FRAY_GATEWAY_ALLOWED_HOSTS")
	t.Log(stderr.String())
}
