package auth

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/validate"
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
	// TenantClaim is the token claim naming the tenant.
	TenantClaim = "tenant"
	// EncounterClaim binds a token to one encounter (an invite's): Identity.Encounter.
	EncounterClaim = "encounter"
	// InviterClaim, in a token bound to an encounter, names the principal of its tenant whose
	// rate budget its calls draw from: Identity.Inviter.
	InviterClaim = "inviter"
	// DefaultLeeway is the clock skew allowed on exp, nbf and iat.
	DefaultLeeway = 30 * time.Second
	// DefaultMaxLifetime is how far from now a token's expiry may be: a token that would
	// still live longer is refused, as a stolen one would be a key for as long (an exp in
	// the year 9999). 30 days: the longest fray dev's `fray token --ttl` mints, and the
	// resolver token of the deployment's instructions (720h).
	DefaultMaxLifetime = 30 * 24 * time.Hour
)

// AuthConfig is what verifying tokens takes.
type Config struct {
	// Keys verify the signatures (a JWKS file or URL; fray dev's key).
	Keys KeySet
	// Issuer and Audience the tokens must name (iss, aud).
	Issuer, Audience string
	// Leeway on expiry (default DefaultLeeway).
	Leeway time.Duration
	// MaxLifetime refuses a token whose expiry is further than this from now, beyond the
	// leeway (default DefaultMaxLifetime; negative: no bound).
	MaxLifetime time.Duration
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
	cfg    Config
	parser *jwt.Parser

	mu       sync.Mutex
	verified map[[sha256.Size]byte]cached
}

type cached struct {
	id    identity.Identity
	until time.Time
}

// NewAuthenticator checks cfg and returns its authenticator.
func NewAuthenticator(cfg Config) (*Authenticator, error) {
	if cfg.Keys == nil {
		return nil, errors.New("authentication needs a key set (a JWKS file or URL)")
	}
	if cfg.Issuer == "" || cfg.Audience == "" {
		return nil, errors.New("authentication needs the issuer and the audience tokens must name")
	}
	if cfg.Leeway == 0 {
		cfg.Leeway = DefaultLeeway
	}
	if cfg.MaxLifetime == 0 {
		cfg.MaxLifetime = DefaultMaxLifetime
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
	lives := ""
	if a.cfg.MaxLifetime > 0 {
		lives = fmt.Sprintf(", expiring within %s", a.cfg.MaxLifetime)
	}
	return fmt.Sprintf("this service accepts JWTs signed with EdDSA or RS256 by a key of its key set, issued by %q for audience %q, with a %q and a sub claim%s",
		a.cfg.Issuer, a.cfg.Audience, TenantClaim, lives)
}

// claims are a fray token's claims.
type claims struct {
	jwt.RegisteredClaims
	Tenant    string `json:"tenant"`
	Scope     any    `json:"scope,omitempty"` // "a b c" (RFC 8693) or ["a", "b"]
	Encounter string `json:"encounter,omitempty"`
	Inviter   string `json:"inviter,omitempty"`
}

// UnmarshalJSON refuses an exp, nbf or iat that is not a JSON number (a NumericDate, RFC 7519
// §2): golang-jwt reads "exp": "253402300799" as a date. The names are compared as the
// decoder matches them, whatever their case.
func (c *claims) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	for k, v := range raw {
		for _, date := range []string{"exp", "nbf", "iat"} {
			if strings.EqualFold(k, date) && !isJSONNumber(v) {
				return fmt.Errorf("%w: %s is %s, not a number of seconds since 1970 (a NumericDate, RFC 7519)", errDate, date, jsonKind(v))
			}
		}
	}
	type plain claims // without this method
	return json.Unmarshal(b, (*plain)(c))
}

func isJSONNumber(v json.RawMessage) bool {
	v = json.RawMessage(strings.TrimSpace(string(v)))
	return len(v) > 0 && (v[0] == '-' || ('0' <= v[0] && v[0] <= '9'))
}

