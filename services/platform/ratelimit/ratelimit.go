package ratelimit

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/fray-rpg/fray/services/platform/refusal"
	"golang.org/x/time/rate"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// RateLimits are the token buckets every authenticated call draws from: one per principal
// ("tenant/subject") and one per tenant. A rate of 0 or less turns that bucket off.
type Limits struct {
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
func AddFlags(fs *flag.FlagSet) *Limits {
	return AddFlagsWith(fs, Limits{PrincipalRate: DefaultPrincipalRate, PrincipalBurst: DefaultPrincipalBurst, TenantRate: DefaultTenantRate, TenantBurst: DefaultTenantBurst})
}

// AddFlagsWith is AddFlags with other defaults: `fray dev` sets no rate limit unless asked, so
// that a bot tried on a laptop is not refused (zero rates: no limit).
func AddFlagsWith(fs *flag.FlagSet, def Limits) *Limits {
	l := &Limits{}
	fs.Float64Var(&l.PrincipalRate, "rate-principal", envFloat("FRAY_RATE_PRINCIPAL", def.PrincipalRate), "requests per second one principal may make, on average (env FRAY_RATE_PRINCIPAL; 0: no limit)")
	fs.IntVar(&l.PrincipalBurst, "burst-principal", platform.EnvInt("FRAY_BURST_PRINCIPAL", def.PrincipalBurst), "requests one principal may make at once, above its rate (env FRAY_BURST_PRINCIPAL)")
	fs.Float64Var(&l.TenantRate, "rate-tenant", envFloat("FRAY_RATE_TENANT", def.TenantRate), "requests per second all the principals of a tenant may make together (env FRAY_RATE_TENANT; 0: no limit)")
	fs.IntVar(&l.TenantBurst, "burst-tenant", platform.EnvInt("FRAY_BURST_TENANT", def.TenantBurst), "requests a tenant may make at once, above its rate (env FRAY_BURST_TENANT)")
	return l
}

func envFloat(key string, def float64) float64 {
	if v, err := strconv.ParseFloat(platform.Env(key, ""), 64); err == nil {
		return v
	}
	return def
}

// ServerOption puts the limits on a server built by NewServer (after authentication, whatever
// the order of the options).
func (l *Limits) ServerOption() grpc.ServerOption {
	return LimiterOption{Limiter: New(*l)}
}

// LimiterOption marks the limiter among a server's options, for NewServer.
type LimiterOption struct {
	grpc.EmptyServerOption
	Limiter *Limiter
}

// WithRateLimiter puts a rate limiter on a server built by NewServer.
func WithLimiter(l *Limiter) grpc.ServerOption { return LimiterOption{Limiter: l} }

// RateLimiter keeps a token bucket per principal and per tenant, and each principal's fair
// share of its tenant's (below), forgetting a bucket once it has been idle long enough to be
// full again (a new one would be the same), so that its memory is bounded by the callers
// active in the last few seconds.
//
// A call costs tokens by what it asks of the server (callCosts), not one a call: a flood of
// costly calls exhausts its caller's own budget as fast as it costs, and is refused.
//
// Fair share: a tenant's bucket is not first come, first served among its principals. Each
// principal also has a share bucket, of the tenant's rate and burst divided among the
// principals of the tenant active now (those with a bucket). A call passes the tenant's limit
// if the tenant's bucket has the tokens, or if the caller's share has them: once the tenant's
// budget is used up, those over their share are refused, and a caller under its share is
// still served, the tenant's bucket going into debt (the shares add up to the tenant's rate,
// so what its callers take in all stays about its rate).
// A well-behaved player beside 20 flooders of its tenant is never refused for their flood.
type Limiter struct {
	cfg Limits
	now func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	// active counts the principal buckets of each tenant: the callers its budget is shared
	// among.
	active    map[string]int
	lastSweep time.Time
}

type bucket struct {
	// lim is the bucket's own (nil if its rate is off); share, of a principal's, its share
	// of its tenant's (nil if the tenant's rate is off), tenant its tenant.
	lim    *rate.Limiter
	share  *rate.Limiter
	tenant string
	seen   time.Time
}

// NewRateLimiter returns a limiter of cfg.
func New(cfg Limits) *Limiter {
	return &Limiter{cfg: cfg, now: time.Now, buckets: map[string]*bucket{}, active: map[string]int{}}
}

// callCosts is what a call costs in tokens of its caller's buckets, by method, and why (for
// a refusal): one, but for the calls whose CPU grows with what the request carries. A token is
// about 0.1 ms of the server's CPU (BenchmarkOddsByCombatants, services/resolver: the odds of
// a Loss attack take 0.25 ms on a state of 4 combatants, 0.5 ms of 64, 1.9 ms of 200).
var callCosts = map[string]func(req any) (int, string){
	"/fray.rules.v1.RulesService/Odds": func(req any) (int, string) {
		r, _ := req.(*rulesv1.OddsRequest)
		return OddsCost(len(r.GetState().GetCombatants())), oddsWhy(len(r.GetState().GetCombatants()))
	},
	// The encounter's state is not in the request: the handler charges the rest once it has
	// read it (Charge), by the same measure.
	encounterv1.EncounterService_GetOdds_FullMethodName: func(any) (int, string) { return OddsCost(0), oddsWhy(0) },
}

// streamCosts is what opening a stream costs, by method (one if not listed), and why.
var streamCosts = map[string]struct {
	cost int
	why  string
}{
	encounterv1.EncounterService_WatchEncounter_FullMethodName: {WatchCost, "a watch first replays the encounter's events you ask for"},
}

// WatchCost is the tokens of opening a watch: before its live tail it replays the log from
// the sequence asked (reads pages of 64 records, folds and views every event), where a unary
// read of the encounter (one token) answers from the state held in memory.
const WatchCost = 5

// OddsCost is the tokens of the odds computed on a state of n combatants: 2, and one for
// every 8 combatants (10 for the largest state one may send, MaxSentCombatants).
func OddsCost(n int) int { return 2 + n/8 }

func oddsWhy(n int) string {
	if n == 0 {
		return "odds"
	}
	return fmt.Sprintf("odds on a state of %d combatants", n)
}

// CallCost is what a call of method with request req costs (callCosts; one if not listed;
// req is nil for a stream, which costs what its opening costs: streamCosts).
func CallCost(method string, req any) int {
	n, _ := callCost(method, req)
	return n
}

func callCost(method string, req any) (int, string) {
	if req == nil {
		if c, ok := streamCosts[method]; ok {
			return c.cost, c.why
		}
		return 1, ""
	}
	if f, ok := callCosts[method]; ok {
		n, why := f(req)
		return max(n, 1), why
	}
	return 1, ""
}

// Charge raises what the call of ctx costs to total tokens, once its handler knows what the
// limits could not tell from the request (GetOdds: the combatants of the encounter's state).
// It takes the tokens beyond those already taken, or refuses the call as the limits do
// (ResourceExhausted, saying what the call counts as and why). Nil on a server without limits.
func Charge(ctx context.Context, total int, why string) error {
	c, _ := ctx.Value(chargedKey{}).(*charged)
	if c == nil || total <= c.paid {
		return nil
	}
	if err := c.limiter.limit(ctx, total-c.paid, total, why); err != nil {
		return err
	}
	c.paid = total
	return nil
}

// ChargeOdds is Charge of the odds on a state of n combatants (OddsCost).
func ChargeOdds(ctx context.Context, n int) error { return Charge(ctx, OddsCost(n), oddsWhy(n)) }

// charged is what a unary call has been charged so far, and by which limiter.
type charged struct {
	limiter *Limiter
	paid    int
}

type chargedKey struct{}

// RateLimitError is a refusal: who went over which limit, and when a retry may pass.
type Error struct {
	Who        string
	Rate       float64
	RetryAfter time.Duration
	// Cost is what the refused call counts as (1 for most), Why what makes it cost so.
	Cost int
	Why  string
	// Share, for a tenant's refusal: the caller's share of the tenant's rate, and the callers
	// it is shared among.
	Share   float64
	Callers int
}

func (e *Error) Error() string {
	var cost, share string
	switch {
	case e.Cost > 1 && e.Why != "":
		cost = fmt.Sprintf(" (this call counts as %d: %s)", e.Cost, e.Why)
	case e.Cost > 1:
		cost = fmt.Sprintf(" (this call counts as %d)", e.Cost)
	}
	if e.Callers > 0 {
		share = fmt.Sprintf(", and you have used your share of it (%s/s, shared among %d callers)", strconv.FormatFloat(math.Round(e.Share*100)/100, 'f', -1, 64), e.Callers)
	}
	return fmt.Sprintf("%s: more than %s requests/s%s%s; retry in %s", e.Who, strconv.FormatFloat(e.Rate, 'f', -1, 64), cost, share, e.RetryAfter.Round(time.Millisecond))
}

// GRPCStatus is ResourceExhausted with the limit, and a RetryInfo detail saying when to retry.
func (e *Error) GRPCStatus() *status.Status {
	st := status.New(codes.ResourceExhausted, e.Error())
	if d, err := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(e.RetryAfter)}); err == nil {
		return d
	}
	return st
}

