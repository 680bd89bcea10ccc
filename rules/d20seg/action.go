package d20seg

import (
	"fmt"
	"slices"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

// Decide validates a d20seg action and returns its events; the engine then asks Close whether
// they end the round.
func (sys System) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	a := cmd.GetD20Seg()
	if a == nil {
		return nil, engine.Invalid("", "d20seg does not know this command")
	}
	var evs []*encounterv1.Event
	var err error
	if sp := a.GetSurprise(); sp != nil {
		if !engine.IsGameMaster(st, env.Actor) {
			return nil, &engine.RuleError{Code: engine.CodePermission, Rule: "D20-000",
				Msg: fmt.Sprintf("whether an attack is a surprise is the GM's decision (the GM is %s)", st.GetGameMaster())}
		}
		evs, err = sys.decideSurprise(st, sp, env.Dice)
	} else {
		if err := engine.MayCommand(st, env.Actor, a.GetCombatantId()); err != nil {
			return nil, err
		}
		f, err := fighterOf(st, a.GetCombatantId())
		if err != nil {
			return nil, err
		}
		if err := sys.turn(st, f); err != nil {
			return nil, err
		}
		switch k := a.GetKind().(type) {
		case *d20segv1.Action_Attack:
			evs, err = sys.decideAttack(st, f, k.Attack, env.Dice)
		case *d20segv1.Action_Cast:
			evs, err = sys.decideCast(st, f, k.Cast)
		case *d20segv1.Action_Other:
			evs, err = sys.decideOther(st, f, k.Other, engine.IsGameMaster(st, env.Actor))
		case *d20segv1.Action_EndTurn:
			evs = one(&d20segv1.Event{Kind: &d20segv1.Event_TurnEnded{TurnEnded: &d20segv1.TurnEnded{CombatantId: f.id()}}})
		default:
			return nil, engine.Invalid("", "the action of %s is empty", f.name())
		}
		if err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	return evs, nil
}

// FollowUp begins the next round when the GM removes the last combatant who could still act
// in this one (D20-016).
func (sys System) FollowUp(st *encounterv1.EncounterState, _ engine.Env) ([]*encounterv1.Event, error) {
	next := proto.CloneOf(st)
	return sys.nextRound(next, func(ev *encounterv1.Event) error { return sys.Evolve(next, ev) })
}

// Close begins the next round once the events of an action, folded into next, leave no one
// able to act (D20-016).
func (sys System) Close(next *encounterv1.EncounterState, _ engine.Env, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	return sys.nextRound(next, fold)
}

// nextRound begins the next round once no one can act in next (D20-016), with the spells cast
// for it (D20-019) and the segments that actions carried over take of it (D20-020), each round
// folded into next with fold. An action carries over into the next round only, so a second new
// round is needed at most when a carried action takes the whole of the next one.
func (sys System) nextRound(next *encounterv1.EncounterState, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	var out []*encounterv1.Event
	for range 3 {
		if _, ok := sys.upNext(next); ok || !anyoneStanding(next) {
			break
		}
		s := segState(next)
		rs := &d20segv1.RoundStarted{Round: s.GetRound() + 1, SpellsTakingEffect: s.GetDelayedSpells()}
		for _, f := range fighters(next) {
			if over := f.cs.GetNextSegment() - sys.last(f, s.GetRound()) - 1; over > 0 && !f.cs.GetDown() {
				rs.Carried = append(rs.Carried, &d20segv1.CarriedOver{CombatantId: f.id(), Segments: over})
			}
		}
		ev := event(&d20segv1.Event{Kind: &d20segv1.Event_RoundStarted{RoundStarted: rs}})
		if err := fold(ev); err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}

func anyoneStanding(st *encounterv1.EncounterState) bool {
	for _, f := range fighters(st) {
		if !f.cs.GetDown() {
			return true
		}
	}
	return false
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

func (sys System) decideSurprise(st *encounterv1.EncounterState, sp *d20segv1.Surprise, roller dice.Roller) ([]*encounterv1.Event, error) {
	s := segState(st)
	if s.GetRound() != 1 || s.GetSurpriseDeclared() {
		return nil, engine.Refused("D20-004", "a surprise attack comes once, before the first round")
	}
	for _, f := range fighters(st) {
		if f.cs.GetNextSegment() != sys.first(f, 1) || f.cs.GetAttacksThisRound() > 0 || f.cs.GetEndedTurn() {
			return nil, engine.Refused("D20-004", "a surprise attack comes before anyone acts")
		}
	}
	if len(sp.GetAttackerIds()) == 0 {
		return nil, engine.Invalid("D20-004", "name the attackers of the surprise attack")
	}
	// The opposition is the stealthiest attacker with stealth ranks (D20-003).
	var stealth *fighter
	seen := map[string]bool{}
	for _, id := range sp.GetAttackerIds() {
		f, err := fighterOf(st, id)
		if err != nil {
			return nil, err
		}
		if seen[id] {
			return nil, engine.Invalid("D20-004", "%s is given twice as an attacker", f.name())
		}
		seen[id] = true
		if f.sh.GetStealth() > 0 && (stealth == nil || f.sh.GetStealth()+f.sh.GetAgility() > stealth.sh.GetStealth()+stealth.sh.GetAgility()) {
			stealth = &f
		}
	}
	sc := options(st).GetApprehensionScale()
	var defenders []fighter
	for _, ap := range sp.GetDefenders() {
		d, err := fighterOf(st, ap.GetDefenderId())
		if err != nil {
			return nil, err
		}
		if slices.Contains(sp.GetAttackerIds(), d.id()) {
			return nil, engine.Invalid("D20-004", "%s cannot be both attacker and defender", d.name())
		}
		if seen[d.id()] {
			return nil, engine.Invalid("D20-003", "%s is given twice as a defender", d.name())
		}
		seen[d.id()] = true
		if m := ap.GetImpairedMalus(); m != 0 && (m < sc[0] || m > sc[1]) {
			return nil, engine.Invalid("D20-002", "the impaired malus of %s is light to medium, %d to %d, not %d", d.name(), sc[0], sc[1], m)
		}
		if ap.GetImpairedMalus() != 0 && !slices.Contains(ap.GetSituations(), d20segv1.Situation_SITUATION_IMPAIRED) {
			return nil, engine.Invalid("D20-002", "an impaired malus is given for %s, who is not impaired", d.name())
		}
		defenders = append(defenders, d)
	}
	ev := &d20segv1.SurpriseRoundStarted{AttackerIds: sp.GetAttackerIds()}
	for _, f := range fighters(st) {
		if !seen[f.id()] { // D20-003: neither attacker nor defender
			ev.BystanderIds = append(ev.BystanderIds, f.id())
		}
	}
	for i, ap := range sp.GetDefenders() {
		d := defenders[i]
		ar := &d20segv1.ApprehensionRolled{DefenderId: d.id(), Surprised: true}
		if !options(st).GetSkipApprehension() { // D20-003
			ar.Roll = roller.Roll(dice.Expr{Count: 1, Sides: 20})
			ar.Modifiers = d.sh.GetWisdom() + d.sh.GetPerception() + ap.GetSpellModifier()
			for _, sit := range ap.GetSituations() {
				if sit == d20segv1.Situation_SITUATION_IMPAIRED && ap.GetImpairedMalus() != 0 {
					ar.Modifiers -= ap.GetImpairedMalus()
					continue
				}
				ar.Modifiers += ApprehensionModifier(options(st), sit)
			}
			ar.Total = ar.GetRoll().GetTotal() + ar.GetModifiers()
			ar.Opposition = sys.n.NoStealth
			if stealth != nil {
				ar.StealthBy = stealth.id()
				ar.StealthRoll = roller.Roll(dice.Expr{Count: 1, Sides: 20})
				ar.Opposition = ar.GetStealthRoll().GetTotal() + stealth.sh.GetAgility() + stealth.sh.GetStealth()
			}
			ar.Surprised = ar.GetTotal() < ar.GetOpposition()
		}
		ev.Apprehension = append(ev.Apprehension, ar)
	}
	return one(&d20segv1.Event{Kind: &d20segv1.Event_SurpriseRoundStarted{SurpriseRoundStarted: ev}}), nil
}

func weaponOf(f fighter, name string) (*d20segv1.Weapon, error) {
	return engine.ByName(f.sh.GetWeapons(), name, f.name(), "weapon")
}

func (sys System) decideAttack(st *encounterv1.EncounterState, f fighter, a *d20segv1.Attack, roller dice.Roller) ([]*encounterv1.Event, error) {
	w, err := weaponOf(f, a.GetWeapon())
	if err != nil {
		return nil, err
	}
	t, err := fighterOf(st, a.GetTargetId())
	if err != nil {
		return nil, err
	}
	if t.id() == f.id() {
		return nil, engine.Invalid("", "%s cannot attack itself", f.name())
	}
	if t.cs.GetDown() {
		return nil, engine.Refused("D20-044", "%s is already down", t.name())
	}
	if !w.GetRanged() { // D20-031, D20-045
		reach := w.GetReachCm()
		if reach == 0 {
			reach = sys.Reach(f.sh.GetSize())
		}
		if a.GetDistanceCm() > reach {
			return nil, engine.Refused("D20-031", "%s is %d cm away; %s reaches %d cm", t.name(), a.GetDistanceCm(), f.name(), reach)
		}
	}
	cost := sys.AttackCost(f.sh.GetBba(), f.cs.GetAttacksThisRound())
	paid, err := sys.fits(st, f, cost, a.GetFree(), "an attack", fmt.Sprintf(" at BBA %d", f.sh.GetBba()))
	if err != nil {
		return nil, err
	}
	ar := &d20segv1.AttackRolled{AttackerId: f.id(), TargetId: t.id(), Weapon: w.GetName(), Segment: f.cs.GetNextSegment(), Cost: paid, Free: a.GetFree()}
	var featAtt int32
	for _, ft := range f.sh.GetFeats() {
		featAtt += ft.GetAttack()
	}
	ar.Roll = roller.Roll(dice.Expr{Count: 1, Sides: 20})
	ar.Bonus = f.sh.GetBba() + f.sh.GetAgility() + w.GetBonus() + featAtt + a.GetModifier() // D20-040
	ar.Total = ar.GetRoll().GetTotal() + ar.GetBonus()
	ar.Ca = t.sh.GetCa()
	if t.cs.GetSurprised() && segState(st).GetRound() == 0 { // D20-006: flat-footed
		ar.FlatFooted = true
		ar.Ca -= max(0, t.sh.GetAgility())
	}
	ar.Hit = ar.GetTotal() >= ar.GetCa()
	ar.HitPointsLeft = t.cs.GetHitPoints()
	if ar.GetHit() {
		ar.Critical = ar.GetTotal() >= sys.CriticalAt(ar.GetCa()) // D20-042
		e, _ := dice.Parse(w.GetDice())
		ar.DamageRoll = roller.Roll(e)
		ar.Damage = sys.Blow(f.sh, w, a).Damage(ar.GetDamageRoll().GetTotal(), ar.GetCritical()) // D20-041
		ar.HitPointsLeft = t.cs.GetHitPoints() - ar.GetDamage()
		ar.Down = Down(options(st), ar.GetHitPointsLeft()) // D20-044
	}
	return one(&d20segv1.Event{Kind: &d20segv1.Event_AttackRolled{AttackRolled: ar}}), nil
}

func (sys System) decideCast(st *encounterv1.EncounterState, f fighter, c *d20segv1.Cast) ([]*encounterv1.Event, error) {
	cost, err := sys.SpellCost(c)
	if err != nil {
		if re, ok := engine.AsRuleError(err); ok {
			return nil, &engine.RuleError{Code: re.Code, Rule: re.Rule, Msg: fmt.Sprintf("%s casting %s: %s", f.name(), c.GetSpell(), re.Msg), Why: re.Why, Numbers: re.Numbers}
		}
		return nil, err
	}
	paid, err := sys.fits(st, f, cost, c.GetFree(), fmt.Sprintf("casting %s", c.GetSpell()), "")
	if err != nil {
		return nil, err
	}
	return one(&d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{
		CombatantId: f.id(), Spell: c.GetSpell(), Segment: f.cs.GetNextSegment(), Cost: paid, NextRound: c.GetNextRound(), Free: c.GetFree(),
	}}}), nil
}

func (sys System) decideOther(st *encounterv1.EncounterState, f fighter, o *d20segv1.Other, gm bool) ([]*encounterv1.Event, error) {
	cost := o.GetSegments()
	if cost <= 0 {
		cost = sys.n.OtherCost // D20-022
	}
	if cost != sys.n.OtherCost && !gm {
		return nil, &engine.RuleError{Code: engine.CodePermission, Rule: "D20-022", Msg: fmt.Sprintf(
			"%s's action costs %s unless the GM says otherwise; only the GM (%s) may make it cost %d", f.name(), plural(sys.n.OtherCost), st.GetGameMaster(), cost)}
	}
	what := o.GetDescription()
	if what == "" {
		what = "an action"
	}
	paid, err := sys.fits(st, f, cost, o.GetFree(), what, "")
	if err != nil {
		return nil, err
	}
	return one(&d20segv1.Event{Kind: &d20segv1.Event_OtherDone{OtherDone: &d20segv1.OtherDone{
		CombatantId: f.id(), Description: o.GetDescription(), Segment: f.cs.GetNextSegment(), Cost: paid, Free: o.GetFree(),
	}}}), nil
}

// Evolve folds the d20seg part of an event.
func (sys System) Evolve(st *encounterv1.EncounterState, ev *encounterv1.Event) error {
	s := segState(st)
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_CombatantAdded:
		c := p.CombatantAdded.GetCombatant()
		s.Combatants[c.GetId()] = &d20segv1.CombatantState{HitPoints: c.GetD20Seg().GetHitPoints(), Initiative: sys.Initiative(c.GetD20Seg())}
	case *encounterv1.Event_CombatantRemoved:
		delete(s.Combatants, p.CombatantRemoved.GetCombatantId())
	case *encounterv1.Event_D20Seg:
		return sys.evolve(st, s, p.D20Seg)
	}
	return nil
}

