package ka

import (
	"fmt"
	"slices"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/dice"
)

// The deck (KA-001, KA-003). The shared catalogue says the deck is "shuffled from the
// encounter's seed" and that "the state records the deck, so a replay draws the same cards".
// This engine reads it so that no order of the cards not yet drawn exists anywhere, neither in
// an event (which the audit tools read from the log) nor in the state: each card is drawn at
// random from the seed's stream, one at a time, from the cards left. Drawing uniformly from
// the cards left gives every card the chance it has on top of a shuffled deck, and a replay
// still draws the same cards, because each draw records its cards and the rolls that took
// them (an audit re-derives the rolls from the revealed seed). The cards left are public: the
// minor arcana less the discard.

// DeckSize is the number of cards of the minor arcana (KA-001).
const DeckSize = 56

// NewDeck is the 56 cards of the minor arcana in order (KA-001): bâton, coupe, denier, épée,
// each from the ace to the roi. A draw's roll counts the cards left in this order.
func NewDeck() []*kav1.Card {
	var out []*kav1.Card
	for _, s := range []kav1.Suit{kav1.Suit_SUIT_BATON, kav1.Suit_SUIT_COUPE, kav1.Suit_SUIT_DENIER, kav1.Suit_SUIT_EPEE} {
		for r := int32(1); r <= 14; r++ {
			out = append(out, &kav1.Card{Suit: s, Rank: r})
		}
	}
	return out
}

// Left is the cards not yet drawn: the minor arcana less the cards of discard, in the order
// of NewDeck (KA-003).
func Left(discard []*kav1.Card) []*kav1.Card {
	drawn := map[[2]int32]bool{}
	for _, c := range discard {
		drawn[[2]int32{int32(c.GetSuit()), c.GetRank()}] = true
	}
	var out []*kav1.Card
	for _, c := range NewDeck() {
		if !drawn[[2]int32{int32(c.GetSuit()), c.GetRank()}] {
			out = append(out, c)
		}
	}
	return out
}

// Take picks the card a draw takes from left, at random with the encounter's dice: one die
// with a face per card left, its face the rank of the card in left (KA-003). The last card
// left is taken without a roll (the roll is nil).
func Take(left []*kav1.Card, roller dice.Roller) (*kav1.Card, *dicev1.Roll) {
	if len(left) == 1 {
		return left[0], nil
	}
	r := roller.Roll(dice.Expr{Count: 1, Sides: len(left)})
	return left[r.GetTotal()-1], r
}

// Value of one card: its number, or 10 for a face card (KA-002).
func (s System) Value(c *kav1.Card) int32 {
	if c.GetRank() > 10 {
		return s.n.FaceValue
	}
	return c.GetRank()
}

// deck is a working copy of the state's discard for a decision: the cards left are the rest.
type deck struct {
	sys       System
	discard   []*kav1.Card
	everyDraw bool
}

func (s System) deckOf(st *encounterv1.EncounterState) *deck {
	return &deck{sys: s, discard: kaState(st).GetDiscard(), everyDraw: options(st).GetReshuffle() == "every_draw"}
}

// draw draws a card for combatant by from the cards left, then another after each face card
// (KA-002); the discard returns to the deck when no card is left, or before each draw with
// every_draw (KA-003), rolling nothing. Each card is recorded with its position (cards drawn
// since the deck was last whole) and the roll that took it; the draw names who drew the
// cards out of the deck when it rolled.
func (d *deck) draw(roller dice.Roller, by string) *kav1.Draw {
	dr := &kav1.Draw{}
	reshuffle := func() {
		dr.Reshuffle, dr.ReshuffleAfter = &kav1.DeckShuffled{Cards: DeckSize}, int32(len(dr.Cards))
		d.discard = nil
	}
	if d.everyDraw && len(d.discard) > 0 {
		reshuffle()
	}
	for {
		left := Left(d.discard)
		if len(left) == 0 {
			reshuffle()
			left = NewDeck()
		}
		c, roll := Take(left, roller)
		if roll != nil {
			dr.Rolls = append(dr.Rolls, roll)
			for _, x := range d.discard {
				if !slices.Contains(dr.DiscardBy, x.GetDrawnBy()) {
					dr.DiscardBy = append(dr.DiscardBy, x.GetDrawnBy())
				}
			}
		}
		dr.Positions = append(dr.Positions, int32(len(d.discard)))
		d.discard = append(d.discard, &kav1.Card{Suit: c.GetSuit(), Rank: c.GetRank(), DrawnBy: by})
		dr.Cards = append(dr.Cards, c)
		dr.Value += d.sys.Value(c)
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
			s.Discard, s.Position = nil, 0
		}
		s.Discard = append(s.Discard, &kav1.Card{Suit: c.GetSuit(), Rank: c.GetRank(), DrawnBy: by})
		s.Position++
	}
	s.DeckCount = int32(DeckSize - len(s.GetDiscard()))
}

// skillValue is f's score in a skill, or in a power of that name (KA-032); false when it has
// neither.
func skillValue(f fighter, skill string) (int32, bool) {
	if v, ok := f.sh.GetSkills()[skill]; ok {
		return v, true
	}
	v, ok := f.sh.GetPowers()[skill]
	return v, ok
}

// drawFor makes a draw: sphere + skill + modifiers + cards (KA-004), the cumulative malus of
// actions already taken this round included (KA-011). A combatant without the skill draws at
// skill 0, and the draw says so (KA-013).
func drawFor(d *deck, f fighter, sphere, skill string, mods []int32, reasons []string, roller dice.Roller) *kav1.DrawResult {
	r := &kav1.DrawResult{Sphere: sphere, SphereValue: f.sh.GetSpheres()[sphere], Skill: skill}
	if skill != "" {
		v, ok := skillValue(f, skill)
		r.SkillValue, r.SkillMissing = v, !ok
	}
	for i, m := range mods {
		if m != 0 {
			r.Modifiers += m
			r.ModifierReasons = append(r.ModifierReasons, fmt.Sprintf("%+d %s", m, reasons[i]))
		}
	}
	r.Draw = d.draw(roller, f.id())
	r.Total = r.GetSphereValue() + r.GetSkillValue() + r.GetModifiers() + r.GetDraw().GetValue()
	return r
}
