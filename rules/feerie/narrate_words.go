package feerie

import (
	"regexp"
	"strconv"
	"strings"

	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// The words of the narration: numbers, the names of the enums, the terms of a value, tactics
// and the Attributes applied, each in the Narrator's language.

// itoa writes a number that is a position (a rank, an Action) or a score, without the digit
// grouping the catalogue's printer gives %d.
func itoa(v int32) string { return strconv.FormatInt(int64(v), 10) }

// num writes a number with a minus sign as in prose: "6", "−3".
func num(v int32) string {
	if v < 0 {
		return "−" + itoa(-v)
	}
	return itoa(v)
}

// colon joins a phrase and what it introduces: "a: b", "a : b" in French.
func (t tell) colon(a, b string) string {
	if t.n.French() {
		return a + " : " + b
	}
	return a + ": " + b
}

// semi is the separator of the parts of a line: "; ", " ; " in French.
func (t tell) semi() string {
	if t.n.French() {
		return " ; "
	}
	return "; "
}

// withNote adds the rules' note to a line, in the Narrator's language.
func (t tell) withNote(s, note string) string {
	if note == "" {
		return s
	}
	return s + t.semi() + t.note(note)
}

// de is a name after the French « de » (narrate's Of: « d'Aude », « du Croque-Mitaine »), or
// an Aspect: « d'Habileté », whose h is mute. The messages give it as a further argument,
// which only their French uses.
func (t tell) de(s string) string {
	if strings.HasPrefix(fold(s), "habilete") {
		return "d'" + s
	}
	return t.n.Of(s)
}

// success is "success" or "failure".
func (t tell) success(ok bool) string {
	if ok {
		return t.tf("msg", "success")
	}
	return t.tf("msg", "failure")
}

// essence: "3 Essence", « 3 points d'Essence ».
func (t tell) essence(v int32) string { return t.f("%d Essence", int(v)) }

// termKeys are the keys of the terms: a fixed phrase of one kind (an activity kind, a special
// strike, a modifier's reason…) in English and in French, under a key of its own so that the
// same English word in another system's narration keeps its own French.
var termKeys = map[string]bool{}

// term adds a phrase of a kind to the catalogue, in English and French.
func term(kind, en, fr string) {
	key := "feerie " + kind + ": " + en
	narrate.SetString(narrate.English, key, en)
	narrate.SetString(narrate.French, key, fr)
	termKeys[key] = true
}

// tf formats the message en of a kind, added by term (or plural) under its own key.
func (t tell) tf(kind, en string, args ...any) string {
	return t.f("feerie "+kind+": "+en, args...)
}

// term is the phrase en of a kind in the Narrator's language; en itself when it is not a
// term of the catalogue (a name given by the GM, an Attribute).
func (t tell) term(kind, en string) string {
	key := "feerie " + kind + ": " + en
	if !termKeys[key] {
		return en
	}
	return t.f(key)
}

// enumWords: "SPECIAL_STRIKE_KEEP_AT_BAY" → "keep at bay".
func enumWords(name, prefix string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(name, prefix)), "_", " ")
}

// KindText names an activity kind in the Narrator's language: "melee attack", « attaque au
// corps à corps ». A state table (fray state) uses it for the activities waiting at a rank.
func KindText(n *narrate.Narrator, k feeriev1.ActivityKind) string { return tell{n: n}.kind(k) }

// StrikeText names a special strike in the Narrator's language: "keep at bay", « tenir en
// respect ». A state table uses it for a combatant's conditions.
func StrikeText(n *narrate.Narrator, s feeriev1.SpecialStrike) string { return tell{n: n}.strike(s) }

// kind is the name of an activity kind in prose: "melee attack".
func (t tell) kind(k feeriev1.ActivityKind) string {
	switch k {
	case feeriev1.ActivityKind_ACTIVITY_KIND_OTHER:
		return t.term("kind", "another activity")
	case feeriev1.ActivityKind_ACTIVITY_KIND_PASSIVE:
		return t.term("kind", "a passive activity")
	case feeriev1.ActivityKind_ACTIVITY_KIND_GET_UP:
		return t.term("kind", "getting up")
	case feeriev1.ActivityKind_ACTIVITY_KIND_FREE:
		return t.term("kind", "freeing itself")
	case feeriev1.ActivityKind_ACTIVITY_KIND_PICK_UP:
		return t.term("kind", "picking its weapon up")
	case feeriev1.ActivityKind_ACTIVITY_KIND_UNSPECIFIED:
		return t.term("kind", "no activity given")
	}
	return t.term("kind", enumWords(k.String(), "ACTIVITY_KIND_")) // melee attack, ranged attack
}

