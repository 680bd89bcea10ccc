package d20seg

import (
	"sort"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
)

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

// turn checks that f acts next (D20-015): in the surprise round, after the attackers' free
// actions (D20-004), and never a bystander's turn (D20-003).
func (sys System) turn(st *encounterv1.EncounterState, f fighter) error {
	s := segState(st)
	switch {
	case f.cs.GetDown():
		return engine.Refused("D20-044", "%s is down", f.name())
	case s.GetRound() == 0 && f.cs.GetBystander():
		return engine.Refused("D20-003", "%s is named neither attacker nor defender of the surprise attack and takes no part in the surprise round; it acts from round 1", f.name())
	case s.GetRound() == 0 && f.cs.GetSurprised():
		return engine.Refused("D20-004", "%s is surprised and cannot act in the surprise round", f.name())
	case f.cs.GetEndedTurn():
		return engine.Refused("D20-016", "%s has ended its turn this round", f.name())
	}
	next, ok := sys.upNext(st)
	if !ok || next.id() != f.id() {
		if ok && inFreePhase(st, next) {
			return engine.Refused("D20-004", "%s's free action comes first: in the surprise round every attacker's free action, in Initiative order, comes before anyone acts in a segment", next.name())
		}
		if ok {
			return engine.Because(engine.Refused("D20-015", "%s acts first, at segment %d (%s is at segment %d)", next.name(), next.cs.GetNextSegment(), f.name(), f.cs.GetNextSegment()),
				engine.ReasonNotYourTurn, nil)
		}
		return engine.Refused("D20-016", "no one may act any more this round")
	}
	return nil
}
