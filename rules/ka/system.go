// Package ka implements the card-drawn system of docs/rules/ka.md: draws of tarot cards
// added to sphere + skill, rounds of passes ordered by Animalité, Ka dice and reality points.
package ka

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/fight"
)

// ID of the rule system.
const ID = "ka"

// fullName is its name as its players know it (System.Name).
const fullName = "Ka (cartes, sphères et dés de Ka)"

// Names of the spheres the rules use.
const (
	Animalite = "Animalité"
	Humanite  = "Humanité"
)

// Names of the skills and the weapon the rules name.
const (
	Dodge     = "Esquive"    // KA-009, KA-013: the defence skill of a dodge
	Brawl     = "Bagarre"    // KA-018, KA-032: bare hands, and a disarm
	BareHands = "mains nues" // KA-018, KA-032: the weapon every combatant has
)

// System is one released version of the Ka rules (New, Released): its numbers and switches
// are a value, read by every rule that states one.
type System struct {
	engine.Release
	n Numbers
}

func kaState(st *encounterv1.EncounterState) *kav1.State {
	return fight.State(st.GetKa(), (*kav1.State).GetCombatants, func(s *kav1.State) { st.System = &encounterv1.EncounterState_Ka{Ka: s} })
}

func options(st *encounterv1.EncounterState) *kav1.Options { return st.GetOptions().GetKa() }

func event(e *kav1.Event) *encounterv1.Event {
	return &encounterv1.Event{Payload: &encounterv1.Event_Ka{Ka: e}}
}

// Options validates house rules and fills in the defaults (KA-001, KA-003, KA-006, KA-024).
func (s System) Options(in *encounterv1.RuleOptions) (*encounterv1.RuleOptions, error) {
	o, err := engine.OptionsOf(in, (*encounterv1.RuleOptions).GetKa, "Ka")
	if err != nil {
		return nil, err
	}
	if o.Deck == "" {
		o.Deck = "tarot56"
	}
	if o.Deck != "tarot56" {
		return nil, engine.Invalid("KA-001", "the deck is %q; this version knows only tarot56, the minor arcana", o.Deck)
	}
	if o.Reshuffle == "" {
		o.Reshuffle = "on_empty"
	}
	if o.Reshuffle != "on_empty" && o.Reshuffle != "every_draw" {
		return nil, engine.Invalid("KA-003", "reshuffle is on_empty or every_draw, not %q", o.Reshuffle)
	}
	if len(o.SuccessLevels) == 0 {
		o.SuccessLevels = slices.Clone(s.n.SuccessLevels)
	}
	if len(o.SuccessBonus) == 0 {
		o.SuccessBonus = slices.Clone(s.n.SuccessBonus)
	}
	if len(o.SuccessBonus) != len(o.SuccessLevels)+1 || !slices.IsSorted(o.SuccessLevels) || o.SuccessLevels[0] <= 0 {
		return nil, engine.Invalid("KA-006", "success_levels gives the increasing margins where each level above normal starts, success_bonus one damage bonus per level")
	}
	if len(o.KaTable) == 0 {
		o.KaTable = slices.Clone(s.n.KaTable)
	}
	for i, b := range o.GetKaTable() {
		if b < 1 || i > 0 && b <= o.GetKaTable()[i-1] {
			return nil, engine.Invalid("KA-024", "ka_table gives increasing upper bounds of damage, one per Ka die, from 1 up (as 5, 10, 15, 20), not %v", o.GetKaTable())
		}
	}
	return &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_Ka{Ka: o}}, nil
}

