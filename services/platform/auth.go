package platform

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/auth"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/selector"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

const (
	// AuthorizationKey is the request metadata carrying "Bearer <JWT>".
	AuthorizationKey = "authorization"
	// OnBehalfOfKey is the request metadata by which a client holding ScopeDelegate names the
	// subject of its tenant it acts for.
	OnBehalfOfKey = "fray-on-behalf-of"
	// ScopeDelegate lets a client act on behalf of any subject of its own tenant.
	ScopeDelegate = "fray:delegate"
	// ScopeResolve lets a caller (the encounter service) ask the resolver to decide commands.
	ScopeResolve = "fray:resolve"
	// ScopeAdmin makes a caller its tenant's administrator: it lists and ends the tenant's
	// idle encounters (EncounterService.ListIdleEncounters, EndIdleEncounters), whatever its
	// role in them. A caller acting on behalf of another (ScopeDelegate) does not pass it on.
	ScopeAdmin = "fray:admin"
	// TenantClaim is the token claim naming the tenant.
	TenantClaim = "tenant"
	// DefaultLeeway is the clock skew allowed on exp, nbf and iat.
	DefaultLeeway = 30 * time.Second
)

// AuthConfig is what verifying tokens takes.
type AuthConfig struct {
	// Keys verify the signatures (a JWKS file or URL; fray dev's key).
	Keys KeySet
	// Issuer and Audience the tokens must name (iss, aud).
	Issuer, Audience string
	// Leeway on expiry (default DefaultLeeway).
	Leeway time.Duration
	// Now is the clock (tests).
	Now func() time.Time
	// CacheTTL is how long a verified token is remembered, so that a client's next calls with
	// it skip the signature check (default DefaultCacheTTL; negative: no cache). Never past
	// the token's expiry; a key removed from the key set stops verifying after at most this.
	CacheTTL time.Duration
}

// DefaultCacheTTL is how long a verified token is remembered by default.
const DefaultCacheTTL = time.Minute

// maxCached bounds the verified tokens remembered; past it the memory is cleared.
const maxCached = 10_000

// Authenticator verifies the bearer token of each request and puts the caller's Identity in
// its context.
type Authenticator struct {
	cfg    AuthConfig
	parser *jwt.Parser

	mu       sync.Mutex
	verified map[[sha256.Size]byte]cached
}

type cached struct {
	id    Identity
	until time.Time
}

