package ka_test

import (
	"bytes"
	"fmt"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// KA-001: the 56 cards of the minor arcana, four suits of ace to 10, valet, cavalier, dame,
// roi; no major arcana. The option deck is recorded, and only tarot56 is known.
func TestKA001MinorArcana(t *testing.T) {
	deck := ka.NewDeck()
	require.Len(t, deck, 56)
	seen := map[string]bool{}
	bySuit := map[kav1.Suit]int{}
	for _, c := range deck {
		require.NotEqual(t, kav1.Suit_SUIT_UNSPECIFIED, c.GetSuit())
		require.GreaterOrEqual(t, c.GetRank(), int32(1))
		require.LessOrEqual(t, c.GetRank(), int32(roi), "no major arcana")
		k := fmt.Sprint(c.GetSuit(), c.GetRank())
		require.False(t, seen[k], "each card once: %s", k)
		seen[k] = true
		bySuit[c.GetSuit()]++
	}
	require.Equal(t, map[kav1.Suit]int{kav1.Suit_SUIT_BATON: 14, kav1.Suit_SUIT_COUPE: 14, kav1.Suit_SUIT_DENIER: 14, kav1.Suit_SUIT_EPEE: 14}, bySuit)

	f := newFight(t, nil)
	require.Equal(t, "tarot56", f.st.GetOptions().GetKa().GetDeck())
	b := blank(t)
	b.refuse(gm, createCmd(&kav1.Options{Deck: "tarot78"}), engine.CodeInvalid, "KA-001", "tarot78")
}

// KA-002: a card is worth its number, a face card 10 and another card is drawn, repeatedly.
func TestKA002FaceCardsDrawAgain(t *testing.T) {
	for r := int32(1); r <= 10; r++ {
		require.Equal(t, r, ka.Value(baton(r)))
	}
	for _, r := range []int32{valet, cavalier, dame, roi} {
		require.Equal(t, int32(10), ka.Value(epee(r)))
	}
	f := newFight(t, nil, joshua(), dog())
	f.start(baton(valet), coupe(cavalier), denier(dame), epee(roi), coupe(2), baton(1))
	d := find(t, f.do(gm, terror("joshua", 0)), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(valet), coupe(cavalier), denier(dame), epee(roi), coupe(2)}, cardsOf(d))
	require.Equal(t, int32(42), d.GetDraw().GetValue())
	require.Equal(t, []int32{0, 1, 2, 3, 4}, d.GetDraw().GetPositions())
	require.Equal(t, int32(4+3+42), d.GetTotal())
	// The next draw takes the ace, alone.
	d = find(t, f.do(gm, terror("joshua", 0)), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(1)}, cardsOf(d))
	require.Equal(t, int32(1), d.GetDraw().GetValue())
	require.Equal(t, int32(5), d.GetDraw().GetPosition())
}

// KA-003: each encounter shuffles its own deck from its seed (Fisher–Yates), recording the
// rolls so an audit re-derives the order.
func TestKA003DeckShuffledFromTheSeed(t *testing.T) {
	orders := map[string]bool{}
	for _, s := range []byte{1, 2} {
		seed := bytes.Repeat([]byte{s}, dice.SeedSize)
		reg := engine.NewRegistry(ka.New())
		st := &encounterv1.EncounterState{EncounterId: "e1"}
		apply := func(actor string, cmd *encounterv1.Command) []*encounterv1.Event {
			stream, err := dice.NewStream(seed, st.GetDiceOffset())
			require.NoError(t, err)
			evs, err := reg.Decide(st, cmd, engine.Env{Actor: actor, Dice: stream, Seed: seed})
			require.NoError(t, err)
			for _, ev := range evs {
				require.NoError(t, reg.Evolve(st, ev))
			}
			return evs
		}
		apply(gm, createCmd(nil))
		apply(gm, addCmd(joshua()))
		apply(gm, addCmd(dog()))
		sh := find(t, apply(gm, startCmd()), (*kav1.Event).GetDeckShuffled)
		require.Len(t, sh.GetRolls(), 55)
		order := ka.NewDeck()
		for k, r := range sh.GetRolls() {
			i := 55 - k
			require.Equal(t, fmt.Sprintf("1d%d", i+1), r.GetExpression())
			require.NoError(t, dice.Verify(seed, r), "the seed re-derives roll %d", k)
			j := r.GetTotal() - 1
			order[i], order[j] = order[j], order[i]
		}
		requireCards(t, order, sh.GetOrder())
		requireCards(t, order, st.GetKa().GetDeck())
		require.Empty(t, st.GetKa().GetDiscard())
		require.Zero(t, st.GetKa().GetPosition())
		require.Equal(t, uint64(55), st.GetDiceOffset())
		orders[fmt.Sprint(order)] = true
	}
	require.Len(t, orders, 2, "two seeds, two decks")
}

