package encounter

import (
	"context"
	"sync/atomic"

	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/services/platform"
	"google.golang.org/grpc"
)

// Decider decides commands: the resolver, over gRPC or in-process. A response carries
// state_sha256 unless the request set omit_state_sha256; the service compares it with the
// hash of its own fold of the events whenever it is there.
type Decider interface {
	Resolve(context.Context, *rulesv1.ResolveRequest) (*rulesv1.ResolveResponse, error)
}

// DefaultHashEvery is how often RemoteDecider asks the resolver for the hash of the state
// a command leads to: one call in 64.
const DefaultHashEvery = 64

// RemoteDecider asks a RulesService over gRPC. Use it by pointer (&RemoteDecider{...}).
//
// Hashing a state (its deterministic encoding, then sha256) costs about as much as deciding
// a command, and the check needs it twice: the resolver's hash of the state it reached, and
// the service's of its own fold of the events. So the resolver is asked for it on one call in
// HashEvery only (and on the first), and the service compares only then: a resolver that
// folds otherwise than this service (another version of the rules, a bug) is still seen and
// logged within HashEvery commands, while the other calls hash nothing. The log is the truth
// either way: what is recorded is the events, never the resolver's state.
type RemoteDecider struct {
	Client rulesv1.RulesServiceClient
	// HashEvery: one call in HashEvery asks for state_sha256 (default DefaultHashEvery; 1:
	// every call).
	HashEvery int

	calls atomic.Uint64
}

func (d *RemoteDecider) Resolve(ctx context.Context, req *rulesv1.ResolveRequest) (*rulesv1.ResolveResponse, error) {
	every := uint64(d.HashEvery)
	if d.HashEvery <= 0 {
		every = DefaultHashEvery
	}
	sent := resend(req)
	if (d.calls.Add(1)-1)%every != 0 {
		sent.OmitStateSha256 = true
	}
	return d.Client.Resolve(ctx, sent, grpc.WaitForReady(true))
}

// resend is a new request holding req's fields (not copies of them), for the decider to
// change without changing the caller's.
func resend(req *rulesv1.ResolveRequest) *rulesv1.ResolveRequest {
	return &rulesv1.ResolveRequest{State: req.GetState(), Command: req.GetCommand(), Actor: req.GetActor(), Seed: req.GetSeed(),
		RewindState: req.GetRewindState(), OmitStateSha256: req.GetOmitStateSha256()}
}

// LocalDecider decides in-process with a registry. It hashes the state it reaches unless
// the request omits it, so that a service deciding in-process (tests, benchmarks) compares
// its fold with Resolve's on every command.
type LocalDecider struct{ Registry *engine.Registry }

func (d LocalDecider) Resolve(ctx context.Context, req *rulesv1.ResolveRequest) (*rulesv1.ResolveResponse, error) {
	// In-process, the caller's tenant goes into the decision too (over gRPC the resolver
	// takes it from the state, which the service checked against the caller's first).
	events, next, err := d.Registry.ResolveWith(req.GetState(), req.GetCommand(), engine.Env{
		Actor: req.GetActor(), Tenant: platform.Tenant(ctx), Seed: req.GetSeed(), RewindState: req.GetRewindState(),
	})
	if err != nil {
		return nil, platform.Status(err)
	}
	out := &rulesv1.ResolveResponse{Events: events}
	if !req.GetOmitStateSha256() {
		out.StateSha256 = engine.Hash(next)
	}
	return out, nil
}
