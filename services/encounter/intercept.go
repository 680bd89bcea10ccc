package encounter

// The service's own interceptor, in front of every handler of EncounterService however it is
// served (gRPC, or the browser gateway, which hands its calls to the same grpc.Server), after
// the server's (authentication, rate limits, validation, logging, metrics): readiness first
// (the event log open), then the RPC's row of accessTable. A new RPC needs its handler and
// its row, nothing more: Register wraps every method of the service's descriptor.

import (
	"context"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"github.com/fray-rpg/fray/services/platform/validate"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Every RPC of the service is a method of Service: one without a handler does not compile.
var _ encounterv1.EncounterServiceServer = (*Service)(nil)

// notOpen is what a call meets before the event log is open.
const notOpen = "the encounter service is starting: the event log (NATS) is not reachable yet; nothing was recorded, try again"

// Register serves s on g, every RPC behind the service's interceptor (admit).
func Register(g grpc.ServiceRegistrar, s *Service) {
	desc := encounterv1.EncounterService_ServiceDesc // a copy: the generated one is left as it is
	desc.Methods = slices.Clone(desc.Methods)
	for i, m := range desc.Methods {
		handle := m.Handler
		desc.Methods[i].Handler = func(srv any, ctx context.Context, dec func(any) error, next grpc.UnaryServerInterceptor) (any, error) {
			return handle(srv, ctx, dec, s.then(next))
		}
	}
	desc.Streams = slices.Clone(desc.Streams)
	for i, st := range desc.Streams {
		handle, method := st.Handler, "/"+desc.ServiceName+"/"+st.StreamName
		desc.Streams[i].Handler = func(srv any, ss grpc.ServerStream) error {
			if err := s.admitCall(method); err != nil {
				return err
			}
			return handle(srv, &admittedStream{ServerStream: ss, s: s, method: method})
		}
	}
	// A token bound to an encounter (an invite's) calls the RPCs about one encounter.
	for method, a := range accessTable {
		if a.scope == scopeEncounter {
			auth.AllowBound(method)
		}
	}
	g.RegisterService(&desc, s)
}

// then is the server's interceptors (next, nil for none), then admit, then the handler.
func (s *Service) then(next grpc.UnaryServerInterceptor) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		admitted := func(ctx context.Context, req any) (any, error) {
			if err := s.admitCall(info.FullMethod); err != nil {
				return nil, err
			}
			ctx, err := s.admit(ctx, info.FullMethod, req)
			if err != nil {
				return nil, err
			}
			return handler(ctx, req)
		}
		if next == nil {
			return admitted(ctx, req)
		}
		return next(ctx, req, info, admitted)
	}
}

// admittedStream admits a streaming call's request as it is read.
type admittedStream struct {
	grpc.ServerStream
	s      *Service
	method string
	ctx    context.Context
}

func (a *admittedStream) RecvMsg(m any) error {
	if err := a.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	ctx, err := a.s.admit(a.ServerStream.Context(), a.method, m)
	a.ctx = ctx
	return err
}

func (a *admittedStream) Context() context.Context {
	if a.ctx != nil {
		return a.ctx
	}
	return a.ServerStream.Context()
}

// admitCall refuses every call before the event log is open, and a method without a row.
func (s *Service) admitCall(method string) error {
	if !s.ready.Load() {
		return status.Error(codes.Unavailable, notOpen)
	}
	if _, ok := accessTable[method]; !ok {
		return status.Errorf(codes.Unimplemented, "%s is not served: it has no row in the access table", method)
	}
	return nil
}

// admit checks what the RPC's row asks that the request alone can tell: the caller known;
// the encounter named, for an RPC about one (the role in it is checked where its state is
// held: read, command.decide); a tenant's administration to its administrator.
func (s *Service) admit(ctx context.Context, method string, req any) (context.Context, error) {
	who, err := callerOf(ctx)
	if err != nil {
		return ctx, err
	}
	switch accessTable[method].scope {
	case scopeEncounter:
		r, _ := req.(encounterRequest)
		if r == nil || r.GetEncounterId() == "" {
			return ctx, validate.CheckID("encounter_id", "")
		}
	case scopeTenantAdmin:
		r, _ := req.(interface{ GetTenant() string })
		if r == nil {
			return ctx, status.Errorf(codes.Internal, "%s names no tenant to administer", method)
		}
		if err := administers(ctx, who, r.GetTenant()); err != nil {
			return ctx, err
		}
		ctx = context.WithValue(ctx, adminKey{}, who)
	}
	return ctx, nil
}

// adminKey holds, in a call's context, the administrator admit admitted.
type adminKey struct{}

// administrator is the administrator admit admitted to the call; PermissionDenied for a call
// that did not pass admit (served without Register).
func administrator(ctx context.Context) (caller, error) {
	if who, ok := ctx.Value(adminKey{}).(caller); ok {
		return who, nil
	}
	return caller{}, refusal.New(codes.PermissionDenied, refusal.ReasonNoRole, nil,
		"this call administers a tenant and was not admitted as such: serve the service with encounter.Register")
}
