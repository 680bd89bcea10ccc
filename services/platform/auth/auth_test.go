package auth_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
)

func withMD(kv ...string) context.Context {
	return metadata.AppendToOutgoingContext(context.Background(), kv...)
}

func TestAuthenticationOverGRPC(t *testing.T) {
	a := authtest.Default()
	cc := authtest.ServeWho(t, a.ServerOptions()...)
	claims := func(edit func(*auth.TokenClaims)) auth.TokenClaims {
		c := authtest.Claims("dev", "david")
		edit(&c)
		return c
	}
	bearer := func(tok string) context.Context { return authtest.WithToken(context.Background(), tok) }
	impostor := auth.Signer{ID: a.Ed.ID, Key: authtest.NewEd25519("x").Key} // the right kid, another key
	noExpT := jwt.NewWithClaims(jwt.SigningMethodEdDSA, jwt.MapClaims{"iss": authtest.Issuer, "aud": authtest.Audience, "sub": "david", "tenant": "dev"})
	noExpT.Header["kid"] = a.Ed.ID
	noExp, err := noExpT.SignedString(a.Ed.Key)
	require.NoError(t, err)
	hs, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"iss": authtest.Issuer, "aud": authtest.Audience, "sub": "david", "tenant": "dev", "exp": time.Now().Add(time.Hour).Unix()}).SignedString([]byte("secret"))
	require.NoError(t, err)
	delegate := a.Token("discord-bot", identity.ScopeDelegate)

	for _, tc := range []struct {
		name string
		ctx  context.Context
		code codes.Code
		want string // a part of the message, or of the identity on success
	}{
		{"EdDSA token", bearer(a.Token("david")), codes.OK, "dev/david scopes="},
		{"RS256 token", bearer(a.Mint(a.RSA, authtest.Claims("dev", "david", "a", "b"))), codes.OK, "dev/david scopes=a,b"},
		{"fray-principal names no one", metadata.AppendToOutgoingContext(bearer(a.Token("david")), "fray-principal", "gm"), codes.OK, "dev/david scopes="},
		{"no token", context.Background(), codes.Unauthenticated, `no token: send the metadata "authorization: Bearer <JWT>"`},
		{"only fray-principal", withMD("fray-principal", "gm"), codes.Unauthenticated, "no token"},
		{"not a bearer", withMD("authorization", "Basic Z206Z20="), codes.Unauthenticated, `malformed authorization: expected "Bearer <JWT>"`},
		{"malformed token", bearer("not-a-jwt"), codes.Unauthenticated, "malformed token"},
		{"bad signature", bearer(a.Mint(impostor, authtest.Claims("dev", "david"))), codes.Unauthenticated, "bad signature"},
		{"unknown key id", bearer(a.Mint(authtest.NewEd25519("stranger"), authtest.Claims("dev", "david"))), codes.Unauthenticated, `unknown signing key: unknown key id "stranger" for EdDSA; this service accepts`},
		{"HS256 refused", bearer(hs), codes.Unauthenticated, "signing method not accepted"},
		{"expired", bearer(a.Mint(a.Ed, claims(func(c *auth.TokenClaims) { c.IssuedAt = time.Now().Add(-2 * time.Hour) }))), codes.Unauthenticated, "token expired at"},
		{"no expiry", bearer(noExp), codes.Unauthenticated, "no expiry (exp)"},
		{"wrong audience", bearer(a.Mint(a.Ed, claims(func(c *auth.TokenClaims) { c.Audience = "someone-else" }))), codes.Unauthenticated, `wrong audience: the token is for ["someone-else"]; this service accepts`},
		{"wrong issuer", bearer(a.Mint(a.Ed, claims(func(c *auth.TokenClaims) { c.Issuer = "https://evil.test" }))), codes.Unauthenticated, `wrong issuer: the token was issued by "https://evil.test"; this service accepts JWTs signed with EdDSA or RS256 by a key of its key set, issued by "https://issuer.test" for audience "fray-test"`},
		{"missing tenant", bearer(a.Mint(a.Ed, claims(func(c *auth.TokenClaims) { c.Tenant = "" }))), codes.Unauthenticated, `missing tenant: the token has no "tenant" claim`},
		{"missing subject", bearer(a.Mint(a.Ed, claims(func(c *auth.TokenClaims) { c.Subject = "" }))), codes.Unauthenticated, "missing subject"},
		{"a subject with a slash", bearer(a.Mint(a.Ed, claims(func(c *auth.TokenClaims) { c.Subject = "other/gm" }))), codes.Unauthenticated, "bad subject"},
		{"delegation", metadata.AppendToOutgoingContext(bearer(delegate), auth.OnBehalfOfKey, "david"), codes.OK, "dev/david scopes= client=discord-bot"},
		{"delegation naming the tenant", metadata.AppendToOutgoingContext(bearer(delegate), auth.OnBehalfOfKey, "dev/david"), codes.OK, "dev/david scopes= client=discord-bot"},
		{"delegation to another tenant", metadata.AppendToOutgoingContext(bearer(delegate), auth.OnBehalfOfKey, "other/david"), codes.PermissionDenied, `a client of tenant "dev" acts only for subjects of "dev", not for "other/david"`},
		{"on behalf without the scope", metadata.AppendToOutgoingContext(bearer(a.Token("florence")), auth.OnBehalfOfKey, "david"), codes.PermissionDenied, `dev/florence may not act on behalf of others: its token lacks the "fray:delegate" scope`},
		{"the delegate itself", bearer(delegate), codes.OK, "dev/discord-bot scopes=fray:delegate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, call := range []func(context.Context, *grpc.ClientConn) (string, error){authtest.Am, authtest.Watch} {
				got, err := call(tc.ctx, cc)
				require.Equal(t, tc.code, status.Code(err), "%v", err)
				if tc.code == codes.OK {
					require.Equal(t, tc.want, got)
				} else {
					require.Contains(t, status.Convert(err).Message(), tc.want)
				}
			}
		})
	}

	// Health and reflection answer without a token.
	_, err = healthpb.NewHealthClient(cc).Check(context.Background(), &healthpb.HealthCheckRequest{})
	require.NoError(t, err)
	refl, err := reflectionpb.NewServerReflectionClient(cc).ServerReflectionInfo(context.Background())
	require.NoError(t, err)
	require.NoError(t, refl.Send(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{ListServices: "*"}}))
	_, err = refl.Recv()
	require.NoError(t, err)
	require.NoError(t, refl.CloseSend())
}