// jsonKind names the kind of a JSON value that is not a number.
func jsonKind(v json.RawMessage) string {
	t := strings.TrimSpace(string(v))
	if t == "" {
		return "empty"
	}
	switch t[:1] {
	case `"`:
		return "a string"
	case "{":
		return "an object"
	case "[":
		return "an array"
	case "t", "f":
		return "a boolean"
	}
	return "null"
}

// errDate is a date claim (exp, nbf, iat) that is not a number.
var errDate = errors.New("a date that is not a number")

// errCritical is a token whose header makes extensions critical (crit, RFC 7515 §4.1.11):
// this service implements none, so it must refuse the token.
var errCritical = errors.New("the token's header lists critical extensions (crit) this service does not implement")

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
func (a *Authenticator) Verify(ctx context.Context, token string) (identity.Identity, error) {
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
func (a *Authenticator) verify(ctx context.Context, token string) (_ identity.Identity, exp time.Time, _ error) {
	var c claims
	_, err := a.parser.ParseWithClaims(token, &c, func(t *jwt.Token) (any, error) {
		if crit, ok := t.Header["crit"]; ok {
			return nil, fmt.Errorf("%w: %s", errCritical, cut(fmt.Sprint(crit), 80))
		}
		kid, _ := t.Header["kid"].(string)
		alg := t.Method.Alg()
		k, err := a.cfg.Keys.Key(ctx, kid)
		if err == nil && k.Alg != alg {
			err = ErrUnknownKey // a key of another algorithm: told as one not held
		}
		// The refusal names what the token says, never the keys this service holds.
		switch {
		case errors.Is(err, ErrUnknownKey) && kid == "":
			return nil, fmt.Errorf("%w: the token names none (no kid header)", ErrUnknownKey)
		case errors.Is(err, ErrUnknownKey):
			return nil, fmt.Errorf("%w %q for %s", ErrUnknownKey, cut(kid, 80), alg)
		case err != nil:
			return nil, errors.New("the key set could not be read: try again")
		}
		return k.Key, nil
	})
	if err != nil {
		return identity.Identity{}, exp, a.explain(err, c)
	}
	if most := a.cfg.MaxLifetime; most > 0 && c.ExpiresAt.Sub(a.cfg.Now()) > most+a.cfg.Leeway {
		return identity.Identity{}, exp, unauthenticated("the token lives too long: it expires at %s, more than %s from now; get one of a shorter lifetime (%s)",
			c.ExpiresAt.UTC().Format(time.RFC3339), most, a.accepted())
	}
	if c.Issuer != a.cfg.Issuer {
		return identity.Identity{}, exp, unauthenticated("wrong issuer: the token was issued by %q; %s", c.Issuer, a.accepted())
	}
	if !containsAud(c.Audience, a.cfg.Audience) {
		return identity.Identity{}, exp, unauthenticated("wrong audience: the token is for %q; %s", []string(c.Audience), a.accepted())
	}
	if c.Tenant == "" {
		return identity.Identity{}, exp, unauthenticated("missing tenant: the token has no %q claim; %s", TenantClaim, a.accepted())
	}
	if err := identity.CheckName("tenant", c.Tenant); err != nil {
		return identity.Identity{}, exp, unauthenticated("bad tenant: %v", err)
	}
	if c.Subject == "" {
		return identity.Identity{}, exp, unauthenticated("missing subject: the token has no sub claim; %s", a.accepted())
	}
	if err := identity.CheckName("subject", c.Subject); err != nil {
		return identity.Identity{}, exp, unauthenticated("bad subject: %v", err)
	}
	if c.Encounter != "" {
		if validate.CheckID(EncounterClaim, c.Encounter) != nil {
			return identity.Identity{}, exp, unauthenticated("bad %s claim %q: an encounter id is 1 to %d letters, digits, '-' or '_'", EncounterClaim, cut(c.Encounter, 80), validate.MaxIDLength)
		}
	}
	if c.Inviter != "" {
		t, sub, ok := identity.SplitPrincipal(c.Inviter)
		switch {
		case c.Encounter == "":
			return identity.Identity{}, exp, unauthenticated("an %q claim without an %q claim: an inviter is named by an invite, which is bound to its encounter", InviterClaim, EncounterClaim)
		case !ok || t != c.Tenant || identity.CheckName("subject", sub) != nil:
			return identity.Identity{}, exp, unauthenticated("bad %s claim %q: give a principal of the token's tenant, \"%s/NAME\"", InviterClaim, cut(c.Inviter, 80), c.Tenant)
		}
	}
	return identity.Identity{Tenant: c.Tenant, Subject: c.Subject, Scopes: c.scopes(), Encounter: c.Encounter, Inviter: c.Inviter, Expires: c.ExpiresAt.Time}, c.ExpiresAt.Time, nil
}

// cut shortens s to at most n bytes for a message.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
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
	case errors.Is(err, errDate):
		_, why, _ := strings.Cut(err.Error(), errDate.Error()+": ")
		return unauthenticated("malformed claims: %s; %s", why, a.accepted())
	case errors.Is(err, errCritical):
		return unauthenticated("%v (RFC 7515 §4.1.11); send a token without crit", unwrapKeyErr(err))
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
	return identity.With(ctx, id), nil
}