// NewAuthenticator checks cfg and returns its authenticator.
func NewAuthenticator(cfg AuthConfig) (*Authenticator, error) {
	if cfg.Keys == nil {
		return nil, errors.New("authentication needs a key set (a JWKS file or URL)")
	}
	if cfg.Issuer == "" || cfg.Audience == "" {
		return nil, errors.New("authentication needs the issuer and the audience tokens must name")
	}
	if cfg.Leeway == 0 {
		cfg.Leeway = DefaultLeeway
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.CacheTTL == 0 {
		cfg.CacheTTL = DefaultCacheTTL
	}
	return &Authenticator{cfg: cfg, verified: map[[sha256.Size]byte]cached{}, parser: jwt.NewParser(
		jwt.WithValidMethods([]string{"EdDSA", "RS256"}),
		jwt.WithLeeway(cfg.Leeway),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithTimeFunc(cfg.Now),
	)}, nil
}

// unauthenticated is the refusal of a request whose token does not verify.
func unauthenticated(format string, args ...any) error {
	return status.Errorf(codes.Unauthenticated, format, args...)
}

// accepted says what a token must be, for the refusals.
func (a *Authenticator) accepted() string {
	return fmt.Sprintf("this service accepts JWTs signed with EdDSA or RS256 by a key of its key set, issued by %q for audience %q, with a %q and a sub claim",
		a.cfg.Issuer, a.cfg.Audience, TenantClaim)
}

// claims are a fray token's claims.
type claims struct {
	jwt.RegisteredClaims
	Tenant string `json:"tenant"`
	Scope  any    `json:"scope,omitempty"` // "a b c" (RFC 8693) or ["a", "b"]
}

func (c claims) scopes() []string {
	switch s := c.Scope.(type) {
	case string:
		return strings.Fields(s)
	case []any:
		var out []string
		for _, v := range s {
			if str, ok := v.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

// Verify checks a token and returns the identity it names (no delegation). A token verified
// in the last CacheTTL is not checked again.
func (a *Authenticator) Verify(ctx context.Context, token string) (Identity, error) {
	if a.cfg.CacheTTL < 0 {
		id, _, err := a.verify(ctx, token)
		return id, err
	}
	sum := sha256.Sum256([]byte(token))
	now := a.cfg.Now()
	a.mu.Lock()
	hit, ok := a.verified[sum]
	a.mu.Unlock()
	if ok && now.Before(hit.until) {
		hit.id.Scopes = slices.Clone(hit.id.Scopes)
		return hit.id, nil
	}
	id, exp, err := a.verify(ctx, token)
	if err != nil {
		return id, err
	}
	until := now.Add(a.cfg.CacheTTL)
	if exp.Before(until) {
		until = exp
	}
	a.mu.Lock()
	if len(a.verified) >= maxCached {
		clear(a.verified)
	}
	a.verified[sum] = cached{id: id, until: until}
	a.mu.Unlock()
	id.Scopes = slices.Clone(id.Scopes)
	return id, nil
}

// verify checks a token's signature and claims; exp is its expiry.
func (a *Authenticator) verify(ctx context.Context, token string) (_ Identity, exp time.Time, _ error) {
	var c claims
	_, err := a.parser.ParseWithClaims(token, &c, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		k, err := a.cfg.Keys.Key(ctx, kid)
		if err != nil {
			return nil, err
		}
		if alg := t.Method.Alg(); alg != k.Alg {
			return nil, fmt.Errorf("key %q verifies %s, not %s", k.ID, k.Alg, alg)
		}
		return k.Key, nil
	})
	if err != nil {
		return Identity{}, exp, a.explain(err, c)
	}
	if c.Issuer != a.cfg.Issuer {
		return Identity{}, exp, unauthenticated("wrong issuer: the token was issued by %q; %s", c.Issuer, a.accepted())
	}
	if !containsAud(c.Audience, a.cfg.Audience) {
		return Identity{}, exp, unauthenticated("wrong audience: the token is for %q; %s", []string(c.Audience), a.accepted())
	}
	if c.Tenant == "" {
		return Identity{}, exp, unauthenticated("missing tenant: the token has no %q claim; %s", TenantClaim, a.accepted())
	}
	if err := CheckName("tenant", c.Tenant); err != nil {
		return Identity{}, exp, unauthenticated("bad tenant: %v", err)
	}
	if c.Subject == "" {
		return Identity{}, exp, unauthenticated("missing subject: the token has no sub claim; %s", a.accepted())
	}
	if err := CheckName("subject", c.Subject); err != nil {
		return Identity{}, exp, unauthenticated("bad subject: %v", err)
	}
	return Identity{Tenant: c.Tenant, Subject: c.Subject, Scopes: c.scopes()}, c.ExpiresAt.Time, nil
}

func containsAud(auds jwt.ClaimStrings, want string) bool {
	for _, a := range auds {
		if a == want {
			return true
		}
	}
	return false
}

// explain turns a parse or validation error into a refusal that says what was wrong.
func (a *Authenticator) explain(err error, c claims) error {
	switch {
	case errors.Is(err, ErrUnknownKey):
		return unauthenticated("unknown signing key: %v; %s", unwrapKeyErr(err), a.accepted())
	case errors.Is(err, jwt.ErrTokenMalformed):
		return unauthenticated("malformed token: %v; send \"authorization: Bearer <JWT>\" with a JWT of three base64url parts", unwrapKeyErr(err))
	case errors.Is(err, jwt.ErrTokenSignatureInvalid) && strings.Contains(err.Error(), "signing method"):
		return unauthenticated("signing method not accepted: %v; %s", unwrapKeyErr(err), a.accepted())
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		return unauthenticated("bad signature: the token's signature does not verify with the key it names; %s", a.accepted())
	case errors.Is(err, jwt.ErrTokenExpired):
		exp := "?"
		if c.ExpiresAt != nil {
			exp = c.ExpiresAt.UTC().Format(time.RFC3339)
		}
		return unauthenticated("token expired at %s (now %s, leeway %s): get a fresh token", exp, a.cfg.Now().UTC().Format(time.RFC3339), a.cfg.Leeway)
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		return unauthenticated("the token has no expiry (exp): tokens must expire; %s", a.accepted())
	case errors.Is(err, jwt.ErrTokenNotValidYet), errors.Is(err, jwt.ErrTokenUsedBeforeIssued):
		return unauthenticated("token not valid yet (nbf or iat in the future beyond a leeway of %s): check the issuer's clock", a.cfg.Leeway)
	case errors.Is(err, jwt.ErrTokenUnverifiable):
		return unauthenticated("unverifiable token: %v; %s", unwrapKeyErr(err), a.accepted())
	}
	return unauthenticated("invalid token: %v; %s", err, a.accepted())
}

// unwrapKeyErr drops golang-jwt's generic prefixes from err's message.
func unwrapKeyErr(err error) string {
	msg := err.Error()
	for _, p := range []string{"token is unverifiable: error while executing keyfunc: ", "token is malformed: ", "token signature is invalid: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return msg
}

// Authenticate is the interceptor's auth.AuthFunc: it verifies the bearer token, applies a
// delegation, and returns ctx carrying the Identity.
func (a *Authenticator) Authenticate(ctx context.Context) (context.Context, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	vals := md.Get(AuthorizationKey)
	if len(vals) == 0 {
		return nil, unauthenticated("no token: send the metadata \"authorization: Bearer <JWT>\" (fray dev: `fray token --as NAME` mints one); %s", a.accepted())
	}
	if len(vals) > 1 {
		return nil, unauthenticated("%d authorization entries: send exactly one \"authorization: Bearer <JWT>\"", len(vals))
	}
	scheme, token, ok := strings.Cut(vals[0], " ")
	if !ok || !strings.EqualFold(scheme, "bearer") || strings.TrimSpace(token) == "" {
		return nil, unauthenticated("malformed authorization: expected \"Bearer <JWT>\"")
	}
	id, err := a.Verify(ctx, strings.TrimSpace(token))
	if err != nil {
		return nil, err
	}
	id, err = delegate(id, md.Get(OnBehalfOfKey))
	if err != nil {
		return nil, err
	}
	return WithIdentity(ctx, id), nil
}

// delegate applies a fray-on-behalf-of entry: a client holding ScopeDelegate becomes the
// subject of its own tenant it names.
func delegate(client Identity, named []string) (Identity, error) {
	if len(named) == 0 {
		return client, nil
	}
	if len(named) > 1 {
		return Identity{}, status.Errorf(codes.InvalidArgument, "%d %s entries: name one subject", len(named), OnBehalfOfKey)
	}
	if !client.HasScope(ScopeDelegate) {
		return Identity{}, status.Errorf(codes.PermissionDenied, "%s may not act on behalf of others: its token lacks the %q scope (send no %s entry, or use a client token holding that scope)",
			client.Principal(), ScopeDelegate, OnBehalfOfKey)
	}
	subject := named[0]
	if tenant, sub, ok := strings.Cut(subject, "/"); ok {
		if tenant != client.Tenant {
			return Identity{}, status.Errorf(codes.PermissionDenied, "a client of tenant %q acts only for subjects of %q, not for %q", client.Tenant, client.Tenant, subject)
		}
		subject = sub
	}
	if err := CheckName("subject", subject); err != nil {
		return Identity{}, status.Errorf(codes.InvalidArgument, "%s: %v", OnBehalfOfKey, err)
	}
	return Identity{Tenant: client.Tenant, Subject: subject, Client: client.Subject}, nil
}

// RequiresAuth is false for the methods that answer anyone: the gRPC health protocol and
// reflection.
func RequiresAuth(call interceptors.CallMeta) bool {
	svc := call.Service
	return svc != "grpc.health.v1.Health" && !strings.HasPrefix(svc, "grpc.reflection.")
}

// ServerOptions are the interceptors that authenticate every call but health and reflection;
// pass them to NewServer.
func (a *Authenticator) ServerOptions() []grpc.ServerOption {
	match := selector.MatchFunc(func(_ context.Context, c interceptors.CallMeta) bool { return RequiresAuth(c) })
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(selector.UnaryServerInterceptor(auth.UnaryServerInterceptor(a.Authenticate), match)),
		grpc.ChainStreamInterceptor(selector.StreamServerInterceptor(auth.StreamServerInterceptor(a.Authenticate), match)),
	}
}
