package loss_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// LOS-060: the Exploits an attack's offer lists are those declared on a melee attack: extra
// damage, a Feint, Kill outright, but no Total dodge or Defensive wall (defences), nor the
// Ricochet of a shot. Written against a mutant of effectsChoice (use&u != 0 negated) that
// lived in a gremlins run of legal.go (issue 26).
func TestLOS060AnAttackOffersTheMeleeAttackEffects(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	legal, err := f.Reg.Legal(f.St, "diego")
	require.NoError(t, err)
	offered := map[string]bool{}
	for _, l := range legal {
		for _, c := range l.GetChoices() {
			if c.GetField() == "loss.attack.exploits" {
				for _, o := range c.GetOptions() {
					offered[o.GetValue()] = true
				}
			}
		}
	}
	for _, e := range []string{"EXPLOIT_EFFECT_EXTRA_DAMAGE", "EXPLOIT_EFFECT_FEINT", "EXPLOIT_EFFECT_KILL_OUTRIGHT"} {
		require.True(t, offered[e], "%s offered", e)
	}
	for _, e := range []string{"EXPLOIT_EFFECT_TOTAL_DODGE", "EXPLOIT_EFFECT_DEFENSIVE_WALL", "EXPLOIT_EFFECT_RICOCHET"} {
		require.False(t, offered[e], "%s not offered", e)
	}
}