// delegate applies a fray-on-behalf-of entry: a client holding ScopeDelegate becomes the
// subject of its own tenant it names.
func delegate(client identity.Identity, named []string) (identity.Identity, error) {
	if len(named) == 0 {
		return client, nil
	}
	if len(named) > 1 {
		return identity.Identity{}, status.Errorf(codes.InvalidArgument, "%d %s entries: name one subject", len(named), OnBehalfOfKey)
	}
	if !client.HasScope(identity.ScopeDelegate) {
		return identity.Identity{}, status.Errorf(codes.PermissionDenied, "%s may not act on behalf of others: its token lacks the %q scope (send no %s entry, or use a client token holding that scope)",
			client.Principal(), identity.ScopeDelegate, OnBehalfOfKey)
	}
	subject := named[0]
	if tenant, sub, ok := strings.Cut(subject, "/"); ok {
		if tenant != client.Tenant {
			return identity.Identity{}, status.Errorf(codes.PermissionDenied, "a client of tenant %q acts only for subjects of %q, not for %q", client.Tenant, client.Tenant, subject)
		}
		subject = sub
	}
	if err := identity.CheckName("subject", subject); err != nil {
		return identity.Identity{}, status.Errorf(codes.InvalidArgument, "%s: %v", OnBehalfOfKey, err)
	}
	// A token bound to an encounter stays bound, and its budget its inviter's, whomever it
	// acts for.
	return identity.Identity{Tenant: client.Tenant, Subject: subject, Client: client.Subject,
		Encounter: client.Encounter, Inviter: client.Inviter, Expires: client.Expires}, nil
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
		AuthenticatorOption{Authenticator: a}, // for NewServer's tap, with the rate limits
	}
}

// AuthenticatorOption marks the authenticator among a server's options (ServerOptions), for
// the tap of NewServer.
type AuthenticatorOption struct {
	grpc.EmptyServerOption
	Authenticator *Authenticator
}

// remembered is the identity of a token verified in the last CacheTTL, if it is held.
func (a *Authenticator) Remembered(token string) (identity.Identity, bool) {
	if a.cfg.CacheTTL < 0 {
		return identity.Identity{}, false
	}
	sum := sha256.Sum256([]byte(token))
	now := a.cfg.Now()
	a.mu.Lock()
	hit, ok := a.verified[sum]
	a.mu.Unlock()
	return hit.id, ok && now.Before(hit.until)
}
