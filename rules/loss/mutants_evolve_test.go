package loss_test

import (
	"testing"

	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// Tests of evolve.go, each written against a mutant that lived in a mutation run of rules/loss
// (scripts/mutation.sh, issue 26).

// An event naming a combatant of the encounter that has no Loss state (a log that is not
// Loss's own) is an error, not folded into a state thrown away: the pass is not lost quietly.
func TestAnEventForACombatantWithoutLossStateIsAnError(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian())
	f.start(7, 5)
	st := proto.CloneOf(f.St)
	delete(st.GetLoss().GetCombatants(), "malfrat")
	ev := nEv(uint64(len(f.Log)+1), &lossv1.Event{Kind: &lossv1.Event_Passed{Passed: &lossv1.Passed{CombatantId: "malfrat"}}})
	err := loss.New(1).Evolve(st, ev)
	require.ErrorContains(t, err, "malfrat has no Loss state")
}

// LOS-033, LOS-009: the GM removes a combatant that neither makes nor awaits the attack
// waiting for an answer: the attack still waits for the ruffian's dodge.
func TestRemovingABystanderKeepsTheAttackWaiting(t *testing.T) {
	f := newFight(t, nil, diego(), ruffian(), exBrute())
	f.start(7, 5, 1)                                     // Diego 15, the ruffian 10, the brute 6
	f.do("david", attack("diego", "malfrat", 0, nil), 5) // 17 ≥ 15
	f.do(gm, removeCmd("brute"))
	p := f.St.GetLoss().GetPending()
	require.Equal(t, []string{"diego", "malfrat"}, []string{p.GetAttackerId(), p.GetDefenderId()})
	dr := find(t, f.do(gm, dodge("malfrat", 0, nil), 9), (*lossv1.Event).GetDefenceRolled)
	require.Equal(t, "malfrat", dr.GetDefenderId())
}
