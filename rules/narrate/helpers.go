package narrate

import (
	"strconv"
	"strings"
	"unicode/utf8"

	dicev1 "github.com/fray-rpg/fray/gen/fray/dice/v1"
	"golang.org/x/text/feature/plural"
)

// Small helpers every system's narration uses.
//
// French typography, the same in every system: a plain space before « : », « ; », « ? » and
// « ! »; quotes as « … » (Narrator.Quote); the rule terms as the French books write them (PA,
// NS, Exploit, Tour, phase…). A fragment the English starts with "; " starts with " ; " in
// French.

func init() {
	Fr(
		"dice", "dés",
		" and ", " et ",
	)
}

// Signed writes a modifier with its sign as prose does: "+5", "−2" (a minus sign, U+2212).
func Signed(v int32) string {
	if v < 0 {
		return "−" + strconv.FormatInt(-int64(v), 10)
	}
	return "+" + strconv.FormatInt(int64(v), 10)
}

// PlusMinus writes a number with its sign as fmt's %+d does: "+5", "-2", "+0" (a
// hyphen-minus: the arithmetic of a roll, "d10[8]+5", "d10[3]-1").
func PlusMinus(v int32) string {
	if v < 0 {
		return strconv.FormatInt(int64(v), 10)
	}
	return "+" + strconv.FormatInt(int64(v), 10)
}

// OrUnknown is s, or "?" when it is empty.
func OrUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// Roll renders a roll with its faces: "d10[8]", "d10[10,4]", "3d10[3,7,9]+4"; "?" for none.
func (n *Narrator) Roll(r *dicev1.Roll) string {
	if r == nil {
		return "?"
	}
	base := r.GetExpression()
	if i := strings.IndexAny(base, "+-"); i >= 0 { // the modifier is written after the faces
		base = base[:i]
	}
	base = strings.TrimSuffix(base, "!")
	base = strings.TrimPrefix(base, "1d")
	if !strings.Contains(base, "d") {
		base = "d" + base
	}
	if base == "d" {
		base = n.Sprintf("dice")
	}
	faces := make([]string, len(r.GetFaces()))
	for i, f := range r.GetFaces() {
		faces[i] = strconv.FormatInt(int64(f), 10)
	}
	s := base + "[" + strings.Join(faces, ",") + "]"
	if m := r.GetModifier(); m != 0 {
		s += PlusMinus(m)
	}
	return s
}

// And joins a list as prose: "a", "a and b", "a, b and c" ("a, b et c" in French); "?" for
// none.
func (n *Narrator) And(xs []string) string {
	switch len(xs) {
	case 0:
		return "?"
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + n.Sprintf(" and ") + xs[len(xs)-1]
}

// Names returns the names of combatants ids, in order.
func (n *Narrator) Names(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = n.Name(id)
	}
	return out
}

// AndNames names combatants ids as prose: "Diego, Canahan and Le malfrat".
func (n *Narrator) AndNames(ids []string) string { return n.And(n.Names(ids)) }

// Quote quotes what a player wrote: "\"À moi !\"" in English (Go's %q), « À moi ! » in French.
func (n *Narrator) Quote(s string) string {
	if n.French() {
		return "« " + s + " »"
	}
	return strconv.Quote(s)
}

// Term is the translation of a fixed phrase the rules recorded in an event (a modifier's
// reason, a note), when the catalogue has one; the phrase itself otherwise. A phrase with a
// "%" is never looked up.
func (n *Narrator) Term(s string) string {
	if s == "" || strings.Contains(s, "%") {
		return s
	}
	return n.Sprintf(s)
}

// Plural adds to the catalogue a message whose first argument is a count, in English and in
// French: key "%d Exploits" with its forms, e.g.
//
//	Plural("%d Exploits", "%d Exploit", "%d Exploits", "%d Exploit", "%d Exploits")
//
// English takes its singular for 1 only; French for 0 and 1 (CLDR's "one"). The forms may use
// the further arguments too (%[2]s…).
func Plural(key, enOne, enOther, frOne, frOther string) {
	Set(English, key, plural.Selectf(1, "%d", "=1", enOne, "other", enOther))
	Set(French, key, plural.Selectf(1, "%d", "one", frOne, "other", frOther))
}

// Of is a name after the French "de", contracted as French writes it: "du malfrat" for "Le
// malfrat", "des griffons", "de la capitaine", "de l'ogre", "d'Archère", "de Diego". In English
// it is "of " and the name: French messages use it (as an extra argument, %[3]s…) where English
// writes "Diego's".
func (n *Narrator) Of(name string) string {
	if !n.French() {
		return "of " + name
	}
	return contract(name, "du ", "des ", "de la ", "de l'", "d'", "de ")
}

// To is a name after the French "à", contracted: "au malfrat", "aux griffons", "à la
// capitaine", "à l'ogre", "à Diego". In English it is "to " and the name.
func (n *Narrator) To(name string) string {
	if !n.French() {
		return "to " + name
	}
	return contract(name, "au ", "aux ", "à la ", "à l'", "à ", "à ")
}

func contract(name, le, les, la, elided, vowel, other string) string {
	for _, p := range []struct{ prefix, with string }{{"Le ", le}, {"Les ", les}, {"La ", la}, {"L'", elided}, {"L’", elided}} {
		if rest, ok := strings.CutPrefix(name, p.prefix); ok && rest != "" {
			return p.with + rest
		}
	}
	if r, _ := utf8.DecodeRuneInString(name); strings.ContainsRune("aeiouyàâäéèêëîïôöûüAEIOUYÀÂÄÉÈÊËÎÏÔÖÛÜ", r) {
		return vowel + name
	}
	return other + name
}
