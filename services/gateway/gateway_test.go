package gateway_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"connectrpc.com/connect"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/gateway"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// fakeEncounters answers GetEncounter with the caller's principal as the encounter's name,
// and streams three events on WatchEncounter; StartEncounter is the GM's alone.
type fakeEncounters struct {
	encounterv1.UnimplementedEncounterServiceServer
}

func (fakeEncounters) GetEncounter(ctx context.Context, r *encounterv1.GetEncounterRequest) (*encounterv1.GetEncounterResponse, error) {
	return &encounterv1.GetEncounterResponse{State: &encounterv1.EncounterState{
		EncounterId: r.GetEncounterId(), Name: identity.Principal(ctx),
	}}, nil
}

func (fakeEncounters) StartEncounter(ctx context.Context, _ *encounterv1.StartEncounterRequest) (*encounterv1.StartEncounterResponse, error) {
	if identity.Principal(ctx) != "dev/gm" {
		return nil, status.Error(codes.PermissionDenied, "only the GM starts the encounter")
	}
	return &encounterv1.StartEncounterResponse{}, nil
}

func (fakeEncounters) WatchEncounter(r *encounterv1.WatchEncounterRequest, s encounterv1.EncounterService_WatchEncounterServer) error {
	for seq := uint64(1); seq <= 3; seq++ {
		if err := s.Send(&encounterv1.WatchEncounterResponse{Event: &encounterv1.Event{Sequence: seq}, Narration: "line " + string(rune('0'+seq))}); err != nil {
			return err
		}
	}
	<-s.Context().Done()
	return status.FromContextError(s.Context().Err()).Err()
}

// serve runs a platform server with the test authority's authentication and the fake service,
// and the gateway over it on a loopback HTTP listener; it returns the gateway's base URL.
func serve(t *testing.T, cfg gateway.Config) string {
	t.Helper()
	srv := server.New(telemetry.NewLogger("text", "error"), authtest.ServerOptions()...)
	encounterv1.RegisterEncounterServiceServer(srv.GRPC, fakeEncounters{})
	h, err := gateway.Handler(srv.GRPC, cfg)
	require.NoError(t, err)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- gateway.Serve(ctx, lis, h, nil, 5*time.Second) }()
	t.Cleanup(func() {
		cancel()
		srv.Shutdown(time.Second)
		require.NoError(t, <-done)
	})
	return "http://" + lis.Addr().String()
}

// bearer adds a token of the test authority for subject to every request.
func bearer(subject string) connect.ClientOption {
	tok := authtest.Default().Token(subject)
	return connect.WithInterceptors(connect.UnaryInterceptorFunc(func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, r connect.AnyRequest) (connect.AnyResponse, error) {
			r.Header().Set("Authorization", "Bearer "+tok)
			return next(ctx, r)
		}
	}), streamBearer(tok))
}

type streamBearer string

func (streamBearer) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc { return next }

func (t streamBearer) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return func(ctx context.Context, spec connect.Spec) connect.StreamingClientConn {
		c := next(ctx, spec)
		c.RequestHeader().Set("Authorization", "Bearer "+string(t))
		return c
	}
}

func (streamBearer) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return next
}

const svc = "/fray.encounter.v1.EncounterService/"

// Over the Connect protocol (JSON and binary), gRPC-web, and the gRPC server's own
// authentication: a call with a token is the token's caller; without one, Unauthenticated;
// what the handler refuses, refused the same.
func TestConnectAndGRPCWebReachTheGRPCServerWithItsAuthentication(t *testing.T) {
	base := serve(t, gateway.Config{})
	for _, tc := range []struct {
		name string
		opts []connect.ClientOption
	}{
		{"connect+json", []connect.ClientOption{connect.WithProtoJSON()}},
		{"connect+proto", nil},
		{"grpc-web", []connect.ClientOption{connect.WithGRPCWeb()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			get := func(opts ...connect.ClientOption) (*encounterv1.GetEncounterResponse, error) {
				c := connect.NewClient[encounterv1.GetEncounterRequest, encounterv1.GetEncounterResponse](
					http.DefaultClient, base+svc+"GetEncounter", append(tc.opts, opts...)...)
				res, err := c.CallUnary(context.Background(), connect.NewRequest(&encounterv1.GetEncounterRequest{EncounterId: "enc-1"}))
				if err != nil {
					return nil, err
				}
				return res.Msg, nil
			}
			res, err := get(bearer("diego"))
			require.NoError(t, err)
			require.Equal(t, "enc-1", res.GetState().GetEncounterId())
			require.Equal(t, "dev/diego", res.GetState().GetName(), "the handler sees the token's caller")

			_, err = get()
			require.Equal(t, connect.CodeUnauthenticated, connect.CodeOf(err), "%v", err)

			start := connect.NewClient[encounterv1.StartEncounterRequest, encounterv1.StartEncounterResponse](
				http.DefaultClient, base+svc+"StartEncounter", append(tc.opts, bearer("diego"))...)
			_, err = start.CallUnary(context.Background(), connect.NewRequest(&encounterv1.StartEncounterRequest{EncounterId: "enc-1"}))
			require.Equal(t, connect.CodePermissionDenied, connect.CodeOf(err), "%v", err)
			require.Contains(t, err.Error(), "only the GM")

			// Server streaming: the events arrive one by one, as they are sent.
			watch := connect.NewClient[encounterv1.WatchEncounterRequest, encounterv1.WatchEncounterResponse](
				http.DefaultClient, base+svc+"WatchEncounter", append(tc.opts, bearer("diego"))...)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stream, err := watch.CallServerStream(ctx, connect.NewRequest(&encounterv1.WatchEncounterRequest{EncounterId: "enc-1"}))
			require.NoError(t, err)
			for want := uint64(1); want <= 3; want++ {
				require.True(t, stream.Receive(), "event %d: %v", want, stream.Err())
				require.Equal(t, want, stream.Msg().GetEvent().GetSequence())
			}
			cancel()
			stream.Close()
		})
	}
}

