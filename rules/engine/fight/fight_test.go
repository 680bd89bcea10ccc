package fight_test

import (
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/fight"
	"github.com/stretchr/testify/require"
)

// fighter is a system's fighter as the helpers make it: a combatant and its state.
type fighter struct {
	c  *encounterv1.Combatant
	cs *kav1.CombatantState
}

func newFighter(st *encounterv1.EncounterState, c *encounterv1.Combatant) fighter {
	return fighter{c: c, cs: fight.StateOf(st.GetKa().GetCombatants(), c.GetId())}
}

func TestFightersAreFoundAndMade(t *testing.T) {
	known := &kav1.CombatantState{KaDice: 4}
	st := &encounterv1.EncounterState{
		Combatants: []*encounterv1.Combatant{{Id: "a", Name: "Aïko"}, {Id: "b", Name: "Bertil"}},
		System:     &encounterv1.EncounterState_Ka{Ka: &kav1.State{Combatants: map[string]*kav1.CombatantState{"a": known}}},
	}

	f, err := fight.Of(st, "a", newFighter)
	require.NoError(t, err)
	require.Same(t, known, f.cs, "a combatant's state is the one the system's state holds")

	f, err = fight.Of(st, "b", newFighter)
	require.NoError(t, err)
	require.NotNil(t, f.cs, "a combatant the system has not folded yet reads a zero state")
	require.Zero(t, f.cs.GetKaDice())
	require.NotContains(t, st.GetKa().GetCombatants(), "b", "reading a fighter writes nothing into the state")

	_, err = fight.Of(st, "nobody", newFighter)
	re, ok := engine.AsRuleError(err)
	require.True(t, ok, "an unknown combatant is a rule error a user reads: %v", err)
	require.Equal(t, engine.CodeNotFound, re.Code)
	require.Contains(t, err.Error(), `"nobody"`)

	all := fight.All(st, newFighter)
	require.Len(t, all, 2)
	require.Equal(t, "a", all[0].c.GetId(), "in the order they joined")
	require.Equal(t, "b", all[1].c.GetId())
}

func TestCombatantStateRefusesAnUnknownCombatant(t *testing.T) {
	states := map[string]*kav1.CombatantState{"a": {KaDice: 2}}
	cs, err := fight.CombatantState(states, "a")
	require.NoError(t, err)
	require.Same(t, states["a"], cs)

	_, err = fight.CombatantState(states, "b")
	require.ErrorContains(t, err, "no combatant b")
	require.Len(t, states, 1, "Evolve never makes up a combatant")
}

func TestStateIsMadeWithItsCombatantsMap(t *testing.T) {
	put := func(st *encounterv1.EncounterState) func(*kav1.State) {
		return func(s *kav1.State) { st.System = &encounterv1.EncounterState_Ka{Ka: s} }
	}
	st := &encounterv1.EncounterState{}
	s := fight.State(st.GetKa(), (*kav1.State).GetCombatants, put(st))
	require.Same(t, s, st.GetKa(), "a state with no part of the system gets one")
	require.NotNil(t, s.Combatants, "made with its map, to write into")
	s.Combatants["a"] = &kav1.CombatantState{KaDice: 1}

	decoded := &encounterv1.EncounterState{System: &encounterv1.EncounterState_Ka{Ka: &kav1.State{Round: 3}}}
	s = fight.State(decoded.GetKa(), (*kav1.State).GetCombatants, put(decoded))
	require.Same(t, decoded.GetKa(), s, "the part it has is kept")
	require.EqualValues(t, 3, s.GetRound())
	require.NotNil(t, s.Combatants, "a decoded part, which holds no empty map, gets its map")

	kept := s.Combatants
	require.Equal(t, fmt.Sprintf("%p", kept), fmt.Sprintf("%p", fight.State(decoded.GetKa(), (*kav1.State).GetCombatants, put(decoded)).Combatants), "a map it has is kept")
}

func TestRowsLeaveEmptyTheRowsOfCombatantsWithoutNumbers(t *testing.T) {
	view := &encounterv1.EncounterState{Combatants: []*encounterv1.Combatant{
		{Id: "seen", Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{}}},
		{Id: "withheld"}, // the view withholds its sheet
		{Id: "new", Sheet: &encounterv1.Combatant_Ka{Ka: &kav1.Sheet{}}},
	}}
	states := map[string]*kav1.CombatantState{"seen": {KaDice: 3}, "withheld": {KaDice: 9}}
	tr := &rulesetv1.Tracker{Header: []string{"dés de Ka", "actions"}}
	fight.Rows(tr, view, states, func(c *encounterv1.Combatant, cs *kav1.CombatantState) ([]string, []string) {
		return []string{fmt.Sprint(cs.GetKaDice()), "1"}, []string{"passed"}
	})
	require.Len(t, tr.Rows, 3, "a row per combatant, in the view's order")
	require.Equal(t, []string{"3", "1"}, tr.Rows[0].GetCells())
	require.Equal(t, []string{"passed"}, tr.Rows[0].GetConditions())
	require.Equal(t, []string{"", ""}, tr.Rows[1].GetCells(), "a withheld sheet's numbers are not shown")
	require.Empty(t, tr.Rows[1].GetConditions())
	require.Equal(t, []string{"", ""}, tr.Rows[2].GetCells(), "nor a combatant's the system holds no state of yet")
	require.Equal(t, "new", tr.Rows[2].GetCombatantId())
}
