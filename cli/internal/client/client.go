// Package client is the plumbing the fray subcommands share: the connection to the server and
// its flags (Conn), the cobra scaffolding of a subcommand (NewCommand, RunE, Group, Execute and
// the help it prints), errors and usage errors, escaping what the server sends (Printable),
// decoding sheets (LoadCombatant, DecodeProto), enum choices, and the narration and table
// helpers of the state tables.
package client

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/spf13/pflag"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// DefaultAddr is the EncounterService address when neither --addr nor FRAY_ADDR is given.
const DefaultAddr = "localhost:7070"

// DefaultPrincipal is the name --as gives when neither --as nor FRAY_PRINCIPAL is given.
const DefaultPrincipal = "gm"

func EnvOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// Conn holds the connection flags of a subcommand.
type Conn struct {
	Addr       string
	rulesAddr  string
	as         string
	token      string
	onBehalfOf string
	tlsCA      string
	useTLS     bool
	CommandID  string
	Expected   optionalUint
	// timeout bounds each unary call (not the streams: a watch lasts as long as it likes).
	timeout time.Duration
	// dialed is the last connection dial made (a resumed watch wakes it: resume).
	Dialed *grpc.ClientConn
	// raw: responses as the server sent them (for --json); otherwise every string of every
	// response is escaped for the terminal (Printable).
	Raw bool
	// DevTenant and DevScopes shape a token minted from the dev key: the tenant of a bare
	// --as NAME (default auth.DevTenant), and the scopes it holds (`fray idle`: the
	// tenant's administrator's).
	DevTenant string
	DevScopes []string
	// DevTTL, when longer than auth.DevTokenTTL, is the lifetime of that token (`fray
	// invite`: an invite expires no later than the token that mints it).
	DevTTL time.Duration
}

// AddConnFlags adds --addr, --as and the security flags.
func AddConnFlags(fs *pflag.FlagSet) *Conn {
	c := &Conn{}
	fs.StringVar(&c.Addr, "addr", EnvOr("FRAY_ADDR", DefaultAddr), "EncounterService address (env FRAY_ADDR)")
	c.addSecurityFlags(fs)
	return c
}

// addSecurityFlags adds --as, --token, --on-behalf-of, --tls-ca and --tls.
func (c *Conn) addSecurityFlags(fs *pflag.FlagSet) {
	fs.StringVar(&c.as, "as", EnvOr("FRAY_PRINCIPAL", DefaultPrincipal), "act as NAME (or TENANT/NAME) against a fray dev server: the CLI mints the token from its dev key (env FRAY_PRINCIPAL; ignored with --token)")
	fs.StringVar(&c.token, "token", os.Getenv("FRAY_TOKEN"), "bearer token (JWT) sent on every call; takes precedence over --as (env FRAY_TOKEN)")
	fs.StringVar(&c.onBehalfOf, "on-behalf-of", os.Getenv("FRAY_ON_BEHALF_OF"), "act for this subject of the token's tenant (the token needs the \""+identity.ScopeDelegate+"\" scope; env FRAY_ON_BEHALF_OF)")
	fs.StringVar(&c.tlsCA, "tls-ca", os.Getenv("FRAY_TLS_CA"), "verify the server's TLS certificate against this PEM CA (env FRAY_TLS_CA)")
	fs.BoolVar(&c.useTLS, "tls", os.Getenv("FRAY_TLS") != "", "use TLS verified by the system roots (env FRAY_TLS; the default for an address not on loopback, plaintext only to loopback)")
	fs.DurationVar(&c.timeout, "timeout", DefaultTimeout, "give up on a call that has no answer after this long; watches are not bounded (env FRAY_TIMEOUT; 0: no limit)")
}

// DefaultTimeout bounds each call of the CLI but the streams (--timeout).
const DefaultTimeout = 10 * time.Second

// timeoutUnary gives each unary call a deadline of d, unless its context has an earlier one,
// and says so when it passes.
func timeoutUnary(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if d <= 0 {
			return invoker(ctx, method, req, reply, cc, opts...)
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= d {
			return invoker(ctx, method, req, reply, cc, opts...)
		}
		cctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		err := invoker(cctx, method, req, reply, cc, opts...)
		// Ours: our deadline passed, or all but (the server, which has it too, may end the
		// call a hair before this side's timer).
		dl, _ := cctx.Deadline()
		if status.Code(err) == codes.DeadlineExceeded && ctx.Err() == nil && (cctx.Err() != nil || time.Until(dl) < 100*time.Millisecond) {
			return status.Errorf(codes.DeadlineExceeded, "no answer from %s within %s (--timeout, FRAY_TIMEOUT): the server may be overloaded or unreachable; a command may still have been recorded, see `fray log`", cc.Target(), d)
		}
		return err
	}
}

// AddCommandFlags adds --command-id, --json and, unless it is a create, --expected-sequence.
func (c *Conn) AddCommandFlags(fs *pflag.FlagSet, expected bool) {
	fs.StringVar(&c.CommandID, "command-id", "", "idempotency key of the command (default: random)")
	fs.BoolVar(&c.Raw, "json", false, "print the server's response in protojson, one object, instead of the events in words")
	if expected {
		fs.Var(&c.Expected, "expected-sequence", "refuse the command unless the encounter is at this event sequence")
	}
}

