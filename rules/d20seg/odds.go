package d20seg

import (
	"fmt"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/odds"
)

// AttackOdds is what the odds of a d20seg attack are computed from (D20-040…D20-044).
type AttackOdds struct {
	// Bonus added to the d20 and the CA it must reach (flat-footed already taken off), and
	// the total from which it is a critical.
	Bonus, CA, CriticalAt int32
	Die                   dice.Expr
	// Damage: the weapon's dice; Blow what is added to them and how a critical multiplies it
	// (D20-041, D20-042), the rules' own formula.
	Damage    dice.Expr
	Blow      Blow
	HitPoints int32
	// Options: the encounter's house rules, which say when a combatant is down (D20-044).
	Options        *d20segv1.Options
	Hidden         bool
	Target, Weapon string
}

// WithOdds: an attack (D20-040).
func (System) WithOdds() []string { return []string{"attack"} }

// Odds is the odds of an attack (D20-040…D20-044), read from the real Decide with a probe's
// dice; nil for any other command (engine.System; rules/odds.Of asks it).
func (sys System) Odds(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*oddsv1.Odds, error) {
	if cmd.GetD20Seg().GetAttack() == nil {
		return nil, nil
	}
	return odds.Read(sys.ReadAttackOdds(reg, st, cmd, actor))
}

// ReadAttackOdds reads the numbers of the attack cmd gives on st, deciding it with a probe's
// dice that hit with a critical, under the version of the rules the encounter pinned.
func (sys System) ReadAttackOdds(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*AttackOdds, error) {
	pr := &odds.Probe{First: odds.Far}
	evs, err := reg.Decide(st, cmd, engine.Env{Actor: actor, Dice: pr})
	if err != nil {
		return nil, err
	}
	ar := evs[0].GetD20Seg().GetAttackRolled()
	att := engine.FindCombatant(st, ar.GetAttackerId()).GetD20Seg()
	target := engine.FindCombatant(st, ar.GetTargetId())
	a := &AttackOdds{Bonus: ar.GetBonus(), CA: ar.GetCa(), CriticalAt: sys.CriticalAt(ar.GetCa()), Die: pr.Exprs[0], Damage: pr.Exprs[1],
		HitPoints: st.GetD20Seg().GetCombatants()[ar.GetTargetId()].GetHitPoints(),
		Options:   st.GetOptions().GetD20Seg(), Hidden: target.GetD20Seg() == nil,
		Target: target.GetName(), Weapon: ar.GetWeapon()}
	for _, w := range att.GetWeapons() {
		if w.GetName() == ar.GetWeapon() {
			a.Blow = sys.Blow(att, w, cmd.GetD20Seg().GetAttack())
		}
	}
	return a, nil
}

// Odds is the chance to hit, to score a critical, the damage and the chance the target goes
// down.
func (a *AttackOdds) Odds() *oddsv1.Odds {
	o := &oddsv1.Odds{Summary: fmt.Sprintf("an attack with %s, %+d against CA %d", a.Weapon, a.Bonus, a.CA)}
	total := odds.Expr(a.Die).Shift(int(a.Bonus))
	hit := total.AtLeast(int(a.CA))
	crit := total.AtLeast(int(a.CriticalAt))
	s := &oddsv1.OddsSection{Key: "attack", Title: "the attack (D20-040, D20-042)"}
	s.Chances = append(s.Chances,
		odds.Chance("hit", "the attack hits", "D20-040", hit),
		odds.Chance("critical", "a critical", "D20-042", crit))
	if a.Hidden {
		o.Summary = fmt.Sprintf("an attack with %s against %s", a.Weapon, a.Target)
		s.Unavailable = odds.HiddenTarget
		s.Chances = nil
		o.Sections = append(o.Sections, s)
		return o
	}
	roll := odds.Expr(a.Damage)
	var damage odds.Builder
	var down float64
	for _, c := range []struct {
		p        float64
		critical bool
	}{{hit - crit, false}, {crit, true}} {
		d := roll.Map(func(v int) int { return int(a.Blow.Damage(int32(v), c.critical)) })
		for i, q := range d.P {
			v := d.Min + i
			damage.Add(v, c.p*q)
			if Down(a.Options, a.HitPoints-int32(v)) {
				down += c.p * q
			}
		}
	}
	damage.Add(0, 1-hit)
	s.Chances = append(s.Chances, odds.Chance("down", "the target goes down", "D20-044", down))
	s.Distributions = append(s.Distributions, odds.Distribution("damage", "damage dealt (0 on a miss)", damage.Dist()))
	o.Sections = append(o.Sections, s)
	return o
}
