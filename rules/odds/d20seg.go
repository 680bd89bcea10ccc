package odds

import (
	"fmt"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	"github.com/fray-rpg/fray/rules/d20seg"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
)

// SegAttack is what the odds of a d20seg attack are computed from (D20-040…D20-044).
type SegAttack struct {
	// Bonus added to the d20 and the CA it must reach (flat-footed already taken off).
	Bonus, CA int32
	Die       dice.Expr
	// Damage: the weapon's dice, PerHit the bonuses multiplied on a critical (Strength,
	// weapon, circumstance), Feat the feats' damage added once (D20-041, D20-042).
	Damage         dice.Expr
	PerHit, Feat   int32
	Multiplier     int32
	HitPoints      int32
	DownAt         int32
	Hidden         bool
	Target, Weapon string
}

func segAttack(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*oddsv1.Odds, error) {
	a, err := ReadSegAttack(reg, st, cmd, actor)
	if err != nil {
		return nil, err
	}
	return a.Odds(), nil
}

// ReadSegAttack reads the numbers of the attack cmd gives on st, deciding it with a probe's
// dice that hit with a critical.
func ReadSegAttack(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*SegAttack, error) {
	pr := &probe{first: far}
	evs, err := reg.Decide(st, cmd, engine.Env{Actor: actor, Dice: pr})
	if err != nil {
		return nil, err
	}
	ar := evs[0].GetD20Seg().GetAttackRolled()
	att := engine.FindCombatant(st, ar.GetAttackerId()).GetD20Seg()
	target := engine.FindCombatant(st, ar.GetTargetId())
	a := &SegAttack{Bonus: ar.GetBonus(), CA: ar.GetCa(), Die: pr.exprs[0], Damage: pr.exprs[1],
		HitPoints: st.GetD20Seg().GetCombatants()[ar.GetTargetId()].GetHitPoints(),
		DownAt:    st.GetOptions().GetD20Seg().GetDownAt(), Hidden: target.GetD20Seg() == nil,
		Target: target.GetName(), Weapon: ar.GetWeapon()}
	for _, w := range att.GetWeapons() {
		if w.GetName() == ar.GetWeapon() {
			a.PerHit = att.GetStrength() + w.GetBonus() + cmd.GetD20Seg().GetAttack().GetDamageModifier()
			a.Multiplier = max(2, w.GetCritical())
		}
	}
	for _, f := range att.GetFeats() {
		a.Feat += f.GetDamage()
	}
	return a, nil
}

// Odds is the chance to hit, to score a critical, the damage and the chance the target goes
// down.
func (a *SegAttack) Odds() *oddsv1.Odds {
	o := &oddsv1.Odds{Summary: fmt.Sprintf("an attack with %s, %+d against CA %d", a.Weapon, a.Bonus, a.CA)}
	total := Expr(a.Die).Shift(int(a.Bonus))
	hit := total.AtLeast(int(a.CA))
	crit := total.AtLeast(int(a.CA + d20seg.CriticalMargin))
	s := &oddsv1.OddsSection{Key: "attack", Title: "the attack (D20-040, D20-042)"}
	s.Chances = append(s.Chances,
		chance("hit", "the attack hits", "D20-040", hit),
		chance("critical", "a critical", "D20-042", crit))
	if a.Hidden {
		o.Summary = fmt.Sprintf("an attack with %s against %s", a.Weapon, a.Target)
		s.Unavailable = hiddenTarget
		s.Chances = nil
		o.Sections = append(o.Sections, s)
		return o
	}
	roll := Expr(a.Damage)
	dealt := func(mult int32) Dist {
		return roll.Map(func(v int) int { return int(max(0, mult*(int32(v)+a.PerHit)+a.Feat)) })
	}
	var damage Builder
	var down float64
	for _, c := range []struct {
		p    float64
		mult int32
	}{{hit - crit, 1}, {crit, a.Multiplier}} {
		d := dealt(c.mult)
		for i, q := range d.P {
			v := d.Min + i
			damage.Add(v, c.p*q)
			if a.HitPoints-int32(v) <= a.DownAt {
				down += c.p * q
			}
		}
	}
	damage.Add(0, 1-hit)
	s.Chances = append(s.Chances, chance("down", "the target goes down", "D20-044", down))
	s.Distributions = append(s.Distributions, distribution("damage", "damage dealt (0 on a miss)", damage.Dist()))
	o.Sections = append(o.Sections, s)
	return o
}