func spend(cs *d20segv1.CombatantState, cost int32, free bool) {
	if free {
		cs.FreeActionLeft = false
		return
	}
	cs.NextSegment += cost
}

func (sys System) evolve(st *encounterv1.EncounterState, s *d20segv1.State, e *d20segv1.Event) error {
	get := func(id string) (*d20segv1.CombatantState, error) {
		cs := s.GetCombatants()[id]
		if cs == nil {
			return nil, fmt.Errorf("no combatant %s", id)
		}
		return cs, nil
	}
	switch k := e.GetKind().(type) {
	case *d20segv1.Event_CombatStarted:
		for _, in := range k.CombatStarted.GetInitiative() {
			cs, err := get(in.GetCombatantId())
			if err != nil {
				return err
			}
			cs.Initiative, cs.TieOrder = in.GetInitiative(), in.GetTieOrder()
		}
	case *d20segv1.Event_SurpriseRoundStarted:
		s.Round = 0
		for _, cs := range s.GetCombatants() {
			cs.NextSegment, cs.AttacksThisRound, cs.EndedTurn = sys.n.FirstSegment, 0, false
		}
		for _, id := range k.SurpriseRoundStarted.GetAttackerIds() {
			cs, err := get(id)
			if err != nil {
				return err
			}
			cs.FreeActionLeft = true
		}
		s.SurpriseDeclared = true
		for _, ar := range k.SurpriseRoundStarted.GetApprehension() {
			cs, err := get(ar.GetDefenderId())
			if err != nil {
				return err
			}
			cs.Surprised = ar.GetSurprised()
		}
		for _, id := range k.SurpriseRoundStarted.GetBystanderIds() {
			cs, err := get(id)
			if err != nil {
				return err
			}
			cs.Bystander = true
		}
	case *d20segv1.Event_RoundStarted:
		s.Round = k.RoundStarted.GetRound()
		s.DelayedSpells = nil
		for _, f := range fighters(st) {
			f.cs.NextSegment, f.cs.AttacksThisRound, f.cs.EndedTurn = sys.first(f, s.Round), 0, false
			f.cs.Surprised, f.cs.FreeActionLeft, f.cs.Bystander = false, false, false
		}
		for _, c := range k.RoundStarted.GetCarried() { // D20-020
			cs, err := get(c.GetCombatantId())
			if err != nil {
				return err
			}
			cs.NextSegment += c.GetSegments()
		}
	case *d20segv1.Event_AttackRolled:
		a := k.AttackRolled
		cs, err := get(a.GetAttackerId())
		if err != nil {
			return err
		}
		spend(cs, a.GetCost(), a.GetFree())
		if !a.GetFree() {
			cs.AttacksThisRound++
		}
		t, err := get(a.GetTargetId())
		if err != nil {
			return err
		}
		if a.GetHit() {
			t.HitPoints, t.Down = a.GetHitPointsLeft(), a.GetDown()
		}
	case *d20segv1.Event_SpellCast:
		c := k.SpellCast
		cs, err := get(c.GetCombatantId())
		if err != nil {
			return err
		}
		spend(cs, c.GetCost(), c.GetFree())
		if c.GetNextRound() {
			s.DelayedSpells = append(s.DelayedSpells, c.GetSpell())
		}
	case *d20segv1.Event_OtherDone:
		cs, err := get(k.OtherDone.GetCombatantId())
		if err != nil {
			return err
		}
		spend(cs, k.OtherDone.GetCost(), k.OtherDone.GetFree())
	case *d20segv1.Event_TurnEnded:
		cs, err := get(k.TurnEnded.GetCombatantId())
		if err != nil {
			return err
		}
		cs.EndedTurn = true
		cs.FreeActionLeft = false // ending its turn, an attacker forgoes its free action (D20-004)
	default:
		return fmt.Errorf("unknown d20seg event %T", k)
	}
	return nil
}
