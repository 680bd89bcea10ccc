package loss_test

import (
	"testing"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
	"github.com/stretchr/testify/require"
)

// The numbers of what Legal offers after the first choices: how many further targets, how many
// Exploits with the Assaut's, how much more aiming. Written against mutants of legal.go
// (len(reach)-1, MaxExploits-cost, MaxAim-held made +) that lived in a gremlins run (issue 26).

// offered returns the choice of field in the legal action named name that id is offered now.
func offered(t *testing.T, f *fight, id, name, field string) (*rulesetv1.LegalAction, *rulesetv1.Choice) {
	t.Helper()
	legal, err := f.Reg.Legal(f.St, id)
	require.NoError(t, err)
	for _, l := range legal {
		if l.GetName() != name {
			continue
		}
		for _, c := range l.GetChoices() {
			if c.GetField() == field {
				return l, c
			}
		}
	}
	require.Failf(t, "not offered", "%s: no %q with a choice %q", id, name, field)
	return nil, nil
}

// LOS-026: the further targets of a multi-target Exploit are all but the first: Diego facing
// the ruffian and a brute may name at most 1 more.
func TestLOS026FurtherTargetsAreAllButTheFirst(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian(), exBrute())
	f.start(7, 5, 5)
	_, c := offered(t, f, "diego", "attack", "loss.attack.more_target_ids")
	require.Equal(t, []int32{0, 1}, []int32{int32(c.GetMin()), int32(c.GetMax())})
}

// LOS-010, LOS-061: the Assaut is 1 of the 5 Exploits of its Test: Hercule's charge offers 4
// more, in number and in budget.
func TestLOS061TheAssautLeavesFourExploits(t *testing.T) {
	f := newFight(t, nil, exHero(), exBrute())
	f.start(5, 5)
	_, c := offered(t, f, "hercule", "assaut", "loss.attack.exploits")
	require.Equal(t, int32(4), c.GetMax())
	require.Equal(t, int32(4), c.GetBudget())
}

// LOS-035: aiming gives +1 per PA up to +5 in all: Diego, having aimed 1 PA with his bow, is
// offered up to +4 more (14 PA left), in words and in the choice.
func TestLOS035AimingOffersWhatIsLeftOfTheFive(t *testing.T) {
	f := newFight(t, nil, with(diego(), func(s *lossv1.Sheet) {
		s.Weapons = append(s.Weapons, archerBow(4))
		s.Talents["Archerie"] = 6
	}), ruffian())
	f.start(7, 5) // Diego 15, the ruffian 10
	f.do("david", rgAim("diego", "arc", 1, false))
	require.Equal(t, []int32{14}, f.ap("diego"))
	a, c := offered(t, f, "diego", "aim", "loss.aim.points")
	require.Equal(t, "aim with arc: +1 per PA, up to +4 more", a.GetDescription())
	require.Equal(t, []int32{1, 4}, []int32{int32(c.GetMin()), int32(c.GetMax())})
}
