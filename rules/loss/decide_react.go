package loss

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

// defenceScore is what a reaction Tests with, and why it cannot be made.
func (sys System) defenceScore(st *encounterv1.EncounterState, d fighter, r *lossv1.React, p *lossv1.PendingAttack, attW *lossv1.Weapon, m *mods) (*lossv1.Score, error) {
	ranged := isRanged(attW)
	switch r.GetReaction() {
	case lossv1.Reaction_REACTION_DODGE:
		if d.sh.GetDodge() == nil {
			return nil, engine.Refused("LOS-018", "%s's sheet has no score to dodge with", d.name())
		}
		if sh := d.sh.GetShield(); sh != nil {
			m.test("shield", "LOS-053", -sh.GetDodgePenalty())
		}
		if ranged && r.GetSituation().GetCoverAtHand() && d.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_TAKE_COVER, nil) {
			m.test("Take cover specialisation", "LOS-093", 5)
		}
		if has(r.GetEffects(), effTotal) && d.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_TOTAL_DODGE, nil) {
			m.test("Total dodge specialisation", "LOS-093", 5)
		}
		return d.sh.GetDodge(), nil
	case lossv1.Reaction_REACTION_PARRY:
		if d.sh.GetParry() == nil {
			return nil, engine.Refused("LOS-019", "%s's sheet has no score to parry with", d.name())
		}
		sh := d.sh.GetShield()
		useShield := sh != nil && !r.GetWithWeapon()
		if ranged || p.GetExplosive() {
			if !useShield || sh.GetSize() == lossv1.ShieldSize_SHIELD_SIZE_UNSPECIFIED {
				return nil, engine.Refused("LOS-019", "%s can parry a projectile only with a shield", d.name())
			}
		}
		if useShield {
			m.test("shield", "LOS-053", sh.GetParryBonus())
			if d.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_WEAPON_AND_SHIELD, nil) {
				m.test("Weapon and shield specialisation", "LOS-091", sys.SpecBonus)
			}
			return d.sh.GetParry(), nil
		}
		if has(r.GetEffects(), effWall) {
			return nil, engine.Refused("LOS-066", "a Defensive wall needs a shield")
		}
		var weapon *lossv1.Weapon
		for _, w := range d.sh.GetWeapons() {
			if w.GetKind() == lossv1.WeaponKind_WEAPON_KIND_MELEE {
				weapon = w
				break
			}
		}
		switch {
		case weapon != nil && !d.cs.GetDisarmed():
			if d.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_PARRY, weapon) {
				m.test("Parry specialisation", "LOS-091", sys.SpecBonus)
			}
		case d.sh.GetArmouredForearm():
		case d.cs.GetDisarmed():
			return nil, engine.Refused("LOS-074", "%s has no weapon, shield or armoured forearm to parry with", d.name())
		default:
			return nil, engine.Refused("LOS-019", "%s has no weapon, shield or armoured forearm to parry with", d.name())
		}
		return d.sh.GetParry(), nil
	}
	return nil, engine.Invalid("LOS-009", "%s must choose a reaction: parry, dodge or none", d.name())
}

