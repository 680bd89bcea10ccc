package d20seg_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
)

// What each released version describes (DescribeRuleset: the sheet, the actions and their
// costs, the house rules and the tables, every number read from the version's Numbers), word
// for word: testdata/describe/, written by go test -run TestDescribeEachVersion -update. A
// released version's file never changes, as its golden log does not; v1's is the descriptor
// of before versions were values, byte for byte.
func TestDescribeEachVersion(t *testing.T) {
	for _, s := range d20seg.Released() {
		name := fmt.Sprintf("d20seg-v%d.json", s.Version())
		t.Run(name, func(t *testing.T) {
			raw, err := protojson.Marshal(s.Describe())
			require.NoError(t, err)
			var compact, indented bytes.Buffer
			require.NoError(t, json.Compact(&compact, raw)) // protojson's spacing is deliberately unstable
			require.NoError(t, json.Indent(&indented, compact.Bytes(), "", " "))
			enginetest.Golden(t, filepath.Join("testdata", "describe", name), indented.String()+"\n", *updateNarration, "go test -run TestDescribeEachVersion -update")
		})
	}
}

// A table's numbers come from the version's: a changed no-armour modifier, attack cost, spell
// time, reach and default apprehension scale are what the descriptor states.
func TestDescribeReadsTheNumbers(t *testing.T) {
	n := d20seg.New(2).Numbers()
	n.Armour[1], n.AttackCosts[3].Then, n.SpellCosts[0].Segments, n.Reach[5], n.ApprehensionScale[2], n.SpecialSpell, n.OtherCost = -3, 3, 2, 250, 12, 2, 2
	n.FirstSegment, n.SurpriseSegments, n.DownAt = 1, 2, -5
	d := d20seg.WithNumbers(d20seg.New(2), n).Describe()
	require.Equal(t, "BBA 0–5: 4 segments; 6–10: 3; 11–15: 2; 16+: 1 then 3", d.GetActions()[0].GetCost())
	require.Equal(t, "level 0: 2; 1–3: 2; 4–6: 3; 7–9: 4; +2 special; pure magic: stated", d.GetActions()[1].GetCost())
	require.Equal(t, "2 segments unless the GM says otherwise", d.GetActions()[2].GetCost())
	require.Contains(t, d.GetActions()[4].GetDescription(), "then segments 1–2;")
	require.Equal(t, "2,5,12", d.GetOptions()[0].GetDefaultValue())
	require.Equal(t, "-5", d.GetOptions()[2].GetDefaultValue())
	require.Equal(t, []string{"no armour", "−3"}, d.GetTables()[0].GetRows()[0].GetCells())
	require.Equal(t, []string{"16+", "1, then 3"}, d.GetTables()[1].GetRows()[3].GetCells())
	require.Equal(t, []string{"M", "1.5 m", "2.5 m"}, d.GetTables()[2].GetRows()[4].GetCells())
}
