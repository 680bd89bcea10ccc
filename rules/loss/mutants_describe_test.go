package loss_test

import (
	"testing"

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
