package loss_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// More tests at bounds the rules draw (see mutants_test.go), on what Legal offers.

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
