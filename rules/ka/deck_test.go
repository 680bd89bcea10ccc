package ka_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/enginetest"
	"github.com/fray-rpg/fray/rules/ka"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
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
	require.Equal(t, "tarot56", f.St.GetOptions().GetKa().GetDeck())
	b := blank(t)
	b.refuse(gm, createCmd(&kav1.Options{Deck: "tarot78"}), engine.CodeInvalid, "KA-001", "tarot78")
}

// KA-002: a card is worth its number, a face card 10 and another card is drawn, repeatedly,
// from the cards left (KA-003).
func TestKA002FaceCardsDrawAgain(t *testing.T) {
	for r := int32(1); r <= 10; r++ {
		require.Equal(t, r, ka.New(ka.Latest).Value(baton(r)))
	}
	for _, r := range []int32{valet, cavalier, dame, roi} {
		require.Equal(t, int32(10), ka.New(ka.Latest).Value(epee(r)))
	}
	f := newFight(t, nil, joshua(), dog())
	f.start()
	// The faces that take the valet de bâton (the 11th of 56 cards), the cavalier de coupe (the
	// 25th of the 55 left), the dame de denier (39th of 54), the roi d'épée (the last of 53),
	// then the 2 de coupe (15th of 52).
	faces := f.pick(baton(valet), coupe(cavalier), denier(dame), epee(roi), coupe(2))
	require.Equal(t, []int32{11, 25, 39, 53, 15}, faces)
	d := find(t, f.do(gm, terror("joshua", 0), faces...), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(valet), coupe(cavalier), denier(dame), epee(roi), coupe(2)}, cardsOf(d))
	require.Equal(t, int32(42), d.GetDraw().GetValue())
	require.Equal(t, []int32{0, 1, 2, 3, 4}, d.GetDraw().GetPositions())
	require.Equal(t, []string{"1d56", "1d55", "1d54", "1d53", "1d52"}, expressions(d.GetDraw()))
	require.Equal(t, faces, totals(d.GetDraw()))
	require.Equal(t, int32(4+3+42), d.GetTotal())
	// The next draw takes the ace, alone.
	d = find(t, f.do(gm, terror("joshua", 0), f.pick(baton(1))...), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(1)}, cardsOf(d))
	require.Equal(t, []string{"1d51"}, expressions(d.GetDraw()))
	require.Equal(t, int32(1), d.GetDraw().GetValue())
	require.Equal(t, int32(5), d.GetDraw().GetPosition())
	require.Equal(t, int32(50), f.ka().GetDeckCount())
	f.replays()
}

