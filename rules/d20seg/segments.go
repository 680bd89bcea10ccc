package d20seg

import (
	"fmt"
	"slices"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

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

// canStart reports whether an action of cost segments may start now: it ends by f's last
// segment (D20-015), or with carry_over runs on into the next round, not beyond (D20-020); in
// the surprise round it must end by segment 2 (D20-004).
func (sys System) canStart(st *encounterv1.EncounterState, f fighter, cost int32) bool {
	r := segState(st).GetRound()
	end := f.cs.GetNextSegment() + cost - 1
	if end <= sys.last(f, r) {
		return true
	}
	return r > 0 && options(st).GetCarryOver() && end-sys.last(f, r) <= sys.segments(f, r+1)
}

// fits checks that an action of cost segments may start now (D20-015, D20-020), or spends the
// surprise round's free action (D20-004). what is the action ("an attack"), at its detail
// ("at BBA 8").
func (sys System) fits(st *encounterv1.EncounterState, f fighter, cost int32, free bool, what, at string) (int32, error) {
	r := segState(st).GetRound()
	if free {
		if !f.cs.GetFreeActionLeft() {
			return 0, engine.Refused("D20-004", "%s has no free action (only the surprise attackers have one, once, in the surprise round)", f.name())
		}
		return 0, nil
	}
	if f.cs.GetFreeActionLeft() {
		return 0, engine.Refused("D20-004", "%s's free action comes first, before anyone acts in a segment: make %s its free action, or end its turn", f.name(), what)
	}
	if sys.canStart(st, f, cost) {
		return cost, nil
	}
	start, last := f.cs.GetNextSegment(), sys.last(f, r)
	left := fmt.Sprintf("%s has %d left this round", f.name(), max(0, last-start+1))
	if start <= last {
		left += fmt.Sprintf(" (segments %d to %d)", start, last)
	}
	switch {
	case r == 0:
		return 0, engine.Refused("D20-004", "%s costs %s%s; %s has %d left in the surprise round (segments %d to %d), and an action that does not fit in them is not started",
			what, plural(cost), at, f.name(), max(0, last-start+1), start, last)
	case options(st).GetCarryOver():
		return 0, engine.Refused("D20-020", "%s costs %s%s; %s, and an action carries over into the next round only (%d segments there)",
			what, plural(cost), at, left, sys.segments(f, r+1))
	}
	return 0, engine.Refused("D20-020", "%s costs %s%s; %s, and an action that does not fit is not started (no carry-over)",
		what, plural(cost), at, left)
}

func plural(segments int32) string {
	if segments == 1 {
		return "1 segment"
	}
	return fmt.Sprintf("%d segments", segments)
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
