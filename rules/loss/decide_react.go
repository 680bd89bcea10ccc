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

// decideReact decides a defender's answer to the attack awaiting it (LOS-009): take the blow,
// or parry or dodge (LOS-013…LOS-019, LOS-036) with its Exploits (LOS-060…LOS-068); a pursuit
// action awaiting its dodge is decidePursuitReact's.
func (sys System) decideReact(st *encounterv1.EncounterState, id string, r *lossv1.React, env engine.Env) ([]*encounterv1.Event, error) {
	p, d, att, err := reactingDefender(st, id, env)
	if err != nil {
		return nil, err
	}
	if p.GetPursuit() != lossv1.PursuitKind_PURSUIT_KIND_UNSPECIFIED {
		return sys.decidePursuitReact(st, p, att, d, r, env)
	}
	b, err := sys.awaitedBlow(p, att, d)
	if err != nil {
		return nil, err
	}
	dr := &lossv1.DefenceRolled{DefenderId: d.id(), Reaction: r.GetReaction(), AttackerId: att.id()}
	if r.GetReaction() == lossv1.Reaction_REACTION_NONE {
		return []*encounterv1.Event{defenceRolled(dr), sys.hit(st, b, 0, false, env.Dice)}, nil
	}
	if d.cs.GetActionPoints() < sys.DefenceCost && d.cs.GetWall() == 0 {
		return nil, engine.Refused("LOS-032", "%s has no PA left; a %s costs %d", d.name(), reactionVerb(r.GetReaction()), sys.DefenceCost)
	}
	m := &mods{}
	score, err := sys.defenceScore(st, d, r, p, b.w, m)
	if err != nil {
		return nil, err
	}
	exploits, counterW, err := sys.defenceExploits(st, d, att, r, p, b.w)
	if err != nil {
		return nil, err
	}
	if err := sys.defenceBonuses(st, d, att, r, counterW, m); err != nil {
		return nil, err
	}
	list := r.GetEffects()
	res := sys.roll(st, d, score, p.GetDifficulty(), exploits, m, r.GetSpend(), env.Dice)
	dr.ActionPointsSpent = min(sys.DefenceCost, d.cs.GetActionPoints()) // LOS-036: paid even on a failure; none left behind a wall
	if has(list, effTotal) || has(list, effWall) {
		dr.ActionPointsSpent = d.cs.GetActionPoints() // LOS-063, LOS-066: using it spends all PA, even on a failure
	}
	dr.Exploits = exploits
	dr.Test = res
	dr.Effects = list
	dr.AllyId = r.GetAllyId()
	return sys.defenceOutcome(st, b, dr, counterW, env)
}

// reactingDefender is the attack awaiting a reaction and its two sides, refusing an answer
// when none awaits, from another than its defender (LOS-009), or from one who may not command
// the defender.
func reactingDefender(st *encounterv1.EncounterState, id string, env engine.Env) (*lossv1.PendingAttack, fighter, fighter, error) {
	p := lossState(st).GetPending()
	if p == nil {
		return nil, fighter{}, fighter{}, engine.Because(engine.Refused("LOS-009", "no attack is waiting for a parry or a dodge"), engine.ReasonNoPendingReaction, nil)
	}
	if id == "" {
		id = p.GetDefenderId()
	}
	if id != p.GetDefenderId() {
		d, _ := fighterOf(st, p.GetDefenderId())
		return nil, fighter{}, fighter{}, engine.Refused("LOS-009", "the attack waiting for a reaction is against %s", d.name())
	}
	if err := engine.MayCommand(st, env.Actor, id); err != nil {
		return nil, fighter{}, fighter{}, err
	}
	d, err := fighterOf(st, id)
	if err != nil {
		return nil, fighter{}, fighter{}, err
	}
	att, err := fighterOf(st, p.GetAttackerId())
	if err != nil {
		return nil, fighter{}, fighter{}, err
	}
	return p, d, att, nil
}

// awaitedBlow is the blow of the attack awaiting d's reaction, as it was declared: its weapon
// (bare hands for a grab or a trip, LOS-035), and the second weapon of Two weapons on a single
// target (LOS-070).
func (sys System) awaitedBlow(p *lossv1.PendingAttack, att, d fighter) (blow, error) {
	var err error
	w := &lossv1.Weapon{Name: "bare hands", Kind: lossv1.WeaponKind_WEAPON_KIND_UNARMED}
	if p.GetManoeuvre() == lossv1.Manoeuvre_MANOEUVRE_UNSPECIFIED {
		if w, err = weaponOf(att, p.GetBlowWeapon()); err != nil {
			return blow{}, err
		}
	}
	b := blow{att: att, t: d, w: w, effects: p.GetExploits(), withDamage: p.GetWithDamage(), manoeuvre: p.GetManoeuvre(),
		sit: p.GetSituation(), phase: sys.blowPhase(p.GetCounter(), p.GetPhase()), explosive: p.GetExplosive()}
	if p.GetSecondWeapon() != "" {
		if b.second, err = weaponOf(att, p.GetSecondWeapon()); err != nil {
			return blow{}, err
		}
	}
	return b, nil
}