// strike is the name of a special strike: "keep at bay", « tenir en respect ».
func (t tell) strike(s feeriev1.SpecialStrike) string {
	return t.term("strike", enumWords(s.String(), "SPECIAL_STRIKE_"))
}

// strikes lists special strikes: "trip and keep at bay".
func (t tell) strikes(ss []feeriev1.SpecialStrike) string {
	words := make([]string, len(ss))
	for i, s := range ss {
		words[i] = t.strike(s)
	}
	return t.n.And(words)
}

// withStrikes: "Wichtln attacks Rübezahl with trip", « … avec le coup spécial faire tomber ».
func (t tell) withStrikes(s string, ss []feeriev1.SpecialStrike) string {
	if len(ss) == 0 {
		return s
	}
	return t.f("%[2]s with %[3]s", len(ss), s, t.strikes(ss))
}

// pace is a pace in prose: "running", « à la course ».
func (t tell) pace(p feeriev1.Pace) string {
	switch p {
	case feeriev1.Pace_PACE_WALK:
		return t.term("pace", "walking")
	case feeriev1.Pace_PACE_TROT:
		return t.term("pace", "trotting")
	case feeriev1.Pace_PACE_RUN:
		return t.term("pace", "running")
	case feeriev1.Pace_PACE_SPRINT:
		return t.term("pace", "sprinting")
	}
	return enumWords(p.String(), "PACE_")
}

var (
	enumInReason = regexp.MustCompile(`SPECIAL_STRIKE_[A-Z_]+`)
	strikeReason = regexp.MustCompile(`^special strike (SPECIAL_STRIKE_[A-Z_]+)$`)
	folding      = strings.NewReplacer("à", "a", "â", "a", "ç", "c", "é", "e", "è", "e", "ê", "e", "ë", "e", "î", "i", "ï", "i",
		"ô", "o", "œ", "oe", "ù", "u", "û", "u", "ü", "u", "-", " ", "_", " ")
)

// fold folds a name for matching: lower case, no accents ("Habileté" → "habilete").
func fold(s string) string {
	return strings.Join(strings.Fields(folding.Replace(strings.ToLower(s))), " ")
}

// reason is the name of a term of a value: the Aspects and Taille shortened ("H", "T"), the
// special strikes in words ("special strike trip"), the rules' reasons in the Narrator's
// language, an Attribute as it is named.
func (t tell) reason(reason string) string {
	switch fold(reason) {
	case "vigilance":
		return "V"
	case "habilete":
		return "H"
	case "puissance":
		return "P"
	case "resistance":
		return "R"
	case "taille":
		return "T"
	case "charme":
		return "Charme"
	}
	if m := strikeReason.FindStringSubmatch(reason); m != nil {
		return t.tf("msg", "special strike %s", t.strike(feeriev1.SpecialStrike(feeriev1.SpecialStrike_value[m[1]])))
	}
	if t.n.French() {
		if s, ok := t.pattern(reasonPatterns, reason); ok {
			return s
		}
	}
	reason = enumInReason.ReplaceAllStringFunc(reason, func(s string) string { return t.strike(feeriev1.SpecialStrike(feeriev1.SpecialStrike_value[s])) })
	return t.term("reason", reason)
}

// A pattern of a phrase the rules write with a name or a number in it, and its message.
type pattern struct {
	re  *regexp.Regexp
	key string
}

// The reasons with a name in them (FEE-141, FEE-142).
var reasonPatterns = []pattern{
	{regexp.MustCompile(`^mounted charge: Taille of (.+)$`), "mounted charge: Taille of %s"},
	{regexp.MustCompile(`^Habileté of its mount (.+) instead of its own$`), "Habileté of its mount %s instead of its own"},
}

// The notes of an activity resolved (ActivityResolved.note) with a name or a number in them.
var notePatterns = []pattern{
	{regexp.MustCompile(`^an object: Damage roll (-?\d+)$`), "an object: Damage roll %s"},
	{regexp.MustCompile(`^the activity no longer holds: (.+)$`), "the activity no longer holds: %s"},
	{regexp.MustCompile(`^(.+) is thrown (\d+) distance units \(FEE-158\)$`), "%[2]s is thrown %[1]d distance units (FEE-158)"},
	{regexp.MustCompile(`^(.+) cancels (.+)'s (SPECIAL_STRIKE_[A-Z_]+)$`), "%s cancels %s's %s"},
	{regexp.MustCompile(`^(.+) is at 0 Essence before its activity is resolved and cannot act \(FEE-024, FEE-045\)$`),
		"%s is at 0 Essence before its activity is resolved and cannot act (FEE-024, FEE-045)"},
}

