package d20seg_test

import (
	"slices"
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// actingOrder sorts the combatants of a d20seg state by Initiative, then tie order (D20-011).
func actingOrder(s *encounterv1.EncounterState) []string {
	cs := s.GetD20Seg().GetCombatants()
	var ids []string
	for id := range cs {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(x, y string) int {
		if cs[x].GetInitiative() != cs[y].GetInitiative() {
			return int(cs[y].GetInitiative() - cs[x].GetInitiative())
		}
		return int(cs[x].GetTieOrder() - cs[y].GetTieOrder())
	})
	return ids
}

func placeholderState(inits map[string]int32) *encounterv1.EncounterState {
	st := &encounterv1.EncounterState{System: &encounterv1.EncounterState_D20Seg{D20Seg: &d20segv1.State{Round: 1, Combatants: map[string]*d20segv1.CombatantState{}}}}
	for id, init := range inits {
		st.GetD20Seg().Combatants[id] = &d20segv1.CombatantState{Initiative: init}
		st.Combatants = append(st.Combatants, sheet(id, id))
	}
	return st
}

// The placeholders of hidden combatants keep the order of action (D20-011, D20-015) when two
// hidden ones act in a row before a visible one, when hidden ones act after a visible one of
// negative Initiative, and when every combatant is hidden (placeholders from 0).
func TestD20SegPlaceholdersOfRunsOfHiddenCombatants(t *testing.T) {
	hidden := func(id string) bool { return id[0] == 'h' }
	for _, tc := range []struct {
		name  string
		inits map[string]int32
		want  []string
	}{
		{"two hidden before a visible one", map[string]int32{"h1": 27, "h2": 26, "a": 4, "b": -10, "h3": -12},
			[]string{"h1", "h2", "a", "b", "h3"}},
		{"hidden after a visible one below 0", map[string]int32{"a": -10, "h1": -12, "h2": -15},
			[]string{"a", "h1", "h2"}},
		{"every one hidden", map[string]int32{"h1": 9, "h2": 5, "h3": -1},
			[]string{"h1", "h2", "h3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := placeholderState(tc.inits)
			require.Equal(t, tc.want, actingOrder(st))
			view := proto.CloneOf(st)
			d20seg.New(1).RedactState(view, hidden)
			require.Equal(t, tc.want, actingOrder(view), "the placeholders keep the order")
			for id, cs := range view.GetD20Seg().GetCombatants() {
				if hidden(id) {
					require.NotEqual(t, tc.inits[id], cs.GetInitiative(), "%s: its Initiative is not shown", id)
				} else {
					require.Equal(t, tc.inits[id], cs.GetInitiative(), "%s: shown as it is", id)
				}
			}
		})
	}
}