func (sys System) decideReact(st *encounterv1.EncounterState, id string, r *lossv1.React, env engine.Env) ([]*encounterv1.Event, error) {
	p := lossState(st).GetPending()
	if p == nil {
		return nil, engine.Because(engine.Refused("LOS-009", "no attack is waiting for a parry or a dodge"), engine.ReasonNoPendingReaction, nil)
	}
	if id == "" {
		id = p.GetDefenderId()
	}
	if id != p.GetDefenderId() {
		d, _ := fighterOf(st, p.GetDefenderId())
		return nil, engine.Refused("LOS-009", "the attack waiting for a reaction is against %s", d.name())
	}
	if err := engine.MayCommand(st, env.Actor, id); err != nil {
		return nil, err
	}
	d, err := fighterOf(st, id)
	if err != nil {
		return nil, err
	}
	att, err := fighterOf(st, p.GetAttackerId())
	if err != nil {
		return nil, err
	}
	if p.GetPursuit() != lossv1.PursuitKind_PURSUIT_KIND_UNSPECIFIED {
		return sys.decidePursuitReact(st, p, att, d, r, env)
	}
	w := &lossv1.Weapon{Name: "bare hands", Kind: lossv1.WeaponKind_WEAPON_KIND_UNARMED}
	if p.GetManoeuvre() == lossv1.Manoeuvre_MANOEUVRE_UNSPECIFIED {
		if w, err = weaponOf(att, p.GetBlowWeapon()); err != nil {
			return nil, err
		}
	}
	b := blow{att: att, t: d, w: w, effects: p.GetExploits(), withDamage: p.GetWithDamage(), manoeuvre: p.GetManoeuvre(),
		sit: p.GetSituation(), phase: sys.blowPhase(p.GetCounter(), p.GetPhase()), explosive: p.GetExplosive()}
	if p.GetSecondWeapon() != "" {
		if b.second, err = weaponOf(att, p.GetSecondWeapon()); err != nil {
			return nil, err
		}
	}
	dr := &lossv1.DefenceRolled{DefenderId: id, Reaction: r.GetReaction(), AttackerId: att.id()}
	if r.GetReaction() == lossv1.Reaction_REACTION_NONE {
		return []*encounterv1.Event{defenceRolled(dr), sys.hit(st, b, 0, false, env.Dice)}, nil
	}
	if d.cs.GetActionPoints() < sys.DefenceCost && d.cs.GetWall() == 0 {
		return nil, engine.Refused("LOS-032", "%s has no PA left; a %s costs %d", d.name(), reactionVerb(r.GetReaction()), sys.DefenceCost)
	}
	m := &mods{}
	score, err := sys.defenceScore(st, d, r, p, w, m)
	if err != nil {
		return nil, err
	}
	u, what := onParry, "a parry"
	if r.GetReaction() == lossv1.Reaction_REACTION_DODGE {
		u, what = onDodge, "a dodge"
	}
	if isRanged(w) { // LOS-085: only the ranged list
		if r.GetReaction() == lossv1.Reaction_REACTION_DODGE {
			u, what = onRangedDodge, "a dodge of a projectile"
		} else {
			u, what = 0, "a parry of a projectile"
		}
	}
	list := r.GetEffects()
	if err := sys.checkEffects(d.name(), list, u, what); err != nil {
		return nil, err
	}
	exploits := max(r.GetExploits(), countExploits(list))
	if r.GetExploits() < 0 || exploits > sys.MaxExploits {
		return nil, engine.Invalid("LOS-012", "%s declares %d Exploits; from 0 to %d may be declared", d.name(), exploits, sys.MaxExploits)
	}
	var counterW *lossv1.Weapon
	if has(list, effCounter) {
		if p.GetCounter() && !sys.CounterOfCounter {
			return nil, engine.Refused("LOS-062", "a counter-attack cannot itself be countered")
		}
		if slices.Contains(d.cs.GetCountered(), att.id()) {
			return nil, engine.Refused("LOS-062", "%s has already counter-attacked %s this Tour", d.name(), att.name())
		}
		if has(list, effTotal) || has(list, effWall) { // they spend all PA: none remain for the attack
			return nil, engine.Refused("LOS-062", "%s's Total dodge or Defensive wall spends all its PA: no counter-attack", d.name())
		}
		if err := sys.hindered(st, d, false, false, true); err != nil { // down or disarmed (LOS-072, LOS-074)
			return nil, err
		}
		if counterW, err = weaponOf(d, r.GetCounterWeapon()); err != nil {
			return nil, err
		}
		if need := sys.DefenceCost + sys.attackCost(d, counterW); d.cs.GetActionPoints() < need {
			return nil, engine.Refused("LOS-062", "%s has %d PA left; the parry or dodge and the counter-attack with %s cost %d", d.name(), d.cs.GetActionPoints(), counterW.GetName(), need)
		}
	}
	if has(list, effWall) && d.cs.GetParried() {
		return nil, engine.Refused("LOS-066", "%s has already parried this Tour; a Defensive wall is raised only on the first parry of the Tour", d.name())
	}
	if has(list, effProtect) {
		ally, err := fighterOf(st, r.GetAllyId())
		if err != nil || ally.id() == d.id() {
			return nil, engine.Invalid("LOS-068", "Protect needs a nearby ally to protect")
		}
	}
	// LOS-092 Unarmed, Defence: +5 once on a Counter-attack with bare hands, a Protect or a Feint.
	if (isBare(counterW) || ((has(list, effProtect) || has(list, effFeint)) && !hasMelee(d))) &&
		d.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_UNARMED_DEFENCE, nil) {
		m.test("Unarmed: Defence specialisation", "LOS-092", 5)
	}
	if err := sys.spendBonus(st, d, r.GetSpend(), m); err != nil {
		return nil, err
	}
	sys.ownModifiers(st, d, r.GetSituation(), m, true)
	defenceExploitBonus(d, m)
	if d.cs.GetProtectBonus() > 0 {
		m.test("protected by an ally", "LOS-068", d.cs.GetProtectBonus())
	}
	if d.cs.GetFeints()[att.id()] >= lossState(st).GetTour() && len(d.cs.GetFeints()) > 0 {
		m.test("feint", "LOS-064", sys.FeintBonus)
	}
	res := sys.roll(st, d, score, p.GetDifficulty(), exploits, m, r.GetSpend(), env.Dice)
	dr.ActionPointsSpent = min(sys.DefenceCost, d.cs.GetActionPoints()) // LOS-036: paid even on a failure; none left behind a wall
	if has(list, effTotal) || has(list, effWall) {
		dr.ActionPointsSpent = d.cs.GetActionPoints() // LOS-063, LOS-066: using it spends all PA, even on a failure
	}
	dr.Exploits = exploits
	dr.Test = res
	dr.Effects = list
	dr.AllyId = r.GetAllyId()
	events := make([]*encounterv1.Event, 1, 2)
	events[0] = defenceRolled(dr)
	total := countExploits(p.GetExploits())
	if res.GetSuccess() { // LOS-013: both succeed, the attack misses
		if p.GetExplosive() { // LOS-086: a successful defence only halves the damage
			return append(events, sys.hit(st, b, 0, true, env.Dice)), nil
		}
		events = append(events, miss(b, ""))
		if counterW != nil { // LOS-062: an immediate attack, whatever the phase
			next := proto.CloneOf(st)
			for _, ev := range events {
				_ = sys.Evolve(next, ev)
			}
			d2, _ := fighterOf(next, d.id())
			more, err := sys.decideAttack(next, d2, &lossv1.Attack{TargetId: att.id(), Weapon: counterW.GetName()}, env, true)
			if err != nil {
				return nil, err
			}
			events = append(events, more...)
		}
		return events, nil
	}
	dr.ExploitsCancelled = sys.PartialDefence(res.GetTotal(), total) // LOS-014 partial defence
	return append(events, sys.hit(st, b, dr.ExploitsCancelled, false, env.Dice)), nil
}

func reactionVerb(r lossv1.Reaction) string {
	if r == lossv1.Reaction_REACTION_DODGE {
		return "dodge"
	}
	return "parry"
}
