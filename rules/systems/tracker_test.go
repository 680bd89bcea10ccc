package systems

import (
	"path/filepath"
	"strings"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
)

// Every system's tracker, through every state of every golden log, as the GM and as each
// player sees it, in English and in French: a row per combatant in the state's order, a cell
// per header; a combatant whose sheet the reader is not shown gets empty cells and no
// condition (no number hidden from a reader reaches its tracker); once the fight runs, where it
// is is told and some number is shown; the words differ by language, the numbers do not.
func TestEveryTrackerShowsEachCombatantAsTheReaderMaySee(t *testing.T) {
	reg := Registry()
	logs, err := filepath.Glob("testdata/golden/*.jsonl")
	require.NoError(t, err)
	require.NotEmpty(t, logs)
	for _, path := range logs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			st := &encounterv1.EncounterState{}
			var turns, cells, withheld, conditions int
			for _, ev := range enginetest.ReadLog(t, path) {
				require.NoError(t, reg.Evolve(st, ev))
				viewers := []engine.Viewer{{SeesAll: true}}
				for _, c := range st.GetCombatants() {
					viewers = append(viewers, engine.Viewer{Controls: map[string]bool{c.GetId(): true}})
				}
				for _, v := range viewers {
					view := reg.View(st, v)
					en := reg.Tracker(view, v, narrate.English)
					fr := reg.Tracker(view, v, narrate.French)
					require.NotNil(t, en)
					require.Equal(t, en.GetTurn(), fr.GetTurn(), "the turn is in the game's terms")
					require.Len(t, en.GetRows(), len(view.GetCombatants()))
					if en.GetTurn() != "" {
						turns++
					}
					for i, row := range en.GetRows() {
						c := view.GetCombatants()[i]
						require.Equal(t, c.GetId(), row.GetCombatantId())
						require.Len(t, row.GetCells(), len(en.GetHeader()), "%s: a cell per header", c.GetId())
						require.Equal(t, row.GetCells(), fr.GetRows()[i].GetCells(), "%s: the numbers do not depend on the language", c.GetId())
						require.Len(t, fr.GetRows()[i].GetConditions(), len(row.GetConditions()))
						if c.GetSheet() == nil {
							withheld++
							require.Empty(t, strings.Join(row.GetCells(), ""), "%s's numbers are withheld from this reader", c.GetId())
							require.Empty(t, row.GetConditions(), "%s's state is withheld from this reader", c.GetId())
							continue
						}
						if strings.Join(row.GetCells(), "") != "" {
							cells++
						}
						conditions += len(row.GetConditions())
					}
				}
			}
			require.Positive(t, turns, "the tracker tells where the fight is")
			require.Positive(t, cells, "the tracker shows numbers")
			t.Logf("%d trackers with a turn, %d rows with numbers, %d withheld, %d conditions", turns, cells, withheld, conditions)
		})
	}
}
