package loss

import (
	"fmt"
	"maps"
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"google.golang.org/protobuf/proto"
)

// Evolve folds the Loss part of an event.
func (sys System) Evolve(st *encounterv1.EncounterState, ev *encounterv1.Event) error {
	s := lossState(st)
	switch p := ev.GetPayload().(type) {
	case *encounterv1.Event_EncounterCreated:
		s.GmFursa = p.EncounterCreated.GetOptions().GetLoss().GetGmFursa()
	case *encounterv1.Event_CombatantAdded:
		c := p.CombatantAdded.GetCombatant()
		sh := c.GetLoss()
		cs := &lossv1.CombatantState{Fursa: sh.GetFursa(), Inspiration: maps.Clone(sh.GetInspiration()), FreeRaises: sh.GetFreeRaises()}
		if sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_PLAYER_CHARACTER && sh.GetFursa() == 0 {
			cs.Fursa = options(st).GetPcStartingFursa() // LOS-005
		}
		if sh.GetKind() == lossv1.CombatantKind_COMBATANT_KIND_SBIRE {
			cs.Health = SbireHealth
		} else {
			b := options(st).GetHealthBands()
			cs.Light, cs.Grave, cs.Fatal = b[0], b[1], b[2]
		}
		if p.CombatantAdded.GetInProgress() { // LOS-039
			cs.Joining, cs.Watched = true, p.CombatantAdded.GetWatched()
		}
		s.Combatants[c.GetId()] = cs
	case *encounterv1.Event_CombatantRemoved:
		id := p.CombatantRemoved.GetCombatantId()
		delete(s.Combatants, id)
		involves := func(pa *lossv1.PendingAttack) bool { return pa.GetAttackerId() == id || pa.GetDefenderId() == id }
		s.Queued = slices.DeleteFunc(s.Queued, involves)
		if involves(s.GetPending()) {
			s.Pending = nil
			nextPending(s)
		}
		if pu := s.GetPursuit(); pu != nil {
			pu.PursuerIds = slices.DeleteFunc(pu.PursuerIds, func(x string) bool { return x == id })
			pu.PursuedIds = slices.DeleteFunc(pu.PursuedIds, func(x string) bool { return x == id })
			if len(pu.PursuerIds) == 0 || len(pu.PursuedIds) == 0 {
				s.Pursuit = nil
			}
		}
		s.Declaring = s.GetDeclaring() && !allDeclared(st) // LOS-038: the one removed may have been the last to declare
		syncPending(st, s)
	case *encounterv1.Event_Loss:
		if err := sys.evolveLoss(st, s, p.Loss); err != nil {
			return err
		}
		syncPending(st, s)
	}
	return nil
}

// allDeclared: everyone taking part in the Tour has declared (LOS-038).
func allDeclared(st *encounterv1.EncounterState) bool {
	for _, o := range fighters(st) {
		if !o.cs.GetOut() && !o.cs.GetJoining() && !o.cs.GetDeclared() {
			return false
		}
	}
	return true
}

// nextPending moves the next queued reaction up.
func nextPending(s *lossv1.State) {
	if s.Pending == nil && len(s.Queued) > 0 {
		s.Pending, s.Queued = s.Queued[0], s.Queued[1:]
	}
}

// syncPending mirrors the awaited reaction into the engine's common state. A pending reaction
// that is already the one it would write (its three fields, nothing unknown) is kept, shared
// with the state before: while an attack awaits its reaction, every event folds through here.
func syncPending(st *encounterv1.EncounterState, s *lossv1.State) {
	p := s.GetPending()
	if p == nil {
		st.Pending = nil
		return
	}
	d, err := fighterOf(st, p.GetDefenderId())
	a, err2 := fighterOf(st, p.GetAttackerId())
	if err != nil || err2 != nil {
		st.Pending = nil
		return
	}
	var buf [256]byte
	what := appendPrompt(buf[:0], a.name(), d.name(), p, true)
	if len(st.Pending) == 1 {
		if r := st.Pending[0]; r.GetCombatantId() == d.id() && r.GetController() == d.c.GetController() &&
			r.GetPrompt() == string(what) && r.ProtoReflect().GetUnknown() == nil {
			return
		}
	}
	st.Pending = []*encounterv1.PendingReaction{{CombatantId: d.id(), Controller: d.c.GetController(), Prompt: string(what)}}
}

