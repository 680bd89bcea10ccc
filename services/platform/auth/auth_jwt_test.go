package auth_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// signed is a token of the claims m with the header's extra fields, signed by s (its kid
// unless the header says otherwise).
func signed(t *testing.T, s auth.Signer, header map[string]any, m jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(jwt.SigningMethodEdDSA, m)
	if _, ok := s.Key.(interface{ Size() int }); ok {
		tok = jwt.NewWithClaims(jwt.SigningMethodRS256, m)
	}
	tok.Header["kid"] = s.ID
	for k, v := range header {
		if v == nil {
			delete(tok.Header, k)
			continue
		}
		tok.Header[k] = v
	}
	out, err := tok.SignedString(s.Key)
	require.NoError(t, err)
	return out
}

// valid are the claims of a good token of dev/david for an hour, with edits.
func valid(edit map[string]any) jwt.MapClaims {
	now := time.Now()
	m := jwt.MapClaims{"iss": authtest.Issuer, "aud": authtest.Audience, "sub": "david", "tenant": "dev",
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
	for k, v := range edit {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	return m
}

// What JWT checking refuses, over gRPC (unary and stream), each with an Unauthenticated
// message saying what is wrong with the token, and never naming a key id the service holds
// that the token did not name: a crit header (no extension is implemented, RFC 7515
// §4.1.11), dates that are not numbers, an expiry further than the longest lifetime, a key id
// unknown or of another algorithm, a token naming no key id where the set holds several, and
// claims binding a token to an encounter that are malformed.
func TestJWTRefusals(t *testing.T) {
	a := authtest.Default()
	cc := authtest.ServeWho(t, a.ServerOptions()...)
	year9999 := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
	month := time.Now().Add(30 * 24 * time.Hour).Unix()
	for _, tc := range []struct {
		name string
		tok  string
		code codes.Code
		want string
	}{
		{"a good token", signed(t, a.Ed, nil, valid(nil)), codes.OK, "dev/david scopes="},
		{"crit naming an extension", signed(t, a.Ed, map[string]any{"crit": []string{"exp"}, "exp": 1}, valid(nil)), codes.Unauthenticated, "the token's header lists critical extensions (crit) this service does not implement: [exp] (RFC 7515 §4.1.11)"},
		{"crit empty", signed(t, a.Ed, map[string]any{"crit": []string{}}, valid(nil)), codes.Unauthenticated, "critical extensions (crit)"},
		{"exp a string", signed(t, a.Ed, nil, valid(map[string]any{"exp": "1999999999"})), codes.Unauthenticated, "malformed claims: exp is a string, not a number of seconds since 1970"},
		{"Exp a string", signed(t, a.Ed, nil, valid(map[string]any{"exp": nil, "Exp": "1999999999"})), codes.Unauthenticated, "exp is a string, not a number"},
		{"nbf an object", signed(t, a.Ed, nil, valid(map[string]any{"nbf": map[string]any{"s": 1}})), codes.Unauthenticated, "nbf is an object, not a number"},
		{"iat a boolean", signed(t, a.Ed, nil, valid(map[string]any{"iat": true})), codes.Unauthenticated, "iat is a boolean, not a number"},
		{"exp null", signed(t, a.Ed, nil, valid(map[string]any{"exp": jsonNull{}})), codes.Unauthenticated, "exp is null, not a number"},
		{"exp in the year 9999", signed(t, a.Ed, nil, valid(map[string]any{"exp": year9999})), codes.Unauthenticated, "the token lives too long: it expires at 9999-12-31T23:59:59Z, more than 720h0m0s from now"},
		{"exp a month away", signed(t, a.Ed, nil, valid(map[string]any{"exp": month})), codes.OK, "dev/david scopes="},
		{"a key id it does not hold", signed(t, authtest.NewEd25519("stranger"), nil, valid(nil)), codes.Unauthenticated, `unknown signing key: unknown key id "stranger" for EdDSA`},
		{"its RSA key's id on an EdDSA token", signed(t, auth.Signer{ID: a.RSA.ID, Key: a.Ed.Key}, nil, valid(nil)), codes.Unauthenticated, `unknown signing key: unknown key id "test-rsa" for EdDSA`},
		{"no key id", signed(t, a.Ed, map[string]any{"kid": nil}, valid(nil)), codes.Unauthenticated, "unknown signing key: unknown key id: the token names none (no kid header)"},
		{"an encounter that is no id", signed(t, a.Ed, nil, valid(map[string]any{"encounter": "enc/1"})), codes.Unauthenticated, `bad encounter claim "enc/1": an encounter id is 1 to 64 letters`},
		{"an inviter without an encounter", signed(t, a.Ed, nil, valid(map[string]any{"inviter": "dev/gm"})), codes.Unauthenticated, `an "inviter" claim without an "encounter" claim`},
		{"an inviter of another tenant", signed(t, a.Ed, nil, valid(map[string]any{"encounter": "enc-1", "inviter": "other/gm"})), codes.Unauthenticated, `bad inviter claim "other/gm": give a principal of the token's tenant, "dev/NAME"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, call := range []func(context.Context, *grpc.ClientConn) (string, error){authtest.Am, authtest.Watch} {
				got, err := call(authtest.WithToken(context.Background(), tc.tok), cc)
				require.Equal(t, tc.code, status.Code(err), "%v", err)
				if tc.code == codes.OK {
					require.Equal(t, tc.want, got)
					continue
				}
				msg := status.Convert(err).Message()
				t.Log(msg)
				require.Contains(t, msg, tc.want)
				if tc.name != "its RSA key's id on an EdDSA token" {
					require.NotContains(t, msg, "test-rsa", "the refusal names a key the token did not")
				}
				require.NotContains(t, msg, "test-ed", "the refusal names a key the token did not")
			}
		})
	}
}

// jsonNull encodes as JSON null (a nil in valid removes the claim).
type jsonNull struct{}

func (jsonNull) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

// The longest lifetime is the configuration's: a shorter one refuses what the default takes;
// a negative one bounds nothing.
func TestTheLongestTokenLifetimeIsConfigured(t *testing.T) {
	a := authtest.Default()
	week := signed(t, a.Ed, nil, valid(map[string]any{"exp": time.Now().Add(7 * 24 * time.Hour).Unix()}))
	for _, tc := range []struct {
		most time.Duration
		code codes.Code
	}{{0, codes.OK}, {24 * time.Hour, codes.Unauthenticated}, {-1, codes.OK}} {
		cfg := a.Config()
		cfg.MaxLifetime = tc.most
		au, err := auth.NewAuthenticator(cfg)
		require.NoError(t, err)
		_, err = au.Verify(context.Background(), week)
		require.Equal(t, tc.code, status.Code(err), "most %s: %v", tc.most, err)
		if err != nil {
			require.Contains(t, status.Convert(err).Message(), "more than 24h0m0s from now")
		}
	}
}

// A token bound to an encounter (an invite's) calls no RPC but those about its encounter: a
// service of other methods refuses it, unary and streaming, PermissionDenied, saying why.
func TestATokenBoundToAnEncounterCallsNothingElse(t *testing.T) {
	a := authtest.Default()
	cc := authtest.ServeWho(t, a.ServerOptions()...)
	c := authtest.Claims("dev", "diego-x")
	c.Encounter, c.Inviter = "enc-1", "dev/gm"
	ctx := authtest.WithToken(context.Background(), a.Mint(a.Ed, c))
	for _, call := range []func(context.Context, *grpc.ClientConn) (string, error){authtest.Am, authtest.Watch} {
		_, err := call(ctx, cc)
		require.Equal(t, codes.PermissionDenied, status.Code(err), "%v", err)
		require.Contains(t, status.Convert(err).Message(), "dev/diego-x holds an invite to encounter enc-1, good for that encounter only: it may not call /test.Who/")
	}
}

// Any header and claims, signed by a key the service holds: the token is accepted or refused
// Unauthenticated (PermissionDenied nowhere: no delegation here), never a panic, and an
// accepted one expires within the longest lifetime. `go test -fuzz FuzzVerifySignedToken`
// explores further; the seeds run with the tests.
func FuzzVerifySignedToken(f *testing.F) {
	now := time.Now().Unix()
	for _, seed := range [][2]string{
		{`{"alg":"EdDSA","kid":"test-ed"}`, fmt.Sprintf(`{"iss":%q,"aud":%q,"sub":"david","tenant":"dev","exp":%d}`, authtest.Issuer, authtest.Audience, now+3600)},
		{`{"alg":"EdDSA","kid":"test-ed","crit":["b64"],"b64":false}`, fmt.Sprintf(`{"iss":%q,"aud":%q,"sub":"david","tenant":"dev","exp":%d}`, authtest.Issuer, authtest.Audience, now+3600)},
		{`{"alg":"EdDSA","kid":"test-ed"}`, fmt.Sprintf(`{"iss":%q,"aud":%q,"sub":"david","tenant":"dev","exp":"%d","EXP":{}}`, authtest.Issuer, authtest.Audience, now+3600)},
		{`{"alg":"EdDSA","kid":"test-ed"}`, fmt.Sprintf(`{"iss":%q,"aud":%q,"sub":"d","tenant":"dev","exp":1e300,"nbf":-1e300,"iat":null}`, authtest.Issuer, authtest.Audience)},
		{`{"alg":"EdDSA"}`, fmt.Sprintf(`{"iss":%q,"aud":[%q],"sub":"d","tenant":"dev","exp":%d,"encounter":"enc-1","inviter":"dev/gm"}`, authtest.Issuer, authtest.Audience, now+60)},
		{`[]`, `"x"`},
	} {
		f.Add(seed[0], seed[1])
	}
	a := authtest.Default()
	au := a.Authenticator()
	f.Fuzz(func(t *testing.T, header, payload string) {
		enc := base64.RawURLEncoding
		text := enc.EncodeToString([]byte(header)) + "." + enc.EncodeToString([]byte(payload))
		sig, err := jwt.SigningMethodEdDSA.Sign(text, a.Ed.Key)
		require.NoError(t, err)
		id, err := au.Verify(context.Background(), text+"."+enc.EncodeToString(sig))
		if err != nil {
			require.Equal(t, codes.Unauthenticated, status.Code(err), "%v", err)
			require.NotContains(t, status.Convert(err).Message(), "test-rsa")
			return
		}
		require.NotEmpty(t, id.Principal())
		require.LessOrEqual(t, time.Until(id.Expires), auth.DefaultMaxLifetime+auth.DefaultLeeway)
	})
}
