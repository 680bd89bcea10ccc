package platform

import (
	"context"
	"crypto/sha256"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/tap"
)

// authOption marks the authenticator among a server's options (Authenticator.ServerOptions),
// for the tap of NewServer.
type authOption struct {
	grpc.EmptyServerOption
	auth *Authenticator
}

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
func spentTap(a *Authenticator, l *RateLimiter, m *Metrics) tap.ServerInHandle {
	return func(ctx context.Context, info *tap.Info) (context.Context, error) {
		svc, _, _ := strings.Cut(strings.TrimPrefix(info.FullMethodName, "/"), "/")
		if svc == "grpc.health.v1.Health" || strings.HasPrefix(svc, "grpc.reflection.") || len(info.Header.Get(OnBehalfOfKey)) > 0 {
			return ctx, nil
		}
		vals := info.Header.Get(AuthorizationKey)
		if len(vals) != 1 {
			return ctx, nil
		}
		scheme, token, ok := strings.Cut(vals[0], " ")
		if !ok || !strings.EqualFold(scheme, "bearer") {
			return ctx, nil
		}
		id, ok := a.remembered(strings.TrimSpace(token))
		if !ok {
			return ctx, nil
		}
		if err := l.spent(id); err != nil {
			if m != nil {
				m.Refused(err.RefusedLimit())
			}
			return nil, err
		}
		return ctx, nil
	}
}

// remembered is the identity of a token verified in the last CacheTTL, if it is held.
func (a *Authenticator) remembered(token string) (Identity, bool) {
	if a.cfg.CacheTTL < 0 {
		return Identity{}, false
	}
	sum := sha256.Sum256([]byte(token))
	now := a.cfg.Now()
	a.mu.Lock()
	hit, ok := a.verified[sum]
	a.mu.Unlock()
	return hit.id, ok && now.Before(hit.until)
}

// spent is the refusal the limits would give id's next call whatever its cost — its own
// bucket without a token, or its tenant's and its share of it both without one — or nil. It
// takes nothing.
func (l *RateLimiter) spent(id Identity) *RateLimitError {
	if id.HasScope(ScopeResolve) && id.Encounter == "" {
		return nil
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.buckets["p/"+id.Budget()]
	if p == nil {
		return nil
	}
	if p.lim != nil && p.lim.TokensAt(now) < 1 {
		return &RateLimitError{Who: budgetOf(id), Rate: l.cfg.PrincipalRate, RetryAfter: max(wait(p.lim, 1, now), time.Millisecond), Cost: 1}
	}
	t := l.buckets["t/"+id.Tenant]
	if t == nil || p.share == nil || t.lim.TokensAt(now) >= 1 {
		return nil
	}
	l.fitShare(p.share, l.active[id.Tenant], now)
	if p.share.TokensAt(now) >= 1 {
		return nil
	}
	return &RateLimitError{Who: "tenant " + id.Tenant, Rate: l.cfg.TenantRate, RetryAfter: max(min(wait(t.lim, 1, now), wait(p.share, 1, now)), time.Millisecond),
		Cost: 1, Share: float64(p.share.Limit()), Callers: l.active[id.Tenant]}
}
