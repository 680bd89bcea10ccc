package platform

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/ratelimit"
	"golang.org/x/time/rate"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// RateLimits are the token buckets every authenticated call draws from: one per principal
// ("tenant/subject") and one per tenant. A rate of 0 or less turns that bucket off.
type RateLimits struct {
	// PrincipalRate is the requests per second one principal may make, PrincipalBurst how many
	// it may make at once.
	PrincipalRate  float64
	PrincipalBurst int
	// TenantRate and TenantBurst are the same for all the principals of a tenant together.
	TenantRate  float64
	TenantBurst int
}

// Default rate limits: far above what a table plays (a command every few seconds), so that
// fray dev, the tests and scripted clients never meet them, yet a flood of thousands of
// requests a second from one caller is refused.
const (
	DefaultPrincipalRate  = 100
	DefaultPrincipalBurst = 200
	DefaultTenantRate     = 1000
	DefaultTenantBurst    = 2000
)

// AddRateLimitFlags adds --rate-principal, --burst-principal, --rate-tenant and --burst-tenant
// (each with its environment fallback) to fs.
func AddRateLimitFlags(fs *flag.FlagSet) *RateLimits {
	l := &RateLimits{}
	fs.Float64Var(&l.PrincipalRate, "rate-principal", envFloat("FRAY_RATE_PRINCIPAL", DefaultPrincipalRate), "requests per second one principal may make, on average (env FRAY_RATE_PRINCIPAL; 0: no limit)")
	fs.IntVar(&l.PrincipalBurst, "burst-principal", EnvInt("FRAY_BURST_PRINCIPAL", DefaultPrincipalBurst), "requests one principal may make at once, above its rate (env FRAY_BURST_PRINCIPAL)")
	fs.Float64Var(&l.TenantRate, "rate-tenant", envFloat("FRAY_RATE_TENANT", DefaultTenantRate), "requests per second all the principals of a tenant may make together (env FRAY_RATE_TENANT; 0: no limit)")
	fs.IntVar(&l.TenantBurst, "burst-tenant", EnvInt("FRAY_BURST_TENANT", DefaultTenantBurst), "requests a tenant may make at once, above its rate (env FRAY_BURST_TENANT)")
	return l
}

func envFloat(key string, def float64) float64 {
	if v, err := strconv.ParseFloat(Env(key, ""), 64); err == nil {
		return v
	}
	return def
}

// ServerOption puts the limits on a server built by NewServer (after authentication, whatever
// the order of the options).
func (l *RateLimits) ServerOption() grpc.ServerOption {
	return limitsOption{limiter: NewRateLimiter(*l)}
}

type limitsOption struct {
	grpc.EmptyServerOption
	limiter *RateLimiter
}

// WithRateLimiter puts a rate limiter on a server built by NewServer.
func WithRateLimiter(l *RateLimiter) grpc.ServerOption { return limitsOption{limiter: l} }

// RateLimiter keeps a token bucket per principal and per tenant, forgetting a bucket once it
// has been idle long enough to be full again (a new one would be the same), so that its memory
// is bounded by the callers active in the last few seconds.
type RateLimiter struct {
	cfg RateLimits
	now func() time.Time

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

var _ ratelimit.Limiter = (*RateLimiter)(nil)

// NewRateLimiter returns a limiter of cfg.
func NewRateLimiter(cfg RateLimits) *RateLimiter {
	return &RateLimiter{cfg: cfg, now: time.Now, buckets: map[string]*bucket{}}
}

// RateLimitError is a refusal: who went over which limit, and when a retry may pass.
type RateLimitError struct {
	Who        string
	Rate       float64
	RetryAfter time.Duration
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("%s: more than %s requests/s; retry in %s", e.Who, strconv.FormatFloat(e.Rate, 'f', -1, 64), e.RetryAfter.Round(time.Millisecond))
}

// GRPCStatus is ResourceExhausted with the limit, and a RetryInfo detail saying when to retry.
func (e *RateLimitError) GRPCStatus() *status.Status {
	st := status.New(codes.ResourceExhausted, e.Error())
	if d, err := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(e.RetryAfter)}); err == nil {
		return d
	}
	return st
}

