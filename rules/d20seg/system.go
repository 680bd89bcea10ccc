// Package d20seg implements the d20 variant of docs/rules/d20seg.md: a fixed Initiative,
// rounds of segments, attack costs by base attack bonus, criticals by a margin of 20.
package d20seg

import (
	"slices"

	"sort"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/engine/fight"
	"google.golang.org/protobuf/proto"
)

// ID of the rule system.
const ID = "d20seg"

// fullName is its name as its players know it (System.Name).
const fullName = "d20 à segments"

// System is the d20 segment system at one version (New): its numbers and behaviour switches
// are values, read by every rule.
type System struct {
	engine.Release
	n Numbers
}

func segState(st *encounterv1.EncounterState) *d20segv1.State {
	return fight.State(st.GetD20Seg(), (*d20segv1.State).GetCombatants, func(s *d20segv1.State) { st.System = &encounterv1.EncounterState_D20Seg{D20Seg: s} })
}

func options(st *encounterv1.EncounterState) *d20segv1.Options { return st.GetOptions().GetD20Seg() }

func event(e *d20segv1.Event) *encounterv1.Event {
	return &encounterv1.Event{Payload: &encounterv1.Event_D20Seg{D20Seg: e}}
}

func one(e *d20segv1.Event) []*encounterv1.Event { return []*encounterv1.Event{event(e)} }

// Options validates house rules and fills in the defaults (D20-000, D20-002, D20-020, D20-044).
func (sys System) Options(in *encounterv1.RuleOptions) (*encounterv1.RuleOptions, error) {
	o, err := engine.OptionsOf(in, (*encounterv1.RuleOptions).GetD20Seg, "d20seg")
	if err != nil {
		return nil, err
	}
	if len(o.ApprehensionScale) == 0 {
		o.ApprehensionScale = sys.n.ApprehensionScale[:]
	}
	if sc := o.ApprehensionScale; len(sc) != 3 || sc[0] < 0 || sc[0] > sc[1] || sc[1] > sc[2] {
		return nil, engine.Invalid("D20-002", "apprehension_scale gives light, medium and high, from 0 up (light ≤ medium ≤ high), not %v", sc)
	}
	if o.CarryOver == nil {
		o.CarryOver = proto.Bool(false)
	}
	if o.DownAt == nil {
		o.DownAt = proto.Int32(sys.n.DownAt)
	}
	if o.SkipApprehension == nil {
		o.SkipApprehension = proto.Bool(false)
	}
	return &encounterv1.RuleOptions{System: &encounterv1.RuleOptions_D20Seg{D20Seg: o}}, nil
}

// CheckCombatant validates a d20seg sheet.
func (sys System) CheckCombatant(_ *encounterv1.EncounterState, c *encounterv1.Combatant) error {
	sh := c.GetD20Seg()
	who := c.GetName()
	if sh == nil {
		return engine.Invalid("", "malformed sheet for %s: a d20seg encounter needs a d20seg sheet", who)
	}
	if sh.GetHitPoints() < 1 {
		return engine.Invalid("D20-044", "malformed sheet for %s: it needs hit points", who)
	}
	if sh.GetSize() == d20segv1.Size_SIZE_UNSPECIFIED {
		return engine.Invalid("D20-030", "malformed sheet for %s: give its size (I, Min, Tp, P, M, G, Tg, Gig, Col)", who)
	}
	if sys.n.RequireEquipment && sh.GetArmour() == d20segv1.Armour_ARMOUR_UNSPECIFIED {
		return engine.Invalid("D20-010", "malformed sheet for %s: give its armour (none, light, medium or heavy): the field armour counts for its Initiative", who)
	}
	if sys.n.RequireEquipment && sh.GetWeaponClass() == d20segv1.WeaponClass_WEAPON_CLASS_UNSPECIFIED {
		return engine.Invalid("D20-010", "malformed sheet for %s: give its weapon class (unarmed, light, one-handed, two-handed or ranged): the field weapon_class counts for its Initiative", who)
	}
	if sh.GetBba() < 0 || sh.GetBba() > sys.n.MaxBBA {
		return engine.Invalid("D20-017", "malformed sheet for %s: BBA runs from 0 to %d", who, sys.n.MaxBBA)
	}
	for _, s := range sh.GetExtraSegments() {
		if s != -1 && s != 6 && s != 7 {
			return engine.Invalid("D20-014", "malformed sheet for %s: extra segments are −1, 6 and 7, not %d", who, s)
		}
	}
	if slices.Contains(sh.GetExtraSegments(), 7) && !slices.Contains(sh.GetExtraSegments(), 6) {
		return engine.Invalid("D20-014", "malformed sheet for %s: segment 7 comes after segment 6; give 6 too", who)
	}
	for _, w := range sh.GetWeapons() {
		if _, err := dice.Parse(w.GetDice()); err != nil {
			return engine.Invalid("D20-041", "malformed sheet for %s: weapon %q: %v", who, w.GetName(), err)
		}
	}
	return nil
}

type fighter struct {
	c  *encounterv1.Combatant
	sh *d20segv1.Sheet
	cs *d20segv1.CombatantState
}

func (f fighter) id() string   { return f.c.GetId() }
func (f fighter) name() string { return f.c.GetName() }

func fighterOf(st *encounterv1.EncounterState, id string) (fighter, error) {
	return fight.Of(st, id, newFighter)
}

func fighters(st *encounterv1.EncounterState) []fighter { return fight.All(st, newFighter) }

func newFighter(st *encounterv1.EncounterState, c *encounterv1.Combatant) fighter {
	return fighter{c: c, sh: c.GetD20Seg(), cs: fight.StateOf(segState(st).GetCombatants(), c.GetId())}
}

// Start fixes the Initiative for the combat, tied ones by a d20 roll-off (D20-010…D20-012),
// and begins round 1.
func (sys System) Start(st *encounterv1.EncounterState, env engine.Env) ([]*encounterv1.Event, error) {
	cs := &d20segv1.CombatStarted{}
	byInit := map[int32][]string{}
	for _, f := range fighters(st) {
		e := &d20segv1.InitiativeEntry{CombatantId: f.id(), Rapidite: f.sh.GetRapidite(), Equipment: sys.EquipmentModifier(f.sh), Initiative: sys.Initiative(f.sh)}
		cs.Initiative = append(cs.Initiative, e)
		byInit[e.GetInitiative()] = append(byInit[e.GetInitiative()], f.id())
	}
	inits := make([]int32, 0, len(byInit))
	for i := range byInit {
		inits = append(inits, i)
	}
	sort.Slice(inits, func(a, b int) bool { return inits[a] < inits[b] })
	order := map[string]int32{}
	for _, i := range inits {
		ids := byInit[i]
		if len(ids) < 2 {
			continue
		}
		// Roll off among the tied only, again while still tied (D20-011).
		ranked := rollOff(ids, env.Dice, cs)
		for n, id := range ranked {
			order[id] = int32(n)
		}
	}
	for _, e := range cs.Initiative {
		e.TieOrder = order[e.GetCombatantId()]
	}
	return []*encounterv1.Event{
		event(&d20segv1.Event{Kind: &d20segv1.Event_CombatStarted{CombatStarted: cs}}),
		event(&d20segv1.Event{Kind: &d20segv1.Event_RoundStarted{RoundStarted: &d20segv1.RoundStarted{Round: 1}}}),
	}, nil
}
