package ka

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/narrate"
)

// The narration of Ka, in English and French: the deck made whole, rounds and passes, draws
// with each card and its place in the deck, attacks with their success level, damage, soak and
// Ka dice, stuns, disarms, terror and death draws; the sheets and the house rules. Every
// message goes through the Narrator's catalogue (the English text is the key; its French is in
// narrate_fr.go). Numbers go in as strings (the catalogue would group their digits), counts
// that decide a plural as an int first, their text second.

// Teller narrates the system's events, sheets and house rules (narrate.Teller). An event is
// told with the numbers of the version of the rules that decided it (its rules_version): the
// registry narrates every encounter with its latest version's Teller, and a version 1 log must
// read as it always did. The zero Teller tells each released version with its own numbers.
type Teller struct{ sys System }

// Teller is the system's narration.
func (s System) Teller() narrate.Teller { return Teller{sys: s} }

// numbers are those of the version that decided an event: the Teller's own, another released
// version's, or (a version unknown here, or none recorded) the latest's.
func (t Teller) numbers(version uint32) Numbers {
	if t.sys.Version() != 0 && t.sys.Version() == version {
		return t.sys.n
	}
	if n, ok := numbersOf(version); ok {
		return n
	}
	n, _ := numbersOf(Latest)
	return n
}

// memoryKey keys what the narration of Ka keeps between events.
type memoryKey struct{}

// memory is what the narration keeps: the last attack drawn, which tells whether the attack
// resolved after it is a stun (an AttackResolved does not say so when the stun took no points).
type memory struct {
	attack *kav1.AttackDrawn
}

func remembered(n *narrate.Narrator) *memory {
	return n.Memory(memoryKey{}, func() any { return &memory{} }).(*memory)
}

// Event narrates the system's own events.
func (t Teller) Event(n *narrate.Narrator, ev *encounterv1.Event) (string, bool) {
	e := ev.GetKa()
	if e == nil {
		return "", false
	}
	return tellEvent(n, t.numbers(ev.GetRulesVersion()), e), true
}

// Sheet describes the system's sheet of a joining combatant: "Animalité 4, Humanité 3,
// Spiritualité 2, encaissement 3, 5 Ka dice, 15 points de réalité, player character".
func (Teller) Sheet(n *narrate.Narrator, c *encounterv1.Combatant) (string, bool) {
	sh := c.GetKa()
	if sh == nil {
		return "", false
	}
	s := tellSpheres(sh.GetSpheres())
	s += n.Sprintf(", encaissement %s", itoa(sh.GetEncaissement()))
	if sh.GetProtection() != 0 {
		s += n.Sprintf(", protection %s", itoa(sh.GetProtection()))
	}
	s += ", " + tellKaDice(n, sh.GetKaDice()) + ", " + tellReality(n, sh.GetRealityPoints())
	if sh.GetPlayerCharacter() {
		s += n.Sprintf(", player character")
	}
	return strings.TrimPrefix(s, ", "), true
}

// Options lists the system's house rules: "deck tarot56, reshuffle every_draw, success levels
// from margins 8/16, damage bonus +1/+4/+8, Ka dice by damage up to 4/8, parries allowed".
func (Teller) Options(n *narrate.Narrator, o *encounterv1.RuleOptions) (string, bool) {
	k := o.GetKa()
	if k == nil {
		return "", false
	}
	var parts []string
	if k.GetDeck() != "" {
		parts = append(parts, n.Sprintf("deck %s", k.GetDeck()))
	}
	if k.GetReshuffle() != "" {
		parts = append(parts, n.Sprintf("reshuffle %s", k.GetReshuffle()))
	}
	join := func(vs []int32, sign bool) string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = itoa(v)
			if sign {
				out[i] = narrate.Signed(v)
			}
		}
		return strings.Join(out, "/")
	}
	if len(k.GetSuccessLevels()) > 0 {
		parts = append(parts, n.Sprintf("success levels from margins %s", join(k.GetSuccessLevels(), false)))
	}
	if len(k.GetSuccessBonus()) > 0 {
		parts = append(parts, n.Sprintf("damage bonus %s", join(k.GetSuccessBonus(), true)))
	}
	if len(k.GetKaTable()) > 0 {
		parts = append(parts, n.Sprintf("Ka dice by damage up to %s", join(k.GetKaTable(), false)))
	}
	if k.GetParry() {
		parts = append(parts, n.Sprintf("parries allowed"))
	}
	return strings.Join(parts, ", "), true
}

// Learn records the last attack drawn: whether the attack resolved later is a stun.
func (Teller) Learn(n *narrate.Narrator, ev *encounterv1.Event) {
	if a := ev.GetKa().GetAttackDrawn(); a != nil {
		remembered(n).attack = a
	}
}

