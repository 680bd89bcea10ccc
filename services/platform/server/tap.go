package server

import (
	"context"
	"strings"

	"github.com/fray-rpg/fray/services/platform/auth"
	"github.com/fray-rpg/fray/services/platform/ratelimit"
	"github.com/fray-rpg/fray/services/platform/telemetry"
	"google.golang.org/grpc/tap"
)

// spentTap refuses a call whose caller has spent its budget before the server reads its
// request (grpc.InTapHandle: in the connection's reader, before a goroutine, decoding,
// validation or any interceptor): a flood's refusals then cost the server a header's lookup,
// not a call (issue 23, item 5). It knows a caller only by a token verified before (the
// authenticator's cache) and acting for no one else; any other call is authenticated and
// limited by the interceptors, as is every call it lets through. It takes no token: the
// interceptors charge what a call costs. It runs in the connection's reader, under the
// transport's lock: it hashes the token and reads two maps, each under a lock held for that
// read alone. A refusal here is counted by the metrics as a refusal of its limit (m, if set), but never
// reaches the interceptors: no grpc_server_handled_total, no call log line.
func spentTap(a *auth.Authenticator, l *ratelimit.Limiter, m *telemetry.Metrics) tap.ServerInHandle {
	return func(ctx context.Context, info *tap.Info) (context.Context, error) {
		svc, _, _ := strings.Cut(strings.TrimPrefix(info.FullMethodName, "/"), "/")
		if svc == "grpc.health.v1.Health" || strings.HasPrefix(svc, "grpc.reflection.") || len(info.Header.Get(auth.OnBehalfOfKey)) > 0 {
			return ctx, nil
		}
		vals := info.Header.Get(auth.AuthorizationKey)
		if len(vals) != 1 {
			return ctx, nil
		}
		scheme, token, ok := strings.Cut(vals[0], " ")
		if !ok || !strings.EqualFold(scheme, "bearer") {
			return ctx, nil
		}
		id, ok := a.Remembered(strings.TrimSpace(token))
		if !ok {
			return ctx, nil
		}
		if err := l.Spent(id); err != nil {
			if m != nil {
				m.Refused(err.RefusedLimit())
			}
			return nil, err
		}
		return ctx, nil
	}
}