// clock is a settable time for the key set's refresh.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// A rotation: a JWKS file or URL that gains a new key is loaded again when a token names it;
// a removed key stops verifying once the set is older than MaxAge.
func TestJWKSRotation(t *testing.T) {
	old, next := authtest.NewEd25519("2024-01"), authtest.NewRSA("2025-01")
	set := func(keys ...auth.Signer) []byte {
		var pub []auth.PublicKey
		for _, k := range keys {
			pub = append(pub, k.Public())
		}
		b, err := auth.MarshalJWKS(pub...)
		require.NoError(t, err)
		return b
	}
	file := filepath.Join(t.TempDir(), "jwks.json")
	require.NoError(t, os.WriteFile(file, set(old), 0o644))
	var mu sync.Mutex
	served := set(old)
	web := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		_, _ = w.Write(served)
	}))
	defer web.Close()

	for _, tc := range []struct {
		name   string
		source string
		rotate func(keys ...auth.Signer)
	}{
		{"file", file, func(keys ...auth.Signer) { require.NoError(t, os.WriteFile(file, set(keys...), 0o644)) }},
		{"url", web.URL + "/.well-known/jwks.json", func(keys ...auth.Signer) { mu.Lock(); served = set(keys...); mu.Unlock() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.rotate(old)
			clk := &clock{t: time.Now()}
			keys, err := auth.NewJWKS(context.Background(), tc.source, auth.JWKSOptions{MinRefresh: time.Second, MaxAge: time.Minute, Client: web.Client(), Now: clk.Now})
			require.NoError(t, err)
			au, err := auth.NewAuthenticator(auth.Config{Keys: keys, Issuer: authtest.Issuer, Audience: authtest.Audience, Now: clk.Now})
			require.NoError(t, err)
			cc := authtest.ServeWho(t, au.ServerOptions()...)
			with := func(s auth.Signer) error {
				_, err := authtest.Am(authtest.WithToken(context.Background(), authtest.Default().Mint(s, authtest.Claims("dev", "david"))), cc)
				return err
			}
			require.NoError(t, with(old))
			clk.Add(2 * time.Second)
			require.Equal(t, codes.Unauthenticated, status.Code(with(next)), "not published yet")

			tc.rotate(old, next) // the new key is published next to the old one
			require.Equal(t, codes.Unauthenticated, status.Code(with(next)), "at most one load per MinRefresh")
			clk.Add(2 * time.Second)
			require.NoError(t, with(next), "an unknown kid loads the set again")
			require.NoError(t, with(old))

			tc.rotate(next) // the old key is retired
			require.NoError(t, with(old), "still loaded")
			clk.Add(2 * time.Minute) // past MaxAge, and past the memory of verified tokens
			err = with(old)
			require.Equal(t, codes.Unauthenticated, status.Code(err))
			require.Contains(t, status.Convert(err).Message(), `unknown key id "2024-01" for EdDSA`)
			require.NotContains(t, status.Convert(err).Message(), "2025-01", "a refusal names no key the service holds")
			require.NoError(t, with(next))
		})
	}
}

