// Package authtest mints tokens for tests: an issuer with an Ed25519 and an RSA key, the
// server options that verify its tokens, outgoing contexts carrying them, and a TLS
// certificate authority for loopback servers.
package authtest

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/identity"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// The issuer and audience of the test tokens, and their tenant unless told otherwise (the
// same as fray dev's, so that principals read "dev/gm" as in the README).
const (
	Issuer   = "https://issuer.test"
	Audience = "fray-test"
	Tenant   = auth.DevTenant
)

// Authority is a token issuer for tests.
type Authority struct {
	Ed  auth.Signer // kid "test-ed"
	RSA auth.Signer // kid "test-rsa"
}

var (
	once sync.Once
	def  *Authority
)

// Default is the process-wide authority (its RSA key is generated once).
func Default() *Authority {
	once.Do(func() {
		def = &Authority{Ed: NewEd25519("test-ed"), RSA: NewRSA("test-rsa")}
	})
	return def
}

// NewEd25519 generates an Ed25519 signer.
func NewEd25519(kid string) auth.Signer {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	return auth.Signer{ID: kid, Key: priv}
}

// NewRSA generates a 2048-bit RSA signer.
func NewRSA(kid string) auth.Signer {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return auth.Signer{ID: kid, Key: k}
}

// Keys is the authority's key set.
func (a *Authority) Keys() auth.StaticKeys {
	return auth.StaticKeys{a.Ed.Public(), a.RSA.Public()}
}

// Config verifies the authority's tokens.
func (a *Authority) Config() auth.Config {
	return auth.Config{Keys: a.Keys(), Issuer: Issuer, Audience: Audience}
}

// Authenticator verifies the authority's tokens.
func (a *Authority) Authenticator() *auth.Authenticator {
	au, err := auth.NewAuthenticator(a.Config())
	if err != nil {
		panic(err)
	}
	return au
}

// ServerOptions authenticate a platform server's calls with the authority's tokens.
func (a *Authority) ServerOptions() []grpc.ServerOption { return a.Authenticator().ServerOptions() }

// WriteJWKS writes the authority's public keys as a JWKS file in dir and returns its path.
func (a *Authority) WriteJWKS(t testing.TB, dir string) string {
	t.Helper()
	data, err := auth.MarshalJWKS(a.Ed.Public(), a.RSA.Public())
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "jwks.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Claims are the claims of a valid token of tenant/subject for an hour.
func Claims(tenant, subject string, scopes ...string) auth.TokenClaims {
	return auth.TokenClaims{Issuer: Issuer, Audience: Audience, Tenant: tenant, Subject: subject, Scopes: scopes, TTL: time.Hour}
}

// Token mints an EdDSA token of Tenant for subject.
func (a *Authority) Token(subject string, scopes ...string) string {
	return a.Mint(a.Ed, Claims(Tenant, subject, scopes...))
}

// Mint signs c with s, panicking on failure.
func (a *Authority) Mint(s auth.Signer, c auth.TokenClaims) string {
	tok, err := s.Mint(c)
	if err != nil {
		panic(err)
	}
	return tok
}

// As is a context whose outgoing calls carry a token of Tenant for subject.
func (a *Authority) As(subject string, scopes ...string) context.Context {
	return WithToken(context.Background(), a.Token(subject, scopes...))
}

// WithToken adds "authorization: Bearer token" to ctx's outgoing metadata.
func WithToken(ctx context.Context, token string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, auth.AuthorizationKey, "Bearer "+token)
}

// As is Default().As.
func As(subject string, scopes ...string) context.Context { return Default().As(subject, scopes...) }

// ServerOptions is Default().ServerOptions.
func ServerOptions() []grpc.ServerOption { return Default().ServerOptions() }

// Identity is the identity in an in-process handler's context, as the interceptor would put
// it there for a token of Tenant for subject.
func Identity(subject string) context.Context {
	return identity.With(context.Background(), identity.Identity{Tenant: Tenant, Subject: subject})
}

// TLSFiles are a CA certificate and a server certificate and key it signed, for 127.0.0.1,
// ::1 and localhost, as PEM files.
type TLSFiles struct {
	CA, Cert, Key string
}

// NewTLS writes a fresh CA and a loopback server certificate into dir.
func NewTLS(t testing.TB, dir string) TLSFiles {
	t.Helper()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(err)
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "fray test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	must(err)
	ca, err := x509.ParseCertificate(caDER)
	must(err)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(err)
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, ca, &key.PublicKey, caKey)
	must(err)
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	must(err)
	f := TLSFiles{CA: filepath.Join(dir, "ca.pem"), Cert: filepath.Join(dir, "server.pem"), Key: filepath.Join(dir, "server-key.pem")}
	must(os.WriteFile(f.CA, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o644))
	must(os.WriteFile(f.Cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leafDER}), 0o644))
	must(os.WriteFile(f.Key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600))
	return f
}