// spend takes what a Test spent from its holder (LOS-005).
func spend(s *lossv1.State, f fighter, sp *lossv1.Spend) {
	if f.isPC() {
		f.cs.Fursa -= sp.GetFursa()
	} else {
		s.GmFursa -= sp.GetFursa()
	}
	f.cs.FreeRaises -= sp.GetFreeRaises()
	for v, k := range sp.GetInspiration() {
		if f.cs.Inspiration == nil {
			f.cs.Inspiration = map[string]int32{}
		}
		f.cs.Inspiration[v] -= k
	}
}

// acted records that a combatant took an action this Tour (LOS-084) and clears what lasts until
// its next action: the bonus of a defensive Exploit, used up or lost (LOS-016), a wait's
// discount (LOS-040), the owed phase (LOS-110), its Zigzags (LOS-107).
func acted(st *encounterv1.EncounterState, s *lossv1.State, f fighter, discountUsed bool) {
	f.cs.Acted = true
	f.cs.NextActionBonus = 0
	f.cs.OwedPhase = 0
	if discountUsed {
		f.cs.WaitDiscount = 0
	}
	if p := s.GetPursuit(); p != nil && p.GetZigzagBy() == f.id() && options(st).GetZigzagUntilNextAction() {
		p.Zigzag, p.ZigzagBy = 0, "" // LOS-107
	}
}

// spendAim: a shot with a weapon uses up the aims taken with it, and only those (LOS-035,
// LOS-084, LOS-090).
func spendAim(f fighter, weapon string) {
	if f.cs.GetAimWeapon() == weapon {
		f.cs.AimBonus, f.cs.AimWeapon = 0, ""
	}
	if f.cs.GetAimTourWeapon() == weapon {
		f.cs.AimTourBonus, f.cs.AimTourWeapon = 0, ""
	}
}

// failedExploit: the GM gains a Fursa when a player character fails an Exploit (LOS-005), and
// may call a Disaster (LOS-006, LOS-086).
func failedExploit(st *encounterv1.EncounterState, s *lossv1.State, f fighter, exploits int32, t *lossv1.TestResult, thrower bool) {
	if exploits == 0 || t == nil || t.GetSuccess() {
		return
	}
	if f.isPC() && options(st).GetGmFursaOnFailedExploit() {
		s.GmFursa++
	}
	if f.isPC() || thrower {
		s.FailedExploitBy = f.id()
	}
}

