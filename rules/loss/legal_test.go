package loss_test

import (
	"testing"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/stretchr/testify/require"
)

// What every combatant may do is checked in every state of a running fight these tests decide
// a command on (enginetest.CheckLegal): each legal action keyed as Describe names it, its
// pre-filled command taken with its required choices filled from their first option.
func init() { enginetest.LegalEveryState = true }

// LOS-019: a parry is offered only to a defender with something to parry with, the parry's
// Test agreeing: a projectile only with a shield of a size; a blow with a shield, an armoured
// forearm or a melee weapon it still holds; never without a parry score. Every answer offered
// is a reaction, a parry's or a dodge's with the Difficulty the attack passed on (LOS-036).
func TestLOS019ParryOfferedOnlyWithSomethingToParryWith(t *testing.T) {
	shield := func(size lossv1.ShieldSize) func(*lossv1.Sheet) {
		return func(s *lossv1.Sheet) { s.Shield = &lossv1.Shield{Name: "rondache", Size: size} }
	}
	bare := func(s *lossv1.Sheet) {
		s.Weapons = []*lossv1.Weapon{claws(2)}
	}
	for _, c := range []struct {
		name       string
		projectile bool
		edit       []func(*lossv1.Sheet)
		parry      bool
	}{
		{"a shot, no shield", true, nil, false},
		{"a shot, a small shield", true, []func(*lossv1.Sheet){shield(lossv1.ShieldSize_SHIELD_SIZE_SMALL)}, true},
		{"a shot, a shield of no size", true, []func(*lossv1.Sheet){shield(lossv1.ShieldSize_SHIELD_SIZE_UNSPECIFIED)}, false},
		{"a blow, a dagger", false, nil, true},
		{"a blow, no parry score", false, []func(*lossv1.Sheet){func(s *lossv1.Sheet) { s.Parry = nil }}, false},
		{"a blow, claws only", false, []func(*lossv1.Sheet){bare}, false},
		{"a blow, claws and an armoured forearm", false, []func(*lossv1.Sheet){bare, func(s *lossv1.Sheet) { s.ArmouredForearm = true }}, true},
		{"a blow, claws and a shield of no size", false, []func(*lossv1.Sheet){bare, shield(lossv1.ShieldSize_SHIELD_SIZE_UNSPECIFIED)}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			defender := ruffian()
			for _, e := range c.edit {
				defender = with(defender, e)
			}
			var f *fight
			if c.projectile {
				f = newFight(t, nil, rgArcher(rgSling()), defender)
				f.start(5, 5)
				f.do("david", rgShoot("archere", "malfrat", "", 10), 5) // 25 against 15
			} else {
				f = newFight(t, nil, diego(), defender)
				f.start(7, 5)
				f.do("david", attack("diego", "malfrat", 0, nil), 9) // 21 against 15
			}
			require.Equal(t, "malfrat", f.St.GetLoss().GetPending().GetDefenderId())
			keys := enginetest.CheckLegal(t, f.Reg, f.St) // each offered parry is taken
			list, err := f.Reg.LegalCommands(f.St, "malfrat")
			require.NoError(t, err)
			for _, l := range list { // answers, the Difficulty of a Test the attack's (LOS-036)
				require.True(t, l.Action.GetReaction(), l.Action.GetKey())
				want := f.St.GetLoss().GetPending().GetDifficulty()
				if l.Action.GetKey() == "take the blow" {
					want = 0
				}
				require.Equal(t, want, l.Action.GetDifficulty(), l.Action.GetKey())
			}
			require.Equal(t, c.parry, keys["parry"] == 1, "parry offered: %v", keys)
			require.Equal(t, 1, keys["take the blow"])
			if !c.parry {
				_, err := f.decide(gm, react("malfrat", lossv1.Reaction_REACTION_PARRY, 0, nil))
				require.Error(t, err)
			}
		})
	}
}

// LOS-080, LOS-081: a shot's pre-filled command leaves the distance open, up to the weapon's
// Limite (beyond it the shot cannot hit), or to the table's out of range (61 m) for a weapon
// without one; a melee blow has no distance to choose.
func TestLOS081ShotDistanceChosenUpToTheLimite(t *testing.T) {
	f := newFight(t, nil, rgArcher(rgBow(), rgSling(), sword(4, 3)), ruffian())
	f.start(5, 5)
	list, err := f.Reg.LegalCommands(f.St, "archere")
	require.NoError(t, err)
	most := map[string]int32{}
	for _, l := range list {
		if l.Action.GetKey() != "attack" {
			continue
		}
		most[l.Action.GetWeapon()] = -1
		for _, c := range l.Action.GetChoices() {
			if c.GetField() == "loss.attack.situation.distance" {
				require.False(t, c.GetRequired())
				require.Zero(t, c.GetMin())
				most[l.Action.GetWeapon()] = c.GetMax()
			}
		}
	}
	require.Equal(t, map[string]int32{"arc": 60, "fronde": 61, "sabre": -1}, most)
}