// pattern renders s through the first pattern it matches.
func (t tell) pattern(ps []pattern, s string) (string, bool) {
	for _, p := range ps {
		m := p.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		var args []any
		for _, g := range m[1:] {
			if v, ok := feeriev1.SpecialStrike_value[g]; ok {
				args = append(args, t.strike(feeriev1.SpecialStrike(v)))
			} else {
				args = append(args, g)
			}
		}
		if strings.Contains(p.key, "%[1]d") { // a count first: the plural decides
			d, _ := strconv.Atoi(m[2])
			args = []any{d, m[1]}
		}
		return t.f(p.key, args...), true
	}
	return "", false
}

// note is the rules' note in the Narrator's language: the English note as it was written.
func (t tell) note(note string) string {
	if !t.n.French() {
		return note
	}
	if s, ok := t.pattern(notePatterns, note); ok {
		return s
	}
	return t.term("note", note)
}

// tactic: "+0/+2/−2", "Attaque brutale −2/+4/−2".
func tacticText(tc *feeriev1.Tactic) string {
	s := narrate.Signed(tc.GetInitiative()) + "/" + narrate.Signed(tc.GetAttack()) + "/" + narrate.Signed(tc.GetDefense())
	if tc.GetPreset() != "" {
		s = tc.GetPreset() + " " + s
	}
	return s
}

// applied: "bâton on Attack and Defense, force surnaturelle on Damage": the Attributes
// applied to the same values go together ("couardise and esquive on Defense").
func (t tell) applied(a *feeriev1.Applied) string {
	var order []string
	on := map[string][]string{}
	for _, x := range []struct {
		value string
		names []string
	}{{"Initiative", a.GetInitiative()}, {"Attack", a.GetAttack()}, {"Defense", a.GetDefense()}, {"Damage", a.GetDamage()}, {"Soak", a.GetSoak()}} {
		for _, name := range x.names {
			if _, ok := on[name]; !ok {
				order = append(order, name)
			}
			on[name] = append(on[name], x.value)
		}
	}
	var keys []string
	names := map[string][]string{}
	for _, name := range order {
		key := strings.Join(on[name], "|")
		if _, ok := names[key]; !ok {
			keys = append(keys, key)
		}
		names[key] = append(names[key], name)
	}
	parts := make([]string, len(keys))
	for i, key := range keys {
		values := strings.Split(key, "|")
		for j, v := range values {
			values[j] = t.term("value", v)
		}
		parts[i] = t.tf("applied", "%s on %s", t.n.And(names[key]), t.n.And(values))
	}
	return strings.Join(parts, ", ")
}

// terms writes the terms of a value as a sum: "H 20 + bâton 4 − tactic 2".
func (t tell) terms(ms []*feeriev1.Modifier) string {
	var b strings.Builder
	for i, m := range ms {
		name, v := t.reason(m.GetReason()), m.GetValue()
		switch {
		case i == 0:
			b.WriteString(name + " " + num(v))
		case v < 0:
			b.WriteString(" − " + name + " " + itoa(-v))
		default:
			b.WriteString(" + " + name + " " + itoa(v))
		}
	}
	return b.String()
}

// dice: "d20[12]−d20[5]", "2d10[3,9]-11".
func (t tell) dice(r *feeriev1.RollResult) string {
	s := t.n.Roll(r.GetRoll())
	if r.GetMinus() != nil {
		s += "−" + t.n.Roll(r.GetMinus())
	}
	return s
}

// rollSum: "24 (H 20 + bâton 4 + d20[12]−d20[12])".
func (t tell) rollSum(r *feeriev1.RollResult) string {
	terms := t.terms(r.GetModifiers())
	if terms == "" {
		terms = num(r.GetScore())
	}
	return num(r.GetTotal()) + " (" + terms + " + " + t.dice(r) + ")"
}

// value: "Defense 18 (H 15 + morsure 4 − tactic 2)"; the terms only when there are several,
// or one that is not the whole value.
func (t tell) value(name string, v int32, ms []*feeriev1.Modifier) string {
	s := t.term("value", name) + " " + num(v)
	if len(ms) > 1 || (len(ms) == 1 && ms[0].GetValue() != v) {
		s += " (" + t.terms(ms) + ")"
	}
	return s
}
