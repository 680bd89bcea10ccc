package commands

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"strconv"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
)

// PrincipalHeader is the request metadata key that carries the caller's principal.
const PrincipalHeader = "fray-principal"

// DefaultAddr is the EncounterService address when neither --addr nor FRAY_ADDR is given.
const DefaultAddr = "localhost:7070"

// DefaultPrincipal is the principal when neither --as nor FRAY_PRINCIPAL is given.
const DefaultPrincipal = "gm"

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// conn holds the connection flags of a subcommand.
type conn struct {
	addr      string
	rulesAddr string
	as        string
	commandID string
	expected  optionalUint
}

// addConnFlags adds --addr and --as.
func addConnFlags(fs *flag.FlagSet) *conn {
	c := &conn{}
	fs.StringVar(&c.addr, "addr", envOr("FRAY_ADDR", DefaultAddr), "EncounterService address (env FRAY_ADDR)")
	fs.StringVar(&c.as, "as", envOr("FRAY_PRINCIPAL", DefaultPrincipal), "principal to act as, sent as \""+PrincipalHeader+"\" metadata (env FRAY_PRINCIPAL)")
	return c
}

// addCommandFlags adds --command-id and, unless it is a create, --expected-sequence.
func (c *conn) addCommandFlags(fs *flag.FlagSet, expected bool) {
	fs.StringVar(&c.commandID, "command-id", "", "idempotency key of the command (default: random)")
	if expected {
		fs.Var(&c.expected, "expected-sequence", "refuse the command unless the encounter is at this event sequence")
	}
}

// addRulesFlags adds --addr and --rules-addr for the RulesService commands.
func addRulesFlags(fs *flag.FlagSet) *conn {
	c := &conn{}
	fs.StringVar(&c.addr, "addr", envOr("FRAY_ADDR", DefaultAddr), "fray address (env FRAY_ADDR); the default of --rules-addr")
	fs.StringVar(&c.rulesAddr, "rules-addr", os.Getenv("FRAY_RULES_ADDR"), "RulesService address (env FRAY_RULES_ADDR; default: --addr, as `fray dev` serves both)")
	fs.StringVar(&c.as, "as", envOr("FRAY_PRINCIPAL", DefaultPrincipal), "principal, sent as \""+PrincipalHeader+"\" metadata (env FRAY_PRINCIPAL)")
	return c
}

// id is the command id: --command-id, or a fresh random one.
func (c *conn) id() string {
	if c.commandID != "" {
		return c.commandID
	}
	return NewCommandID()
}

// NewCommandID returns 16 random bytes in hex.
func NewCommandID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// outgoing adds the principal to ctx's outgoing metadata.
func (c *conn) outgoing(ctx context.Context) context.Context {
	if c.as == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, PrincipalHeader, c.as)
}

func dialAddr(addr string) (*grpc.ClientConn, error) {
	if addr == "" {
		return nil, Usagef("no server address: give --addr or set FRAY_ADDR")
	}
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", addr, err)
	}
	return cc, nil
}

// encounters dials the EncounterService; close the connection when done.
func (c *conn) encounters() (encounterv1.EncounterServiceClient, func(), error) {
	cc, err := dialAddr(c.addr)
	if err != nil {
		return nil, nil, err
	}
	return encounterv1.NewEncounterServiceClient(cc), func() { _ = cc.Close() }, nil
}

// rules dials the RulesService at --rules-addr, else --addr.
func (c *conn) rules() (rulesv1.RulesServiceClient, func(), error) {
	addr := c.rulesAddr
	if addr == "" {
		addr = c.addr
	}
	cc, err := dialAddr(addr)
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

func (o *optionalUint) Set(s string) error {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("not a sequence number: %q", s)
	}
	o.set, o.v = true, v
	return nil
}

// ptr is the value for an optional proto field: nil when not given.
func (o *optionalUint) ptr() *uint64 {
	if !o.set {
		return nil
	}
	v := o.v
	return &v
}
