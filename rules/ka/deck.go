package ka

import (
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"google.golang.org/protobuf/proto"
)

// NewDeck is the 56 cards of the minor arcana in order (KA-001).
func NewDeck() []*kav1.Card {
	var out []*kav1.Card
	for _, s := range []kav1.Suit{kav1.Suit_SUIT_BATON, kav1.Suit_SUIT_COUPE, kav1.Suit_SUIT_DENIER, kav1.Suit_SUIT_EPEE} {
		for r := int32(1); r <= 14; r++ {
			out = append(out, &kav1.Card{Suit: s, Rank: r})
		}
	}
	return out
}

// Shuffle shuffles cards with the encounter's dice (Fisher–Yates), recording each roll so an
// audit re-derives the order (KA-003).
func Shuffle(cards []*kav1.Card, roller dice.Roller) *kav1.DeckShuffled {
	order := make([]*kav1.Card, len(cards))
	for i, c := range cards {
		order[i] = &kav1.Card{Suit: c.GetSuit(), Rank: c.GetRank()} // who drew it last is the discard's
	}
	ev := &kav1.DeckShuffled{}
	for i := len(order) - 1; i > 0; i-- {
		r := roller.Roll(dice.Expr{Count: 1, Sides: i + 1})
		ev.Rolls = append(ev.Rolls, r)
		j := int(r.GetTotal()) - 1
		order[i], order[j] = order[j], order[i]
	}
	ev.Order = order
	return ev
}

// Value of one card: its number, or 10 for a face card (KA-002).
func Value(c *kav1.Card) int32 {
	if c.GetRank() > 10 {
		return FaceValue
	}
	return c.GetRank()
}

// deck is a working copy of the state's deck for a decision.
type deck struct {
	cards, discard []*kav1.Card
	position       int32
	everyDraw      bool
}

func deckOf(s *kav1.State, o *kav1.Options) *deck {
	return &deck{cards: s.GetDeck(), discard: s.GetDiscard(), position: s.GetPosition(), everyDraw: o.GetReshuffle() == "every_draw"}
}

// draw draws a card, then another after each face card (KA-002), shuffling the discard back
// when the deck runs out, or before each draw with every_draw (KA-003). Each card is recorded
// with its position in the deck.
func (d *deck) draw(roller dice.Roller) *kav1.Draw {
	dr := &kav1.Draw{}
	reshuffle := func() {
		all := append(append([]*kav1.Card{}, d.cards...), d.discard...)
		sh := Shuffle(all, roller)
		dr.Reshuffle, dr.ReshuffleAfter = sh, int32(len(dr.Cards))
		d.cards, d.discard, d.position = sh.GetOrder(), nil, 0
	}
	if d.everyDraw {
		reshuffle()
	}
	for {
		if len(d.cards) == 0 {
			reshuffle()
		}
		c := d.cards[0]
		d.cards = d.cards[1:]
		d.discard = append(d.discard, c)
		dr.Positions = append(dr.Positions, d.position)
		d.position++
		dr.Cards = append(dr.Cards, c)
		dr.Value += Value(c)
		if c.GetRank() <= 10 {
			dr.Position = dr.GetPositions()[0]
			return dr
		}
	}
}

// applyDraw folds a recorded draw of combatant by into the state's deck; each card goes to
// the discard marked with who drew it, so that a reader from whom by is hidden sees it face
// down.
func applyDraw(s *kav1.State, dr *kav1.Draw, by string) {
	for i, c := range dr.GetCards() {
		if dr.GetReshuffle() != nil && int32(i) == dr.GetReshuffleAfter() {
			s.Deck, s.Discard, s.Position = cloneCards(dr.GetReshuffle().GetOrder()), nil, 0
		}
		if len(s.Deck) > 0 {
			s.Deck = s.Deck[1:]
		}
		s.Discard = append(s.Discard, &kav1.Card{Suit: c.GetSuit(), Rank: c.GetRank(), DrawnBy: by})
		s.Position++
	}
	if dr.GetReshuffle() != nil && int(dr.GetReshuffleAfter()) == len(dr.GetCards()) {
		s.Deck, s.Discard, s.Position = cloneCards(dr.GetReshuffle().GetOrder()), nil, 0
	}
}

func cloneCards(cs []*kav1.Card) []*kav1.Card {
	out := make([]*kav1.Card, len(cs))
	for i, c := range cs {
		out[i] = proto.CloneOf(c)
	}
	return out
}
