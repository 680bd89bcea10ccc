package ratelimit

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/fray-rpg/fray/services/platform/identity"
	"github.com/stretchr/testify/require"
)

func TestRateLimiterBuckets(t *testing.T) {
	clock := time.Unix(1_000_000, 0)
	l := New(Limits{PrincipalRate: 10, PrincipalBurst: 2, TenantRate: 20, TenantBurst: 3})
	l.now = func() time.Time { return clock }
	as := func(tenant, subject string) context.Context {
		return identity.With(context.Background(), identity.Identity{Tenant: tenant, Subject: subject})
	}
	mallory, alice, bob := as("dev", "mallory"), as("dev", "alice"), as("other", "bob")

	// A principal's burst, then a refusal saying the limit and when to retry.
	require.NoError(t, l.Limit(mallory))
	require.NoError(t, l.Limit(mallory))
	err := l.Limit(mallory)
	var rl *Error
	require.True(t, errors.As(err, &rl))
	require.Equal(t, "dev/mallory: more than 10 requests/s; retry in 100ms", err.Error())
	require.Equal(t, 100*time.Millisecond, rl.RetryAfter)

	// The tenant's bucket: mallory took 2 of its 3; alice takes the last, then the tenant is
	// refused, and alice's own bucket gave nothing back (she is refused by the tenant only).
	require.NoError(t, l.Limit(alice))
	err = l.Limit(alice)
	require.ErrorAs(t, err, &rl)
	require.Contains(t, err.Error(), "tenant dev: more than 20 requests/s")
	// Another tenant is served.
	require.NoError(t, l.Limit(bob))
	// No identity (health, reflection): not limited.
	for range 10 {
		require.NoError(t, l.Limit(context.Background()))
	}
	// The encounter service's own calls to the resolver (fray:resolve) are not limited, even
	// in a tenant that is over its limit, and take nothing from it.
	service := identity.With(context.Background(), identity.Identity{Tenant: "dev", Subject: "encounter-service", Scopes: []string{identity.ScopeResolve}})
	for range 10 {
		require.NoError(t, l.Limit(service))
	}
	require.ErrorAs(t, l.Limit(alice), &rl, "the tenant is still over its limit")

	// Time refills the buckets.
	clock = clock.Add(100 * time.Millisecond)
	require.NoError(t, l.Limit(mallory))

	// Idle buckets are forgotten once full again: memory follows the active callers.
	require.Equal(t, 5, l.Len()) // mallory, alice, bob, dev, other
	clock = clock.Add(time.Hour)
	require.NoError(t, l.Limit(alice))
	require.Equal(t, 2, l.Len()) // alice and dev
}

func TestRateLimiterIsBoundedUnderChurn(t *testing.T) {
	clock := time.Unix(1_000_000, 0)
	l := New(Limits{PrincipalRate: 100, PrincipalBurst: 200, TenantRate: 1000, TenantBurst: 2000})
	l.now = func() time.Time { return clock }
	// 100,000 principals, 1,000 a second, each calling once: the limiter holds only those of
	// the last few seconds.
	for i := range 100_000 {
		if i%1000 == 0 {
			clock = clock.Add(time.Second)
		}
		ctx := identity.With(context.Background(), identity.Identity{Tenant: "t", Subject: "s" + string(rune('a'+i%26)) + time.Duration(i).String()})
		_ = l.Limit(ctx)
	}
	require.Less(t, l.Len(), 5000)
}
