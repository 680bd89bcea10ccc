package platform

import (
	"context"
	"errors"
	"flag"

	"google.golang.org/grpc"
)

// ServerSecurity is what a service takes from its flags to authenticate calls and serve TLS.
type ServerSecurity struct {
	JWKS, Issuer, Audience string
	TLSCert, TLSKey        string
}

// AddServerSecurityFlags adds --jwks, --token-issuer, --token-audience, --tls-cert and
// --tls-key (each with its environment fallback) to fs.
func AddServerSecurityFlags(fs *flag.FlagSet) *ServerSecurity {
	s := &ServerSecurity{}
	fs.StringVar(&s.JWKS, "jwks", Env("FRAY_JWKS", ""), "public keys verifying the bearer tokens: a JWKS file or an https URL, loaded again for a new key id and every 5 minutes (env FRAY_JWKS; required)")
	fs.StringVar(&s.Issuer, "token-issuer", Env("FRAY_TOKEN_ISSUER", ""), "the issuer (iss) tokens must name (env FRAY_TOKEN_ISSUER; required)")
	fs.StringVar(&s.Audience, "token-audience", Env("FRAY_TOKEN_AUDIENCE", "fray"), "the audience (aud) tokens must name (env FRAY_TOKEN_AUDIENCE)")
	fs.StringVar(&s.TLSCert, "tls-cert", Env("FRAY_TLS_CERT", ""), "serve TLS with this PEM certificate chain (env FRAY_TLS_CERT; with --tls-key)")
	fs.StringVar(&s.TLSKey, "tls-key", Env("FRAY_TLS_KEY", ""), "the PEM private key of --tls-cert (env FRAY_TLS_KEY)")
	return s
}

// ServerOptions load the key set and the certificate: the options of NewServer.
func (s *ServerSecurity) ServerOptions(ctx context.Context) ([]grpc.ServerOption, error) {
	if s.JWKS == "" {
		return nil, errors.New("no --jwks (FRAY_JWKS): every call needs a token, and tokens are verified against the public keys of a JWKS file or URL")
	}
	if s.Issuer == "" {
		return nil, errors.New("no --token-issuer (FRAY_TOKEN_ISSUER): the issuer tokens must name")
	}
	keys, err := NewJWKS(ctx, s.JWKS, JWKSOptions{})
	if err != nil {
		return nil, err
	}
	au, err := NewAuthenticator(AuthConfig{Keys: keys, Issuer: s.Issuer, Audience: s.Audience})
	if err != nil {
		return nil, err
	}
	opts, err := ServerTLS(s.TLSCert, s.TLSKey)
	if err != nil {
		return nil, err
	}
	return append(opts, au.ServerOptions()...), nil
}
