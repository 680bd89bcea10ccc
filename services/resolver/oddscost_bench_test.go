package resolver_test

import (
	"fmt"
	"testing"

	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/rules/systems"
	"google.golang.org/protobuf/proto"
)

// BenchmarkOddsByCombatants: the CPU of the odds of a Les Chants de Loss attack (rules/odds,
// as RulesService.Odds computes them) by the combatants of the state it is computed on: what
// the rate limiter's cost table charges an Odds call by (platform.callCosts).
//
//	go test ./services/resolver -run '^$' -bench OddsByCombatants
func BenchmarkOddsByCombatants(b *testing.B) {
	reg := systems.Registry()
	for _, n := range []int{2, 4, 16, 64, 200} {
		req := lossAttackRequest(b, n)
		b.Run(fmt.Sprintf("combatants=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := odds.Of(reg, req.GetState(), req.GetCommand(), req.GetActor()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(proto.Size(req.GetState())), "state-bytes")
		})
	}
}
