package loss_test

import (
	"testing"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/stretchr/testify/require"
)

// More tests at bounds the rules draw (see mutants_test.go): what Legal offers, what the
// narration says.

// LOS-026: further targets are offered to choose only when there is more than one target:
// Diego facing the ruffian alone has no such choice; facing the ruffian and a brute, he has.
func TestLegalMoreTargetsOnlyWithSeveral(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	_, fields := legalNames(t, f, "diego")
	require.True(t, fields["loss.attack.target_id"])
	require.False(t, fields["loss.attack.more_target_ids"])
	g := newFight(t, nil, diego(), ruffian(), exBrute())
	g.start(7, 5, 5)
	_, fields = legalNames(t, g, "diego")
	require.True(t, fields["loss.attack.more_target_ids"])
}

// LOS-022: the narration of a blow gives the boxes left, also when exactly the light band is
// gone (light 0, grave 5, fatal 5).
func TestNarrateTheBoxesLeftAfterTheLightBand(t *testing.T) {
	n := nNames()
	got := n.Narrate(nResolved(1, &lossv1.AttackResolved{AttackerId: "diego", TargetId: "ruffian", Hit: true,
		Damage: &lossv1.Damage{Roll: nD10(2), WeaponDamage: 3, Total: 5, LevelsLost: 5}, Light: 0, Grave: 5, Fatal: 5}))
	require.Contains(t, got, "light 0, grave 5, fatal 5", got)
}