// AddRulesFlags adds --addr and --rules-addr for the RulesService commands.
func AddRulesFlags(fs *pflag.FlagSet) *Conn {
	c := &Conn{}
	fs.StringVar(&c.Addr, "addr", EnvOr("FRAY_ADDR", DefaultAddr), "fray address (env FRAY_ADDR); the default of --rules-addr")
	fs.StringVar(&c.rulesAddr, "rules-addr", os.Getenv("FRAY_RULES_ADDR"), "RulesService address (env FRAY_RULES_ADDR; default: --addr, as `fray dev` serves both)")
	c.addSecurityFlags(fs)
	return c
}

// ID is the command id: --command-id, or a fresh random one.
func (c *Conn) ID() string {
	if c.CommandID != "" {
		return c.CommandID
	}
	return NewCommandID()
}

// NewCommandID returns 16 random bytes in hex.
func NewCommandID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// Outgoing is the context of a call. The token travels in the connection's call
// credentials (see dial).
func (c *Conn) Outgoing(ctx context.Context) context.Context { return ctx }

// tokenFor is the token source of calls to addr: --token, else a token minted for --as from
// the dev key of the fray dev server at addr (found by auth.FindDevKey), else none.
func (c *Conn) tokenFor(addr string) (auth.TokenSource, error) {
	if c.token != "" {
		return auth.StaticToken(strings.TrimSpace(c.token)), nil
	}
	path, ok := auth.FindDevKey(addr)
	if !ok || c.as == "" {
		return nil, nil
	}
	key, err := auth.LoadDevKey(path)
	if err != nil {
		return nil, fmt.Errorf("dev signing key: %w", err)
	}
	tenant, subject := auth.DevSubject(c.as)
	if c.DevTenant != "" && !strings.Contains(c.as, "/") {
		tenant = c.DevTenant
	}
	if err := identity.CheckName("tenant", tenant); err != nil {
		return nil, Usagef("--as %q: %v", c.as, err)
	}
	if err := identity.CheckName("name", subject); err != nil {
		return nil, Usagef("--as %q: %v", c.as, err)
	}
	return &auth.MintedToken{Signer: key, Claims: auth.DevClaims(tenant, subject, max(auth.DevTokenTTL, c.DevTTL), c.DevScopes...)}, nil
}

// Token is the token the calls to addr carry (--token, else one minted for --as from the dev
// key of the fray dev server at addr), or an error saying there is none.
func (c *Conn) Token(ctx context.Context, addr string) (string, error) {
	src, err := c.tokenFor(addr)
	if err != nil {
		return "", err
	}
	if src == nil {
		return "", fmt.Errorf("no token for %s: give --token (or FRAY_TOKEN), or run `fray dev` there", addr)
	}
	return src.Token(ctx)
}

// Dial connects to addr: TLS unless addr is on loopback (or --tls-ca, --tls), with the
// token of tokenFor on every call.
func (c *Conn) Dial(addr string) (*grpc.ClientConn, error) {
	if addr == "" {
		return nil, Usagef("no server address: give --addr or set FRAY_ADDR")
	}
	creds, secure, err := server.Transport(addr, c.tlsCA, c.useTLS)
	if err != nil {
		return nil, err
	}
	opts := []grpc.DialOption{grpc.WithTransportCredentials(creds), server.WithClientKeepalive(),
		grpc.WithChainUnaryInterceptor(retryUnary, timeoutUnary(c.timeout))}
	if !c.Raw {
		opts = append(opts, grpc.WithChainUnaryInterceptor(printableUnary), grpc.WithChainStreamInterceptor(printableStream))
	}
	src, err := c.tokenFor(addr)
	if err != nil {
		return nil, err
	}
	if src != nil {
		opts = append(opts, grpc.WithPerRPCCredentials(auth.PerRPCToken(src, c.onBehalfOf, secure)))
	}
	cc, err := grpc.NewClient(addr, opts...)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", addr, err)
	}
	c.Dialed = cc
	return cc, nil
}

// Encounters dials the EncounterService; close the connection when done.
func (c *Conn) Encounters() (encounterv1.EncounterServiceClient, func(), error) {
	cc, err := c.Dial(c.Addr)
	if err != nil {
		return nil, nil, err
	}
	return encounterv1.NewEncounterServiceClient(cc), func() { _ = cc.Close() }, nil
}

// Rules dials the RulesService at --rules-addr, else --addr.
func (c *Conn) Rules() (rulesv1.RulesServiceClient, func(), error) {
	addr := c.rulesAddr
	if addr == "" {
		addr = c.Addr
	}
	cc, err := c.Dial(addr)
	if err != nil {
		return nil, nil, err
	}
	return rulesv1.NewRulesServiceClient(cc), func() { _ = cc.Close() }, nil
}

// optionalUint is a uint64 flag that knows whether it was given.
type optionalUint struct {
	set bool
	v   uint64
}

func (o *optionalUint) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.FormatUint(o.v, 10)
}

// Type names the value in the usage.
func (*optionalUint) Type() string { return "uint" }

func (o *optionalUint) Set(s string) error {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("not a sequence number: %q", s)
	}
	o.set, o.v = true, v
	return nil
}

// Ptr is the value for an optional proto field: nil when not given.
func (o *optionalUint) Ptr() *uint64 {
	if !o.set {
		return nil
	}
	v := o.v
	return &v
}
