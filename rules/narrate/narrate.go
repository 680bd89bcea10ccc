// Package narrate renders the events of an encounter as plain-language lines, in English or
// French, for any client: the CLI, the API (GetEncounter, WatchEncounter and ExportLog carry
// the text) and whatever a third party builds on them.
//
// Each rule system narrates its own events, sheets and house rules through a Teller (part of
// its engine.System contract); this package narrates the events common to every system
// (creation, combatants joining, roles, rewinds…) and keeps what earlier events told later
// ones: the combatants' names, who is hidden, and each system's own memory.
//
// Messages are looked up in one catalogue (golang.org/x/text/message): the English text is
// the key and is printed as it is; each package adds its French messages (and the plural
// forms of both languages) in its init with SetString and Set. Note that the printer writes
// the integer arguments of %d with the language's digit grouping ("1,234", "1 234"): pass
// numbers that are positions, offsets or ids (not quantities) as strings.
package narrate

import (
	"fmt"
	"strconv"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// The languages narration is written in.
var (
	English = language.English
	French  = language.French
)

// Languages lists the languages narration is written in, English first (the default).
func Languages() []language.Tag { return []language.Tag{English, French} }

var matcher = language.NewMatcher(Languages())

// Parse returns the narration language a client asks for: "" and any English are English,
// any French ("fr", "fr-CA") is French. Another language is an error that names those served.
func Parse(s string) (language.Tag, error) {
	if strings.TrimSpace(s) == "" {
		return English, nil
	}
	t, err := language.Parse(s)
	if err != nil {
		return English, fmt.Errorf("narration language %q: not a language tag; narration is written in en (English) or fr (French)", s)
	}
	_, i, conf := matcher.Match(t)
	if conf == language.No {
		return English, fmt.Errorf("narration language %q: narration is written in en (English) or fr (French)", s)
	}
	return Languages()[i], nil
}

var messages = catalog.NewBuilder(catalog.Fallback(English))

// set holds the messages SetString added, by language and key: one catalogue serves every
// system, so a key two packages translate differently would silently take the last one.
var set = map[language.Tag]map[string]string{}

// SetString adds the message for key in language tag to the catalogue. It panics on a bad
// message, and on a key already given another message (two systems' words for one English
// text): the catalogue is filled in init functions, and a test renders every event.
func SetString(tag language.Tag, key, msg string) {
	if old, ok := set[tag][key]; ok && old != msg {
		panic(fmt.Sprintf("narrate: message %q in %v is both %q and %q: give one of them another English key", key, tag, old, msg))
	}
	if err := messages.SetString(tag, key, msg); err != nil {
		panic(fmt.Sprintf("narrate: message %q in %v: %v", key, tag, err))
	}
	if set[tag] == nil {
		set[tag] = map[string]string{}
	}
	set[tag][key] = msg
}

// Set adds a message with variants (plural.Selectf…) for key in language tag.
func Set(tag language.Tag, key string, msg ...catalog.Message) {
	if err := messages.Set(tag, key, msg...); err != nil {
		panic(fmt.Sprintf("narrate: message %q in %v: %v", key, tag, err))
	}
}

// Fr adds French translations: pairs of English key and French message.
func Fr(pairs ...string) {
	if len(pairs)%2 != 0 {
		panic("narrate.Fr: an English key without its French message")
	}
	for i := 0; i < len(pairs); i += 2 {
		SetString(French, pairs[i], pairs[i+1])
	}
}

// Teller is what a rule system adds to the narration. Every method is given the Narrator,
// whose Sprintf, Name, Withheld and Memory it uses.
type Teller interface {
	// Event narrates the system's own event payload (ev.GetLoss(), ev.GetKa()…) without the
	// "#7 " prefix; ok is false for an event that is not the system's.
	Event(n *Narrator, ev *encounterv1.Event) (text string, ok bool)
	// Sheet describes the system's sheet of a joining combatant ("player character",
	// "Animalité 3, Ka 8"); ok is false when the combatant has no sheet of this system.
	Sheet(n *Narrator, c *encounterv1.Combatant) (text string, ok bool)
	// Options lists the house rules an encounter was created with; ok is false when they
	// are not this system's.
	Options(n *Narrator, o *encounterv1.RuleOptions) (text string, ok bool)
	// Learn records what an event tells the narration of later ones (a pursuit's distance,
	// the Ka attack a defence answers), in the Narrator's Memory. Called after Event.
	Learn(n *Narrator, ev *encounterv1.Event)
	// LearnState records the same from a state: the state a narration starts from, or the
	// state an EncounterRewound restores.
	LearnState(n *Narrator, st *encounterv1.EncounterState)
}

// Narrator narrates the events of one encounter in one language, in order. It is not safe for
// concurrent use. A Narrator without tellers narrates the common events only.
type Narrator struct {
	lang    language.Tag
	printer *message.Printer
	tellers []Teller
	names   map[string]string
	hidden  map[string]bool
	// redacted is set while narrating an event from which the server withheld something
	// (Event.redacted): a hidden combatant's numbers in it are then withheld, not zeros.
	redacted bool
	memory   map[any]any
	// current is the event Text is narrating: a teller reads the rules version it was
	// decided under (Current).
	current *encounterv1.Event
}

// New returns a Narrator writing in lang with the rule systems' tellers.
func New(lang language.Tag, tellers ...Teller) *Narrator {
	return &Narrator{
		lang:    lang,
		printer: message.NewPrinter(lang, message.Catalog(messages)),
		tellers: tellers,
		names:   map[string]string{},
		hidden:  map[string]bool{},
		memory:  map[any]any{},
	}
}

// Language is the language the Narrator writes in.
func (n *Narrator) Language() language.Tag { return n.lang }

// French reports whether the Narrator writes French.
func (n *Narrator) French() bool { return n.lang == French }

// Sprintf formats the message key in the Narrator's language (the key itself in English when
// the catalogue has no English variant).
func (n *Narrator) Sprintf(key string, args ...any) string { return n.printer.Sprintf(key, args...) }

// Name is the name of combatant id as learnt, id itself when unknown, "?" for no id.
func (n *Narrator) Name(id string) string {
	if name := n.names[id]; name != "" {
		return name
	}
	if id == "" {
		return "?"
	}
	return id
}

// SetName records combatant id's name.
func (n *Narrator) SetName(id, name string) {
	if id != "" && name != "" {
		n.names[id] = name
	}
}

// Hidden reports whether combatant id is hidden by the GM, as learnt.
func (n *Narrator) Hidden(id string) bool { return n.hidden[id] }

// SetHidden records whether combatant id is hidden.
func (n *Narrator) SetHidden(id string, hidden bool) {
	if id != "" {
		n.hidden[id] = hidden
	}
}

// Redacted reports whether the event being narrated was redacted for its viewer.
func (n *Narrator) Redacted() bool { return n.redacted }

// Withheld reports whether the numbers of combatant id were withheld from the event being
// narrated: the server redacted it and id is hidden.
func (n *Narrator) Withheld(id string) bool { return n.redacted && n.hidden[id] }

// Memory returns what a teller keeps between events under key (use an unexported type as the
// key), made by init on first use. A rewind does not clear it: LearnState does what it must.
func (n *Narrator) Memory(key any, init func() any) any {
	if m, ok := n.memory[key]; ok {
		return m
	}
	m := init()
	n.memory[key] = m
	return m
}

// Narrate renders an event as one line ("#7 Diego attacks…") and learns from it.
func (n *Narrator) Narrate(ev *encounterv1.Event) string {
	s := n.Text(ev)
	n.Learn(ev)
	return s
}

// Text renders an event as one line, "#7 " and its text, without learning from it.
func (n *Narrator) Text(ev *encounterv1.Event) string {
	n.redacted, n.current = ev.GetRedacted(), ev
	defer func() { n.redacted, n.current = false, nil }()
	return "#" + strconv.FormatUint(ev.GetSequence(), 10) + " " + n.payload(ev)
}

// Current is the event being narrated, nil outside Text: a sheet or the house rules are told
// while narrating the event that brings them, under the version of the rules it was decided
// under.
func (n *Narrator) Current() *encounterv1.Event { return n.current }

// Learn records what an event tells the narration of later ones. Narrate calls it.
func (n *Narrator) Learn(ev *encounterv1.Event) {
	if c := ev.GetCombatantAdded().GetCombatant(); c != nil {
		n.SetName(c.GetId(), c.GetName())
		n.SetHidden(c.GetId(), c.GetHidden())
	}
	if h := ev.GetCombatantHidden(); h != nil {
		n.SetHidden(h.GetCombatantId(), h.GetHidden())
	}
	if r := ev.GetEncounterRewound(); r != nil {
		n.learnCombatants(r.GetState())
	}
	for _, t := range n.tellers {
		t.Learn(n, ev)
		if r := ev.GetEncounterRewound(); r != nil {
			t.LearnState(n, r.GetState())
		}
	}
}

// LearnState records what a state tells: its combatants' names, who is hidden, and what each
// system keeps. Call it when narrating from a state rather than from the first event.
func (n *Narrator) LearnState(st *encounterv1.EncounterState) {
	n.learnCombatants(st)
	for _, t := range n.tellers {
		t.LearnState(n, st)
	}
}

func (n *Narrator) learnCombatants(st *encounterv1.EncounterState) {
	for _, c := range st.GetCombatants() {
		n.SetName(c.GetId(), c.GetName())
		n.SetHidden(c.GetId(), c.GetHidden())
	}
}

// system asks each teller for its text of ev; the first that owns it answers.
func (n *Narrator) system(ev *encounterv1.Event) (string, bool) {
	for _, t := range n.tellers {
		if s, ok := t.Event(n, ev); ok {
			return s, true
		}
	}
	return "", false
}

// Sheets lists what the tellers say of a combatant's sheet.
func (n *Narrator) sheets(c *encounterv1.Combatant) []string {
	var out []string
	for _, t := range n.tellers {
		if s, ok := t.Sheet(n, c); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// options is what the owning teller says of the house rules.
func (n *Narrator) options(o *encounterv1.RuleOptions) string {
	for _, t := range n.tellers {
		if s, ok := t.Options(n, o); ok {
			return s
		}
	}
	return ""
}
