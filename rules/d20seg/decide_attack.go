package d20seg

import (
	"fmt"

	d20segv1 "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
)

// Reach in centimetres by size (D20-030).
func (sys System) Reach(s d20segv1.Size) int32 { return modifier(sys.n.Reach[:], int(s)) }

// Space in centimetres by size (D20-030).
func (sys System) Space(s d20segv1.Size) int32 { return modifier(sys.n.Space[:], int(s)) }

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
