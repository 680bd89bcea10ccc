package ka_test

import (
	"testing"

	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
)

// hiddenDiceDuel: round 1 of hiddenFight (Joshua, david's, against the GM's hidden gargoyle),
// the discard returning to the deck before every draw (option every_draw, KA-003) so that
// Joshua's rolls are his player's to read, the dice drawn from one stream as the service
// draws them. claws and dodge are the words that take the gargoyle's cards; Joshua's cards
// are the same in every duel.
func hiddenDiceDuel(t *testing.T, claws, dodgeCard []int32) *enginetest.Script {
	top := func(c *kav1.Card) int32 { return int32(indexOf(t, ka.NewDeck(), c) + 1) } // the first card of a whole deck
	s := enginetest.NewScript(t, engine.NewRegistry(ka.Released()...))
	s.Do(gm, createCmd(&kav1.Options{Reshuffle: "every_draw"}))
	s.Do(gm, addCmd(with(joshua(), func(sh *kav1.Sheet) { sh.KaDice = 14 })))
	s.Do(gm, addCmd(gargoyle()))
	s.Do(gm, startCmd())
	// The gargoyle's claws on Joshua, who dodges: 19 + 16 − 3 + 3 = 35 against 4 + 2 + 4 = 10:
	// 10 Ka dice lost (KA-022…KA-024).
	s.Do(gm, attack("gargouille", "joshua", gargoyleWeapon, -3))
	s.Do(player, dodge("joshua"), append(claws, top(coupe(4)))...)
	// Joshua shoots it, it dodges: 3 + 4 − 1 + 5 = 11 against 17 + 13 − 1 + 6 = 35.
	s.Do(player, attack("joshua", "gargouille", "pistolet", 0))
	s.Do(gm, dodge("gargouille"), append([]int32{top(epee(5))}, dodgeCard...)...)
	return s
}

// TestHiddenKaCardsLeaveNoTraceInTheStreamPosition: two duels alike but for the hidden
// gargoyle's cards — a 3 and a 6 of other suits, the same values — and in the second a word
// the roll that takes its first card draws and throws away (the stream's multiply-and-reject,
// rules/dice), so that Joshua's rolls, the state's dice offset and high-water mark sit one
// word further on. A Ka draw takes one word a card, and how many cards a hidden combatant
// draws is seen at the table (face down, from the one deck, KA-003), so only such a rejected
// word moved the stream differently before the dice positions were withheld from the
// players; Joshua's player and an observer now receive the very same bytes of both, every
// event and every state. The GM tells them apart.
func TestHiddenKaCardsLeaveNoTraceInTheStreamPosition(t *testing.T) {
	top := func(c *kav1.Card) int32 { return int32(indexOf(t, ka.NewDeck(), c) + 1) }
	one := hiddenDiceDuel(t, []int32{top(coupe(3))}, []int32{top(denier(6))})
	other := hiddenDiceDuel(t, []int32{enginetest.Rejected, top(epee(3))}, []int32{top(baton(6))})
	require.Equal(t, one.St.GetDiceOffset()+1, other.St.GetDiceOffset(), "the stream went one word further")
	require.Equal(t, int32(4), one.St.GetKa().GetCombatants()["joshua"].GetKaDice(), "the claws took 10 Ka dice")
	for _, v := range []engine.Viewer{{Controls: map[string]bool{"joshua": true}}, {}} {
		enginetest.RequireSameReceived(t, one.Reg, one.Log, other.Log, v)
	}
	enginetest.RequireDifferentReceived(t, one.Reg, one.Log, other.Log, engine.Viewer{SeesAll: true})
}
