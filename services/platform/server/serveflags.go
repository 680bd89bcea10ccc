package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"time"

	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/auth"
	"google.golang.org/grpc"
)

// ServeFlags are how a service serves: its graceful stop, its plaintext health port, and how
// long a client connection lives.
type ServeFlags struct {
	Grace        time.Duration
	HealthListen string
	Age          ConnectionAge
}

// AddServeFlags adds --grace, --health-listen, --max-connection-age and
// --max-connection-age-grace (each with its environment fallback) to fs; age gives the
// service's own defaults for the last two.
func AddServeFlags(fs *flag.FlagSet, age ConnectionAge) *ServeFlags {
	f := &ServeFlags{}
	fs.DurationVar(&f.Grace, "grace", 10*time.Second, "graceful stop timeout: open watch streams are ended at once, calls under way get this long (env FRAY_GRACE)")
	fs.StringVar(&f.HealthListen, "health-listen", "", "also serve gRPC health, alone, in plaintext and without tokens, on this address, for probes that speak no TLS (the kubelet's); it answers what the main port answers (env FRAY_HEALTH_LISTEN; default: none)")
	fs.DurationVar(&f.Age.Max, "max-connection-age", age.Max, "a client connection is asked to go (GOAWAY) after about this long, so that clients resolve the service's name again and spread over its instances, new ones included (env FRAY_MAX_CONNECTION_AGE; 0: never)")
	fs.DurationVar(&f.Age.Grace, "max-connection-age-grace", age.Grace, "calls and streams under way on a connection asked to go get this long before it is closed (env FRAY_MAX_CONNECTION_AGE_GRACE)")
	return f
}

// Check refuses values that cannot work.
func (f *ServeFlags) Check(fs *flag.FlagSet) error {
	if f.Grace <= 0 {
		return platform.FlagError(fs, "grace", "the graceful stop needs some time (such as 10s)")
	}
	if f.Age.Max < 0 {
		return platform.FlagError(fs, "max-connection-age", "give a duration such as 30s, or 0 for connections that live for ever")
	}
	if f.Age.Max > 0 && f.Age.Grace <= 0 {
		return platform.FlagError(fs, "max-connection-age-grace", "calls under way need some time to finish (such as 10s)")
	}
	return nil
}

// ServerOptions are the server options of these flags (the connection age).
func (f *ServeFlags) ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{WithConnectionAge(f.Age)}
}

// Listen opens the health port, when --health-listen is given, and serves it with srv
// (Server.ServeHealthOn).
func (f *ServeFlags) Listen(srv *Server) error {
	if f.HealthListen == "" {
		return nil
	}
	lis, err := net.Listen("tcp", f.HealthListen)
	if err != nil {
		return fmt.Errorf("--health-listen (FRAY_HEALTH_LISTEN) %s: %w", f.HealthListen, err)
	}
	srv.ServeHealthOn(lis)
	return nil
}

// ServerSecurity is what a service takes from its flags to authenticate calls and serve TLS.
type ServerSecurity struct {
	JWKS, Issuer, Audience string
	// MaxLifetime is the furthest from now a token's expiry may be (AuthConfig.MaxLifetime).
	MaxLifetime     time.Duration
	TLSCert, TLSKey string
}

// AddServerSecurityFlags adds --jwks, --token-issuer, --token-audience,
// --token-max-lifetime, --tls-cert and --tls-key (each with its environment fallback) to fs.
func AddServerSecurityFlags(fs *flag.FlagSet) *ServerSecurity {
	s := &ServerSecurity{}
	fs.StringVar(&s.JWKS, "jwks", platform.Env("FRAY_JWKS", ""), "public keys verifying the bearer tokens: a JWKS file or an https URL, loaded again for a new key id and every 5 minutes (env FRAY_JWKS; required)")
	fs.StringVar(&s.Issuer, "token-issuer", platform.Env("FRAY_TOKEN_ISSUER", ""), "the issuer (iss) tokens must name (env FRAY_TOKEN_ISSUER; required)")
	fs.StringVar(&s.Audience, "token-audience", platform.Env("FRAY_TOKEN_AUDIENCE", "fray"), "the audience (aud) tokens must name (env FRAY_TOKEN_AUDIENCE)")
	fs.DurationVar(&s.MaxLifetime, "token-max-lifetime", auth.DefaultMaxLifetime, "refuse a token whose expiry (exp) is further than this from now: a stolen token is good for no longer (env FRAY_TOKEN_MAX_LIFETIME)")
	fs.StringVar(&s.TLSCert, "tls-cert", platform.Env("FRAY_TLS_CERT", ""), "serve TLS with this PEM certificate chain (env FRAY_TLS_CERT; with --tls-key)")
	fs.StringVar(&s.TLSKey, "tls-key", platform.Env("FRAY_TLS_KEY", ""), "the PEM private key of --tls-cert (env FRAY_TLS_KEY)")
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
	keys, err := auth.NewJWKS(ctx, s.JWKS, auth.JWKSOptions{})
	if err != nil {
		return nil, err
	}
	if s.MaxLifetime <= 0 {
		return nil, fmt.Errorf("--token-max-lifetime (FRAY_TOKEN_MAX_LIFETIME) %s: give a positive duration, such as %s", s.MaxLifetime, auth.DefaultMaxLifetime)
	}
	au, err := auth.NewAuthenticator(auth.Config{Keys: keys, Issuer: s.Issuer, Audience: s.Audience, MaxLifetime: s.MaxLifetime})
	if err != nil {
		return nil, err
	}
	opts, err := ServerTLS(s.TLSCert, s.TLSKey)
	if err != nil {
		return nil, err
	}
	return append(opts, au.ServerOptions()...), nil
}