// Len is the number of buckets held (a principal's share is held with its own bucket).
func (l *Limiter) Len() int {
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

// Limit is LimitCost of one token.
func (l *Limiter) Limit(ctx context.Context) error { return l.LimitCost(ctx, 1) }

// LimitCost takes cost tokens from the caller's principal bucket (its inviter's, for a token
// bound to an encounter: Identity.Budget) and from its tenant's or its share of it (see
// RateLimiter), or none; a call without an identity (health, reflection) is
// not limited, nor the encounter service's own calls to the resolver (the fray:resolve
// scope): it limits its callers itself, and where both services share one server (fray dev)
// its calls must not use up a player's quota. A cost above a bucket's burst takes the burst.
func (l *Limiter) LimitCost(ctx context.Context, cost int) error {
	return l.limit(ctx, cost, cost, "")
}

// limit takes cost tokens as LimitCost does; a refusal says the call counts as counts, for
// why.
func (l *Limiter) limit(ctx context.Context, cost, counts int, why string) error {
	id, ok := identity.From(ctx)
	if !ok || (id.HasScope(identity.ScopeResolve) && id.Encounter == "") {
		return nil
	}
	cost = max(cost, 1)
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	p := l.principal(id, now)
	var own *rate.Reservation
	if p.lim != nil {
		n := min(cost, p.lim.Burst())
		own = p.lim.ReserveN(now, n)
		if d := own.DelayFrom(now); d > 0 {
			own.CancelAt(now)
			return &Error{Who: budgetOf(id), Rate: l.cfg.PrincipalRate, RetryAfter: max(d, time.Millisecond), Cost: counts, Why: why}
		}
	}
	if l.cfg.TenantRate <= 0 {
		return nil
	}
	t := l.buckets["t/"+id.Tenant]
	if t == nil {
		t = &bucket{lim: rate.NewLimiter(rate.Limit(l.cfg.TenantRate), max(l.cfg.TenantBurst, 1))}
		l.buckets["t/"+id.Tenant] = t
	}
	t.seen = now
	// The share is taken whenever it has the tokens, so that it measures the caller's use
	// against its share, whichever bucket lets the call pass.
	callers := l.active[id.Tenant]
	l.fitShare(p.share, callers, now)
	nShare, nTenant := min(cost, p.share.Burst()), min(cost, t.lim.Burst())
	underShare := p.share.AllowN(now, nShare)
	if t.lim.AllowN(now, nTenant) {
		return nil
	}
	if underShare {
		// Served on its share: the tenant's bucket is charged all the same, into debt, so
		// that what the tenant's callers take in all stays its rate.
		t.lim.ReserveN(now, nTenant)
		return nil
	}
	if own != nil {
		own.CancelAt(now)
	}
	retry := min(wait(t.lim, nTenant, now), wait(p.share, nShare, now))
	return &Error{Who: "tenant " + id.Tenant, Rate: l.cfg.TenantRate, RetryAfter: max(retry, time.Millisecond), Cost: counts, Why: why,
		Share: float64(p.share.Limit()), Callers: callers}
}

// principal is the caller's bucket and share, made if need be. An invite's calls take from
// its inviter's bucket (and share): minting principals does not multiply a budget.
func (l *Limiter) principal(id identity.Identity, now time.Time) *bucket {
	key := "p/" + id.Budget()
	p := l.buckets[key]
	if p == nil {
		p = &bucket{tenant: id.Tenant}
		if l.cfg.PrincipalRate > 0 {
			p.lim = rate.NewLimiter(rate.Limit(l.cfg.PrincipalRate), max(l.cfg.PrincipalBurst, 1))
		}
		if l.cfg.TenantRate > 0 {
			// Full, at the share it will have (fitShare): a newcomer is under its share.
			n := l.active[id.Tenant] + 1
			p.share = rate.NewLimiter(rate.Limit(l.cfg.TenantRate/float64(n)), max(l.cfg.TenantBurst/n, 1))
		}
		l.buckets[key] = p
		l.active[id.Tenant]++
	}
	p.seen = now
	return p
}

// fitShare sets share to the tenant's rate and burst divided among callers, if they changed
// since it was last set (its tokens are kept, up to the new burst).
func (l *Limiter) fitShare(share *rate.Limiter, callers int, now time.Time) {
	r, b := rate.Limit(l.cfg.TenantRate/float64(callers)), max(l.cfg.TenantBurst/callers, 1)
	if share.Limit() != r {
		share.SetLimitAt(now, r)
	}
	if share.Burst() != b {
		share.SetBurstAt(now, b)
	}
}

// budgetOf names the principal whose bucket id's calls take from, for a refusal.
func budgetOf(id identity.Identity) string {
	if id.Inviter == "" {
		return id.Principal()
	}
	return id.Principal() + " (invited: the budget of " + id.Inviter + ")"
}

// wait is how long lim takes to hold n tokens.
func wait(lim *rate.Limiter, n int, now time.Time) time.Duration {
	missing := float64(n) - lim.TokensAt(now)
	if missing <= 0 || lim.Limit() <= 0 {
		return 0
	}
	return time.Duration(missing / float64(lim.Limit()) * float64(time.Second))
}

// sweep forgets the buckets idle long enough to be full again, at most once a second.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < time.Second {
		return
	}
	l.lastSweep = now
	// A share fills up again as fast as its tenant's bucket (both burst/rate).
	pIdle, tIdle := idle(l.cfg.PrincipalRate, l.cfg.PrincipalBurst), idle(l.cfg.TenantRate, l.cfg.TenantBurst)
	for k, b := range l.buckets {
		d := max(pIdle, tIdle)
		if k[0] == 't' {
			d = tIdle
		}
		if now.Sub(b.seen) > d {
			delete(l.buckets, k)
			if k[0] == 'p' {
				if l.active[b.tenant]--; l.active[b.tenant] <= 0 {
					delete(l.active, b.tenant)
				}
			}
		}
	}
}

