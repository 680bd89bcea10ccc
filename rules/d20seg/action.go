package d20seg

import (
	"fmt"
	"slices"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	rulesetv1 "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
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
		evs, err = decideSurprise(st, sp, env.Dice)
	} else {
		if err := engine.MayCommand(st, env.Actor, a.GetCombatantId()); err != nil {
			return nil, err
		}
		f, err := fighterOf(st, a.GetCombatantId())
		if err != nil {
			return nil, err
		}
		if err := turn(st, f); err != nil {
			return nil, err
		}
		switch k := a.GetKind().(type) {
		case *d20segv1.Action_Attack:
			evs, err = decideAttack(st, f, k.Attack, env.Dice)
		case *d20segv1.Action_Cast:
			evs, err = decideCast(st, f, k.Cast)
		case *d20segv1.Action_Other:
			evs, err = decideOther(st, f, k.Other, engine.IsGameMaster(st, env.Actor))
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
	return nextRound(next, func(ev *encounterv1.Event) error { return sys.Evolve(next, ev) })
}

// Close begins the next round once the events of an action, folded into next, leave no one
// able to act (D20-016).
func (System) Close(next *encounterv1.EncounterState, _ engine.Env, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	return nextRound(next, fold)
}

// nextRound begins the next round once no one can act in next (D20-016), with the spells cast
// for it (D20-019) and the segments that actions carried over take of it (D20-020), each round
// folded into next with fold. An action carries over into the next round only, so a second new
// round is needed at most when a carried action takes the whole of the next one.
func nextRound(next *encounterv1.EncounterState, fold func(*encounterv1.Event) error) ([]*encounterv1.Event, error) {
	var out []*encounterv1.Event
	for range 3 {
		if _, ok := upNext(next); ok || !anyoneStanding(next) {
			break
		}
		s := segState(next)
		rs := &d20segv1.RoundStarted{Round: s.GetRound() + 1, SpellsTakingEffect: s.GetDelayedSpells()}
		for _, f := range fighters(next) {
			if over := f.cs.GetNextSegment() - f.last(s.GetRound()) - 1; over > 0 && !f.cs.GetDown() {
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
func turn(st *encounterv1.EncounterState, f fighter) error {
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
	next, ok := upNext(st)
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
func canStart(st *encounterv1.EncounterState, f fighter, cost int32) bool {
	r := segState(st).GetRound()
	end := f.cs.GetNextSegment() + cost - 1
	if end <= f.last(r) {
		return true
	}
	return r > 0 && options(st).GetCarryOver() && end-f.last(r) <= f.segments(r+1)
}

// fits checks that an action of cost segments may start now (D20-015, D20-020), or spends the
// surprise round's free action (D20-004). what is the action ("an attack"), at its detail
// ("at BBA 8").
func fits(st *encounterv1.EncounterState, f fighter, cost int32, free bool, what, at string) (int32, error) {
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
	if canStart(st, f, cost) {
		return cost, nil
	}
	start, last := f.cs.GetNextSegment(), f.last(r)
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
			what, plural(cost), at, left, f.segments(r+1))
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

func decideSurprise(st *encounterv1.EncounterState, sp *d20segv1.Surprise, roller dice.Roller) ([]*encounterv1.Event, error) {
	s := segState(st)
	if s.GetRound() != 1 || s.GetSurpriseDeclared() {
		return nil, engine.Refused("D20-004", "a surprise attack comes once, before the first round")
	}
	for _, f := range fighters(st) {
		if f.cs.GetNextSegment() != f.first(1) || f.cs.GetAttacksThisRound() > 0 || f.cs.GetEndedTurn() {
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
			ar.Opposition = NoStealth
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

func decideAttack(st *encounterv1.EncounterState, f fighter, a *d20segv1.Attack, roller dice.Roller) ([]*encounterv1.Event, error) {
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
			reach = Reach(f.sh.GetSize())
		}
		if a.GetDistanceCm() > reach {
			return nil, engine.Refused("D20-031", "%s is %d cm away; %s reaches %d cm", t.name(), a.GetDistanceCm(), f.name(), reach)
		}
	}
	cost := AttackCost(f.sh.GetBba(), f.cs.GetAttacksThisRound())
	paid, err := fits(st, f, cost, a.GetFree(), "an attack", fmt.Sprintf(" at BBA %d", f.sh.GetBba()))
	if err != nil {
		return nil, err
	}
	ar := &d20segv1.AttackRolled{AttackerId: f.id(), TargetId: t.id(), Weapon: w.GetName(), Segment: f.cs.GetNextSegment(), Cost: paid, Free: a.GetFree()}
	var featAtt, featDmg int32
	for _, ft := range f.sh.GetFeats() {
		featAtt += ft.GetAttack()
		featDmg += ft.GetDamage()
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
		ar.Critical = ar.GetTotal()-ar.GetCa() >= CriticalMargin // D20-042
		e, _ := dice.Parse(w.GetDice())
		ar.DamageRoll = roller.Roll(e)
		base := ar.GetDamageRoll().GetTotal() + f.sh.GetStrength() + w.GetBonus() + a.GetDamageModifier() // D20-041
		mult := int32(1)
		if ar.GetCritical() {
			mult = max(2, w.GetCritical())
		}
		ar.Damage = max(0, mult*base+featDmg)
		ar.HitPointsLeft = t.cs.GetHitPoints() - ar.GetDamage()
		ar.Down = ar.GetHitPointsLeft() <= options(st).GetDownAt() // D20-044
	}
	return one(&d20segv1.Event{Kind: &d20segv1.Event_AttackRolled{AttackRolled: ar}}), nil
}

func decideCast(st *encounterv1.EncounterState, f fighter, c *d20segv1.Cast) ([]*encounterv1.Event, error) {
	cost, err := SpellCost(c)
	if err != nil {
		if re, ok := engine.AsRuleError(err); ok {
			return nil, &engine.RuleError{Code: re.Code, Rule: re.Rule, Msg: fmt.Sprintf("%s casting %s: %s", f.name(), c.GetSpell(), re.Msg), Why: re.Why, Numbers: re.Numbers}
		}
		return nil, err
	}
	paid, err := fits(st, f, cost, c.GetFree(), fmt.Sprintf("casting %s", c.GetSpell()), "")
	if err != nil {
		return nil, err
	}
	return one(&d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{
		CombatantId: f.id(), Spell: c.GetSpell(), Segment: f.cs.GetNextSegment(), Cost: paid, NextRound: c.GetNextRound(), Free: c.GetFree(),
	}}}), nil
}

func decideOther(st *encounterv1.EncounterState, f fighter, o *d20segv1.Other, gm bool) ([]*encounterv1.Event, error) {
	cost := o.GetSegments()
	if cost <= 0 {
		cost = 1 // D20-022
	}
	if cost != 1 && !gm {
		return nil, &engine.RuleError{Code: engine.CodePermission, Rule: "D20-022", Msg: fmt.Sprintf(
			"%s's action costs 1 segment unless the GM says otherwise; only the GM (%s) may make it cost %d", f.name(), st.GetGameMaster(), cost)}
	}
	what := o.GetDescription()
	if what == "" {
		what = "an action"
	}
	paid, err := fits(st, f, cost, o.GetFree(), what, "")
	if err != nil {
		return nil, err
	}
	return one(&d20segv1.Event{Kind: &d20segv1.Event_OtherDone{OtherDone: &d20segv1.OtherDone{
		CombatantId: f.id(), Description: o.GetDescription(), Segment: f.cs.GetNextSegment(), Cost: paid, Free: o.GetFree(),
	}}}), nil
}

// Evolve folds the d20seg part of an event.
func (System) Evolve(st *encounterv1.EncounterState, ev *encounterv1.Event) error {
	s := segState(st)
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_CombatantAdded:
		c := p.CombatantAdded.GetCombatant()
		s.Combatants[c.GetId()] = &d20segv1.CombatantState{HitPoints: c.GetD20Seg().GetHitPoints(), Initiative: Initiative(c.GetD20Seg())}
	case *encounterv1.Event_CombatantRemoved:
		delete(s.Combatants, p.CombatantRemoved.GetCombatantId())
	case *encounterv1.Event_D20Seg:
		return evolve(st, s, p.D20Seg)
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

func evolve(st *encounterv1.EncounterState, s *d20segv1.State, e *d20segv1.Event) error {
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
			cs.NextSegment, cs.AttacksThisRound, cs.EndedTurn = FirstSegment, 0, false
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
			f.cs.NextSegment, f.cs.AttacksThisRound, f.cs.EndedTurn = f.first(s.Round), 0, false
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

// Describe returns the sheet fields, actions with their segment costs, and tables.
func (s System) Describe() *rulesetv1.RulesetDescriptor {
	row := func(c ...string) *rulesetv1.TableRow { return &rulesetv1.TableRow{Cells: c} }
	return &rulesetv1.RulesetDescriptor{
		Id: ID, Name: s.Name(), Version: Version,
		SheetFields: []*rulesetv1.FieldDescriptor{
			{Name: "rapidite, armour, shield, weapon_class", Description: "Initiative (D20-010)"},
			{Name: "bba, agility, strength, feats, weapons", Description: "attacks (D20-017, D20-040…D20-042)"},
			{Name: "wisdom, perception, stealth", Description: "apprehension (D20-003)"},
			{Name: "ca, hit_points, size", Description: "defence, damage track, reach (D20-030)"},
			{Name: "extra_segments", Description: "−1, 6, 7 for high-level characters (D20-014)"},
		},
		Actions: []*rulesetv1.ActionDescriptor{
			{Name: "attack", Cost: "BBA 0–5: 4 segments; 6–10: 3; 11–15: 2; 16+: 1 then 2", Rule: "D20-017"},
			{Name: "cast", Cost: "level 0: 1; 1–3: 2; 4–6: 3; 7–9: 4; +1 special; pure magic: stated", Rule: "D20-018"},
			{Name: "other", Description: "move, draw a weapon, stand up, use an object", Cost: "1 segment unless the GM says otherwise", Rule: "D20-022"},
			{Name: "end turn", Cost: "the rest of the round", Rule: "D20-016"},
			{Name: "surprise", Description: "the GM declares a surprise attack: apprehension rolls; each attacker's free action first, in Initiative order, then segments 0–2; those named neither attacker nor defender take no part", Cost: "GM", Rule: "D20-004"},
		},
		Options: []*rulesetv1.OptionDescriptor{
			{Name: "apprehension_scale", Description: "light, medium and high apprehension modifiers", DefaultValue: "2,5,10", Rule: "D20-002"},
			{Name: "carry_over", Description: "an action that does not fit in the round runs on into the next round's first segments", DefaultValue: "false", Rule: "D20-020"},
			{Name: "down_at", Description: "a combatant is down at this many hit points or fewer", DefaultValue: "0", Rule: "D20-044"},
			{Name: "skip_apprehension", Description: "no apprehension rolls: every defender of a surprise attack is surprised", DefaultValue: "false", Rule: "D20-000"},
		},
		Tables: []*rulesetv1.Table{
			{Name: "Initiative modifiers", Rule: "D20-010", Header: []string{"equipment", "modifier"}, Rows: []*rulesetv1.TableRow{
				row("no armour", "+1"), row("light armour", "0"), row("medium armour", "−1"), row("heavy armour", "−2"), row("shield", "−1"), row("pavise", "−2"),
				row("unarmed", "+1"), row("light weapon", "0"), row("one-handed weapon", "−1"), row("two-handed weapon", "−2"), row("ranged or thrown", "−1"),
			}},
			{Name: "Attack cost", Rule: "D20-017", Header: []string{"BBA", "segments"}, Rows: []*rulesetv1.TableRow{
				row("0–5", "4"), row("6–10", "3"), row("11–15", "2"), row("16+", "1, then 2"),
			}},
			{Name: "Space and reach", Rule: "D20-030", Header: []string{"size", "space", "reach"}, Rows: []*rulesetv1.TableRow{
				row("I", "15 cm", "0"), row("Min", "30 cm", "0"), row("Tp", "75 cm", "0"), row("P", "1.5 m", "1.5 m"), row("M", "1.5 m", "1.5 m"),
				row("G", "3 m", "3 m"), row("Tg", "4.5 m", "4.5 m"), row("Gig", "6 m", "6 m"), row("Col", "9 m+", "9 m+"),
			}},
		},
	}
}

// spellCategories: the spell categories of the casting-time table, by their lowest level
// (D20-018).
var spellCategories = []struct {
	level        int32
	name, levels string
}{{0, "pre-magic", "0"}, {1, "weak magic", "1–3"}, {4, "moderate magic", "4–6"}, {7, "supreme magic", "7–9"}}
