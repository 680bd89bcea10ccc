package feerie_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/feerie"
	"github.com/stretchr/testify/require"
)

// hiddenDiceClearing: the first Action of rdFight, Aude (alice's) against the GM's hidden
// ogre, the dice drawn from one stream as the service draws them; ogre holds the words of the
// ogre's three rolls (its dissimulation, its Initiative, its blow: d20 − d20 each, FEE-001).
// Aude's rolls are the same in every fight.
func hiddenDiceClearing(t *testing.T, ogre [3][]int32) *enginetest.Script {
	s := enginetest.NewScript(t, engine.NewRegistry(feerie.New(1)))
	s.Do(sqGM, &encounterv1.Command{Kind: &encounterv1.Command_Create{Create: &encounterv1.CreateEncounter{Name: "La clairière", RuleSystem: feerie.ID}}})
	s.Do(sqGM, &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: rdAude()}}})
	s.Do(sqGM, &encounterv1.Command{Kind: &encounterv1.Command_AddCombatant{AddCombatant: &encounterv1.AddCombatant{Combatant: rdOgre()}}})
	s.Do(sqGM, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}})
	s.Do(sqGM, sqUnseen("ogre", "aude", "habilete", ogreShadow), ogre[0]...)               // net 3: +11 Initiative (FEE-081)
	s.Do("alice", sqDeclare("aude", sqMelee("ogre", "épée")))                              //
	s.Do(sqGM, sqDeclare("ogre", rdAxe("aude", 5, -5)), append(sqFaces(0), ogre[1]...)...) // Aude 10, the ogre 23 + 11
	s.Do(sqGM, sqCmd("ogre", &feeriev1.Action{Kind: &feeriev1.Action_Ruling{Ruling: &feeriev1.Ruling{Malus: 1, Reason: "une faux"}}}))
	act := sqAct("ogre", nil, &feeriev1.Circumstances{Modifier: -3})
	act.GetFeerie().GetAct().Essence = 2
	s.Do(sqGM, act)
	s.Do(sqGM, sqAdvance(10), ogre[2]...) // net 0: 25 Essence from Aude
	s.Do("alice", sqAct("aude", nil, nil))
	s.Do(sqGM, sqAdvance(0), sqFaces(16)...) // Aude's blow
	for s.St.GetFeerie().GetRank() > 0 {
		s.Do(sqGM, sqAdvance(0))
	}
	return s
}

// TestHiddenFeerieDiceLeaveNoTraceInTheStreamPosition: two clearings alike but for the hidden
// ogre's dice — other faces of the same differences, and in the second a word its blow's
// d20 draws and throws away (the stream's multiply-and-reject, rules/dice) — so that Aude's
// blow, the state's dice offset and high-water mark sit one word further on. A Contes de Fées
// roll never explodes (FEE-001), so only such a rejected word moved the stream differently
// before the dice positions were withheld from the players; Aude's player and an observer now
// receive the very same bytes of both, every event and every state. The GM tells them apart.
func TestHiddenFeerieDiceLeaveNoTraceInTheStreamPosition(t *testing.T) {
	one := hiddenDiceClearing(t, [3][]int32{{13, 10}, {10, 10}, {10, 10}})
	other := hiddenDiceClearing(t, [3][]int32{{17, 14}, {3, 3}, {6, enginetest.Rejected, 6}})
	require.Equal(t, one.St.GetDiceOffset()+1, other.St.GetDiceOffset(), "the stream went one word further")
	for _, v := range []engine.Viewer{{Controls: map[string]bool{"aude": true}}, {}} {
		enginetest.RequireSameReceived(t, one.Reg, one.Log, other.Log, v)
	}
	enginetest.RequireDifferentReceived(t, one.Reg, one.Log, other.Log, engine.Viewer{SeesAll: true})
}