// UnaryServerInterceptor limits every call by what it costs (callCost) before its handler,
// which may charge more once it knows (Charge); its refusal is the limit, when to retry and a
// RetryInfo detail. It must run after authentication.
func (l *Limiter) UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		cost, why := callCost(info.FullMethod, req)
		if err := l.limit(ctx, cost, cost, why); err != nil {
			return nil, err
		}
		return handler(context.WithValue(ctx, chargedKey{}, &charged{limiter: l, paid: cost}), req)
	}
}

// StreamServerInterceptor is UnaryServerInterceptor for streams: opening one costs what
// streamCosts says (a token if not listed).
func (l *Limiter) StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		cost, why := callCost(info.FullMethod, nil)
		if err := l.limit(ss.Context(), cost, cost, why); err != nil {
			return err
		}
		return handler(srv, ss)
	}
}

// Check refuses negative rates and bursts, naming the flag and its variable.
func (l *Limits) Check(fs *flag.FlagSet) error {
	var errs []error
	for _, f := range []struct {
		name string
		v    float64
	}{{"rate-principal", l.PrincipalRate}, {"burst-principal", float64(l.PrincipalBurst)}, {"rate-tenant", l.TenantRate}, {"burst-tenant", float64(l.TenantBurst)}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			errs = append(errs, platform.FlagError(fs, f.name, "must be 0 or more"))
		}
	}
	return errors.Join(errs...)
}

