package loss_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/rules/odds/oddstest"
)

// BenchmarkLossAttackOdds: the odds of a Les Chants de Loss attack for every Exploit count (0
// to 5 extra-damage Exploits, each its own command: the reach of 0 to 5 Exploits, and for each
// defence — none, parry, dodge — the Exploits standing, the NS lost, the target out), from the
// state, through the real Decide of each command and each defence. The target is
// under 1 ms per op:
//
//	cd rules && go test ./loss/ -run '^$' -bench LossAttackOdds -benchmem
func BenchmarkLossAttackOdds(b *testing.B) {
	st := lossFight(b, nil, malfrat())
	cmds := make([]*encounterv1.Command, 6)
	for n := range cmds {
		cmds[n] = lossAttack(extras(n)...)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, cmd := range cmds {
			if _, err := odds.Of(oddstest.Reg, st, cmd, "david"); err != nil {
				b.Fatal(err)
			}
		}
	}
}