func (sys System) evolveLoss(st *encounterv1.EncounterState, s *lossv1.State, e *lossv1.Event) error {
	get := func(id string) (fighter, error) {
		f, err := fighterOf(st, id)
		if err == nil && s.GetCombatants()[id] == nil {
			err = fmt.Errorf("combatant %s has no Loss state", id)
		}
		return f, err
	}
	switch e.GetKind().(type) { // a Disaster follows the failed Exploit at once (LOS-006)
	case *lossv1.Event_AttackRolled, *lossv1.Event_DefenceRolled, *lossv1.Event_Passed, *lossv1.Event_Waited,
		*lossv1.Event_Aimed, *lossv1.Event_SimpleActed, *lossv1.Event_Declared:
		s.FailedExploitBy = ""
	case *lossv1.Event_PursuitActed:
		if !e.GetPursuitActed().GetResolves() {
			s.FailedExploitBy = ""
		}
	}
	switch k := e.GetKind().(type) {
	case *lossv1.Event_TourStarted:
		t := k.TourStarted
		s.Tour, s.Sequence = t.GetTour(), t.GetSequence()
		for _, cs := range s.GetCombatants() {
			cs.ActionPoints, cs.InitiativeTotal, cs.Passed, cs.NextActionBonus = 0, 0, false, 0
			cs.Wall, cs.ProtectBonus, cs.Countered, cs.AssautUsed = 0, 0, nil, false
			cs.Acted, cs.Parried = false, false
			cs.OwedPhase, cs.Declared, cs.Intention, cs.WaitDiscount = 0, false, "", 0
			cs.MeleeAttackers = nil
			for id, until := range cs.Feints {
				if until < s.Tour {
					delete(cs.Feints, id)
				}
			}
		}
		for _, r := range t.GetInitiative() {
			for _, id := range r.GetCombatantIds() {
				if cs := s.GetCombatants()[id]; cs != nil {
					cs.ActionPoints = r.GetActionPoints() + r.GetBonus()[id]
					cs.InitiativeTotal = cs.ActionPoints
					cs.Joining, cs.Watched, cs.Advantage = false, false, 0
				}
			}
		}
		if p := s.GetPursuit(); p != nil && !options(st).GetZigzagUntilNextAction() {
			p.Zigzag, p.ZigzagBy = 0, ""
		}
		s.Declaring = options(st).GetDeclareLowToHigh() && len(t.GetInitiative()) > 0
	case *lossv1.Event_AttackRolled:
		a := k.AttackRolled
		f, err := get(a.GetAttackerId())
		if err != nil {
			return err
		}
		f.cs.ActionPoints -= a.GetActionPointsSpent()
		f.cs.NextActionBonus = 0
		f.cs.Acted = true // a counter-attack too (LOS-084)
		if has(a.GetExploits(), effAssaut) {
			f.cs.AssautUsed = true
		}
		w, _ := weaponOf(f, a.GetWeapon())
		if a.GetManoeuvre() != lossv1.Manoeuvre_MANOEUVRE_UNSPECIFIED {
			w = nil // a grab or a trip is bare-handed, whatever the attacker's only weapon
		}
		if w != nil && isRanged(w) {
			spendAim(f, w.GetName())
		}
		spend(s, f, a.GetTest().GetSpend())
		failedExploit(st, s, f, countExploits(a.GetExploits()), a.GetTest(), w.GetExplosive())
		if !a.GetCounter() {
			acted(st, s, f, true)
		}
		targets := 1 + len(a.GetMoreTargets())
		for i := range targets {
			id, possible := a.GetTargetId(), a.GetDefencePossible()
			if i > 0 {
				id, possible = a.GetMoreTargets()[i-1].GetTargetId(), a.GetMoreTargets()[i-1].GetDefencePossible()
			}
			if tcs := s.GetCombatants()[id]; tcs != nil && !isRanged(w) && !slices.Contains(tcs.GetMeleeAttackers(), f.id()) {
				tcs.MeleeAttackers = append(tcs.MeleeAttackers, f.id()) // LOS-051
			}
			if !possible {
				continue
			}
			blowWeapon := a.GetWeapon()
			if i > 0 && has(a.GetExploits(), effTwo) {
				blowWeapon = a.GetSecondWeapon()
			}
			pa := &lossv1.PendingAttack{
				AttackerId: a.GetAttackerId(), DefenderId: id, Weapon: a.GetWeapon(), Exploits: a.GetExploits(),
				Difficulty: a.GetDefenceDifficulty(), AttackTotal: a.GetTest().GetTotal(), Situation: a.GetSituation(),
				Explosive: w.GetExplosive(), BlowWeapon: blowWeapon, Counter: a.GetCounter(), Manoeuvre: a.GetManoeuvre(),
				WithDamage: a.GetWithDamage(), Phase: f.cs.GetActionPoints() + a.GetActionPointsSpent(),
			}
			if targets == 1 && has(a.GetExploits(), effTwo) {
				pa.SecondWeapon = a.GetSecondWeapon() // LOS-070: both weapons on one target
			}
			s.Queued = append(s.Queued, pa)
		}
		nextPending(s)
	case *lossv1.Event_DefenceRolled:
		d := k.DefenceRolled
		f, err := get(d.GetDefenderId())
		if err != nil {
			return err
		}
		f.cs.ActionPoints -= d.GetActionPointsSpent()
		t := d.GetTest()
		if t == nil {
			return nil
		}
		f.cs.NextActionBonus, f.cs.ProtectBonus = 0, 0
		if d.GetReaction() == lossv1.Reaction_REACTION_PARRY {
			f.cs.Parried = true // LOS-066
		}
		spend(s, f, t.GetSpend())
		failedExploit(st, s, f, d.GetExploits(), t, false)
		if !t.GetSuccess() {
			return nil
		}
		list := d.GetEffects()
		if len(list) == 0 && d.GetExploits() > 0 {
			f.cs.NextActionBonus = options(st).GetDefenceExploitBonus() // LOS-016
		}
		if has(list, effTotal) || has(list, effWall) { // LOS-063, LOS-066
			f.cs.Wall = sys.ExploitStep * d.GetExploits()
		}
		if has(list, effFeint) {
			if f.cs.Feints == nil {
				f.cs.Feints = map[string]int32{}
			}
			f.cs.Feints[d.GetAttackerId()] = s.GetTour() + 1
		}
		if n := countOf(list, effAdvantage); n > 0 {
			f.cs.Advantage = min(sys.MaxAdvantage, f.cs.GetAdvantage()+n)
		}
		if has(list, effCounter) {
			f.cs.Countered = append(f.cs.Countered, d.GetAttackerId())
		}
		if has(list, effProtect) {
			if ally, err := get(d.GetAllyId()); err == nil {
				ally.cs.ProtectBonus += sys.ProtectBonus
			}
		}
		if att, err := get(d.GetAttackerId()); err == nil {
			phase := f.cs.GetActionPoints() + d.GetActionPointsSpent()
			if sys.CounterBlowOwesNothing { // LOS-110: the attacker has just acted
				phase = 0
			}
			sys.applyToTarget(st, s, att, list, 0, phase)
		}
	case *lossv1.Event_AttackResolved:
		r := k.AttackResolved
		if p := s.GetPending(); p != nil && p.GetAttackerId() == r.GetAttackerId() && p.GetDefenderId() == r.GetTargetId() {
			s.Pending = nil
		}
		nextPending(s)
		t, err := get(r.GetTargetId())
		if err != nil {
			return err
		}
		att, err := get(r.GetAttackerId())
		if err != nil {
			return err
		}
		wasOut := t.cs.GetOut()
		t.cs.Light, t.cs.Grave, t.cs.Fatal, t.cs.Health = r.GetLight(), r.GetGrave(), r.GetFatal(), r.GetHealth()
		t.cs.Out, t.cs.Dying = r.GetTargetOut(), r.GetTargetDying()
		if t.cs.GetOut() && !wasOut {
			t.cs.FelledBy = att.id()
			sys.owe(st, t, r.GetAttackerPhase(), att.id())
		}
		if !r.GetHit() {
			return nil
		}
		if n := countOf(r.GetEffects(), effAdvantage); n > 0 {
			att.cs.Advantage = min(sys.MaxAdvantage, att.cs.GetAdvantage()+n)
		}
		if has(r.GetEffects(), effFeint) {
			if att.cs.Feints == nil {
				att.cs.Feints = map[string]int32{}
			}
			att.cs.Feints[t.id()] = s.GetTour() + 1
		}
		sys.applyToTarget(st, s, t, r.GetEffects(), 0, r.GetAttackerPhase()) // a grab: nothing (LOS-035)
		// LOS-035: a trip makes it fall, as Overthrow does.
		if r.GetManoeuvre() == lossv1.Manoeuvre_MANOEUVRE_TRIP && sys.TripFells {
			sys.applyToTarget(st, s, t, []E{effOverthrow}, 0, r.GetAttackerPhase())
		}
	case *lossv1.Event_Passed:
		f, err := get(k.Passed.GetCombatantId())
		if err != nil {
			return err
		}
		f.cs.Passed = true
		f.cs.OwedPhase = 0 // passing is no action: Zigzags hold (LOS-107)
	case *lossv1.Event_Declared:
		f, err := get(k.Declared.GetCombatantId())
		if err != nil {
			return err
		}
		f.cs.Declared, f.cs.Intention = true, k.Declared.GetIntention()
		s.Declaring = s.GetDeclaring() && !allDeclared(st)
	case *lossv1.Event_Waited:
		w := k.Waited
		f, err := get(w.GetCombatantId())
		if err != nil {
			return err
		}
		f.cs.ActionPoints = w.GetUntilPhase()
		f.cs.WaitDiscount += w.GetDiscount()
		f.cs.OwedPhase = 0
		if sys.WaitForfeitsBonus { // LOS-016: the bonus is for an « Action suivante Immédiate »
			f.cs.NextActionBonus = 0
		}
	case *lossv1.Event_Aimed:
		a := k.Aimed
		f, err := get(a.GetCombatantId())
		if err != nil {
			return err
		}
		f.cs.ActionPoints -= a.GetActionPointsSpent()
		if a.GetWholeTour() {
			f.cs.AimTourBonus, f.cs.AimTourWeapon = a.GetBonus(), a.GetWeapon()
		} else {
			if f.cs.GetAimWeapon() != a.GetWeapon() {
				f.cs.AimBonus = 0
			}
			f.cs.AimBonus, f.cs.AimWeapon = min(sys.MaxAim, f.cs.GetAimBonus()+a.GetBonus()), a.GetWeapon()
		}
		acted(st, s, f, true)
	case *lossv1.Event_SimpleActed:
		a := k.SimpleActed
		f, err := get(a.GetCombatantId())
		if err != nil {
			return err
		}
		f.cs.ActionPoints -= a.GetActionPointsSpent()
		switch a.GetKind() {
		case lossv1.SimpleKind_SIMPLE_KIND_SPEAK:
			return nil
		case lossv1.SimpleKind_SIMPLE_KIND_STAND_UP: // standing up or regaining one's balance (LOS-072, LOS-074)
			f.cs.Prone, f.cs.Disarmed = false, false
		case lossv1.SimpleKind_SIMPLE_KIND_RECOVER_WEAPON: // the Disarm's Tour still forbids attacks (LOS-074)
			f.cs.Disarmed = false
		}
		acted(st, s, f, true)
	case *lossv1.Event_DisasterDeclared:
		s.FailedExploitBy = ""
	case *lossv1.Event_DyingResolved:
		d := k.DyingResolved
		t, err := get(d.GetTargetId())
		if err != nil {
			return err
		}
		t.cs.Dying = false
		t.cs.Dead = d.GetDead()
		if d.GetChoice() == lossv1.DyingChoice_DYING_CHOICE_SACRIFICE_INSPIRATION {
			spend(s, t, &lossv1.Spend{Inspiration: map[string]int32{d.GetVertu(): 1}})
		}
	case *lossv1.Event_PursuitStarted:
		s.Pursuit = proto.CloneOf(k.PursuitStarted.GetPursuit()) // the state changes; the event does not
	case *lossv1.Event_PursuitActed:
		a := k.PursuitActed
		f, err := get(a.GetCombatantId())
		if err != nil {
			return err
		}
		var phase int32 // the pursuer's phase when it acted (LOS-110)
		if a.GetResolves() {
			if p := s.GetPending(); p.GetAttackerId() == f.id() {
				phase = p.GetPhase()
			}
			s.Pending = nil
			nextPending(s)
		} else {
			phase = f.cs.GetActionPoints()
			f.cs.ActionPoints -= a.GetActionPointsSpent()
			spend(s, f, a.GetTest().GetSpend())
			acted(st, s, f, true)
			failedExploit(st, s, f, a.GetExploits(), a.GetTest(), false)
		}
		if a.GetShot() != nil {
			spendAim(f, a.GetWeapon())
		}
		p := s.GetPursuit()
		if p == nil {
			return nil
		}
		if a.GetZigzag() > 0 {
			p.Zigzag, p.ZigzagBy = a.GetZigzag(), f.id()
		}
		if a.GetDodgePossible() {
			s.Queued = append(s.Queued, &lossv1.PendingAttack{
				AttackerId: f.id(), DefenderId: a.GetTargetId(), Difficulty: sys.pursuitDifficulty(a.GetKind(), a.GetExploits()),
				AttackTotal: a.GetTest().GetTotal(), Pursuit: a.GetKind(), Phase: f.cs.GetActionPoints() + a.GetActionPointsSpent(),
			})
			nextPending(s)
			return nil
		}
		if a.GetTargetDown() {
			if t, err := get(a.GetTargetId()); err == nil {
				t.cs.Prone = true
				if sys.PursuitDownOwes { // thrown down at its own phase, it still acts there
					sys.owe(st, t, phase, "")
				}
			}
		}
		if a.GetEnded() {
			s.Pursuit = nil
		} else if a.GetSuccess() || a.GetResolves() {
			p.Distance = a.GetDistance()
		}
	case *lossv1.Event_FreeRaisesGranted:
		f, err := get(k.FreeRaisesGranted.GetCombatantId())
		if err != nil {
			return err
		}
		f.cs.FreeRaises += k.FreeRaisesGranted.GetCount()
	default:
		return fmt.Errorf("unknown Loss event %T", k)
	}
	return nil
}

