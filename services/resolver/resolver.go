// Package resolver serves the rules engine over gRPC (fray.rules.v1.RulesService). It is
// stateless: every request carries the state and the dice position it needs, its sheets
// sent once and then named by digest (a replica that lacks one says so, and is sent it).
// Every call is authenticated (the server's interceptor); Resolve answers only the encounter
// service's scope, and ListRulesets, DescribeRuleset and Roll any authenticated caller: they
// describe public rules and roll dice that record nothing.
package resolver

import (
	"context"
	"sync"

	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Server implements RulesService over a registry.
type Server struct {
	rulesv1.UnimplementedRulesServiceServer
	reg    *engine.Registry
	sheets *sheetCache
	// rulesets is ListRulesets' answer, made once: the registry does not change while the
	// server serves, and describing every system (to take its id and name) was 42% of the
	// server's CPU beside a flood of ListRulesets (BenchmarkFairness's profile).
	rulesets func() *rulesv1.ListRulesetsResponse
}

// Option tunes a Server.
type Option func(*Server)

// WithSheetCache bounds the sheets the server keeps by digest (ResolveRequest.sheet_sha256)
// to about n bytes of memory (default DefaultSheetCacheBytes).
func WithSheetCache(n int) Option { return func(s *Server) { s.sheets = newSheetCache(n) } }

// New returns a RulesService over reg. It keeps the sheets it is sent by their digests, so
// that the encounter service sends each sheet once rather than with every command; it is
// stateless still in that any replica answers any call: one that lacks a sheet says so
// (FailedPrecondition, sheets.ReasonNotCached) and is sent it again.
func New(reg *engine.Registry, opts ...Option) *Server {
	s := &Server{reg: reg, sheets: newSheetCache(DefaultSheetCacheBytes)}
	s.rulesets = sync.OnceValue(func() *rulesv1.ListRulesetsResponse {
		out := &rulesv1.ListRulesetsResponse{}
		for _, d := range reg.Rulesets() {
			out.Rulesets = append(out.Rulesets, &rulesv1.Ruleset{Id: d.GetId(), Name: d.GetName(), Versions: reg.Versions(d.GetId())})
		}
		return out
	})
	for _, o := range opts {
		o(s)
	}
	return s
}

// CachedSheets is how many sheets the server keeps by digest, and what they cost in bytes.
func (s *Server) CachedSheets() (n, bytes int) { return s.sheets.stats() }

// ListRulesets answers the same message to every caller (read only: gRPC marshals it).
func (s *Server) ListRulesets(context.Context, *rulesv1.ListRulesetsRequest) (*rulesv1.ListRulesetsResponse, error) {
	return s.rulesets(), nil
}

func (s *Server) DescribeRuleset(_ context.Context, req *rulesv1.DescribeRulesetRequest) (*rulesv1.DescribeRulesetResponse, error) {
	sys, err := s.reg.Lookup(req.GetId(), req.GetVersion())
	if err != nil {
		return nil, refusal.Status(err)
	}
	return &rulesv1.DescribeRulesetResponse{Ruleset: engine.Describe(sys)}, nil
}

// MaxRollOffset bounds the offset of a scheme-1 Roll request, whose stream (one ChaCha8
// stream keyed by the seed) is skipped to it word by word: the bound of a scheme-1 encounter,
// dice.Scheme1.MaxOffset(). A scheme-2 request reaches any position of its scheme
// (dice.Scheme2.MaxOffset()) at the same cost.
const MaxRollOffset = 1 << 24

// Roll rolls an expression at a position of a seed's stream under the request's dice scheme
// (0 or 1: scheme 1; 2: scheme 2), as an encounter of that scheme rolled it: a roll of a log
// is re-derived with its own expression, offset and scheme and the revealed seed.
func (s *Server) Roll(_ context.Context, req *rulesv1.RollRequest) (*rulesv1.RollResponse, error) {
	e, err := dice.Parse(req.GetExpression())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	scheme := dice.SchemeOf(req.GetScheme())
	if !scheme.Known() {
		return nil, status.Errorf(codes.InvalidArgument, "dice scheme %d is unknown: a log holds scheme 1 (recorded as 0) or 2 (Roll.scheme, EncounterCreated.dice_scheme)", req.GetScheme())
	}
	seed := req.GetSeed()
	if len(seed) == 0 {
		seed = dice.NewSeed()
	}
	if req.GetOffset() > scheme.MaxOffset() {
		return nil, status.Errorf(codes.InvalidArgument, "offset %d is beyond %d, the furthest an encounter's dice reach under scheme %d", req.GetOffset(), scheme.MaxOffset(), scheme)
	}
	st, err := dice.NewStreamScheme(scheme, seed, req.GetOffset())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	return &rulesv1.RollResponse{Roll: st.Roll(e), Seed: seed}, nil
}

// Resolve decides one command: the events, and the hash of the state they lead to unless the
// request omits it (the deterministic encoding and sha256 of the whole state). Only a
// caller holding identity.ScopeResolve (the encounter service) is answered: Resolve takes the
// actor and the seed on the caller's word.
func (s *Server) Resolve(ctx context.Context, req *rulesv1.ResolveRequest) (*rulesv1.ResolveResponse, error) {
	if id, _ := identity.From(ctx); !id.HasScope(identity.ScopeResolve) {
		who := id.Principal()
		if who == "" {
			who = "an unauthenticated caller"
		}
		return nil, status.Errorf(codes.PermissionDenied, "Resolve answers only the encounter service (a token with the %q scope), not %s: play through EncounterService", identity.ScopeResolve, who)
	}
	if req.GetState().GetEncounterId() == "" {
		return nil, status.Error(codes.InvalidArgument, "resolve needs a state with an encounter id")
	}
	if req.GetCommand() == nil {
		return nil, status.Error(codes.InvalidArgument, "resolve needs a command")
	}
	// A dice position beyond what an encounter can have used is refused before any work
	// (InvalidArgument: the request is wrong whatever the state of the system).
	st := req.GetState()
	if err := dice.CheckOffset(dice.SchemeOf(st.GetDiceScheme()), max(st.GetDiceOffset(), st.GetDiceHighWater()), 0); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "the state's dice_offset %d (dice_high_water %d) cannot be played: %v", st.GetDiceOffset(), st.GetDiceHighWater(), err)
	}
	if err := s.fillSheets(req); err != nil {
		return nil, err
	}
	events, next, err := s.reg.Resolve(req.GetState(), req.GetCommand(), req.GetActor(), req.GetSeed(), req.GetRewindState())
	if err != nil {
		return nil, refusal.Status(err)
	}
	out := &rulesv1.ResolveResponse{Events: events}
	if !req.GetOmitStateSha256() {
		out.StateSha256 = engine.Hash(next)
	}
	return out, nil
}

// Odds answers the odds of a command being prepared on the state the caller sends (rules/odds).
// It reads only what the request carries: a caller sends the state as its player sees it, so
// any authenticated caller may ask.
func (s *Server) Odds(_ context.Context, req *rulesv1.OddsRequest) (*rulesv1.OddsResponse, error) {
	if req.GetState() == nil || req.GetCommand() == nil {
		return nil, status.Error(codes.InvalidArgument, "odds need a state and a command")
	}
	o, err := odds.Of(s.reg, req.GetState(), req.GetCommand(), req.GetActor())
	if err != nil {
		return nil, refusal.Status(err)
	}
	return &rulesv1.OddsResponse{Odds: o}, nil
}
