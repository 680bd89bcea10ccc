package auth

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rsa"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"google.golang.org/grpc/credentials"
)

// Signer signs tokens with a private key named by a key id.
type Signer struct {
	ID  string
	Key crypto.Signer // ed25519.PrivateKey (EdDSA) or *rsa.PrivateKey (RS256)
}

// Public is the signer's verification key.
func (s Signer) Public() PublicKey {
	alg := "EdDSA"
	if _, ok := s.Key.(*rsa.PrivateKey); ok {
		alg = "RS256"
	}
	return PublicKey{ID: s.ID, Alg: alg, Key: s.Key.Public()}
}

// TokenClaims are what a minted token says.
type TokenClaims struct {
	Issuer, Audience string
	Tenant, Subject  string
	Scopes           []string
	// Encounter binds the token to one encounter (EncounterClaim; an invite's), Inviter names
	// whose rate budget it draws from (InviterClaim): Identity.Encounter and Identity.Inviter.
	Encounter, Inviter string
	// TTL is how long the token is valid; IssuedAt defaults to now.
	TTL      time.Duration
	IssuedAt time.Time
}

// Mint signs a token: EdDSA with an Ed25519 key, RS256 with an RSA key.
func (s Signer) Mint(c TokenClaims) (string, error) {
	var method jwt.SigningMethod
	switch s.Key.(type) {
	case ed25519.PrivateKey:
		method = jwt.SigningMethodEdDSA
	case *rsa.PrivateKey:
		method = jwt.SigningMethodRS256
	default:
		return "", fmt.Errorf("%T signs no token: use an Ed25519 or RSA key", s.Key)
	}
	if c.TTL <= 0 {
		return "", errors.New("a token needs a positive lifetime")
	}
	iat := c.IssuedAt
	if iat.IsZero() {
		iat = time.Now()
	}
	cl := claims{RegisteredClaims: jwt.RegisteredClaims{
		Issuer: c.Issuer, Subject: c.Subject, Audience: jwt.ClaimStrings{c.Audience},
		IssuedAt: jwt.NewNumericDate(iat), ExpiresAt: jwt.NewNumericDate(iat.Add(c.TTL)),
	}, Tenant: c.Tenant, Encounter: c.Encounter, Inviter: c.Inviter}
	if len(c.Scopes) > 0 {
		cl.Scope = strings.Join(c.Scopes, " ")
	}
	t := jwt.NewWithClaims(method, cl)
	if s.ID != "" {
		t.Header["kid"] = s.ID
	}
	return t.SignedString(s.Key)
}

// TokenSource gives the token of outgoing calls.
type TokenSource interface {
	Token(ctx context.Context) (string, error)
}

// StaticToken is a token that never changes.
type StaticToken string

// Token implements TokenSource.
func (t StaticToken) Token(context.Context) (string, error) {
	if t == "" {
		return "", errors.New("no token")
	}
	return string(t), nil
}

// FileToken reads the token from a file, again whenever the file changes (a deployment's
// token refresher rewrites it).
type FileToken struct {
	Path string

	mu    sync.Mutex
	mod   time.Time
	token string
}

// Token implements TokenSource.
func (f *FileToken) Token(context.Context) (string, error) {
	fi, err := os.Stat(f.Path)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.token == "" || !fi.ModTime().Equal(f.mod) {
		b, err := os.ReadFile(f.Path)
		if err != nil {
			return "", fmt.Errorf("token file: %w", err)
		}
		f.token, f.mod = strings.TrimSpace(string(b)), fi.ModTime()
	}
	if f.token == "" {
		return "", fmt.Errorf("token file %s is empty", f.Path)
	}
	return f.token, nil
}

// MintedToken mints its token with a signer, and mints again once two thirds of its lifetime
// have passed.
type MintedToken struct {
	Signer Signer
	Claims TokenClaims // TTL required; IssuedAt is set at each minting
	Now    func() time.Time

	mu      sync.Mutex
	token   string
	renewAt time.Time
}

// Token implements TokenSource.
func (m *MintedToken) Token(context.Context) (string, error) {
	now := time.Now
	if m.Now != nil {
		now = m.Now
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t := now()
	if m.token != "" && t.Before(m.renewAt) {
		return m.token, nil
	}
	c := m.Claims
	c.IssuedAt = t
	tok, err := m.Signer.Mint(c)
	if err != nil {
		return "", err
	}
	m.token, m.renewAt = tok, t.Add(c.TTL*2/3)
	return tok, nil
}

// bearer sends a TokenSource's token as "authorization: Bearer …".
type bearer struct {
	src        TokenSource
	onBehalfOf string
	secure     bool
}

// PerRPCToken returns call credentials sending src's token on every call; when onBehalfOf is
// set, also "fray-on-behalf-of: onBehalfOf" (a delegating client). requireTLS refuses to send
// the token over a plaintext connection.
func PerRPCToken(src TokenSource, onBehalfOf string, requireTLS bool) credentials.PerRPCCredentials {
	return bearer{src: src, onBehalfOf: onBehalfOf, secure: requireTLS}
}

func (b bearer) GetRequestMetadata(ctx context.Context, _ ...string) (map[string]string, error) {
	tok, err := b.src.Token(ctx)
	if err != nil {
		return nil, err
	}
	md := map[string]string{AuthorizationKey: "Bearer " + tok}
	if b.onBehalfOf != "" {
		md[OnBehalfOfKey] = b.onBehalfOf
	}
	return md, nil
}

func (b bearer) RequireTransportSecurity() bool { return b.secure }
