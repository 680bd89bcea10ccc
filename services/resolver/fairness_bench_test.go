package resolver_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	rulesv1 "github.com/fray-rpg/fray/gen/fray/rules/v1"
	"github.com/fray-rpg/fray/services/platform"
	"github.com/fray-rpg/fray/services/platform/authtest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// BenchmarkFairness is the fairness run of issue 23 (item 5), over real gRPC with the default
// rate limits (100/s per principal, 1,000/s per tenant): a well-behaved player asks the odds of
// a duel every 50 ms (2 tokens each: 40/s, under its share of its tenant's 1,000/s among 21),
// 200 calls, alone (baseline) and then beside 20 principals of its tenant each calling
// ListRulesets as fast as they can, and a principal of another tenant asking the odds on the
// largest state one may send (64 combatants, 10 tokens) as fast as it can. It reports the
// player's p50 and p99 in both runs, the ratio of the p99s, and the player's refused calls
// (which must be 0), and the flooders' calls served and refused.
//
//	go test ./services/resolver -run '^$' -bench Fairness -benchtime 1x
func BenchmarkFairness(b *testing.B) {
	lim := platform.NewRateLimiter(platform.RateLimits{PrincipalRate: platform.DefaultPrincipalRate, PrincipalBurst: platform.DefaultPrincipalBurst,
		TenantRate: platform.DefaultTenantRate, TenantBurst: platform.DefaultTenantBurst})
	c := client(b, platform.WithRateLimiter(lim))
	duel, big := lossAttackRequest(b, 2), lossAttackRequest(b, platform.MaxSentCombatants)
	player := authtest.As("player")
	a := authtest.Default()
	other := authtest.WithToken(context.Background(), a.Mint(a.Ed, authtest.Claims("other", "costly")))
	play := func() (lat []time.Duration, refused int) {
		for range 200 {
			start := time.Now()
			_, err := c.Odds(player, &rulesv1.OddsRequest{State: duel.GetState(), Command: duel.GetCommand(), Actor: duel.GetActor()})
			lat = append(lat, time.Since(start))
			if err != nil {
				require.Equal(b, codes.ResourceExhausted, status.Code(err), "%v", err)
				refused++
			}
			time.Sleep(50 * time.Millisecond)
		}
		slices.Sort(lat)
		return lat, refused
	}
	pct := func(lat []time.Duration, p float64) time.Duration { return lat[int(float64(len(lat)-1)*p)] }
	for b.Loop() {
		base, baseRefused := play()
		ctx, stop := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		var served, refusedFlood atomic.Int64
		count := func(err error) {
			if err == nil {
				served.Add(1)
			} else if status.Code(err) == codes.ResourceExhausted {
				refusedFlood.Add(1)
			}
		}
		for i := range 20 {
			who := authtest.As(fmt.Sprintf("flooder-%d", i))
			wg.Go(func() {
				for ctx.Err() == nil {
					_, err := c.ListRulesets(who, &rulesv1.ListRulesetsRequest{})
					count(err)
				}
			})
		}
		wg.Go(func() {
			for ctx.Err() == nil {
				_, err := c.Odds(other, &rulesv1.OddsRequest{State: big.GetState(), Command: big.GetCommand(), Actor: big.GetActor()})
				count(err)
			}
		})
		loaded, loadedRefused := play()
		stop()
		wg.Wait()
		b.ReportMetric(float64(pct(base, 0.5).Microseconds()), "base-p50-µs")
		b.ReportMetric(float64(pct(base, 0.99).Microseconds()), "base-p99-µs")
		b.ReportMetric(float64(pct(loaded, 0.5).Microseconds()), "loaded-p50-µs")
		b.ReportMetric(float64(pct(loaded, 0.99).Microseconds()), "loaded-p99-µs")
		b.ReportMetric(float64(pct(loaded, 0.99))/float64(pct(base, 0.99)), "p99-ratio")
		b.ReportMetric(float64(baseRefused+loadedRefused), "player-refused")
		b.ReportMetric(float64(served.Load()), "flood-served")
		b.ReportMetric(float64(refusedFlood.Load()), "flood-refused")
	}
}
