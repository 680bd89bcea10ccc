package d20seg_test

import (
	"testing"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/stretchr/testify/require"
)

// D20-003: the stealth opposed is the stealthiest attacker's, by Agility + stealth ranks, among
// the attackers with stealth ranks. The Rôdeur (stealth 2, Agility 3: 5) is stealthier than the
// Brigand (stealth 4, Agility −2: 2), whichever is named first; of two equally stealthy
// attackers (the Ombre, stealth 1, Agility 1: 2, as the Brigand), the first named rolls.
func TestD20_003_TheStealthiestAttackerRolls(t *testing.T) {
	ambushers := func() []*encounterv1.Combatant {
		return []*encounterv1.Combatant{
			sheet("brigand", "Brigand", initiative(6), func(s *d20segv1.Sheet) { s.Agility, s.Stealth = -2, 4 }),
			sheet("rodeur", "Rôdeur", initiative(5), func(s *d20segv1.Sheet) { s.Agility, s.Stealth = 3, 2 }),
			sheet("ombre", "Ombre", initiative(4), func(s *d20segv1.Sheet) { s.Agility, s.Stealth = 1, 1 }),
			pc(sheet("aldric", "Aldric", initiative(3))),
		}
	}
	for _, tc := range []struct {
		attackers []string
		by        string
		opp       int32 // the stealth die 10 + Agility + stealth
	}{
		{[]string{"brigand", "rodeur"}, "rodeur", 15},
		{[]string{"rodeur", "brigand"}, "rodeur", 15},
		{[]string{"brigand", "ombre"}, "brigand", 12},
		{[]string{"ombre", "brigand"}, "ombre", 12},
	} {
		f := newFight(t, nil, ambushers()...)
		f.start()
		// Aldric's d20 1, the stealth die 10.
		a := apprehensions(t, f.do(gm, surprise(tc.attackers, defender("aldric")), 1, 10))["aldric"]
		require.Equal(t, tc.by, a.GetStealthBy(), "%v", tc.attackers)
		require.Equal(t, []int32{10, tc.opp}, []int32{a.GetStealthRoll().GetTotal(), a.GetOpposition()}, "%v", tc.attackers)
		require.True(t, a.GetSurprised())
		f.replay()
	}
}

// D20-011: the tied combatants of each Initiative roll off among themselves, the groups from
// the lowest Initiative up; the order of the dice is part of the log, which the audit decides
// again. Aldric and Berthe (Initiative 2) roll 5 and 9, then Cédric and Dame Ysolde
// (Initiative 7) 12 and 4.
func TestD20_011_TwoTiesRollOffFromTheLowestInitiativeUp(t *testing.T) {
	f := newFight(t, nil,
		sheet("cedric", "Cédric", initiative(7)),
		sheet("aldric", "Aldric", initiative(2)),
		sheet("dame", "Dame Ysolde", initiative(7)),
		sheet("berthe", "Berthe", initiative(2)))
	cs := f.start(5, 9, 12, 4)
	require.Len(t, cs.GetRollOffs(), 2)
	for i, want := range []struct {
		ids   []string
		faces []int32
	}{
		{[]string{"aldric", "berthe"}, []int32{5, 9}},
		{[]string{"cedric", "dame"}, []int32{12, 4}},
	} {
		ro := cs.GetRollOffs()[i]
		require.Equal(t, want.ids, ro.GetCombatantIds(), "roll-off %d", i)
		require.Equal(t, want.faces, []int32{ro.GetRolls()[0].GetTotal(), ro.GetRolls()[1].GetTotal()}, "roll-off %d", i)
	}
	var order []string
	for range 4 {
		id := f.upNext()
		order = append(order, id)
		f.do(gm, endTurn(id))
	}
	require.Equal(t, []string{"cedric", "dame", "berthe", "aldric"}, order)
	f.replay()
}
