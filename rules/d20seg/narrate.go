package d20seg

import (
	"fmt"
	"strconv"
	"strings"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// The narration of d20 segments, in English and French: Initiative with its equipment and
// roll-offs, the surprise round and its apprehension rolls, rounds, attacks with their
// segment, cost, roll against CA and damage, spells, other actions and ends of turn; the
// sheets and the house rules. Every message goes through the Narrator's catalogue (the
// English text is the key; its French is in narrate_fr.go). Numbers go in as strings (the
// catalogue would group their digits), counts that decide a plural as an int first.

// Teller narrates the system's events, sheets and house rules (narrate.Teller), with the
// numbers of the version it tells.
type Teller struct{ sys System }

// Teller is the system's narration.
func (sys System) Teller() narrate.Teller { return Teller{sys} }

// memoryKey keys what the narration of d20 segments keeps between events.
type memoryKey struct{}

// memory is what the narration keeps: the combatants it has heard of, for the list of those
// hidden from the reader that the Initiative of a redacted event leaves out.
type memory struct {
	known map[string]bool
}

func remembered(n *narrate.Narrator) *memory {
	return n.Memory(memoryKey{}, func() any { return &memory{known: map[string]bool{}} }).(*memory)
}

// Event narrates the system's own events.
func (t Teller) Event(n *narrate.Narrator, ev *encounterv1.Event) (string, bool) {
	e := ev.GetD20Seg()
	if e == nil {
		return "", false
	}
	return tellEvent(n, t.sys.n, e), true
}

// Sheet describes the system's sheet of a joining combatant: "Rapidité 3, Initiative 5, BBA 0,
// CA 12, 8 hit points, size M".
func (t Teller) Sheet(n *narrate.Narrator, c *encounterv1.Combatant) (string, bool) {
	sh := c.GetD20Seg()
	if sh == nil {
		return "", false
	}
	return n.Sprintf("Rapidité %s, Initiative %s, BBA %s, CA %s, %s hit points, size %s", itoa(sh.GetRapidite()), num(t.sys.Initiative(sh)),
		itoa(sh.GetBba()), itoa(sh.GetCa()), itoa(sh.GetHitPoints()), tellSize(sh.GetSize())), true
}

// Options lists the system's house rules.
func (Teller) Options(n *narrate.Narrator, o *encounterv1.RuleOptions) (string, bool) {
	d := o.GetD20Seg()
	if d == nil {
		return "", false
	}
	var parts []string
	if sc := d.GetApprehensionScale(); len(sc) == 3 {
		parts = append(parts, n.Sprintf("apprehension modifiers light %s, medium %s, high %s", itoa(sc[0]), itoa(sc[1]), itoa(sc[2])))
	}
	switch {
	case d.CarryOver == nil:
	case d.GetCarryOver():
		parts = append(parts, n.Sprintf("actions carry over into the next round"))
	default:
		parts = append(parts, n.Sprintf("no carry-over"))
	}
	if d.DownAt != nil {
		parts = append(parts, n.Sprintf("down at %s hit points", num(d.GetDownAt())))
	}
	switch {
	case d.SkipApprehension == nil:
	case d.GetSkipApprehension():
		parts = append(parts, n.Sprintf("no apprehension rolls: every defender of a surprise attack is surprised"))
	default:
		parts = append(parts, n.Sprintf("apprehension rolled against surprise"))
	}
	return strings.Join(parts, ", "), true
}

// Learn records the combatants heard of.
func (Teller) Learn(n *narrate.Narrator, ev *encounterv1.Event) {
	m := remembered(n)
	if id := ev.GetCombatantAdded().GetCombatant().GetId(); id != "" {
		m.known[id] = true
	}
	if id := ev.GetCombatantHidden().GetCombatantId(); id != "" {
		m.known[id] = true
	}
}

// LearnState records the combatants of a state.
func (Teller) LearnState(n *narrate.Narrator, st *encounterv1.EncounterState) {
	m := remembered(n)
	for _, c := range st.GetCombatants() {
		m.known[c.GetId()] = true
	}
}

func tellEvent(n *narrate.Narrator, x Numbers, e *d20segv1.Event) string {
	switch k := e.GetKind().(type) {
	case *d20segv1.Event_CombatStarted:
		return tellInitiative(n, k.CombatStarted)
	case *d20segv1.Event_SurpriseRoundStarted:
		return tellSurprise(n, x, k.SurpriseRoundStarted)
	case *d20segv1.Event_RoundStarted:
		return tellRound(n, x, k.RoundStarted)
	case *d20segv1.Event_AttackRolled:
		return tellAttack(n, x, k.AttackRolled)
	case *d20segv1.Event_SpellCast:
		c := k.SpellCast
		s := tellWhen(n, c.GetSegment(), c.GetFree()) + n.Sprintf("%s casts %s", n.Name(c.GetCombatantId()), narrate.OrUnknown(c.GetSpell()))
		if n.Withheld(c.GetCombatantId()) {
			s += tellHiddenCost(n, c.GetFree())
		} else {
			s += tellCost(n, c.GetCost(), c.GetFree(), "D20-018")
		}
		if c.GetNextRound() {
			s += n.Sprintf("; it takes effect at the start of the next round (D20-019)")
		}
		return s
	case *d20segv1.Event_OtherDone:
		o := k.OtherDone
		what := n.Sprintf("acts")
		if o.GetDescription() != "" {
			what = n.Quote(o.GetDescription())
		}
		cost := tellCost(n, o.GetCost(), o.GetFree(), "D20-022")
		if n.Withheld(o.GetCombatantId()) {
			cost = tellHiddenCost(n, o.GetFree())
		}
		return tellWhen(n, o.GetSegment(), o.GetFree()) + n.Sprintf("%s: %s", n.Name(o.GetCombatantId()), what) + cost
	case *d20segv1.Event_TurnEnded:
		return n.Sprintf("%s ends its turn for this round (D20-016)", n.Name(k.TurnEnded.GetCombatantId()))
	case nil:
		return n.Sprintf("(empty d20seg event)")
	default:
		return n.Sprintf("(d20seg event %s)", fmt.Sprintf("%T", k))
	}
}

// tellWhen: "segment 3: ", or "free action (D20-004): ".
func tellWhen(n *narrate.Narrator, segment int32, free bool) string {
	if free {
		return n.Sprintf("free action (D20-004): ")
	}
	return n.Sprintf("segment %s: ", num(segment))
}

// tellCost: " (2 segments, D20-017)", nothing for a free action.
func tellCost(n *narrate.Narrator, cost int32, free bool, rule string) string {
	if free {
		return ""
	}
	return " (" + tellSegments(n, cost) + ", " + rule + ")"
}

// tellHiddenCost: the cost of a hidden combatant's action, withheld (it gives away its BBA,
// D20-017).
func tellHiddenCost(n *narrate.Narrator, free bool) string {
	if free {
		return ""
	}
	return n.Sprintf(" (segments hidden)")
}

func tellSegments(n *narrate.Narrator, v int32) string {
	return n.Sprintf("%[2]s segments", int(v), itoa(v))
}

// tellSize: the size categories as the catalogue writes them (D20-030).
func tellSize(s d20segv1.Size) string {
	switch s {
	case d20segv1.Size_SIZE_I:
		return "I"
	case d20segv1.Size_SIZE_MIN:
		return "Min"
	case d20segv1.Size_SIZE_TP:
		return "Tp"
	case d20segv1.Size_SIZE_P:
		return "P"
	case d20segv1.Size_SIZE_M:
		return "M"
	case d20segv1.Size_SIZE_G:
		return "G"
	case d20segv1.Size_SIZE_TG:
		return "Tg"
	case d20segv1.Size_SIZE_GIG:
		return "Gig"
	case d20segv1.Size_SIZE_COL:
		return "Col"
	}
	return "?"
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }

// num writes a number with a minus sign as in prose: "6", "−3".
func num(v int32) string {
	if v < 0 {
		return "−" + itoa(-v)
	}
	return itoa(v)
}

// tellTerm writes a signed term of a sum: " + 3", " − 2".
func tellTerm(v int32) string {
	if v < 0 {
		return " − " + itoa(-v)
	}
	return " + " + itoa(v)
}

// semicolons joins parts with "; " (" ; " in French).
func semicolons(n *narrate.Narrator, parts []string) string {
	var out string
	for i, p := range parts {
		if i == 0 {
			out = p
		} else {
			out = n.Sprintf("%s; %s", out, p)
		}
	}
	return out
}
