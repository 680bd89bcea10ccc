package auth

// Tokens bound to one encounter (an invite's, Identity.Encounter): such a token calls only the
// RPCs about that encounter, each naming it in its request's encounter_id, and nothing else
// of its tenant — no CreateEncounter, no ListEncounters, no administration, no RulesService.
// Within that encounter the service's own checks decide what its role allows. Once the role
// is revoked the token is refused there too, so that nothing is left of an invite: it can
// neither create encounters (and mint invites from them) nor outlive its role.

import (
	"context"
	"sync"

	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
)

// boundAllowed are the RPCs a token bound to an encounter may call, as each service declared
// them (AllowBound) when it was registered: the encounter service's from its access table, so
// that a new RPC about an encounter is declared by its row there; the invites' CreateInvite
// (gateway.Invites.Register). An RPC not declared (a new one of another service included) is
// refused to such a token.
var boundAllowed sync.Map // method -> true

// AllowBound lets tokens bound to an encounter call methods, each about the encounter its
// request's encounter_id names (which must be the token's): a service declares them as it is
// registered, from its own table of access.
func AllowBound(methods ...string) {
	for _, m := range methods {
		boundAllowed.Store(m, true)
	}
}

// mayBound reports whether a token bound to an encounter may call method.
func mayBound(method string) bool {
	_, ok := boundAllowed.Load(method)
	return ok
}

// encounterOf is a request naming its encounter.
type encounterOf interface{ GetEncounterId() string }

// checkBound refuses a call of a token bound to an encounter that is not about that
// encounter; any call of another token passes.
func checkBound(ctx context.Context, method string, req any) error {
	id, ok := identity.From(ctx)
	if !ok || id.Encounter == "" {
		return nil
	}
	if !mayBound(method) {
		return refusal.New(codes.PermissionDenied, refusal.ReasonNoRole, nil,
			"%s holds an invite to encounter %s, good for that encounter only: it may not call %s; sign in with a token of your own for anything else",
			id.Principal(), id.Encounter, method)
	}
	r, ok := req.(encounterOf)
	if !ok || r.GetEncounterId() != id.Encounter {
		return refusal.New(codes.PermissionDenied, refusal.ReasonNoRole, nil,
			"%s holds an invite to encounter %s, good for that encounter only, not for another", id.Principal(), id.Encounter)
	}
	return nil
}

// boundUnary refuses a bound token's calls about anything but its encounter.
func BoundUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if err := checkBound(ctx, info.FullMethod, req); err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

// boundStream is boundUnary for streams: a method not listed is refused at once, a listed one
// when its request is read.
func BoundStream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	id, ok := identity.From(ss.Context())
	if !ok || id.Encounter == "" {
		return handler(srv, ss)
	}
	if !mayBound(info.FullMethod) {
		return checkBound(ss.Context(), info.FullMethod, nil)
	}
	return handler(srv, boundStreamOf{ServerStream: ss, method: info.FullMethod})
}

type boundStreamOf struct {
	grpc.ServerStream
	method string
}

func (s boundStreamOf) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	return checkBound(s.Context(), s.method, m)
}
