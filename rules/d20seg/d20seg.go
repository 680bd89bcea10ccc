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
	"google.golang.org/protobuf/proto"
)

// ID of the rule system.
const ID = "d20seg"

// System is the d20 segment system at one version (New): its numbers and behaviour switches
// are values, read by every rule.
type System struct {
	version uint32
	n       Numbers
}

func (System) ID() string        { return ID }
func (System) Name() string      { return "d20 à segments" }
func (s System) Version() uint32 { return s.version }

func segState(st *encounterv1.EncounterState) *d20segv1.State {
	if s := st.GetD20Seg(); s != nil {
		if s.Combatants == nil {
			s.Combatants = map[string]*d20segv1.CombatantState{}
		}
		return s
	}
	s := &d20segv1.State{Combatants: map[string]*d20segv1.CombatantState{}}
	st.System = &encounterv1.EncounterState_D20Seg{D20Seg: s}
	return s
}

func options(st *encounterv1.EncounterState) *d20segv1.Options { return st.GetOptions().GetD20Seg() }

func event(e *d20segv1.Event) *encounterv1.Event {
	return &encounterv1.Event{Payload: &encounterv1.Event_D20Seg{D20Seg: e}}
}

func one(e *d20segv1.Event) []*encounterv1.Event { return []*encounterv1.Event{event(e)} }

