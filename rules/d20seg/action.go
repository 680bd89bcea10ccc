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

// Decide validates a d20seg action and returns its events.
func (sys System) Decide(st *encounterv1.EncounterState, cmd *encounterv1.Command, env engine.Env) ([]*encounterv1.Event, error) {
	a := cmd.GetD20Seg()
	if a == nil {
		return nil, engine.Unimplemented("d20seg does not know this command")
	}
	var evs []*encounterv1.Event
	var err error
	if sp := a.GetSurprise(); sp != nil {
		if !engine.IsGameMaster(st, env.Actor) {
			return nil, engine.Forbidden("whether an attack is a surprise is the GM's decision (D20-000)")
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
			evs, err = decideOther(st, f, k.Other)
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
	return append(evs, nextRound(sys, st, evs)...), nil
}

// nextRound begins the next round once no one can act (D20-016).
func nextRound(sys System, st *encounterv1.EncounterState, evs []*encounterv1.Event) []*encounterv1.Event {
	next := proto.CloneOf(st)
	for _, ev := range evs {
		_ = sys.Evolve(next, ev)
	}
	if _, ok := upNext(next); ok {
		return nil
	}
	s := segState(next)
	return one(&d20segv1.Event{Kind: &d20segv1.Event_RoundStarted{RoundStarted: &d20segv1.RoundStarted{
		Round: s.GetRound() + 1, SpellsTakingEffect: s.GetDelayedSpells(),
	}}})
}

// turn checks that f acts next (D20-015).
func turn(st *encounterv1.EncounterState, f fighter) error {
	s := segState(st)
	switch {
	case f.cs.GetDown():
		return engine.Refused("D20-044", "%s is down", f.name())
	case s.GetRound() == 0 && f.cs.GetSurprised():
		return engine.Refused("D20-004", "%s is surprised and cannot act in the surprise round", f.name())
	case f.cs.GetEndedTurn():
		return engine.Refused("D20-016", "%s has ended its turn this round", f.name())
	}
	next, ok := upNext(st)
	if !ok || next.id() != f.id() {
		if ok {
			return engine.Refused("D20-015", "%s acts first, at segment %d (%s is at segment %d)", next.name(), next.cs.GetNextSegment(), f.name(), f.cs.GetNextSegment())
		}
		return engine.Refused("D20-016", "no one may act any more this round")
	}
	return nil
}

// fits checks that an action of cost segments may start now (D20-015, D20-020), or spends the
// surprise round's free action (D20-004).
func fits(st *encounterv1.EncounterState, f fighter, cost int32, free bool, what string) (int32, error) {
	s := segState(st)
	if free {
		if !f.cs.GetFreeActionLeft() {
			return 0, engine.Refused("D20-004", "%s has no free action (only the surprise attackers have one, once)", f.name())
		}
		return 0, nil
	}
	start := f.cs.GetNextSegment()
	if last := f.last(s.GetRound()); start+cost-1 > last && !(options(st).GetCarryOver() && s.GetRound() > 0) {
		return 0, engine.Refused("D20-020", "%s costs %d segments; %s has %d left this %s (segments %d to %d)",
			what, cost, f.name(), max(0, last-start+1), describeRound(s.GetRound()), start, last)
	}
	return cost, nil
}

func decideSurprise(st *encounterv1.EncounterState, sp *d20segv1.Surprise, roller dice.Roller) ([]*encounterv1.Event, error) {
	s := segState(st)
	if s.GetRound() != 1 {
		return nil, engine.Refused("D20-004", "a surprise attack comes before the first round")
	}
	for _, f := range fighters(st) {
		if f.cs.GetNextSegment() != f.first(1) || f.cs.GetAttacksThisRound() > 0 || f.cs.GetEndedTurn() {
			return nil, engine.Refused("D20-004", "a surprise attack comes before anyone acts")
		}
	}
	if len(sp.GetAttackerIds()) == 0 {
		return nil, engine.Invalid("D20-004", "name the attackers of the surprise attack")
	}
	var stealth fighter
	for i, id := range sp.GetAttackerIds() {
		f, err := fighterOf(st, id)
		if err != nil {
			return nil, err
		}
		if i == 0 || f.sh.GetStealth()+f.sh.GetAgility() > stealth.sh.GetStealth()+stealth.sh.GetAgility() {
			stealth = f
		}
	}
	ev := &d20segv1.SurpriseRoundStarted{AttackerIds: sp.GetAttackerIds()}
	for _, ap := range sp.GetDefenders() {
		d, err := fighterOf(st, ap.GetDefenderId())
		if err != nil {
			return nil, err
		}
		if slices.Contains(sp.GetAttackerIds(), d.id()) {
			return nil, engine.Invalid("D20-004", "%s cannot be both attacker and defender", d.name())
		}
		ar := &d20segv1.ApprehensionRolled{DefenderId: d.id(), Surprised: true}
		if !options(st).GetSkipApprehension() { // D20-003
			ar.Roll = roller.Roll(dice.Expr{Count: 1, Sides: 20})
			ar.Modifiers = d.sh.GetWisdom() + d.sh.GetPerception() + ap.GetSpellModifier()
			for _, sit := range ap.GetSituations() {
				ar.Modifiers += ApprehensionModifier(options(st), sit)
			}
			ar.Total = ar.GetRoll().GetTotal() + ar.GetModifiers()
			ar.Opposition = NoStealth
			if stealth.sh.GetStealth() > 0 {
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
	ws := f.sh.GetWeapons()
	if name == "" && len(ws) == 1 {
		return ws[0], nil
	}
	for _, w := range ws {
		if w.GetName() == name {
			return w, nil
		}
	}
	if name == "" {
		return nil, engine.Invalid("", "%s has several weapons: name the one to use", f.name())
	}
	return nil, engine.NotFound("%s has no weapon %q", f.name(), name)
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
	paid, err := fits(st, f, cost, a.GetFree(), fmt.Sprintf("an attack at BBA %d", f.sh.GetBba()))
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
		return nil, err
	}
	paid, err := fits(st, f, cost, c.GetFree(), fmt.Sprintf("casting %s", c.GetSpell()))
	if err != nil {
		return nil, err
	}
	return one(&d20segv1.Event{Kind: &d20segv1.Event_SpellCast{SpellCast: &d20segv1.SpellCast{
		CombatantId: f.id(), Spell: c.GetSpell(), Segment: f.cs.GetNextSegment(), Cost: paid, NextRound: c.GetNextRound(), Free: c.GetFree(),
	}}}), nil
}

func decideOther(st *encounterv1.EncounterState, f fighter, o *d20segv1.Other) ([]*encounterv1.Event, error) {
	cost := o.GetSegments()
	if cost <= 0 {
		cost = 1 // D20-022
	}
	paid, err := fits(st, f, cost, o.GetFree(), o.GetDescription())
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
		for _, ar := range k.SurpriseRoundStarted.GetApprehension() {
			cs, err := get(ar.GetDefenderId())
			if err != nil {
				return err
			}
			cs.Surprised = ar.GetSurprised()
		}
	case *d20segv1.Event_RoundStarted:
		s.Round = k.RoundStarted.GetRound()
		s.DelayedSpells = nil
		for _, f := range fighters(st) {
			f.cs.NextSegment, f.cs.AttacksThisRound, f.cs.EndedTurn = f.first(s.Round), 0, false
			f.cs.Surprised, f.cs.FreeActionLeft = false, false
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
			{Name: "other", Description: "move, draw a weapon, stand up, use an object", Cost: "1 segment", Rule: "D20-022"},
			{Name: "end turn", Cost: "the rest of the round", Rule: "D20-016"},
			{Name: "surprise", Description: "the GM declares a surprise attack: apprehension rolls, a free action and 3 segments", Cost: "GM", Rule: "D20-004"},
		},
		Options: []*rulesetv1.OptionDescriptor{
			{Name: "apprehension_scale", DefaultValue: "2,5,10", Rule: "D20-002"},
			{Name: "carry_over", DefaultValue: "false", Rule: "D20-020"},
			{Name: "down_at", DefaultValue: "0", Rule: "D20-044"},
			{Name: "skip_apprehension", DefaultValue: "false", Rule: "D20-000"},
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

// Legal lists what a combatant may do now.
func (System) Legal(st *encounterv1.EncounterState, id string) []*rulesetv1.LegalAction {
	f, err := fighterOf(st, id)
	if err != nil || turn(st, f) != nil {
		return nil
	}
	s := segState(st)
	left := f.last(s.GetRound()) - f.cs.GetNextSegment() + 1
	var out []*rulesetv1.LegalAction
	if c := AttackCost(f.sh.GetBba(), f.cs.GetAttacksThisRound()); c <= left || f.cs.GetFreeActionLeft() {
		for _, w := range f.sh.GetWeapons() {
			out = append(out, &rulesetv1.LegalAction{Name: "attack", Description: fmt.Sprintf("with %s at segment %d", w.GetName(), f.cs.GetNextSegment()), Cost: c, Rule: "D20-017", Weapon: w.GetName()})
		}
	}
	if left >= 1 {
		out = append(out, &rulesetv1.LegalAction{Name: "other", Cost: 1, Rule: "D20-022"})
	}
	return append(out, &rulesetv1.LegalAction{Name: "end turn", Rule: "D20-016"})
}