// LearnState records the attack a defender answers, if any: a stun or not.
func (Teller) LearnState(n *narrate.Narrator, st *encounterv1.EncounterState) {
	m := remembered(n)
	m.attack = nil
	if p := st.GetKa().GetPending(); p != nil {
		m.attack = &kav1.AttackDrawn{AttackerId: p.GetAttackerId(), TargetId: p.GetAttack().GetTargetId(), Attack: p.GetAttack()}
	}
}

func tellEvent(n *narrate.Narrator, nb Numbers, e *kav1.Event) string {
	switch k := e.GetKind().(type) {
	case *kav1.Event_DeckShuffled:
		return n.Sprintf("The deck is whole: %s, each card drawn at random from those left (KA-003)", tellShuffle(n, k.DeckShuffled))
	case *kav1.Event_RoundStarted:
		return tellRound(n, k.RoundStarted)
	case *kav1.Event_PassStarted:
		return n.Sprintf("Pass %s round the table, from the highest Animalité: one action each (KA-014, KA-015)", itoa(k.PassStarted.GetPassNumber()))
	case *kav1.Event_AttackDeclared:
		return tellDeclared(n, k.AttackDeclared)
	case *kav1.Event_DefenceAnnounced:
		return tellAnnounced(n, k.DefenceAnnounced)
	case *kav1.Event_AttackDrawn:
		return tellAttack(n, k.AttackDrawn)
	case *kav1.Event_WeaponPickedUp:
		what := k.WeaponPickedUp.GetWeapon()
		if what == "" { // a hidden combatant's weapon is withheld
			what = n.Sprintf("its weapon")
		}
		return n.Sprintf("%s picks up %s, lost to a disarm (one action, KA-032)", n.Name(k.WeaponPickedUp.GetCombatantId()), what)
	case *kav1.Event_DefenceDrawn:
		return tellDefence(n, k.DefenceDrawn)
	case *kav1.Event_AttackResolved:
		return tellResolved(n, k.AttackResolved)
	case *kav1.Event_DisarmDrawn:
		return tellDisarm(n, nb, k.DisarmDrawn)
	case *kav1.Event_TerrorDrawn:
		return tellTerror(n, nb, k.TerrorDrawn)
	case *kav1.Event_Passed:
		return n.Sprintf("%s passes: no more actions this round (KA-015)", n.Name(k.Passed.GetCombatantId()))
	case nil:
		return n.Sprintf("(empty Ka event)")
	default:
		return n.Sprintf("(Ka event %s)", fmt.Sprintf("%T", k))
	}
}

// tellRound: "Round 1: Joshua 2 actions, le chien 1 action (each its lowest sphere, KA-010)".
func tellRound(n *narrate.Narrator, r *kav1.RoundStarted) string {
	if len(r.GetActions()) == 0 {
		return n.Sprintf("Round %s: no one can act", itoa(r.GetRound()))
	}
	ids := make([]string, 0, len(r.GetActions()))
	for id := range r.GetActions() {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		if d := r.GetActions()[b] - r.GetActions()[a]; d != 0 {
			return int(d)
		}
		return strings.Compare(n.Name(a), n.Name(b))
	})
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = n.Name(id) + " " + count(n, "%[2]s actions", r.GetActions()[id])
		if n.Withheld(id) { // who may act is seen, not how many actions
			parts[i] = n.Sprintf("%s (its actions withheld)", n.Name(id))
		}
	}
	return n.Sprintf("Round %s: %s (each its lowest sphere, KA-010)", itoa(r.GetRound()), strings.Join(parts, ", "))
}

// tellSpheres: "Animalité 4, Humanité 3, Spiritualité 2", Animalité and Humanité first.
func tellSpheres(m map[string]int32) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		switch k {
		case Animalite:
			return 0
		case Humanite:
			return 1
		}
		return 2
	}
	slices.SortFunc(keys, func(a, b string) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + itoa(m[k])
	}
	return strings.Join(parts, ", ")
}

// count writes a count with its noun, singular or plural by the language's rules: key is the
// plural English message, "%[2]s cards", set with its plural forms in narrate_fr.go.
func count(n *narrate.Narrator, key string, v int32) string {
	return n.Sprintf(key, int(v), itoa(v))
}

func tellKaDice(n *narrate.Narrator, v int32) string { return count(n, "%[2]s Ka dice", v) }
func tellReality(n *narrate.Narrator, v int32) string {
	return count(n, "%[2]s points de réalité", v)
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }

// num writes a number with a minus sign as in prose: "6", "−3".
func num(v int32) string {
	if v < 0 {
		return "−" + itoa(-v)
	}
	return itoa(v)
}
