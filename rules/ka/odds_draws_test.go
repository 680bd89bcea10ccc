package ka_test

import (
	"testing"

	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/fray-rpg/fray/rules/odds/oddstest"
	"github.com/stretchr/testify/require"
)

// The odds of a Terror draw (KA-034) and of a disarm (KA-032): Joshua's terror at the GM's −3
// over a whole deck (KA-T05: 4 + the card; a 5 gives 9, a failure below 12, Abysse) fails, into
// Abysse, on an ace to a 5: 20 of the 56 cards, a face card always succeeding; Joshua's disarm
// of the dog (Humanité 3 + Bagarre 2 against Humanité 1 + Bagarre 3) by hand on three cards
// (issue 28, item 5).
func TestKaTerrorAndDisarmOdds(t *testing.T) {
	st := kaFight(t, nil, 2)
	o, err := odds.Of(oddstest.Reg, st, terror("joshua", -3), oddstest.GM)
	require.NoError(t, err)
	s := oddstest.Section(t, o, "terror")
	require.InDelta(t, 20.0/56, oddstest.ChanceOf(t, s, "fail"), 1e-12)
	require.InDelta(t, 20.0/56, oddstest.ChanceOf(t, s, "abysse"), 1e-12)

	// Three cards left, no face: Joshua (5 + the card) disarms with a 9 (14 beats 4 + a 2 or
	// a 7) or a 7 (12 beats 4 + a 2, not 4 + a 9), never with a 2 (7, below 10): 1/3 + 1/3 × 1/2.
	leaveOnly(st, denier(9), denier(2), denier(7))
	o, err = odds.Of(oddstest.Reg, st, disarm("joshua", "chien", "Bagarre", "crocs"), "david")
	require.NoError(t, err)
	require.InDelta(t, 0.5, oddstest.ChanceOf(t, oddstest.Section(t, o, "disarm"), "disarm"), 1e-12)
	// The dog hidden from David: no odds from its numbers.
	st.Combatants[1].Hidden = true
	o, err = odds.Of(oddstest.Reg, oddstest.Reg.View(st, engine.Viewer{Controls: map[string]bool{"joshua": true}}), disarm("joshua", "chien", "Bagarre", "crocs"), "david")
	if err == nil {
		require.NotEmpty(t, oddstest.Section(t, o, "disarm").GetUnavailable())
	}
}