// A browser's fetch: a plain POST of the Connect protocol's JSON, answered in JSON; the
// refusal's body names the code.
func TestPlainConnectJSONPost(t *testing.T) {
	base := serve(t, gateway.Config{})
	post := func(token string) (*http.Response, string) {
		req, err := http.NewRequest(http.MethodPost, base+svc+"GetEncounter", strings.NewReader(`{"encounterId":"enc-7"}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Connect-Protocol-Version", "1")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res, string(b)
	}
	res, body := post(authtest.Default().Token("gm"))
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	require.Contains(t, body, `"encounterId":"enc-7"`)
	require.Contains(t, body, `"name":"dev/gm"`)

	res, body = post("")
	require.Equal(t, http.StatusUnauthorized, res.StatusCode, body)
	require.Contains(t, body, `"code":"unauthenticated"`)

	res, body = post("not-a-token")
	require.Equal(t, http.StatusUnauthorized, res.StatusCode, body)
}

// Reflection, which answers without a token, is not served to browsers; health is.
func TestNoReflectionForBrowsers(t *testing.T) {
	base := serve(t, gateway.Config{})
	res, err := http.Post(base+"/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	req, err := http.NewRequest(http.MethodPost, base+"/grpc.health.v1.Health/Check", strings.NewReader(`{}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Connect-Protocol-Version", "1")
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.Contains(t, string(b), "SERVING")
}

// CORS: no allowed origin by default (a page of another origin gets no CORS header, so its
// browser reads nothing); an allowed origin's preflight names the headers the protocols and
// the token need.
func TestCORS(t *testing.T) {
	preflight := func(base, origin string) *http.Response {
		req, err := http.NewRequest(http.MethodOptions, base+svc+"GetEncounter", nil)
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization,connect-protocol-version,content-type")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res
	}
	closed := serve(t, gateway.Config{})
	require.Empty(t, preflight(closed, "http://localhost:5173").Header.Get("Access-Control-Allow-Origin"))

	open := serve(t, gateway.Config{AllowedOrigins: []string{"http://localhost:5173"}})
	res := preflight(open, "http://localhost:5173")
	require.Equal(t, "http://localhost:5173", res.Header.Get("Access-Control-Allow-Origin"))
	allowed := strings.ToLower(res.Header.Get("Access-Control-Allow-Headers"))
	for _, h := range []string{"authorization", "content-type", "connect-protocol-version"} {
		require.Contains(t, allowed, h)
	}
	require.Empty(t, preflight(open, "https://evil.example").Header.Get("Access-Control-Allow-Origin"))

	_, err := gateway.Handler(nil, gateway.Config{AllowedOrigins: []string{"localhost:5173"}})
	require.ErrorContains(t, err, "scheme://host")
}

// The page: / is index.html, files as they are, no listing of a folder, no caching of the
// page, no sniffing; a POST to a file is refused.
func TestAssets(t *testing.T) {
	files := fstest.MapFS{
		"index.html":     {Data: []byte("<!doctype html><title>fray</title>")},
		"assets/app.js":  {Data: []byte("console.log(1)")},
		"assets/app.css": {Data: []byte("body{}")},
	}
	base := serve(t, gateway.Config{Assets: files})
	get := func(path string) (*http.Response, string) {
		res, err := http.Get(base + path)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res, string(b)
	}
	res, body := get("/")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, body, "<title>fray</title>")
	require.Equal(t, "no-cache", res.Header.Get("Cache-Control"))
	require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
	require.Equal(t, "no-referrer", res.Header.Get("Referrer-Policy"))
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "script-src 'self';")
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "connect-src 'self';")
	res, body = get("/assets/app.js")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "console.log(1)", body)
	require.Contains(t, res.Header.Get("Content-Type"), "javascript")
	res, _ = get("/assets/")
	require.Equal(t, http.StatusNotFound, res.StatusCode, "no listing")
	res, _ = get("/nothing.js")
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	post, err := http.Post(base+"/assets/app.js", "text/plain", strings.NewReader("x"))
	require.NoError(t, err)
	post.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, post.StatusCode)
}