// applyToTarget applies the effects that hinder a target: aimed blows, a fall, a disarm, a
// neutralisation, a grab (LOS-069…LOS-076), owing it its action at the same phase (LOS-110).
func (sys System) applyToTarget(st *encounterv1.EncounterState, s *lossv1.State, t fighter, list []E, _ int32, phase int32) {
	hindering := false
	for _, e := range list {
		switch e {
		case effLimb:
			t.cs.LastingDifficulty += 2
		case effZone:
			t.cs.LastingDifficulty += 5
		case effPoint:
			t.cs.LastingDifficulty += 10
		case effOverthrow:
			t.cs.Prone, hindering = true, true
		case effDisarm:
			t.cs.Disarmed, t.cs.DisarmedTour, hindering = true, s.GetTour(), true
		case effNeutral:
			t.cs.Neutralised, t.cs.Out, hindering = true, true, true
		}
	}
	if hindering {
		sys.owe(st, t, phase, "")
	}
}

// owe gives a combatant hindered at its own phase its action there (LOS-110).
func (sys System) owe(st *encounterv1.EncounterState, t fighter, phase int32, _ string) {
	if !options(st).GetSamePhaseSimultaneous() || phase <= 0 {
		return
	}
	if t.cs.GetActionPoints() == phase && !t.cs.GetPassed() && t.cs.GetActionPoints() > 0 {
		t.cs.OwedPhase = phase
	}
}
