package loss

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/dice"
)

// blow is one attack against one target.
type blow struct {
	att, t     fighter
	w          *lossv1.Weapon
	effects    []E
	withDamage bool
	manoeuvre  lossv1.Manoeuvre
	sit        *lossv1.Situation
	phase      int32
	explosive  bool
	// second: Two weapons on a single target, whose second weapon strikes too (LOS-070).
	second *lossv1.Weapon
}

// blowPhase is the phase a blow is struck at, as far as LOS-110 goes: the striker's phase,
// which owes a target felled or hindered at that same phase its action there; none (0) for a
// counter blow where the version says so: its target has just acted and is owed nothing.
func (sys System) blowPhase(counter bool, phase int32) int32 {
	if counter && sys.CounterBlowOwesNothing {
		return 0
	}
	return phase
}

func blowOf(att, t fighter, ar *lossv1.AttackRolled, i int, w, second *lossv1.Weapon) blow {
	if i > 0 && second != nil && has(ar.GetExploits(), effTwo) {
		w = second
	}
	return blow{
		att: att, t: t, w: w, effects: ar.GetExploits(), withDamage: ar.GetWithDamage(), manoeuvre: ar.GetManoeuvre(),
		sit: ar.GetSituation(), phase: att.cs.GetActionPoints(), explosive: w.GetExplosive(),
	}
}

func (b blow) resolved() *lossv1.AttackResolved {
	return &lossv1.AttackResolved{
		AttackerId: b.att.id(), TargetId: b.t.id(), AttackerPhase: b.phase,
		Light: b.t.cs.GetLight(), Grave: b.t.cs.GetGrave(), Fatal: b.t.cs.GetFatal(), Health: b.t.cs.GetHealth(),
		TargetOut: b.t.cs.GetOut(), TargetDying: b.t.cs.GetDying(),
	}
}

func miss(b blow, note string) *encounterv1.Event {
	r := b.resolved()
	r.ExploitsStanding = countExploits(b.effects)
	r.Note = note
	return attackResolved(r)
}

// hit resolves a blow that landed: the effects that stand after `cancelled` Exploits, then
// damage (LOS-020…LOS-025, LOS-061…LOS-078, LOS-081, LOS-086).
func (sys System) hit(st *encounterv1.EncounterState, b blow, cancelled int32, halve bool, roller dice.Roller) *encounterv1.Event {
	r := b.resolved()
	total := countExploits(b.effects)
	stand := standing(b.effects, cancelled)
	r.ExploitsStanding = total - cancelled
	out := func(note string) *encounterv1.Event {
		r.Note = note
		return attackResolved(r)
	}
	if total > 0 && cancelled >= total && !options(st).GetCancelledExploitsStillHit() {
		return out("partial defence cancelled every Exploit: the attack misses (LOS-015 option)")
	}
	r.Hit = true
	r.Effects = stand
	r.Manoeuvre = b.manoeuvre
	if b.manoeuvre == lossv1.Manoeuvre_MANOEUVRE_TRIP && sys.TripFells { // LOS-035: Evolve throws it down
		return out(b.t.name() + " falls and must stand up at its next action (LOS-035)")
	}
	if b.manoeuvre != lossv1.Manoeuvre_MANOEUVRE_UNSPECIFIED { // LOS-035: no automatic effect
		return out("no automatic effect: the GM applies what follows as situations (LOS-035)")
	}
	// LOS-025: a Sbire hit with a standing Exploit by a non-Sbire is out, no damage roll.
	if b.t.isSbire() && !b.att.isSbire() && total > 0 &&
		(len(stand) > 0 || !options(st).GetSbireCancelledExploitPlainHit()) {
		r.Health, r.TargetOut = 0, true
		return out(b.t.name() + " is a Sbire felled by a successful Exploit (LOS-025)")
	}
	if has(stand, effKill) {
		r.Light, r.Grave, r.Fatal, r.TargetOut, r.TargetDying = 0, 0, 0, true, true
		return out(b.t.name() + " is killed outright: 0 fatal boxes, dying (LOS-078)")
	}
	if has(stand, effNeutral) {
		r.TargetOut = true
	}
	special := false
	for _, e := range stand {
		special = special || effects[e].special
	}
	if special && !b.withDamage {
		return out("")
	}
	sys.damage(st, b, r, stand, halve, roller)
	return out("")
}

