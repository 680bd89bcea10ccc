package loss

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
)

// applyAttackRolled folds an attack's Test: the attacker spends its PA (a counter-attack too,
// LOS-062), what it spent on the Test (LOS-004, LOS-005) and its aims with a ranged weapon
// (LOS-084); an Assaut is used for the Tour (LOS-061); it counts toward each target's melee
// attackers (LOS-051); each target that may defend awaits its reaction in turn (LOS-009).
func applyAttackRolled(st *encounterv1.EncounterState, s *lossv1.State, a *lossv1.AttackRolled) error {
	f, err := foldedFighter(st, s, a.GetAttackerId())
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
	queueReactions(s, f, a, w)
	nextPending(s)
	return nil
}

// queueReactions marks the attacker among the melee attackers of each target (LOS-051) and
// queues the reaction of each target that may defend, in the order they were named: the
// blow's weapon is the second one for the second target of Two weapons, both weapons strike a
// single one (LOS-070).
func queueReactions(s *lossv1.State, f fighter, a *lossv1.AttackRolled, w *lossv1.Weapon) {
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
}

// applyDefenceRolled folds a parry or a dodge: the defender spends its PA (LOS-036) and what it
// spent on the Test; a parry counts for a Defensive wall (LOS-066); a failed Exploit may turn
// to a Disaster (LOS-006); a successful one gives its effects (defenceEffects).
func (sys System) applyDefenceRolled(st *encounterv1.EncounterState, s *lossv1.State, d *lossv1.DefenceRolled) error {
	f, err := foldedFighter(st, s, d.GetDefenderId())
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
	sys.defenceEffects(st, s, f, d)
	return nil
}

// defenceEffects are what a successful defence's Exploits do: a plain Exploit's bonus on the
// next action (LOS-016), a wall (LOS-063, LOS-066), a Feint (LOS-064), PA for the next Tour
// (LOS-067), a counter-attack counted (LOS-062), an ally protected (LOS-068), and what hinders
// the attacker (Overthrow, Disarm, Neutralise: applyToTarget).
func (sys System) defenceEffects(st *encounterv1.EncounterState, s *lossv1.State, f fighter, d *lossv1.DefenceRolled) {
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
		if ally, err := foldedFighter(st, s, d.GetAllyId()); err == nil {
			ally.cs.ProtectBonus += sys.ProtectBonus
		}
	}
	if att, err := foldedFighter(st, s, d.GetAttackerId()); err == nil {
		phase := f.cs.GetActionPoints() + d.GetActionPointsSpent()
		if sys.CounterBlowOwesNothing { // LOS-110: the attacker has just acted
			phase = 0
		}
		sys.applyToTarget(st, s, att, list, phase)
	}
}

// applyAttackResolved folds a blow's outcome: the attack no longer awaits a reaction, the
// target's track and condition are the blow's (LOS-021…LOS-025), one felled is owed its action
// at the same phase (LOS-110) and remembers who felled it (LOS-023); a hit gives its effects.
func (sys System) applyAttackResolved(st *encounterv1.EncounterState, s *lossv1.State, r *lossv1.AttackResolved) error {
	if p := s.GetPending(); p != nil && p.GetAttackerId() == r.GetAttackerId() && p.GetDefenderId() == r.GetTargetId() {
		s.Pending = nil
	}
	nextPending(s)
	t, err := foldedFighter(st, s, r.GetTargetId())
	if err != nil {
		return err
	}
	att, err := foldedFighter(st, s, r.GetAttackerId())
	if err != nil {
		return err
	}
	wasOut := t.cs.GetOut()
	t.cs.Light, t.cs.Grave, t.cs.Fatal, t.cs.Health = r.GetLight(), r.GetGrave(), r.GetFatal(), r.GetHealth()
	t.cs.Out, t.cs.Dying = r.GetTargetOut(), r.GetTargetDying()
	if t.cs.GetOut() && !wasOut {
		t.cs.FelledBy = att.id()
		sys.owe(st, t, r.GetAttackerPhase())
	}
	if r.GetHit() {
		sys.hitEffects(st, s, att, t, r)
	}
	return nil
}

// hitEffects are what a hit's standing Exploits do: PA for the next Tour (LOS-067), a Feint
// (LOS-064), what hinders the target (LOS-069…LOS-076); a grab does nothing (LOS-035), a trip
// makes the target fall as Overthrow does where the version says so.
func (sys System) hitEffects(st *encounterv1.EncounterState, s *lossv1.State, att, t fighter, r *lossv1.AttackResolved) {
	if n := countOf(r.GetEffects(), effAdvantage); n > 0 {
		att.cs.Advantage = min(sys.MaxAdvantage, att.cs.GetAdvantage()+n)
	}
	if has(r.GetEffects(), effFeint) {
		if att.cs.Feints == nil {
			att.cs.Feints = map[string]int32{}
		}
		att.cs.Feints[t.id()] = s.GetTour() + 1
	}
	sys.applyToTarget(st, s, t, r.GetEffects(), r.GetAttackerPhase()) // a grab: nothing (LOS-035)
	// LOS-035: a trip makes it fall, as Overthrow does.
	if r.GetManoeuvre() == lossv1.Manoeuvre_MANOEUVRE_TRIP && sys.TripFells {
		sys.applyToTarget(st, s, t, []E{effOverthrow}, r.GetAttackerPhase())
	}
}

// applyToTarget applies the effects that hinder a target: aimed blows, a fall, a disarm, a
// neutralisation, a grab (LOS-069…LOS-076), owing it its action at the same phase (LOS-110).
func (sys System) applyToTarget(st *encounterv1.EncounterState, s *lossv1.State, t fighter, list []E, phase int32) {
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
		sys.owe(st, t, phase)
	}
}

// owe gives a combatant hindered at its own phase its action there (LOS-110).
func (sys System) owe(st *encounterv1.EncounterState, t fighter, phase int32) {
	if !options(st).GetSamePhaseSimultaneous() || phase <= 0 {
		return
	}
	if t.cs.GetActionPoints() == phase && !t.cs.GetPassed() && t.cs.GetActionPoints() > 0 {
		t.cs.OwedPhase = phase
	}
}