// Len is the number of buckets held.
func (l *RateLimiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// idle is how long a bucket of rate r and burst b takes to fill up again.
func idle(r float64, b int) time.Duration {
	if r <= 0 {
		return 0
	}
	return time.Duration(math.Ceil(float64(b)/r*float64(time.Second))) + time.Second
}

// Limit takes a token from the caller's principal bucket (its inviter's, for a token bound to
// an encounter: Identity.Budget) and from its tenant's, or neither;
// a call without an identity (health, reflection) is not limited, nor the encounter service's
// own calls to the resolver (the fray:resolve scope): it limits its callers itself, and where
// both services share one server (fray dev) its calls must not use up a player's quota.
func (l *RateLimiter) Limit(ctx context.Context) error {
	id, ok := IdentityFrom(ctx)
	if !ok || (id.HasScope(ScopeResolve) && id.Encounter == "") {
		return nil
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	type take struct {
		who  string
		rate float64
		r    *rate.Reservation
	}
	var taken []take
	for _, k := range []struct {
		key, who string
		rate     float64
		burst    int
	}{
		// An invite's calls take from its inviter's bucket: minting principals does not
		// multiply a budget.
		{"p/" + id.Budget(), budgetOf(id), l.cfg.PrincipalRate, l.cfg.PrincipalBurst},
		{"t/" + id.Tenant, "tenant " + id.Tenant, l.cfg.TenantRate, l.cfg.TenantBurst},
	} {
		if k.rate <= 0 {
			continue
		}
		b := l.buckets[k.key]
		if b == nil {
			b = &bucket{lim: rate.NewLimiter(rate.Limit(k.rate), max(k.burst, 1))}
			l.buckets[k.key] = b
		}
		b.seen = now
		r := b.lim.ReserveN(now, 1)
		if d := r.DelayFrom(now); !r.OK() || d > 0 {
			r.CancelAt(now)
			for _, t := range taken {
				t.r.CancelAt(now)
			}
			return &RateLimitError{Who: k.who, Rate: k.rate, RetryAfter: max(d, time.Millisecond)}
		}
		taken = append(taken, take{k.who, k.rate, r})
	}
	return nil
}

// budgetOf names the principal whose bucket id's calls take from, for a refusal.
func budgetOf(id Identity) string {
	if id.Inviter == "" {
		return id.Principal()
	}
	return id.Principal() + " (invited: the budget of " + id.Inviter + ")"
}

// sweep forgets the buckets idle long enough to be full again, at most once a second.
func (l *RateLimiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < time.Second {
		return
	}
	l.lastSweep = now
	pIdle, tIdle := idle(l.cfg.PrincipalRate, l.cfg.PrincipalBurst), idle(l.cfg.TenantRate, l.cfg.TenantBurst)
	for k, b := range l.buckets {
		d := pIdle
		if k[0] == 't' {
			d = tIdle
		}
		if now.Sub(b.seen) > d {
			delete(l.buckets, k)
		}
	}
}

// refusal carries a limiter's refusal past the ratelimit middleware, which words its own.
type refusalKey struct{}

type noting struct {
	*RateLimiter
}

// Limit is the limiter's, noting a refusal in the context for the interceptor to return.
func (n noting) Limit(ctx context.Context) error {
	err := n.RateLimiter.Limit(ctx)
	if err != nil {
		if p, ok := ctx.Value(refusalKey{}).(*error); ok {
			*p = err
		}
	}
	return err
}

// UnaryServerInterceptor is the go-grpc-middleware ratelimit interceptor over l, whose refusal
// is l's own (the limit, when to retry, a RetryInfo detail). It must run after authentication.
func (l *RateLimiter) UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	inner := ratelimit.UnaryServerInterceptor(noting{l})
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		var refused error
		ctx = context.WithValue(ctx, refusalKey{}, &refused)
		resp, err := inner(ctx, req, info, handler)
		if refused != nil {
			return nil, refused
		}
		return resp, err
	}
}

// StreamServerInterceptor is UnaryServerInterceptor for streams.
func (l *RateLimiter) StreamServerInterceptor() grpc.StreamServerInterceptor {
	inner := ratelimit.StreamServerInterceptor(noting{l})
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		var refused error
		ctx := context.WithValue(ss.Context(), refusalKey{}, &refused)
		err := inner(srv, ctxStream{ServerStream: ss, ctx: ctx}, info, handler)
		if refused != nil {
			return refused
		}
		return err
	}
}

// Check refuses negative rates and bursts, naming the flag and its variable.
func (l *RateLimits) Check(fs *flag.FlagSet) error {
	var errs []error
	for _, f := range []struct {
		name string
		v    float64
	}{{"rate-principal", l.PrincipalRate}, {"burst-principal", float64(l.PrincipalBurst)}, {"rate-tenant", l.TenantRate}, {"burst-tenant", float64(l.TenantBurst)}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			errs = append(errs, FlagError(fs, f.name, "must be 0 or more"))
		}
	}
	return errors.Join(errs...)
}
