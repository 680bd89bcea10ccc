package loss_test

import (
	"testing"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// LOS-014: the Partial defence table Describe gives reads as the rule's own example — a failed
// defence totalling 20–24 cancels 1 Exploit, 25–29 2, … and from 40 all 5 (version 1: from 20,
// a step of 5, at most 5 Exploits).
func TestLOS014PartialDefenceTable(t *testing.T) {
	var rows [][]string
	for _, tb := range loss.New(1).Describe().GetTables() {
		if tb.GetName() == "Partial defence" {
			require.Equal(t, "LOS-014", tb.GetRule())
			for _, r := range tb.GetRows() {
				rows = append(rows, r.GetCells())
			}
		}
	}
	require.Equal(t, [][]string{{"20–24", "1"}, {"25–29", "2"}, {"30–34", "3"}, {"35–39", "4"}, {"40+", "5"}}, rows)
}

// LOS-004: a Test's modifier for spent free raises says how many in words — "1 free raise",
// "2 free raises" — and adds +5 each.
func TestLOS004SpentFreeRaisesAreCountedInWords(t *testing.T) {
	for _, c := range []struct {
		n    int32
		want string
	}{{1, "1 free raise"}, {2, "2 free raises"}} {
		f := newFight(t, nil, diego(), ruffian())
		f.start(7, 5)
		f.do(gm, grant("diego", c.n))
		evs := f.do("david", attack("diego", "malfrat", 0, &lossv1.Spend{FreeRaises: c.n}), 3)
		mods := find(t, evs, (*lossv1.Event).GetAttackRolled).GetTest().GetTestModifiers()
		require.Len(t, mods, 1)
		require.Equal(t, c.want, mods[0].GetReason())
		require.Equal(t, 5*c.n, mods[0].GetValue())
		require.Equal(t, "LOS-004", mods[0].GetRule())
	}
}