func TestJWKSRefusesPlainHTTPAwayFromLoopback(t *testing.T) {
	_, err := auth.NewJWKS(context.Background(), "http://keys.example.com/jwks.json", auth.JWKSOptions{})
	require.ErrorContains(t, err, "use https")
	_, err = auth.NewJWKS(context.Background(), filepath.Join(t.TempDir(), "none.json"), auth.JWKSOptions{})
	require.ErrorContains(t, err, "no such file")
}

// TLS over a real loopback listener: a client verifying with the test CA gets through; one
// trusting only the system roots, or speaking plaintext, does not.
func TestTLSWithAGeneratedCA(t *testing.T) {
	files := authtest.NewTLS(t, t.TempDir())
	tlsOpts, err := server.ServerTLS(files.Cert, files.Key)
	require.NoError(t, err)
	srv := server.New(telemetry.NewLogger("text", "error"), append(tlsOpts, authtest.ServerOptions()...)...)
	srv.GRPC.RegisterService(&authtest.WhoDesc, struct{}{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, 5*time.Second) }()
	defer func() { cancel(); require.NoError(t, <-done) }()
	addr := lis.Addr().String()

	dial := func(caFile string, useTLS bool) *grpc.ClientConn {
		creds, secure, err := server.Transport(addr, caFile, useTLS)
		require.NoError(t, err)
		opts := []grpc.DialOption{grpc.WithTransportCredentials(creds),
			grpc.WithPerRPCCredentials(auth.PerRPCToken(auth.StaticToken(authtest.Default().Token("david")), "", secure))}
		cc, err := grpc.NewClient(addr, opts...)
		require.NoError(t, err)
		t.Cleanup(func() { cc.Close() })
		return cc
	}
	got, err := authtest.Am(context.Background(), dial(files.CA, false))
	require.NoError(t, err)
	require.Equal(t, "dev/david scopes=", got)

	_, err = authtest.Am(context.Background(), dial("", true))
	require.Equal(t, codes.Unavailable, status.Code(err))
	require.Contains(t, err.Error(), "certificate signed by unknown authority")

	_, err = authtest.Am(context.Background(), dial("", false)) // plaintext to loopback
	require.Equal(t, codes.Unavailable, status.Code(err))

	_, err = server.ServerTLS(files.Cert, "")
	require.ErrorContains(t, err, "both --tls-cert and --tls-key")
	_, err = server.ClientTLS(files.Key)
	require.ErrorContains(t, err, "holds no PEM certificate")
}

func TestTransportIsPlaintextOnlyOnLoopback(t *testing.T) {
	for addr, secure := range map[string]bool{"127.0.0.1:7070": false, "localhost:7070": false, "[::1]:7070": false, "fray.example.com:443": true, "10.0.0.1:7070": true} {
		_, got, err := server.Transport(addr, "", false)
		require.NoError(t, err)
		require.Equal(t, secure, got, addr)
	}
}