// KA-003: each card is drawn at random from the cards left with the encounter's dice, one
// roll per card recorded with its offset, so the seed re-derives every card and a replay
// draws the same ones; no order of the cards not yet drawn exists, neither in the events nor
// in the state; a rewound draw is drawn again with fresh dice; two seeds draw differently.
func TestKA003DrawnAtRandomFromTheSeed(t *testing.T) {
	draws := map[string]bool{}
	for _, s := range []byte{1, 2} {
		seed := bytes.Repeat([]byte{s}, dice.SeedSize)
		reg := engine.NewRegistry(ka.Released()...)
		st := &encounterv1.EncounterState{EncounterId: "e1"}
		var log []*encounterv1.Event
		apply := func(actor string, cmd *encounterv1.Command) []*encounterv1.Event {
			t.Helper()
			var rewind *encounterv1.EncounterState
			if rw := cmd.GetRewind(); rw != nil {
				var err error
				rewind, err = reg.Fold(log[:rw.GetToSequence()])
				require.NoError(t, err)
			}
			evs, next, err := reg.Resolve(st, cmd, actor, seed, rewind)
			require.NoError(t, err)
			for i, ev := range evs {
				ev.CommandId = fmt.Sprint("c", len(log))
				if i == 0 {
					ev.Command = cmd
				}
			}
			log, st = append(log, evs...), next
			return evs
		}
		apply(gm, createCmd(nil))
		apply(gm, addCmd(joshua()))
		apply(gm, addCmd(dog()))
		sh := find(t, apply(gm, startCmd()), (*kav1.Event).GetDeckShuffled)
		require.Equal(t, int32(56), sh.GetCards(), "the deck's composition: the 56 cards of the minor arcana")
		require.Empty(t, sh.GetOrder(), "no order")
		require.Empty(t, sh.GetRolls(), "nothing rolled")
		require.Zero(t, st.GetDiceOffset())
		require.Empty(t, st.GetKa().GetDeck())
		require.Equal(t, int32(56), st.GetKa().GetDeckCount())

		// Twelve terror draws: each card is the one its roll names among the cards left.
		var cards []string
		var last uint64
		for range 12 {
			left := ka.Left(st.GetKa().GetDiscard())
			d := find(t, apply(gm, terror("joshua", 0)), (*kav1.Event).GetTerrorDrawn).GetDraw().GetDraw()
			require.Len(t, d.GetRolls(), len(d.GetCards()))
			for k, r := range d.GetRolls() {
				require.Equal(t, fmt.Sprintf("1d%d", len(left)), r.GetExpression())
				require.NoError(t, dice.Verify(seed, r), "the seed re-derives the roll of card %d", k)
				require.GreaterOrEqual(t, r.GetOffset(), last)
				last = r.GetOffset() + r.GetDraws()
				c := left[r.GetTotal()-1]
				requireCards(t, []*kav1.Card{c}, d.GetCards()[k:k+1])
				left = slices.DeleteFunc(slices.Clone(left), func(x *kav1.Card) bool { return sameCard(x, c) })
				cards = append(cards, fmt.Sprint(c))
			}
			require.Equal(t, int32(len(left)), st.GetKa().GetDeckCount())
			requireCards(t, left, ka.Left(st.GetKa().GetDiscard()))
		}
		require.Equal(t, last, st.GetDiceOffset())
		draws[fmt.Sprint(cards)] = true
		requireNoOrder(t, log, st)

		// The GM rewinds the last draw and calls it again: the deck is as it was, the dice go
		// on from the furthest used, so the card is drawn with a fresh roll.
		rewound := find(t, log[len(log)-1:], (*kav1.Event).GetTerrorDrawn).GetDraw().GetDraw()
		apply(gm, &encounterv1.Command{Kind: &encounterv1.Command_Rewind{Rewind: &encounterv1.Rewind{ToSequence: uint64(len(log) - 1)}}})
		require.Equal(t, int32(56-len(cards)+len(rewound.GetCards())), st.GetKa().GetDeckCount(), "its cards are back among the cards left")
		again := find(t, apply(gm, terror("joshua", 0)), (*kav1.Event).GetTerrorDrawn).GetDraw().GetDraw()
		require.GreaterOrEqual(t, again.GetRolls()[0].GetOffset(), last, "no die is rolled twice")

		// The seed revealed, the audit re-derives every card's roll and decides the log again.
		apply(gm, &encounterv1.Command{Kind: &encounterv1.Command_End{End: &encounterv1.EndEncounter{}}})
		rep, err := reg.Audit(log)
		require.NoError(t, err)
		require.Equal(t, len(cards)+len(again.GetRolls()), rep.Rolls)
		enginetest.Replays(t, reg, st, log)
	}
	require.Len(t, draws, 2, "two seeds, two draws")
}

// KA-003: a draw gives each card left the same chance, as the top of a shuffled deck would:
// over 5,600 first draws of one stream, every card comes up, each about 100 times.
func TestKA003EveryCardLeftAsLikely(t *testing.T) {
	s, err := dice.NewStream(bytes.Repeat([]byte{7}, dice.SeedSize), 0)
	require.NoError(t, err)
	count := map[string]int{}
	for range 56 * 100 {
		c, r := ka.Take(ka.NewDeck(), s)
		require.Equal(t, "1d56", r.GetExpression())
		count[fmt.Sprint(c)]++
	}
	require.Len(t, count, 56)
	for c, n := range count {
		require.InDelta(t, 100, n, 45, "card %s", c)
	}
	c, r := ka.Take([]*kav1.Card{coupe(3)}, dice.NewFixed())
	require.True(t, sameCard(coupe(3), c))
	require.Nil(t, r, "the last card left is taken without a roll")
}

