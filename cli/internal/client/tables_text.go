package client

// The words of the state tables: combatants by name, cards, intents, numbers as in prose. The
// events themselves are narrated by the rules (rules/narrate, narration.go).

import (
	"fmt"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/ka"
	rulesnarrate "github.com/fray-rpg/fray/rules/narrate"
)

// Names are the names the state tables show for combatant ids; an id it lacks is shown as it
// is.
type Names struct{ byID map[string]string }

// NamesOf returns the names of a state's combatants.
func NamesOf(st *encounterv1.EncounterState) *Names {
	n := &Names{byID: map[string]string{}}
	for _, c := range st.GetCombatants() {
		if c.GetId() != "" && c.GetName() != "" {
			n.byID[c.GetId()] = c.GetName()
		}
	}
	return n
}

// TableNarrator is an English narrator knowing st's combatants, for the texts of a state
// table the rules write (feerie.StateText).
func TableNarrator(st *encounterv1.EncounterState) *rulesnarrate.Narrator {
	n := English()
	for _, c := range st.GetCombatants() {
		n.SetName(c.GetId(), c.GetName())
		n.SetHidden(c.GetId(), c.GetHidden())
	}
	return n
}

// Of is the name of combatant id, id itself when unknown, "?" for no id.
func (n *Names) Of(id string) string {
	if n != nil {
		if name := n.byID[id]; name != "" {
			return name
		}
	}
	if id == "" {
		return "?"
	}
	return id
}

func AndList(xs []string) string {
	switch len(xs) {
	case 0:
		return "?"
	case 1:
		return xs[0]
	default:
		return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
	}
}

// CardText: "6 d'épée", "valet de bâton", "as de coupe" (KA-001).
func CardText(c *kav1.Card) string {
	var rank string
	switch r := c.GetRank(); {
	case r == 1:
		rank = "as"
	case r >= 2 && r <= 10:
		rank = fmt.Sprint(r)
	case r == 11:
		rank = "valet"
	case r == 12:
		rank = "cavalier"
	case r == 13:
		rank = "dame"
	case r == 14:
		rank = "roi"
	default:
		rank = fmt.Sprintf("rank %d", r)
	}
	suit := suitText(c.GetSuit())
	if strings.HasPrefix(suit, "é") {
		return rank + " d'" + suit
	}
	return rank + " de " + suit
}

// DistanceName names a pursuit distance (LOS-100).
func DistanceName(d int32) string {
	switch d {
	case 1:
		return "contact"
	case 2:
		return "close"
	case 3:
		return "in range"
	case 4:
		return "far"
	case 5:
		return "very far"
	case 6:
		return "out of range"
	}
	return "out of sight"
}

// FaceDown reports whether a card is face down: drawn by a combatant hidden from the reader.
func FaceDown(c *kav1.Card) bool {
	return c.GetSuit() == kav1.Suit_SUIT_UNSPECIFIED && c.GetRank() == 0
}

func IsAttack(k feeriev1.ActivityKind) bool {
	return k == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK || k == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
}

// KindWords: the name of an activity kind in prose.
func KindWords(k feeriev1.ActivityKind) string {
	switch k {
	case feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK:
		return "melee attack"
	case feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK:
		return "ranged attack"
	case feeriev1.ActivityKind_ACTIVITY_KIND_OTHER:
		return "another activity"
	case feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE:
		return "a passive activity"
	case feeriev1.ActivityKind_ACTIVITY_KIND_GET_UP:
		return "getting up"
	case feeriev1.ActivityKind_ACTIVITY_KIND_FREE:
		return "freeing itself"
	case feeriev1.ActivityKind_ACTIVITY_KIND_PICK_UP:
		return "picking its weapon up"
	case feeriev1.ActivityKind_ACTIVITY_KIND_UNSPECIFIED:
		return "no activity given"
	}
	return enumWords(k.String(), "ACTIVITY_KIND_")
}

// Num writes a number with a minus sign as in prose: "6", "−3".
func Num(v int32) string {
	if v < 0 {
		return fmt.Sprintf("−%d", -v)
	}
	return fmt.Sprint(v)
}

func OrUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func SegmentsText(n int32) string {
	if n == 1 {
		return "1 segment"
	}
	return fmt.Sprintf("%d segments", n)
}

// Signed writes a modifier with its sign: "+5", "−2" (a minus sign, as in prose).
func Signed(v int32) string {
	if v < 0 {
		return fmt.Sprintf("−%d", -v)
	}
	return fmt.Sprintf("+%d", v)
}

func YesNo(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// KaAnnouncedText: "le chien will dodge (one action, KA-013): the cards follow".
func (n *Names) KaAnnouncedText(d *kav1.DefenceAnnounced) string {
	who := n.Of(d.GetDefenderId())
	r := d.GetReact()
	switch {
	case r.GetAttackBack():
		s := who + " will attack back"
		if r.GetWeapon() != "" {
			s += " with " + r.GetWeapon()
		}
		return s + " (one action; only the winner succeeds, KA-008, KA-020)"
	case r.GetDefend() && r.GetSkill() != "" && r.GetSkill() != ka.Dodge:
		return fmt.Sprintf("%s will parry with %s (one action, KA-013, KA-020)", who, r.GetSkill())
	case r.GetDefend():
		return who + " will dodge (one action, KA-013, KA-020)"
	}
	return who + " takes it: no defence, the attacker's draw will stand alone (KA-020)"
}

// enumWords: "SPECIAL_STRIKE_KEEP_AT_BAY" → "keep at bay".
func enumWords(name, prefix string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(name, prefix)), "_", " ")
}

func suitText(s kav1.Suit) string {
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
	return "suit unknown"
}

// LegalLine is a legal action as the Ka and d20 state tables write it: the action, its
// description ("with …" follows the name, anything else after a dash) or else its weapon,
// then its cost and targets, then its rule: "attack with épée longue: 4 segments, targets
// soldat (D20-017)".
func LegalLine(name, desc, cost string, targets []string, weapon, rule string) string {
	s := name
	switch {
	case strings.HasPrefix(desc, "with "):
		s += " " + desc
	case desc != "":
		s += " — " + desc
	case weapon != "":
		s += " with " + weapon
	}
	var parts []string
	if cost != "" {
		parts = append(parts, cost)
	}
	if len(targets) > 0 {
		parts = append(parts, "targets "+strings.Join(targets, ", "))
	}
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	if rule != "" {
		s += " (" + rule + ")"
	}
	return s
}
