package feerie

import (
	"fmt"
	"slices"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/narrate"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Teller narrates the system's events, sheets and house rules (narrate.Teller), in English
// (the rule terms in French, as the CLI always wrote them) and in French, the game's language.
// The English text of each message is its key in the catalogue; the French is in
// narrate_fr.go.
type Teller struct{ sys System }

// Teller is the system's narration.
func (s System) Teller() narrate.Teller { return Teller{sys: s} }

// numbers are the numbers an event of version v states: the Teller's own for its version (or
// an event that names none), those of the released version v for an event of another — the
// registry narrates every version's events with its latest Teller — and the latest's for a
// version it does not know.
func (t Teller) numbers(v uint32) Numbers {
	switch {
	case t.sys.Version() != 0 && (v == 0 || v == t.sys.Version()):
		return t.sys.n
	case v >= 1 && v <= Latest:
		return New(v).n
	}
	return New(Latest).n
}

// tell narrates with one Narrator: its language, the names it learnt, who is hidden; and the
// numbers of the version of the events it tells.
type tell struct {
	n   *narrate.Narrator
	num Numbers
	o   *feeriev1.Options // the encounter's house rules, when the narration has seen them
}

// houseRulesKey is where the Teller keeps the house rules of the encounter it tells: a hit's
// narration halves the margin as the rules did (FEE-003's rounding).
type houseRulesKey struct{}

func houseRules(n *narrate.Narrator) **feeriev1.Options {
	return n.Memory(houseRulesKey{}, func() any { return new(*feeriev1.Options) }).(**feeriev1.Options)
}

// f formats the message key in the Narrator's language.
func (t tell) f(key string, args ...any) string { return t.n.Sprintf(key, args...) }

// of is the name of combatant id.
func (t tell) of(id string) string { return t.n.Name(id) }

// withheld reports whether the numbers of combatant id were withheld from this event.
func (t tell) withheld(id string) bool { return t.n.Withheld(id) }

// Event narrates the system's own events: the Action and its countdown, declarations,
// Initiative, activities with every term of their rolls, special strikes and their conditions.
func (t Teller) Event(n *narrate.Narrator, ev *encounterv1.Event) (string, bool) {
	p, ok := ev.GetPayload().(*encounterv1.Event_Feerie)
	if !ok {
		return "", false
	}
	return tell{n: n, num: t.numbers(ev.GetRulesVersion()), o: *houseRules(n)}.event(p.Feerie), true
}

func (t tell) event(e *feeriev1.Event) string {
	switch k := e.GetKind().(type) {
	case *feeriev1.Event_ActionStarted:
		return t.f("Action %s, step 1: declarations", itoa(k.ActionStarted.GetAction()))
	case *feeriev1.Event_Declared:
		d := k.Declared
		return t.tf("msg", "%s declares: %s", t.of(d.GetCombatantId()), t.intent(d.GetIntent(), t.withheld(d.GetCombatantId())))
	case *feeriev1.Event_CountdownStarted:
		return t.countdown(k.CountdownStarted)
	case *feeriev1.Event_ActivityQueued:
		return t.queued(k.ActivityQueued.GetQueued())
	case *feeriev1.Event_ActivityResolved:
		return t.activity(k.ActivityResolved)
	case *feeriev1.Event_RankAdvanced:
		r := k.RankAdvanced
		if r.GetToRank() == 0 {
			return t.f("countdown %s → %s: the impersonal events, then the next Action (FEE-046)", itoa(r.GetFromRank()), itoa(r.GetToRank()))
		}
		return t.f("countdown %s → %s", itoa(r.GetFromRank()), itoa(r.GetToRank()))
	case *feeriev1.Event_Impersonal:
		return t.impersonal(k.Impersonal)
	case *feeriev1.Event_Renounced:
		return t.f("%s renounces its activity (FEE-075)", t.of(k.Renounced.GetCombatantId()))
	case *feeriev1.Event_Surprised:
		return t.surprised(k.Surprised)
	case *feeriev1.Event_IntentionChanged:
		c := k.IntentionChanged
		if t.withheld(c.GetCombatantId()) { // its new rank comes from its Initiative: withheld
			return t.f("rank %s: %s changes intention: %s (%s on that activity and on Defense from now on, %s on the next Action; FEE-070, FEE-071)",
				itoa(c.GetRank()), t.of(c.GetCombatantId()), t.intent(c.GetIntent(), true), num(-t.num.ChangeMalus), num(-t.num.ChangeMalus))
		}
		return t.f("rank %s: %s changes intention: %s; it acts from rank %s (%s on that activity and on Defense from now on, %s on the next Action; FEE-070, FEE-071)",
			itoa(c.GetRank()), t.of(c.GetCombatantId()), t.intent(c.GetIntent(), false), itoa(c.GetActingRank()), num(-t.num.ChangeMalus), num(-t.num.ChangeMalus))
	case *feeriev1.Event_Gestured:
		g := k.Gestured
		s := t.f("%s, freely: %s (FEE-047)", t.of(g.GetCombatantId()), t.n.Quote(g.GetDescription()))
		if g.GetRank() > 0 {
			s = t.tf("msg", "rank %s: %s", itoa(g.GetRank()), s)
		}
		return s
	case *feeriev1.Event_UnseenRolled:
		return t.unseen(k.UnseenRolled)
	case *feeriev1.Event_HelplessRuled:
		return t.helpless(k.HelplessRuled)
	case *feeriev1.Event_BecameObject:
		b := k.BecameObject
		who := t.of(b.GetCombatantId())
		switch {
		case b.GetEnd():
			return t.f("%s is no longer an inanimate object (FEE-026)", who)
		case b.GetPower() != "":
			return t.f("%s becomes an inanimate object through %s: it takes damage as an object and renounces every activity (FEE-026)", who, b.GetPower())
		}
		return t.f("%s becomes an inanimate object: it takes damage as an object and renounces every activity (FEE-026)", who)
	case *feeriev1.Event_TacticRuled:
		return t.ruling(k.TacticRuled)
	case nil:
		return t.f("(empty Contes de Fées event)")
	default:
		return t.f("(Contes de Fées event %s)", fmt.Sprintf("%T", k))
	}
}

// impersonal: `rank 0: "the hut burns": Serpent loses 3 Essence (FEE-046)`.
func (t tell) impersonal(i *feeriev1.ImpersonalHappened) string {
	s := t.f("rank 0: an impersonal event")
	if i.GetDescription() != "" {
		s = t.f("rank 0: %s", t.n.Quote(i.GetDescription()))
	}
	who := t.of(i.GetTargetId())
	if t.withheld(i.GetTargetId()) {
		return t.f("%s: %s loses Essence (how much is withheld, FEE-046)", s, who)
	}
	return t.f("%s: %s loses %s (FEE-046)", s, who, t.essence(i.GetEssenceLost()))
}

// helpless: the GM's ruling that a combatant is helpless, or no longer (FEE-022).
func (t tell) helpless(h *feeriev1.HelplessRuled) string {
	who := t.of(h.GetCombatantId())
	switch {
	case !h.GetHelpless():
		return t.f("the GM rules: %s is no longer helpless; it defends and acts again (FEE-022)", who)
	case h.GetReason() != "":
		return t.f("the GM rules: %s is helpless (%s): Defense 0 against every attack, and no activity (FEE-022, FEE-024)", who, h.GetReason())
	}
	return t.f("the GM rules: %s is helpless: Defense 0 against every attack, and no activity (FEE-022, FEE-024)", who)
}

// Sheet describes a combatant's Contes de Fées sheet: "V 20, H 18, P 16, R 16, Taille +1,
// Essence 40".
func (Teller) Sheet(n *narrate.Narrator, c *encounterv1.Combatant) (string, bool) {
	sh := c.GetFeerie()
	if sh == nil {
		return "", false
	}
	t := tell{n: n}
	s := "V " + itoa(sh.GetVigilance()) + ", H " + itoa(sh.GetHabilete()) + ", P " + itoa(sh.GetPuissance()) + ", R " + itoa(sh.GetResistance()) +
		", Taille " + narrate.Signed(sh.GetTaille()) + ", Essence " + itoa(sh.GetEssence()) // the same in French
	if sh.GetInanimate() {
		s += t.tf("msg", ", an object")
	}
	if sh.GetFlier() {
		s += t.tf("msg", ", flies")
	}
	if sh.GetBurrower() {
		s += t.tf("msg", ", burrows")
	}
	return s, true
}

// Options lists the house rules of a Contes de Fées encounter: the roll, the fumble margin,
// the Essence cap, and every other rule that departs from the catalogue's choice.
func (Teller) Options(n *narrate.Narrator, opts *encounterv1.RuleOptions) (string, bool) {
	o := opts.GetFeerie()
	if o == nil {
		return "", false
	}
	t := tell{n: n}
	var parts []string
	if o.GetRoll() != "" {
		parts = append(parts, t.tf("option", "roll %s", o.GetRoll()))
	}
	if o.FumbleMargin != nil {
		parts = append(parts, t.f("a fumble at a margin of −%s or worse", itoa(o.GetFumbleMargin())))
	}
	if o.EssenceSpendCap != nil {
		if c := o.GetEssenceSpendCap(); c > 0 {
			parts = append(parts, t.f("at most %d Essence spent on a roll", int(c)))
		} else {
			parts = append(parts, t.f("Essence spent on a roll unlimited"))
		}
	}
	// The other house rules, when they depart from the catalogue's choice (FEE-002…FEE-186).
	m := o.ProtoReflect()
	for _, d := range New(Latest).Describe().GetOptions() { // the options are the same in every version
		fd := m.Descriptor().Fields().ByName(protoreflect.Name(d.GetName()))
		if fd == nil || !m.Has(fd) || slices.Contains([]string{"roll", "fumble_margin", "essence_spend_cap"}, d.GetName()) {
			continue // unset, or written above
		}
		if v := m.Get(fd).String(); v != d.GetDefaultValue() {
			parts = append(parts, d.GetName()+" "+v+" ("+d.GetRule()+")")
		}
	}
	return strings.Join(parts, ", "), true
}

// Learn records the house rules of a Contes de Fées encounter when it is created; the rest of
// what the text of an event needs, the names and who is hidden, the Narrator keeps.
func (Teller) Learn(n *narrate.Narrator, ev *encounterv1.Event) {
	if o := ev.GetEncounterCreated().GetOptions().GetFeerie(); o != nil {
		*houseRules(n) = o
	}
}

// LearnState records the house rules of a state's encounter.
func (Teller) LearnState(n *narrate.Narrator, st *encounterv1.EncounterState) {
	if o := st.GetOptions().GetFeerie(); o != nil {
		*houseRules(n) = o
	}
}