// KA-003: drawn cards go to the discard pile; when no card is left in the middle of a draw
// (after a face card) the discard returns to the deck, rolling nothing, and the draw goes on
// from the 56 cards; every card is recorded with its position, counted from the last time the
// deck was whole; a replay gives the same state.
func TestKA003ReshuffleOnEmpty(t *testing.T) {
	f := newFight(t, nil, joshua(), dog())
	f.start() // the draws take the cards in the order of ka.NewDeck: it ends with valet … roi d'épée
	require.Equal(t, "on_empty", f.St.GetOptions().GetKa().GetReshuffle())
	d := find(t, f.do(gm, terror("joshua", 0)), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(1)}, cardsOf(d))
	requireCards(t, []*kav1.Card{baton(1)}, f.ka().GetDiscard())
	require.Equal(t, int32(55), f.ka().GetDeckCount())
	for f.ka().GetDeckCount() > 4 {
		d := find(t, f.do(gm, terror("joshua", 0)), (*kav1.Event).GetTerrorDrawn).GetDraw()
		require.Nil(t, d.GetDraw().GetReshuffle())
		require.Equal(t, 56-f.ka().GetDeckCount(), d.GetDraw().GetPositions()[len(cardsOf(d))-1]+1)
	}
	require.Len(t, f.ka().GetDiscard(), 52)
	// The four faces of épée, the last without a roll (it is the only card left), then the
	// discard returns: 56 cards, and the ace de bâton is the first of them.
	dr := find(t, f.do(gm, terror("joshua", 0), 1, 1, 1, 1), (*kav1.Event).GetTerrorDrawn).GetDraw().GetDraw()
	requireCards(t, []*kav1.Card{epee(valet), epee(cavalier), epee(dame), epee(roi), baton(1)}, dr.GetCards())
	require.Equal(t, []string{"1d4", "1d3", "1d2", "1d56"}, expressions(dr))
	require.Equal(t, []int32{52, 53, 54, 55, 0}, dr.GetPositions())
	require.Equal(t, int32(52), dr.GetPosition())
	require.Equal(t, int32(41), dr.GetValue())
	require.Equal(t, int32(56), dr.GetReshuffle().GetCards())
	require.Empty(t, dr.GetReshuffle().GetOrder())
	require.Empty(t, dr.GetReshuffle().GetRolls())
	require.Equal(t, int32(4), dr.GetReshuffleAfter())
	requireCards(t, []*kav1.Card{baton(1)}, f.ka().GetDiscard())
	require.Equal(t, []int32{55, 1}, []int32{f.ka().GetDeckCount(), f.ka().GetPosition()})
	f.replays()
	// And the next draw goes on from there: 55 cards left.
	d = find(t, f.do(gm, terror("joshua", 0)), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(2)}, cardsOf(d))
	require.Equal(t, []string{"1d55"}, expressions(d.GetDraw()))
	require.Equal(t, []int32{1}, d.GetDraw().GetPositions())
}