// Options validates house rules and fills in the defaults (D20-000, D20-002, D20-020, D20-044).
func (sys System) Options(in *encounterv1.RuleOptions) (*encounterv1.RuleOptions, error) {
	if in != nil && in.GetSystem() != nil && in.GetD20Seg() == nil {
		return nil, engine.Invalid("", "the options given are not d20seg options")
	}
	o := proto.CloneOf(in.GetD20Seg())
	if o == nil {
		o = &d20segv1.Options{}
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

// EquipmentModifier is the Initiative modifier of a combatant's equipment (D20-010).
func (sys System) EquipmentModifier(sh *d20segv1.Sheet) int32 {
	return modifier(sys.n.Armour[:], int(sh.GetArmour())) + modifier(sys.n.Shield[:], int(sh.GetShield())) +
		modifier(sys.n.Weapon[:], int(sh.GetWeaponClass()))
}

// modifier is table[i], 0 for an enum value the table does not know.
func modifier(table []int32, i int) int32 {
	if i < 0 || i >= len(table) {
		return 0
	}
	return table[i]
}

// Initiative = Rapidité + equipment (D20-010).
func (sys System) Initiative(sh *d20segv1.Sheet) int32 {
	return sh.GetRapidite() + sys.EquipmentModifier(sh)
}

// AttackCost by BBA (D20-017): the n-th attack of the round (from 0).
func (sys System) AttackCost(bba, nth int32) int32 {
	step := sys.n.AttackCosts[0]
	for _, s := range sys.n.AttackCosts {
		if bba >= s.FromBBA {
			step = s
		}
	}
	if nth == 0 {
		return step.First
	}
	return step.Then
}

// SpellCost by category (D20-018, D20-021).
func (sys System) SpellCost(c *d20segv1.Cast) (int32, error) {
	if c.GetStatedSegments() > 0 {
		return c.GetStatedSegments(), nil
	}
	if c.GetPureMagic() {
		return 0, engine.Invalid("D20-021", "pure magic has no table entry: give the spell's stated casting time")
	}
	costs := sys.n.SpellCosts
	l := c.GetLevel()
	var cost int32
	for _, k := range costs {
		if l >= k.FromLevel && l <= k.ToLevel {
			cost = k.Segments
		}
	}
	if cost == 0 {
		return 0, engine.Invalid("D20-018", "a spell level runs from %d to %d, not %d", costs[0].FromLevel, costs[len(costs)-1].ToLevel, l)
	}
	if c.GetSpecial() {
		cost += sys.n.SpecialSpell
	}
	return cost, nil
}

// Reach in centimetres by size (D20-030).
func (sys System) Reach(s d20segv1.Size) int32 { return modifier(sys.n.Reach[:], int(s)) }

// Space in centimetres by size (D20-030).
func (sys System) Space(s d20segv1.Size) int32 { return modifier(sys.n.Space[:], int(s)) }

// ApprehensionModifier of a situation (D20-001, D20-002); impaired is the light malus, which
// the GM may raise up to the medium one (Apprehension.impaired_malus).
func ApprehensionModifier(o *d20segv1.Options, s d20segv1.Situation) int32 {
	light, medium, high := o.GetApprehensionScale()[0], o.GetApprehensionScale()[1], o.GetApprehensionScale()[2]
	switch s {
	case d20segv1.Situation_SITUATION_OPEN_VIEW:
		return medium
	case d20segv1.Situation_SITUATION_CLUTTERED_VIEW, d20segv1.Situation_SITUATION_NIGHT, d20segv1.Situation_SITUATION_BUSY,
		d20segv1.Situation_SITUATION_HUBBUB, d20segv1.Situation_SITUATION_IMPAIRED:
		return -light
	case d20segv1.Situation_SITUATION_DESERTED:
		return high
	case d20segv1.Situation_SITUATION_VERY_BUSY, d20segv1.Situation_SITUATION_UNCONVENTIONAL_ATTACK:
		return -medium
	case d20segv1.Situation_SITUATION_VIGILANT:
		return light
	}
	return 0
}

type fighter struct {
	c  *encounterv1.Combatant
	sh *d20segv1.Sheet
	cs *d20segv1.CombatantState
}

func (f fighter) id() string   { return f.c.GetId() }
func (f fighter) name() string { return f.c.GetName() }

func fighterOf(st *encounterv1.EncounterState, id string) (fighter, error) {
	c := engine.FindCombatant(st, id)
	if c == nil {
		return fighter{}, engine.NotFound("there is no combatant %q in this encounter", id)
	}
	cs := segState(st).GetCombatants()[id]
	if cs == nil {
		cs = &d20segv1.CombatantState{}
	}
	return fighter{c: c, sh: c.GetD20Seg(), cs: cs}, nil
}

func fighters(st *encounterv1.EncounterState) []fighter {
	var out []fighter
	for _, c := range st.GetCombatants() {
		f, _ := fighterOf(st, c.GetId())
		out = append(out, f)
	}
	return out
}

// segments a combatant may use this round (D20-013, D20-014; the surprise round 0–2, D20-004).
func (sys System) first(f fighter, round int32) int32 {
	if round > 0 && slices.Contains(f.sh.GetExtraSegments(), -1) {
		return -1
	}
	return sys.n.FirstSegment
}

func (sys System) last(f fighter, round int32) int32 {
	if round == 0 {
		return sys.n.FirstSegment + sys.n.SurpriseSegments - 1
	}
	l := sys.n.LastSegment
	for _, s := range f.sh.GetExtraSegments() {
		if s > l && (s == 6 || (s == 7 && slices.Contains(f.sh.GetExtraSegments(), 6))) { // 7 only after 6 (CheckCombatant)
			l = s
		}
	}
	return l
}

// Segments are the first and last segments a combatant of sheet sh may use in a round
// (D20-004, D20-013, D20-014): a client shows them, from the rules that decide them.
func (sys System) Segments(sh *d20segv1.Sheet, round int32) (first, last int32) {
	f := fighter{sh: sh}
	return sys.first(f, round), sys.last(f, round)
}

// segments is the number of segments f may use in a round.
func (sys System) segments(f fighter, round int32) int32 {
	return sys.last(f, round) - sys.first(f, round) + 1
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

// rollOff orders tied combatants by d20, highest first, rolling again among those still tied.
func rollOff(ids []string, roller dice.Roller, cs *d20segv1.CombatStarted) []string {
	ro := &d20segv1.RollOff{CombatantIds: ids}
	score := map[string]int32{}
	for _, id := range ids {
		r := roller.Roll(dice.Expr{Count: 1, Sides: 20})
		ro.Rolls = append(ro.Rolls, r)
		score[id] = r.GetTotal()
	}
	cs.RollOffs = append(cs.RollOffs, ro)
	groups := map[int32][]string{}
	for _, id := range ids {
		groups[score[id]] = append(groups[score[id]], id)
	}
	vals := make([]int32, 0, len(groups))
	for v := range groups {
		vals = append(vals, v)
	}
	sort.Slice(vals, func(a, b int) bool { return vals[a] > vals[b] })
	var out []string
	for _, v := range vals {
		g := groups[v]
		if len(g) > 1 {
			g = rollOff(g, roller, cs)
		}
		out = append(out, g...)
	}
	return out
}

// upNext: the combatant that acts next. In the surprise round every attacker's free action
// comes first, in Initiative order, before anyone acts in a segment (D20-004); bystanders and
// surprised defenders take no part in it (D20-003, D20-005). Otherwise the earliest next free
// segment, then the higher Initiative, then the roll-off (D20-015).
func (sys System) upNext(st *encounterv1.EncounterState) (fighter, bool) {
	s := segState(st)
	var best fighter
	found := false
	if s.GetRound() == 0 {
		for _, f := range fighters(st) {
			if f.cs.GetFreeActionLeft() && !f.cs.GetDown() && !f.cs.GetEndedTurn() && (!found || byInitiative(f, best)) {
				best, found = f, true
			}
		}
		if found {
			return best, true
		}
	}
	for _, f := range fighters(st) {
		if f.cs.GetDown() || f.cs.GetEndedTurn() || (s.GetRound() == 0 && (f.cs.GetSurprised() || f.cs.GetBystander())) {
			continue
		}
		if f.cs.GetNextSegment() > sys.last(f, s.GetRound()) {
			continue
		}
		if !found || before(f, best) {
			best, found = f, true
		}
	}
	return best, found
}

// UpNext tells who acts next: its id, the segment it acts at, and whether it is the surprise
// round's free action, which comes before anyone acts in a segment (D20-004, D20-015).
func (sys System) UpNext(st *encounterv1.EncounterState) (id string, segment int32, free, ok bool) {
	f, ok := sys.upNext(st)
	if !ok {
		return "", 0, false, false
	}
	return f.id(), f.cs.GetNextSegment(), inFreePhase(st, f), true
}

// inFreePhase reports whether f, up next, acts with the surprise round's free action (D20-004).
func inFreePhase(st *encounterv1.EncounterState, f fighter) bool {
	return segState(st).GetRound() == 0 && f.cs.GetFreeActionLeft()
}

// byInitiative: a acts before b by Initiative, then the roll-off (D20-004, D20-011).
func byInitiative(a, b fighter) bool {
	if a.cs.GetInitiative() != b.cs.GetInitiative() {
		return a.cs.GetInitiative() > b.cs.GetInitiative()
	}
	return a.cs.GetTieOrder() < b.cs.GetTieOrder()
}

func before(a, b fighter) bool {
	if a.cs.GetNextSegment() != b.cs.GetNextSegment() {
		return a.cs.GetNextSegment() < b.cs.GetNextSegment()
	}
	return byInitiative(a, b)
}