// defenceExploits checks the Exploits a defence declares and returns their count and the
// weapon of a counter-attack: effects of a parry or dodge, only a dodge's against a projectile
// (LOS-060, LOS-085), 0 to MaxExploits (LOS-012); a Counter-attack once per opponent and Tour,
// not with a Total dodge or wall, by one standing and armed with the PA for both (LOS-062); a
// Defensive wall on the Tour's first parry (LOS-066); Protect for an ally (LOS-068).
func (sys System) defenceExploits(st *encounterv1.EncounterState, d, att fighter, r *lossv1.React, p *lossv1.PendingAttack, w *lossv1.Weapon) (int32, *lossv1.Weapon, error) {
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
		return 0, nil, err
	}
	exploits := max(r.GetExploits(), countExploits(list))
	if r.GetExploits() < 0 || exploits > sys.MaxExploits {
		return 0, nil, engine.Invalid("LOS-012", "%s declares %d Exploits; from 0 to %d may be declared", d.name(), exploits, sys.MaxExploits)
	}
	var counterW *lossv1.Weapon
	if has(list, effCounter) {
		var err error
		if counterW, err = sys.counterWeapon(st, d, att, r, p); err != nil {
			return 0, nil, err
		}
	}
	if has(list, effWall) && d.cs.GetParried() {
		return 0, nil, engine.Refused("LOS-066", "%s has already parried this Tour; a Defensive wall is raised only on the first parry of the Tour", d.name())
	}
	if has(list, effProtect) {
		ally, err := fighterOf(st, r.GetAllyId())
		if err != nil || ally.id() == d.id() {
			return 0, nil, engine.Invalid("LOS-068", "Protect needs a nearby ally to protect")
		}
	}
	return exploits, counterW, nil
}

// counterWeapon is the weapon a Counter-attack strikes with, refused (LOS-062) on a counter
// blow unless the version allows it, a second time against one opponent in a Tour, with a
// Total dodge or Defensive wall (they spend all PA), by one down or disarmed (LOS-072,
// LOS-074), or short of the PA for the defence and the attack.
func (sys System) counterWeapon(st *encounterv1.EncounterState, d, att fighter, r *lossv1.React, p *lossv1.PendingAttack) (*lossv1.Weapon, error) {
	list := r.GetEffects()
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
	counterW, err := weaponOf(d, r.GetCounterWeapon())
	if err != nil {
		return nil, err
	}
	if need := sys.DefenceCost + sys.attackCost(d, counterW); d.cs.GetActionPoints() < need {
		return nil, engine.Refused("LOS-062", "%s has %d PA left; the parry or dodge and the counter-attack with %s cost %d", d.name(), d.cs.GetActionPoints(), counterW.GetName(), need)
	}
	return counterW, nil
}

// defenceBonuses adds to a defence's Test, after what its score brought (defenceScore): the
// Unarmed Defence specialisation (LOS-092), what it spends (LOS-004), the defender's own state
// and situation (LOS-022, LOS-050), a defensive Exploit's bonus (LOS-016), an ally's
// protection (LOS-068), a Feint against this attacker (LOS-064).
func (sys System) defenceBonuses(st *encounterv1.EncounterState, d, att fighter, r *lossv1.React, counterW *lossv1.Weapon, m *mods) error {
	list := r.GetEffects()
	// LOS-092 Unarmed, Defence: +5 once on a Counter-attack with bare hands, a Protect or a Feint.
	if (isBare(counterW) || ((has(list, effProtect) || has(list, effFeint)) && !hasMelee(d))) &&
		d.spec(lossv1.SpecialisationKind_SPECIALISATION_KIND_UNARMED_DEFENCE, nil) {
		m.test("Unarmed: Defence specialisation", "LOS-092", 5)
	}
	if err := sys.spendBonus(st, d, r.GetSpend(), m); err != nil {
		return err
	}
	sys.ownModifiers(st, d, r.GetSituation(), m, true)
	defenceExploitBonus(d, m)
	if d.cs.GetProtectBonus() > 0 {
		m.test("protected by an ally", "LOS-068", d.cs.GetProtectBonus())
	}
	if d.cs.GetFeints()[att.id()] >= lossState(st).GetTour() && len(d.cs.GetFeints()) > 0 {
		m.test("feint", "LOS-064", sys.FeintBonus)
	}
	return nil
}

// defenceOutcome is what the defence's Test does to the blow: both succeed and the attack
// misses (LOS-013), but a blast is only halved (LOS-086), and a Counter-attack strikes at once,
// whatever the phase (LOS-062); a failed defence cancels Exploits by its total (LOS-014).
func (sys System) defenceOutcome(st *encounterv1.EncounterState, b blow, dr *lossv1.DefenceRolled, counterW *lossv1.Weapon, env engine.Env) ([]*encounterv1.Event, error) {
	events := make([]*encounterv1.Event, 1, 2)
	events[0] = defenceRolled(dr)
	res := dr.GetTest()
	if !res.GetSuccess() {
		dr.ExploitsCancelled = sys.PartialDefence(res.GetTotal(), countExploits(b.effects)) // LOS-014 partial defence
		return append(events, sys.hit(st, b, dr.ExploitsCancelled, false, env.Dice)), nil
	}
	if b.explosive { // LOS-086: a successful defence only halves the damage
		return append(events, sys.hit(st, b, 0, true, env.Dice)), nil
	}
	events = append(events, miss(b, ""))
	if counterW == nil {
		return events, nil
	}
	next := proto.CloneOf(st) // LOS-062: an immediate attack, whatever the phase
	for _, ev := range events {
		_ = sys.Evolve(next, ev)
	}
	d2, _ := fighterOf(next, b.t.id())
	more, err := sys.decideAttack(next, d2, &lossv1.Attack{TargetId: b.att.id(), Weapon: counterW.GetName()}, env, true)
	if err != nil {
		return nil, err
	}
	return append(events, more...), nil
}

func reactionVerb(r lossv1.Reaction) string {
	if r == lossv1.Reaction_REACTION_DODGE {
		return "dodge"
	}
	return "parry"
}