// RefusedLimit names the rate limit a caller went past: its own or its tenant's.
func (e *Error) RefusedLimit() string {
	if strings.HasPrefix(e.Who, "tenant ") {
		return refusal.LimitRateTenant
	}
	return refusal.LimitRatePrincipal
}

// spent is the refusal the limits would give id's next call whatever its cost — its own
// bucket without a token, or its tenant's and its share of it both without one — or nil. It
// takes nothing.
func (l *Limiter) Spent(id identity.Identity) *Error {
	if id.HasScope(identity.ScopeResolve) && id.Encounter == "" {
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
		return &Error{Who: budgetOf(id), Rate: l.cfg.PrincipalRate, RetryAfter: max(wait(p.lim, 1, now), time.Millisecond), Cost: 1}
	}
	t := l.buckets["t/"+id.Tenant]
	if t == nil || p.share == nil || t.lim.TokensAt(now) >= 1 {
		return nil
	}
	l.fitShare(p.share, l.active[id.Tenant], now)
	if p.share.TokensAt(now) >= 1 {
		return nil
	}
	return &Error{Who: "tenant " + id.Tenant, Rate: l.cfg.TenantRate, RetryAfter: max(min(wait(t.lim, 1, now), wait(p.share, 1, now)), time.Millisecond),
		Cost: 1, Share: float64(p.share.Limit()), Callers: l.active[id.Tenant]}
}
