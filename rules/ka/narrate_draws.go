package ka

import (
	"slices"
	"strconv"
	"strings"

	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// The narration of draws: cards by their French names (KA-001), their places in the deck, the
// reshuffles of the discard (KA-003), and the sum sphere + skill + modifiers + cards (KA-004).

// tellShuffle: "56 cards": the deck has no order (KA-003), only its cards.
func tellShuffle(n *narrate.Narrator, sh *kav1.DeckShuffled) string {
	return count(n, "%[2]s cards", int32(sh.GetCards()))
}

// cardFaceDown reports whether a card is face down: drawn by a combatant hidden from the reader.
func cardFaceDown(c *kav1.Card) bool {
	return c.GetSuit() == kav1.Suit_SUIT_UNSPECIFIED && c.GetRank() == 0
}

// drawWithheld reports whether a draw was withheld from the reader: its cards face down, no
// sphere, skill or total.
func drawWithheld(r *kav1.DrawResult) bool {
	cards := r.GetDraw().GetCards()
	return r != nil && r.GetTotal() == 0 && r.GetSphere() == "" && r.GetSkill() == "" && len(cards) > 0 && slices.ContainsFunc(cards, cardFaceDown)
}

func tellSuit(n *narrate.Narrator, s kav1.Suit) string {
	switch s {
	case kav1.Suit_SUIT_BATON:
		return "bâton"
	case kav1.Suit_SUIT_COUPE:
		return "coupe"
	case kav1.Suit_SUIT_DENIER:
		return "denier"
	case kav1.Suit_SUIT_EPEE:
		return "épée"
	}
	return n.Sprintf("suit unknown")
}

// tellCard: "6 d'épée", "valet de bâton", "as de coupe" (KA-001): the cards' French names, in
// both languages.
func tellCard(n *narrate.Narrator, c *kav1.Card) string {
	var rank string
	switch r := c.GetRank(); {
	case r == 1:
		rank = "as"
	case r >= 2 && r <= 10:
		rank = itoa(r)
	case r == 11:
		rank = "valet"
	case r == 12:
		rank = "cavalier"
	case r == 13:
		rank = "dame"
	case r == 14:
		rank = "roi"
	default:
		rank = n.Sprintf("rank %s", itoa(r))
	}
	suit := tellSuit(n, c.GetSuit())
	if strings.HasPrefix(suit, "é") {
		return rank + " d'" + suit
	}
	return rank + " de " + suit
}

// tellPositions: "deck position 0", "deck positions 2–3", "deck positions 55, 0".
func tellPositions(n *narrate.Narrator, d *kav1.Draw) string {
	ps := d.GetPositions()
	switch {
	case len(ps) == 0:
		return n.Sprintf("from deck position %s", itoa(d.GetPosition()))
	case len(ps) == 1:
		return n.Sprintf("deck position %s", itoa(ps[0]))
	}
	contiguous := true
	for i := 1; i < len(ps); i++ {
		contiguous = contiguous && ps[i] == ps[i-1]+1
	}
	if contiguous {
		return n.Sprintf("deck positions %s–%s", itoa(ps[0]), itoa(ps[len(ps)-1]))
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = itoa(p)
	}
	return n.Sprintf("deck positions %s", strings.Join(parts, ", "))
}

// tellCards: "valet de bâton + 9 de coupe, deck positions 2–3", with the reshuffle of the
// discard when the deck ran out during the draw (KA-003).
func tellCards(n *narrate.Narrator, d *kav1.Draw) string {
	if len(d.GetCards()) == 0 {
		return n.Sprintf("no card")
	}
	names := make([]string, len(d.GetCards()))
	for i, c := range d.GetCards() {
		names[i] = tellCard(n, c)
	}
	s := strings.Join(names, " + ") + ", " + tellPositions(n, d)
	if !slices.ContainsFunc(d.GetCards(), func(c *kav1.Card) bool { return !cardFaceDown(c) }) {
		s = n.Sprintf("%s face down, %s", count(n, "%[2]s cards", int32(len(d.GetCards()))), tellPositions(n, d))
	}
	if sh := d.GetReshuffle(); sh != nil {
		switch after := d.GetReshuffleAfter(); {
		case after <= 0:
			s += n.Sprintf("; the discard back in the deck first: %s (KA-003)", tellShuffle(n, sh))
		default:
			s += n.Sprintf("; the deck ran out after %s and the discard went back in: %s (KA-003)", count(n, "%[2]s cards", after), tellShuffle(n, sh))
		}
	}
	return s
}

// modifierTerms splits the reasons of a draw's modifiers ("-2 situation") into terms of a
// sum (" − 2 situation"); what the reasons do not account for is a term of its own. The
// reasons the rules write are words of the catalogue.
func modifierTerms(n *narrate.Narrator, r *kav1.DrawResult) string {
	var b strings.Builder
	var sum int32
	term := func(v int32, what string) {
		if v < 0 {
			b.WriteString(" − " + itoa(-v))
		} else {
			b.WriteString(" + " + itoa(v))
		}
		if what != "" {
			b.WriteString(" " + n.Term(what))
		}
	}
	for _, reason := range r.GetModifierReasons() {
		number, what, _ := strings.Cut(strings.TrimSpace(reason), " ")
		v, err := strconv.ParseInt(strings.ReplaceAll(number, "−", "-"), 10, 32)
		if err != nil {
			b.WriteString(" + (" + reason + ")")
			continue
		}
		term(int32(v), what)
		sum += int32(v)
	}
	if rest := r.GetModifiers() - sum; rest != 0 && len(r.GetModifierReasons()) == 0 {
		term(rest, "modifiers")
	} else if rest != 0 {
		term(rest, "other modifiers")
	}
	return b.String()
}

// tellDraw: "Humanité 3 + Arme à feu 4 − 2 situation + cards 6 (6 d'épée, deck position 0)
// = 11" (KA-004).
func tellDraw(n *narrate.Narrator, r *kav1.DrawResult) string {
	if r == nil {
		return n.Sprintf("no draw")
	}
	if drawWithheld(r) { // a hidden combatant's draw: how many cards, not what they make
		return n.Sprintf("a draw behind the screen (%s), its total withheld", tellCards(n, r.GetDraw()))
	}
	var s string
	if r.GetSphere() != "" {
		s = r.GetSphere() + " " + itoa(r.GetSphereValue())
	}
	if r.GetSkill() != "" {
		s += " + " + r.GetSkill() + " " + itoa(r.GetSkillValue())
		if r.GetSkillMissing() {
			s += n.Sprintf(" (lacks the skill, KA-013)")
		}
	}
	s += modifierTerms(n, r)
	cards := n.Sprintf("cards %s (%s)", itoa(r.GetDraw().GetValue()), tellCards(n, r.GetDraw()))
	if s == "" {
		s = cards
	} else {
		s += " + " + cards
	}
	return strings.TrimPrefix(s, " + ") + " = " + itoa(r.GetTotal())
}