// damage rolls a hit's damage into r and takes it off the target's track: 1d10 and one more
// per extra damage (LOS-065) plus the weapon's damage, its Assaut damage on an Assaut (LOS-061),
// halved beyond the effective range (LOS-081) and by a successful defence against a blast
// (LOS-086), less armour and shield (LOS-021, LOS-053, Weapon and shield LOS-091); then the
// second weapon of Two weapons on a single target, unless the first felled it (LOS-070).
func (sys System) damage(st *encounterv1.EncounterState, b blow, r *lossv1.AttackResolved, stand []E, halve bool, roller dice.Roller) {
	extra := countOf(stand, effExtra)
	dmg := b.w.GetDamage()
	if has(stand, effAssaut) {
		dmg = b.w.GetAssautDamage()
	}
	rr := roller.Roll(dice.Expr{Count: 1 + int(extra), Sides: 10, Explode: options(st).GetExplodeDamageD10()})
	d := &lossv1.Damage{Roll: rr, WeaponDamage: dmg, Total: rr.GetTotal() + dmg, Armour: b.t.sh.GetArmour(), Shield: b.t.sh.GetShieldProtection()}
	if b.t.sh.GetShield() != nil && b.t.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_WEAPON_AND_SHIELD, nil) {
		d.Shield++ // LOS-091
	}
	beyond := isRanged(b.w) && b.w.GetEffectiveRange() > 0 && b.sit.GetDistance() > b.w.GetEffectiveRange()
	if beyond { // LOS-081
		r.Halvings++
	}
	if halve { // LOS-086
		r.Halvings++
	}
	r.Halved = r.Halvings > 0
	d.Total = Halve(d.Total, r.Halvings)
	d.LevelsLost = max(0, d.Total-d.Armour-d.Shield)
	r.Damage = d
	applyLevels(st, b, r, stand, d.LevelsLost)
	if b.second != nil && !r.GetTargetOut() { // LOS-070: the second weapon on the same target
		rr := roller.Roll(dice.Expr{Count: 1, Sides: 10, Explode: options(st).GetExplodeDamageD10()})
		d2 := &lossv1.Damage{Roll: rr, WeaponDamage: b.second.GetDamage(), Total: rr.GetTotal() + b.second.GetDamage(), Armour: d.Armour, Shield: d.Shield}
		d2.Total = Halve(d2.Total, r.Halvings)
		d2.LevelsLost = max(0, d2.Total-d2.Armour-d2.Shield)
		r.SecondDamage = d2
		applyLevels(st, b, r, stand, d2.LevelsLost)
	}
}

// Halve halves damage n times, each halving rounding down what the previous left, before
// armour (LOS-081, LOS-086): a range halving then a dodge leaves a quarter.
func Halve(damage, n int32) int32 {
	for range n {
		damage /= 2
	}
	return damage
}

// applyLevels takes NS levels off the target's track in r (LOS-021, LOS-022, LOS-024, LOS-073).
func applyLevels(st *encounterv1.EncounterState, b blow, r *lossv1.AttackResolved, stand []E, lost int32) {
	if b.t.isSbire() {
		r.Health = max(0, r.Health-lost)
		r.TargetOut = r.TargetOut || r.Health == 0
		return
	}
	if has(stand, effZone) { // LOS-073: no mortal wound
		lost = min(lost, r.Light+r.Grave+r.Fatal-1)
	}
	for _, box := range []*int32{&r.Light, &r.Grave, &r.Fatal} {
		take := min(lost, *box)
		*box -= take
		lost -= take
	}
	if r.Fatal == 0 {
		r.TargetOut = true
		r.TargetDying = options(st).GetDyingAtZeroFatal() // LOS-023
	}
}