// KA-003 (option reshuffle every_draw): the discard returns to the deck before each draw,
// rolling nothing; the card is drawn at position 0 from the 56.
func TestKA003ReshuffleEveryDraw(t *testing.T) {
	f := newFight(t, &kav1.Options{Reshuffle: "every_draw"}, joshua(), dog())
	created := f.Log[0].GetEncounterCreated()
	require.Equal(t, "every_draw", created.GetOptions().GetKa().GetReshuffle(), "recorded at creation")
	f.start()
	d := find(t, f.do(gm, terror("joshua", 0), 1), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(1)}, cardsOf(d))
	require.Nil(t, d.GetDraw().GetReshuffle(), "the discard is empty: nothing returns")
	require.Equal(t, []int32{0}, d.GetDraw().GetPositions())
	// The second draw: the ace returns first; the d56's 1 takes it again.
	d = find(t, f.do(gm, terror("joshua", 0), 1), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(1)}, cardsOf(d))
	require.Equal(t, []string{"1d56"}, expressions(d.GetDraw()))
	require.Equal(t, int32(56), d.GetDraw().GetReshuffle().GetCards())
	require.Zero(t, d.GetDraw().GetReshuffleAfter())
	require.Equal(t, []int32{0}, d.GetDraw().GetPositions())
	require.Zero(t, d.GetDraw().GetPosition())
	requireCards(t, []*kav1.Card{baton(1)}, f.ka().GetDiscard())
	require.Equal(t, []int32{55, 1}, []int32{f.ka().GetDeckCount(), f.ka().GetPosition()})
	f.replays()

	// With the default, the same two faces take the ace, then the 2 de bâton from 55 cards.
	g := newFight(t, nil, joshua(), dog())
	g.start()
	g.do(gm, terror("joshua", 0), 1)
	d = find(t, g.do(gm, terror("joshua", 0), 1), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{baton(2)}, cardsOf(d))
	require.Equal(t, []string{"1d55"}, expressions(d.GetDraw()))
	require.Nil(t, d.GetDraw().GetReshuffle())

	b := blank(t)
	b.refuse(gm, createCmd(&kav1.Options{Reshuffle: "never"}), engine.CodeInvalid, "KA-003", "never")
}

// KA-003: the state holds the discard and the count of cards left, no order; a DeckShuffled
// folded through Evolve makes the deck whole again, and the next draw takes from the 56.
func TestKA003DeckIsState(t *testing.T) {
	f := newFight(t, nil, joshua(), dog())
	f.start()
	f.do(gm, terror("joshua", 0))
	require.Equal(t, int32(55), f.ka().GetDeckCount())
	ev := &encounterv1.Event{EncounterId: "e1", Sequence: f.St.GetSequence() + 1, RuleSystem: "ka", RulesVersion: 1,
		Payload: &encounterv1.Event_Ka{Ka: &kav1.Event{Kind: &kav1.Event_DeckShuffled{DeckShuffled: &kav1.DeckShuffled{Cards: 56}}}}}
	require.NoError(t, f.Reg.Evolve(f.St, ev))
	f.Log = append(f.Log, ev)
	require.Empty(t, f.ka().GetDiscard())
	require.Zero(t, f.ka().GetPosition())
	require.Equal(t, int32(56), f.ka().GetDeckCount())
	faces := f.pick(denier(roi), coupe(7))
	require.Equal(t, []int32{42, 21}, faces)
	d := find(t, f.do(gm, terror("joshua", 0), faces...), (*kav1.Event).GetTerrorDrawn).GetDraw()
	requireCards(t, []*kav1.Card{denier(roi), coupe(7)}, cardsOf(d))
	require.Equal(t, []int32{0, 1}, d.GetDraw().GetPositions())
	require.Equal(t, []string{"1d56", "1d55"}, expressions(d.GetDraw()))
	f.replays()
}

// expressions is the dice expressions of a draw's rolls.
func expressions(d *kav1.Draw) []string {
	var out []string
	for _, r := range d.GetRolls() {
		out = append(out, r.GetExpression())
	}
	return out
}

// totals is the faces of a draw's rolls.
func totals(d *kav1.Draw) []int32 {
	var out []int32
	for _, r := range d.GetRolls() {
		out = append(out, r.GetTotal())
	}
	return out
}

// requireNoOrder: no event of log and no state holds an order of cards not yet drawn: no
// deck, no shuffled order (KA-003). The only cards anywhere are those drawn.
func requireNoOrder(t *testing.T, log []*encounterv1.Event, states ...*encounterv1.EncounterState) {
	t.Helper()
	for _, m := range append(toMessages(log), toMessages(states)...) {
		eachMessage(m, func(m protoreflect.Message) {
			switch x := m.Interface().(type) {
			case *kav1.State:
				require.Empty(t, x.GetDeck(), "a state holds no deck")
			case *kav1.DeckShuffled:
				require.Empty(t, x.GetOrder(), "a shuffle records no order")
				require.Empty(t, x.GetRolls(), "a shuffle rolls nothing")
			}
		})
	}
}

func toMessages[M proto.Message](ms []M) []proto.Message {
	out := make([]proto.Message, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}