// CheckCombatant validates a Ka sheet (KA-029).
func (System) CheckCombatant(_ *encounterv1.EncounterState, c *encounterv1.Combatant) error {
	sh := c.GetKa()
	who := c.GetName()
	if sh == nil {
		return engine.Invalid("", "malformed sheet for %s: a Ka encounter needs a ka sheet", who)
	}
	if _, ok := sh.GetSpheres()[Animalite]; !ok {
		return engine.Invalid("KA-014", "malformed sheet for %s: it needs the sphere %s", who, Animalite)
	}
	if _, ok := sh.GetSpheres()[Humanite]; !ok {
		return engine.Invalid("KA-018", "malformed sheet for %s: it needs the sphere %s", who, Humanite)
	}
	if len(sh.GetSpheres()) < 3 {
		return engine.Invalid("KA-010", "malformed sheet for %s: Animalité, Humanité and at least one more sphere", who)
	}
	for n, v := range sh.GetSpheres() {
		if v < 0 || v > 20 {
			return engine.Invalid("", "malformed sheet for %s: sphere %s is %d; from 0 to 20", who, n, v)
		}
	}
	for n, v := range sh.GetSkills() {
		if v < 0 || v > 20 {
			return engine.Invalid("", "malformed sheet for %s: skill %s is %d; from 0 to 20", who, n, v)
		}
	}
	if sh.GetKaDice() < 1 || sh.GetRealityPoints() < 1 {
		return engine.Invalid("KA-029", "malformed sheet for %s: give its Ka dice and its points de réalité", who)
	}
	for _, w := range sh.GetWeapons() {
		if _, ok := sh.GetSpheres()[w.GetSphere()]; !ok {
			return engine.Invalid("KA-018", "malformed sheet for %s: weapon %q uses sphere %q, which it lacks", who, w.GetName(), w.GetSphere())
		}
	}
	return nil
}

// LowestSphere is a character's lowest sphere (KA-010, KA-026).
func LowestSphere(sh *kav1.Sheet) int32 {
	first := true
	var low int32
	for _, v := range sh.GetSpheres() {
		if first || v < low {
			low, first = v, false
		}
	}
	return low
}

// Seuil is the seuil d'encaissement (KA-026).
func (s System) Seuil(sh *kav1.Sheet) int32 {
	return (LowestSphere(sh) + sh.GetEncaissement()) * s.n.SeuilFactor
}

// Level is the success level of a margin and its damage bonus (KA-006).
func Level(o *kav1.Options, margin int32) (int32, int32) {
	if margin < 0 {
		return 0, 0
	}
	lvl := 0
	for _, m := range o.GetSuccessLevels() {
		if margin >= m {
			lvl++
		}
	}
	return int32(lvl + 1), o.GetSuccessBonus()[lvl]
}

// KaLost converts damage after soak to Ka dice by the table of upper bounds (KA-024): the
// first bound the damage does not exceed gives the dice; beyond the last bound, one more die
// per step of the last interval.
func (s System) KaLost(o *kav1.Options, damage int32) int32 {
	if damage <= 0 {
		return 0
	}
	t := o.GetKaTable()
	if len(t) == 0 {
		t = s.n.KaTable
	}
	for i, b := range t {
		if damage <= b {
			return int32(i + 1)
		}
	}
	last := t[len(t)-1]
	step := last
	if len(t) > 1 {
		step = last - t[len(t)-2]
	}
	return int32(len(t)) + (damage-last+step-1)/step
}

type fighter struct {
	c  *encounterv1.Combatant
	sh *kav1.Sheet
	cs *kav1.CombatantState
}

func (f fighter) id() string { return f.c.GetId() }

func (f fighter) name() string { return f.c.GetName() }

func (f fighter) conscious() bool {
	return !f.cs.GetUnconscious() && !f.cs.GetDying() && f.cs.GetKaDice() > 0
}

// mayAct: may still take an action this pass (KA-012, KA-015), even out of the fight when
// put out at the same time as its own action (KA-014).
func (f fighter) mayAct() bool {
	return (f.conscious() || f.cs.GetStillActs()) && !f.cs.GetPassed() && f.cs.GetActionsLeft() > 0 && !f.cs.GetActedThisPass()
}

func fighterOf(st *encounterv1.EncounterState, id string) (fighter, error) {
	return fight.Of(st, id, newFighter)
}

func fighters(st *encounterv1.EncounterState) []fighter { return fight.All(st, newFighter) }

func newFighter(st *encounterv1.EncounterState, c *encounterv1.Combatant) fighter {
	return fighter{c: c, sh: c.GetKa(), cs: fight.StateOf(kaState(st).GetCombatants(), c.GetId())}
}

// Start makes the encounter's deck whole and opens the first round (KA-003, KA-010). Nothing
// is rolled: each draw takes its cards at random from the cards left.
func (System) Start(st *encounterv1.EncounterState, _ engine.Env) ([]*encounterv1.Event, error) {
	return []*encounterv1.Event{
		event(&kav1.Event{Kind: &kav1.Event_DeckShuffled{DeckShuffled: &kav1.DeckShuffled{Cards: DeckSize}}}),
		roundStarted(st, 1),
	}, nil
}