// KA-003: drawn cards go to the discard pile; when the deck runs out in the middle of a draw
// (after a face card) the discard is shuffled back and the draw goes on; every card is
// recorded with its position, counted from the last shuffle; a replay gives the same state.
func TestKA003ReshuffleOnEmpty(t *testing.T) {
	f := newFight(t, nil, joshua(), dog())
	f.start() // the deck in the order of ka.NewDeck: it ends with valet … roi d'épée
	require.Equal(t, "on_empty", f.st.GetOptions().GetKa().GetReshuffle())
	d := find(t, f.do(gm, terror("joshua", 0)), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(1)}, cardsOf(d))
	requireCards(t, []*kav1.Card{baton(1)}, f.ka().GetDiscard())
	require.Len(t, f.ka().GetDeck(), 55)
	for len(f.ka().GetDeck()) > 4 {
		d := find(t, f.do(gm, terror("joshua", 0)), (*kav1.Event).GetTerrorDrawn).GetDraw()
		require.Nil(t, d.GetDraw().GetReshuffle())
		require.Equal(t, int32(56-len(f.ka().GetDeck())), d.GetDraw().GetPositions()[len(cardsOf(d))-1]+1)
	}
	require.Len(t, f.ka().GetDiscard(), 52)
	// The four faces of épée, then the deck is empty: the 56 cards of the discard are
	// shuffled (rolls kept in discard order here), and the ace de bâton comes first.
	d = find(t, f.do(gm, terror("joshua", 0), identity(56)...), (*kav1.Event).GetTerrorDrawn).GetDraw()
	dr := d.GetDraw()
	requireCards(t, []*kav1.Card{epee(valet), epee(cavalier), epee(dame), epee(roi), baton(1)}, dr.GetCards())
	require.Equal(t, []int32{52, 53, 54, 55, 0}, dr.GetPositions())
	require.Equal(t, int32(52), dr.GetPosition())
	require.Equal(t, int32(41), dr.GetValue())
	require.NotNil(t, dr.GetReshuffle())
	require.Equal(t, int32(4), dr.GetReshuffleAfter())
	require.Len(t, dr.GetReshuffle().GetRolls(), 55)
	requireCards(t, ka.NewDeck(), dr.GetReshuffle().GetOrder())
	requireCards(t, ka.NewDeck()[1:], f.ka().GetDeck())
	requireCards(t, []*kav1.Card{baton(1)}, f.ka().GetDiscard())
	require.Equal(t, int32(1), f.ka().GetPosition())
	f.replays()
	// And the next draw goes on from there.
	d = find(t, f.do(gm, terror("joshua", 0)), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(2)}, cardsOf(d))
	require.Equal(t, []int32{1}, d.GetDraw().GetPositions())
}

// KA-003 (option reshuffle every_draw): the whole deck, discard included, is shuffled before
// each draw; the card is drawn at position 0 of the new order.
func TestKA003ReshuffleEveryDraw(t *testing.T) {
	f := newFight(t, &kav1.Options{Reshuffle: "every_draw"}, joshua(), dog())
	created := f.log[0].GetEncounterCreated()
	require.Equal(t, "every_draw", created.GetOptions().GetKa().GetReshuffle(), "recorded at creation")
	f.start()
	d := find(t, f.do(gm, terror("joshua", 0), identity(56)...), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(1)}, cardsOf(d))
	require.NotNil(t, d.GetDraw().GetReshuffle())
	require.Zero(t, d.GetDraw().GetReshuffleAfter())
	require.Equal(t, []int32{0}, d.GetDraw().GetPositions())
	require.Zero(t, d.GetDraw().GetPosition())
	// The second draw: the deck (2 … roi d'épée) and the discard (ace de bâton) are shuffled
	// together; the first roll, 1 on the d56, swaps the ace back to the top.
	faces := append([]int32{1}, identity(55)...)
	d = find(t, f.do(gm, terror("joshua", 0), faces...), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(1)}, cardsOf(d))
	require.Equal(t, []int32{0}, d.GetDraw().GetPositions())
	require.Len(t, d.GetDraw().GetReshuffle().GetRolls(), 55)
	require.Equal(t, int32(1), f.ka().GetPosition())
	require.Len(t, f.ka().GetDeck(), 55)
	require.True(t, proto.Equal(baton(2), f.ka().GetDeck()[len(f.ka().GetDeck())-1]))
	f.replays()

	// With the default, the same two draws use no dice at all.
	g := newFight(t, nil, joshua(), dog())
	g.start()
	g.do(gm, terror("joshua", 0))
	d = find(t, g.do(gm, terror("joshua", 0)), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(2)}, cardsOf(d))
	require.Nil(t, d.GetDraw().GetReshuffle())

	b := blank(t)
	b.refuse(gm, createCmd(&kav1.Options{Reshuffle: "never"}), engine.CodeInvalid, "KA-003", "never")
}

// KA-003: the state holds the deck; a DeckShuffled event folded through Evolve sets it, and
// the next draw takes its top card.
func TestKA003DeckIsState(t *testing.T) {
	f := newFight(t, nil, joshua(), dog())
	f.start()
	f.do(gm, terror("joshua", 0))
	order := deckWith(t, denier(roi), coupe(7))
	ev := &encounterv1.Event{EncounterId: "e1", Sequence: f.st.GetSequence() + 1, RuleSystem: "ka", RulesVersion: 1,
		Payload: &encounterv1.Event_Ka{Ka: &kav1.Event{Kind: &kav1.Event_DeckShuffled{DeckShuffled: &kav1.DeckShuffled{Order: order}}}}}
	require.NoError(t, f.reg.Evolve(f.st, ev))
	f.log = append(f.log, ev)
	requireCards(t, order, f.ka().GetDeck())
	require.Empty(t, f.ka().GetDiscard())
	require.Zero(t, f.ka().GetPosition())
	d := find(t, f.do(gm, terror("joshua", 0)), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{denier(roi), coupe(7)}, cardsOf(d))
	require.Equal(t, []int32{0, 1}, d.GetDraw().GetPositions())
	f.replays()
}

// blank is a fight whose encounter is not created yet.
func blank(t *testing.T) *fight {
	return &fight{t: t, reg: engine.NewRegistry(ka.New()), st: &encounterv1.EncounterState{EncounterId: "e1"}}
}
