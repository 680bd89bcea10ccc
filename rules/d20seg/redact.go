package d20seg

import (
	"cmp"
	"slices"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// Hidden information (engine.Redactor). A combatant the GM hides shows the table its name,
// side and how hurt it looks, that it acts now and at which segment (the GM calls the
// segments, D20-015), whom it attacks, whether it hits, and what its blows cost the others;
// whether it is surprised, down, or has ended its turn. Its numbers stay behind the GM's
// screen: its Initiative (Rapidité and equipment), its hit points and CA, its dice, attack
// bonus and total, its weapons, feats and damage dice, the costs of its actions (which give
// away its BBA, D20-017), its stealth and apprehension rolls.
//
// Where the rules are silent the choices are these:
//   - The order in which combatants act at a segment is seen at the table, the Initiative
//     numbers are not: in a view, a hidden combatant's Initiative and tie order are
//     placeholders that put it where it acts among the combatants the reader sees (the
//     Initiative and tie order of the one it acts before or after), not its own.
//   - Its next segment is shown only when it is the one up next (the segment being played);
//     otherwise it is HiddenSegment, past every segment, so that it is not taken for the one
//     up next.
//   - A player whose combatant is hit by a hidden attacker sees the damage its combatant took,
//     its own CA and hit points left, and whether it was a critical; not the attacker's roll,
//     bonus, total, weapon or damage dice.
//   - A player whose combatant hits a hidden target sees its own roll and the damage it dealt,
//     not the target's CA or hit points.
//   - A tie roll-off with a hidden combatant would give away that its Initiative equals the
//     others': the hidden combatant leaves the roll-off as shown, and its entry leaves the
//     Initiative list. So would a visible combatant's tie order (1: it lost a roll-off, with
//     whom if no visible one shares its Initiative?) and where the dice stream stands after
//     the start (engine.View gives no reader but the GMs a dice position): while someone is
//     hidden from the reader, a visible combatant's tie order is its rank among the visible
//     ones at its Initiative, in the order they act, spaced by one more than the number of
//     hidden ones so that their placeholders fit between.
//   - A spell's name is what the table hears and sees take effect; its level and casting time
//     are the caster's.

// HiddenSegment is the next segment shown for a hidden combatant that is not up next: past
// every segment a round has (D20-013: −1 to 7).
const HiddenSegment = 8

var _ engine.Redactor = System{}

// Appearance is what the table sees of a d20seg combatant: down at the hit points of
// D20-044 (out of the fight); otherwise, where the seed is silent, wounded once it has lost
// any hit point, badly wounded once it has lost half of its sheet's hit points or more.
func (sys System) Appearance(st *encounterv1.EncounterState, id string) encounterv1.Appearance {
	cs := st.GetD20Seg().GetCombatants()[id]
	c := engine.FindCombatant(st, id)
	if cs == nil || c == nil {
		return encounterv1.Appearance_APPEARANCE_FIGHTING
	}
	if sys.Out(st, id) {
		return encounterv1.Appearance_APPEARANCE_OUT_OF_THE_FIGHT
	}
	return engine.Worn(cs.GetHitPoints(), c.GetD20Seg().GetHitPoints())
}

// RedactState removes the numbers of every secret combatant from the d20seg state (st is the
// caller's copy): its hit points go, its Initiative and tie order become placeholders in the
// order it acts, its next segment shows only when it is up next. Once the first round (or the
// surprise round) has started, UpNext on the view names the same combatant as on the whole
// state.
func (sys System) RedactState(st *encounterv1.EncounterState, secret func(string) bool) {
	s := st.GetD20Seg()
	if s == nil {
		return
	}
	next, hasNext := sys.upNext(st) // on the whole numbers, before any is removed
	order := fighters(st)
	slices.SortStableFunc(order, func(a, b fighter) int {
		switch {
		case byInitiative(a, b):
			return -1
		case byInitiative(b, a):
			return 1
		}
		return 0
	})
	// Until the first round (or the surprise round) starts, no order of action exists yet
	// (the start's roll-offs make it, D20-011) and no one acts: the hidden ones are put after
	// every visible one, in the order they joined, none shown up next. Placed by their
	// Initiatives, one tied with a visible combatant would sit after it by the order they
	// joined, then move ahead of it on winning the roll-off.
	unordered := s.GetRound() == 0 && !s.GetSurpriseDeclared()
	var hidden int32
	var unplaced []string // the hidden ones before the start, in the order they joined
	for _, f := range fighters(st) {
		if secret(f.id()) {
			hidden++
			if unordered {
				unplaced = append(unplaced, f.id())
			}
		}
	}
	type place struct{ init, tie int32 }
	placeholder := map[string]place{}
	visibleAt := map[int32]int32{} // visible combatants met so far at each Initiative
	var run []string               // secret combatants since the last visible one, in order
	var prev *fighter
	for i := range order {
		f := order[i]
		if secret(f.id()) {
			if !unordered {
				run = append(run, f.id())
			}
			continue
		}
		if hidden > 0 { // its rank among the visible ones, not its roll-off's
			f.cs.TieOrder = visibleAt[f.cs.GetInitiative()] * (hidden + 1)
			visibleAt[f.cs.GetInitiative()]++
		}
		for k, id := range run { // they act just before f
			placeholder[id] = place{f.cs.GetInitiative(), f.cs.GetTieOrder() - int32(len(run)-k)}
		}
		run, prev = nil, &order[i]
	}
	run = append(run, unplaced...)
	for k, id := range run { // they act after every visible combatant
		if prev != nil {
			placeholder[id] = place{prev.cs.GetInitiative(), prev.cs.GetTieOrder() + int32(k+1)}
		} else {
			placeholder[id] = place{0, int32(k)}
		}
	}
	for id, cs := range s.GetCombatants() {
		if !secret(id) {
			continue
		}
		p := placeholder[id]
		cs.Initiative, cs.TieOrder, cs.HitPoints = p.init, p.tie, 0
		if unordered || !hasNext || next.id() != id {
			cs.NextSegment = HiddenSegment
		}
	}
}

// RedactEvent removes the numbers of every secret combatant from a d20seg event and from the
// d20seg action recorded with it (ev is the caller's copy).
func (System) RedactEvent(ev *encounterv1.Event, secret func(string) bool) {
	if a := ev.GetCommand().GetD20Seg(); a != nil {
		redactAction(a, secret)
	}
	e := ev.GetD20Seg()
	if e == nil {
		return
	}
	switch k := e.GetKind().(type) {
	case *d20segv1.Event_CombatStarted:
		c := k.CombatStarted
		shown := len(c.GetInitiative())
		c.Initiative = slices.DeleteFunc(c.Initiative, func(in *d20segv1.InitiativeEntry) bool { return secret(in.GetCombatantId()) })
		if hidden := int32(shown - len(c.GetInitiative())); hidden > 0 {
			visibleTieOrders(c.GetInitiative(), hidden)
		}
		var offs []*d20segv1.RollOff
		for _, ro := range c.GetRollOffs() {
			var ids []string
			var rolls = ro.GetRolls()[:0:0]
			for i, id := range ro.GetCombatantIds() {
				if !secret(id) {
					ids = append(ids, id)
					if i < len(ro.GetRolls()) {
						rolls = append(rolls, ro.GetRolls()[i])
					}
				}
			}
			if len(ids) > 1 {
				ro.CombatantIds, ro.Rolls = ids, rolls
				offs = append(offs, ro)
			}
		}
		c.RollOffs = offs
	case *d20segv1.Event_SurpriseRoundStarted:
		// Who attacks, who stands by, who is surprised are seen; the rolls are not.
		for _, ar := range k.SurpriseRoundStarted.GetApprehension() {
			if secret(ar.GetDefenderId()) {
				ar.Roll, ar.Modifiers, ar.Total = nil, 0, 0
			}
			if ar.GetStealthBy() != "" && secret(ar.GetStealthBy()) {
				ar.StealthRoll, ar.Opposition = nil, 0
			}
		}
	case *d20segv1.Event_RoundStarted:
		for _, c := range k.RoundStarted.GetCarried() {
			if secret(c.GetCombatantId()) {
				c.Segments = 0 // it goes on with its action; how long is its own
			}
		}
	case *d20segv1.Event_AttackRolled:
		a := k.AttackRolled
		if secret(a.GetAttackerId()) {
			// Kept: whom it attacks, at which segment, hit or not, critical, the damage the
			// target took and its hit points left (the victim's own).
			a.Weapon, a.Cost, a.Roll, a.Bonus, a.Total, a.DamageRoll = "", 0, nil, 0, 0, nil
		}
		if secret(a.GetTargetId()) {
			// The attacker keeps its own roll and the damage it dealt.
			a.Ca, a.HitPointsLeft = 0, 0
			if secret(a.GetAttackerId()) {
				a.Damage = 0
			}
		}
	case *d20segv1.Event_SpellCast:
		if c := k.SpellCast; secret(c.GetCombatantId()) {
			c.Cost = 0
		}
	case *d20segv1.Event_OtherDone:
		if o := k.OtherDone; secret(o.GetCombatantId()) {
			o.Cost = 0
		}
	case *d20segv1.Event_TurnEnded:
		// That it ends its turn is seen.
	}
}

// visibleTieOrders gives each entry left in the Initiative list, once the hidden ones have left
// it, the tie order a view of the state gives it (RedactState): its rank among the entries at
// its Initiative, in the order they act, spaced by hidden + 1.
func visibleTieOrders(entries []*d20segv1.InitiativeEntry, hidden int32) {
	acting := slices.Clone(entries)
	slices.SortStableFunc(acting, func(a, b *d20segv1.InitiativeEntry) int {
		if a.GetInitiative() != b.GetInitiative() {
			return cmp.Compare(b.GetInitiative(), a.GetInitiative())
		}
		return cmp.Compare(a.GetTieOrder(), b.GetTieOrder())
	})
	at := map[int32]int32{}
	for _, e := range acting {
		e.TieOrder = at[e.GetInitiative()] * (hidden + 1)
		at[e.GetInitiative()]++
	}
}

// redactAction removes a hidden combatant's numbers from the action it commanded: its
// weapon, modifiers and distance, a spell's level and casting time, an action's segments;
// and a hidden defender's own modifiers from the GM's surprise attack.
func redactAction(a *d20segv1.Action, secret func(string) bool) {
	if sp := a.GetSurprise(); sp != nil {
		for _, d := range sp.GetDefenders() {
			if secret(d.GetDefenderId()) {
				d.SpellModifier, d.ImpairedMalus = 0, 0
			}
		}
	}
	if !secret(a.GetCombatantId()) {
		return
	}
	switch k := a.GetKind().(type) {
	case *d20segv1.Action_Attack:
		k.Attack.Weapon, k.Attack.DistanceCm, k.Attack.Modifier, k.Attack.DamageModifier = "", 0, 0, 0
	case *d20segv1.Action_Cast:
		k.Cast.Level, k.Cast.StatedSegments = 0, 0
	case *d20segv1.Action_Other:
		k.Other.Segments = 0
	}
}
