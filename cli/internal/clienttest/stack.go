package clienttest

import (
	"log/slog"
	"testing"

	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/systems"
	"github.com/fray-rpg/fray/services/encounter"
	"github.com/fray-rpg/fray/services/encounter/store"
	"github.com/fray-rpg/fray/services/platform/natstest"
	"github.com/fray-rpg/fray/services/resolver"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
)

// Stack is an in-process fray for one test: the encounter service, deciding with the rules
// in-process, on a real embedded JetStream (its own port and store directory, removed when the
// test ends), and the rules service, both on one loopback gRPC server.
type Stack struct {
	// Addr is the gRPC address of EncounterService and RulesService (--addr).
	Addr string
	// NATSURL is the JetStream server's URL (--nats-url) for the log tools.
	NATSURL string
	// Service is the encounter service.
	Service *encounter.Service
}

// StartStack starts a Stack that verifies the tokens the CLI mints with --as (the test
// package's TestMain must call Main). opts tune the encounter service (a fixed seed).
func StartStack(t *testing.T, opts encounter.Options) *Stack {
	t.Helper()
	ns, nc := natstest.Start(t)
	quiet := slog.New(slog.DiscardHandler)
	log, err := store.Open(t.Context(), nc, store.Config{Log: quiet})
	require.NoError(t, err)
	reg := systems.Registry()
	svc := encounter.New(log, log, encounter.LocalDecider{Registry: reg}, reg, opts)
	addr := ServeWith(t, func(g *grpc.Server) {
		encounter.Register(g, svc)
		rulesv1.RegisterRulesServiceServer(g, resolver.New(reg))
	})
	return &Stack{Addr: addr, NATSURL: ns.ClientURL(), Service: svc}
}
