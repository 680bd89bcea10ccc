package loss_test

import (
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/stretchr/testify/require"
)

// hiddenDiceFight: Diego (david's) against the GM's hidden ogre, the dice drawn from one
// stream as the service draws them; ogreAttack are the words of the ogre's first attack
// (its action d10 explodes, LOS-001), ogreDodge those of its dodge. Everything else rolls
// the same. The GM rewinds to the start at the end: a rewind records where the dice go on.
func hiddenDiceFight(t *testing.T, ogreAttack, ogreDodge []int32) *enginetest.Script {
	d := with(diego(), func(sh *lossv1.Sheet) { sh.Armour = 24; sh.Weapons[0].Damage = 19 })
	d.Side = "pj"
	s := enginetest.NewScript(t, engine.NewRegistry(loss.New(1)))
	s.Do(gm, createCmd(nil))
	s.Do(gm, addCmd(d))
	s.Do(gm, addCmd(ogre()))
	started := s.Do(gm, &encounterv1.Command{Kind: &encounterv1.Command_Start{Start: &encounterv1.StartEncounter{}}}, 5, 9) // Diego 13 PA, the ogre 32
	s.Do(gm, action(&lossv1.Action{CombatantId: "ogre", Kind: &lossv1.Action_Attack{Attack: &lossv1.Attack{
		TargetId: "diego", Weapon: "Gourdin-de-" + secretWord}}}), ogreAttack...) // 56 + d10: it succeeds (Difficulty 15)
	s.Do("david", dodge("diego", 0, nil), 4, 3)         // 14 < 15: hit, d10 3 + 28 = 31, armour 24: 7 NS
	s.Do(gm, pass("ogre"))                              //
	s.Do("david", attack("diego", "ogre", 0, nil), 8)   // 6+6+8 = 20
	s.Do(gm, takeBlow("ogre"), 5)                       // 5 + 19 = 24, armour 22: 2 NS
	s.Do("david", attack("diego", "ogre", 0, nil), 8)   // 20
	s.Do(gm, dodge("ogre", 0, nil), ogreDodge...)       // 26 + 25 + d10: dodged
	s.Do("david", pass("diego"), 2, 9)                  // Tour 2: Diego 10, the ogre 32
	s.Rewind(gm, started[len(started)-1].GetSequence()) // back to the first Tour's start
	s.Do(gm, pass("ogre"))                              //
	s.Do("david", attack("diego", "ogre", 0, nil), 7)   // 19 < 20: missed
	return s
}

// TestHiddenDiceLeaveNoTraceInTheStreamPosition: two fights alike but for the hidden ogre's
// dice — its attack's d10 explodes in one (10, then 7) and not in the other (7), its dodge
// draws a word the stream rejects in one (one word more, rules/dice face) — so that every roll
// after them, the state's dice offset and high-water mark, and the rewind's dice offset sit
// one or two words further on in the second. Diego's player and an observer receive the very
// same bytes of both, every event and every state (the recorded positions told them that the
// hidden die showed a 10); the GM tells them apart.
func TestHiddenDiceLeaveNoTraceInTheStreamPosition(t *testing.T) {
	plain := hiddenDiceFight(t, []int32{7}, []int32{9})
	exploding := hiddenDiceFight(t, []int32{10, 7}, []int32{enginetest.Rejected, 9})
	require.Equal(t, plain.St.GetDiceOffset()+2, exploding.St.GetDiceOffset(), "the stream went two words further")
	require.Equal(t, plain.St.GetDiceHighWater()+2, exploding.St.GetDiceHighWater())
	for _, v := range []engine.Viewer{davidsView, {}} {
		enginetest.RequireSameReceived(t, plain.Reg, plain.Log, exploding.Log, v)
	}
	enginetest.RequireDifferentReceived(t, plain.Reg, plain.Log, exploding.Log, gmView)
	enginetest.RequireDifferentReceived(t, plain.Reg, plain.Log, exploding.Log, engine.Viewer{Controls: map[string]bool{"ogre": true}})
}