// BenchmarkAuthentication measures what authenticating adds to a unary call: the same
// in-process server over loopback, without the interceptor; with it and a token verified
// before (remembered); and with the signature checked on every call, EdDSA and RS256.
func BenchmarkAuthentication(b *testing.B) {
	a := authtest.Default()
	uncachedCfg := a.Config()
	uncachedCfg.CacheTTL = -1
	uncached, err := auth.NewAuthenticator(uncachedCfg)
	require.NoError(b, err)
	for _, bc := range []struct {
		name  string
		opts  []grpc.ServerOption
		token string
	}{
		{"none", nil, ""},
		{"EdDSA-remembered", a.ServerOptions(), a.Token("david")},
		{"EdDSA-verified", uncached.ServerOptions(), a.Token("david")},
		{"RS256-verified", uncached.ServerOptions(), a.Mint(a.RSA, authtest.Claims("dev", "david"))},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cc := authtest.ServeWho(b, bc.opts...)
			ctx := context.Background()
			if bc.token != "" {
				ctx = authtest.WithToken(ctx, bc.token)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := authtest.Am(ctx, cc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkVerify is the verification alone, without gRPC, of a token not seen before.
func BenchmarkVerify(b *testing.B) {
	a := authtest.Default()
	cfg := a.Config()
	cfg.CacheTTL = -1
	au, err := auth.NewAuthenticator(cfg)
	require.NoError(b, err)
	for name, tok := range map[string]string{"EdDSA": a.Token("david"), "RS256": a.Mint(a.RSA, authtest.Claims("dev", "david"))} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := au.Verify(context.Background(), tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A verified token is remembered for CacheTTL, never past its expiry.
func TestVerifiedTokensAreRememberedUntilTheyExpire(t *testing.T) {
	a := authtest.Default()
	clk := &clock{t: time.Now()}
	cfg := a.Config()
	cfg.Now, cfg.CacheTTL, cfg.Leeway = clk.Now, 10*time.Minute, time.Second
	au, err := auth.NewAuthenticator(cfg)
	require.NoError(t, err)
	c := authtest.Claims("dev", "david")
	c.TTL, c.IssuedAt = 2*time.Minute, clk.Now()
	tok := a.Mint(a.Ed, c)
	for range 2 {
		id, err := au.Verify(context.Background(), tok)
		require.NoError(t, err)
		require.Equal(t, "dev/david", id.Principal())
	}
	clk.Add(2*time.Minute + 2*time.Second)
	_, err = au.Verify(context.Background(), tok)
	require.ErrorContains(t, err, "token expired")
}

// The dev key is found for a loopback address only: through fray dev's note for its port, or
// ./.fray; it is made once and kept.
func TestDevKeyRecordAndLookup(t *testing.T) {
	t.Setenv("FRAY_DEV_KEY", "")
	t.Setenv("FRAY_DEV_RECORDS", t.TempDir())
	t.Chdir(t.TempDir())
	_, ok := auth.FindDevKey("127.0.0.1:7070")
	require.False(t, ok)
	key, created, err := auth.LoadOrCreateDevKey(".fray")
	require.NoError(t, err)
	require.True(t, created)
	again, created, err := auth.LoadOrCreateDevKey(".fray")
	require.NoError(t, err)
	require.False(t, created)
	require.Equal(t, key, again)
	p, ok := auth.FindDevKey("localhost:7070")
	require.True(t, ok)
	require.Equal(t, filepath.Join(".fray", auth.DevKeyFile), p)
	_, ok = auth.FindDevKey("fray.example.com:443")
	require.False(t, ok, "never a dev key for a remote server")

	elsewhere := filepath.Join(t.TempDir(), auth.DevKeyFile)
	forget, err := auth.RecordDevKey("127.0.0.1:17070", elsewhere)
	require.NoError(t, err)
	_, _, err = auth.LoadOrCreateDevKey(filepath.Dir(elsewhere))
	require.NoError(t, err)
	p, ok = auth.FindDevKey("[::1]:17070")
	require.True(t, ok)
	require.Equal(t, elsewhere, p)
	forget()
	p, _ = auth.FindDevKey("[::1]:17070")
	require.Equal(t, filepath.Join(".fray", auth.DevKeyFile), p, "the note is gone")
}
