package odds_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/odds"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// TestOddsUseOnlyWhatTheCallerSees: with the target hidden from the player, the odds computed
// on the player's view are the same whatever the target's numbers are, and say its numbers
// are hidden; the GM, who sees all, gets odds that change with them (each system; LOS-012,
// D20-040, FEE-020, KA-007).
func TestOddsUseOnlyWhatTheCallerSees(t *testing.T) {
	for _, c := range []struct {
		name             string
		state            func(testing.TB) *encounterv1.EncounterState
		cmd              *encounterv1.Command
		attacker, target string
		// change alters the target's secret numbers.
		change func(*encounterv1.Combatant)
	}{
		{name: "loss", state: func(t testing.TB) *encounterv1.EncounterState { return lossFight(t, nil, malfrat()) }, cmd: lossAttack(extra), attacker: "diego", target: "malfrat",
			change: func(c *encounterv1.Combatant) { c.GetLoss().Talents["Esquive"] = 1; c.GetLoss().Armour = 3 }},
		{name: "d20seg", state: func(t testing.TB) *encounterv1.EncounterState {
			return segFight(t, nil, segFighter("knight", "david", 5, 6, 2, 3, 14, 30, longsword()), segFighter("brigand", gm, 1, 1, 1, 1, 15, 20, longsword()))
		}, cmd: segAttack(0, 0), attacker: "knight", target: "brigand", change: func(c *encounterv1.Combatant) { c.GetD20Seg().Ca = 25 }},
		{name: "feerie", state: func(t testing.TB) *encounterv1.EncounterState { return feerieFight(t, nil, duelIntent(4), kobold(30)) },
			cmd: feerieAct(), attacker: "didimus", target: "kobold", change: func(c *encounterv1.Combatant) { c.GetFeerie().Habilete = 20 }},
		{name: "ka", state: func(t testing.TB) *encounterv1.EncounterState { return kaFight(t, nil, 2) }, cmd: kaShot("pistolet", -2, false), attacker: "joshua", target: "chien",
			change: func(c *encounterv1.Combatant) { c.GetKa().Skills["Esquive"] = 9; c.GetKa().Encaissement = 6 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := c.state(t)
			engine.FindCombatant(st, c.target).Hidden = true
			other := proto.CloneOf(st)
			c.change(engine.FindCombatant(other, c.target))
			player := engine.Viewer{Controls: map[string]bool{c.attacker: true}}
			gmView := engine.Viewer{SeesAll: true}

			mine, err := odds.Of(reg, reg.View(st, player), c.cmd, "david")
			require.NoError(t, err)
			theirs, err := odds.Of(reg, reg.View(other, player), c.cmd, "david")
			require.NoError(t, err)
			require.True(t, proto.Equal(mine, theirs), "a player's odds must not depend on a hidden target's numbers")
			hidden := 0
			for _, s := range mine.GetSections() {
				if s.GetUnavailable() != "" {
					require.Contains(t, s.GetUnavailable(), "hidden from you")
					hidden++
				}
				for _, d := range s.GetDistributions() {
					require.Empty(t, d, "no distribution is computed from hidden numbers")
				}
			}
			require.Positive(t, hidden)

			all, err := odds.Of(reg, reg.View(st, gmView), c.cmd, "david")
			require.NoError(t, err)
			allOther, err := odds.Of(reg, reg.View(other, gmView), c.cmd, "david")
			require.NoError(t, err)
			require.False(t, proto.Equal(all, allOther), "the GM's odds use every number")
			for _, s := range all.GetSections() {
				require.NotContains(t, s.GetUnavailable(), "hidden")
			}
		})
	}
}
