package client

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLegalLine(t *testing.T) {
	for _, tc := range []struct {
		name, desc, cost string
		targets          []string
		weapon, rule     string
		want             string
	}{
		{"attack", "with pistolet (Humanité + Arme à feu, −0)", "1 action", []string{"chien"}, "pistolet", "KA-018",
			"attack with pistolet (Humanité + Arme à feu, −0): 1 action, targets chien (KA-018)"},
		{"attack", "as its free action", "", nil, "cimeterre", "D20-004", "attack — as its free action (D20-004)"},
		{"attack", "", "4 segments", []string{"a", "b"}, "épée longue", "", "attack with épée longue: 4 segments, targets a, b"},
		{"end turn", "", "", nil, "", "", "end turn"},
	} {
		require.Equal(t, tc.want, LegalLine(tc.name, tc.desc, tc.cost, tc.targets, tc.weapon, tc.rule))
	}
}
