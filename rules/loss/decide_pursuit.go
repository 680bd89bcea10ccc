package loss

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// DistanceDifficulty is the Difficulty of changing distance at a distance (LOS-104).
func DistanceDifficulty(units int32) int32 {
	if units <= 2 {
		return 15
	}
	return 15 + 5*(units-2)
}

// zigzagMalus is what Zigzags add to the pursuers' actions per Exploits (LOS-107).
func zigzagMalus(exploits int32) int32 {
	switch exploits {
	case 0:
		return 2
	case 1:
		return 5
	default:
		return 10
	}
}

func (sys System) decideStartPursuit(st *encounterv1.EncounterState, sp *lossv1.StartPursuit, gm bool) ([]*encounterv1.Event, error) {
	if !gm {
		return nil, engine.Forbidden("only the GM opens a pursuit")
	}
	if lossState(st).GetPursuit() != nil {
		return nil, engine.Refused("LOS-100", "a pursuit is already on")
	}
	if len(sp.GetPursuerIds()) == 0 || len(sp.GetPursuedIds()) == 0 {
		return nil, engine.Invalid("LOS-100", "a pursuit needs pursuers and pursued")
	}
	if sp.GetDistance() < 1 || sp.GetDistance() > sys.MaxDistance {
		return nil, engine.Invalid("LOS-100", "a pursuit starts at a distance of 1 (contact) to %d (out of range) units, not %d", sys.MaxDistance, sp.GetDistance())
	}
	for _, id := range append(slices.Clone(sp.GetPursuerIds()), sp.GetPursuedIds()...) {
		f, err := fighterOf(st, id)
		if err != nil {
			return nil, err
		}
		if f.cs.GetOut() {
			return nil, engine.Refused("LOS-100", "%s is out of the fight", f.name())
		}
		if slices.Contains(sp.GetPursuerIds(), id) && slices.Contains(sp.GetPursuedIds(), id) {
			return nil, engine.Invalid("LOS-100", "%s cannot both pursue and flee", f.name())
		}
	}
	return one(&lossv1.Event{Kind: &lossv1.Event_PursuitStarted{PursuitStarted: &lossv1.PursuitStarted{Pursuit: &lossv1.Pursuit{
		PursuerIds: sp.GetPursuerIds(), PursuedIds: sp.GetPursuedIds(), Distance: sp.GetDistance(),
	}}}}), nil
}

// decidePursuit decides a pursuit action (LOS-100…LOS-108): who may take it against whom, its
// Test, and what it does on a success; a target that can still dodge awaits its dodge.
func (sys System) decidePursuit(st *encounterv1.EncounterState, f fighter, a *lossv1.PursuitAction, env engine.Env) ([]*encounterv1.Event, error) {
	p, pursuer, err := sys.pursuitActor(st, f, a)
	if err != nil {
		return nil, err
	}
	k := a.GetKind()
	needTarget := k == lossv1.PursuitKind_PURSUIT_KIND_CHARGE || k == lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE ||
		k == lossv1.PursuitKind_PURSUIT_KIND_TACKLE || k == lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS
	var t fighter
	if needTarget {
		if t, err = pursuitTarget(st, p, pursuer, a.GetTargetId()); err != nil {
			return nil, err
		}
	}
	pt, err := sys.pursuitTest(f, a, pursuer, p.GetDistance())
	if err != nil {
		return nil, err
	}
	w, cost, total, err := sys.pursuitPrice(f, a, pt)
	if err != nil {
		return nil, err
	}
	m := &mods{}
	if err := sys.pursuitModifiers(st, f, a, p, pursuer, pt.score, m); err != nil {
		return nil, err
	}
	res := sys.roll(st, f, pt.score, pt.base, a.GetExploits(), m, a.GetSpend(), env.Dice)
	ev := &lossv1.PursuitActed{
		CombatantId: f.id(), Kind: k, TargetId: t.id(), ActionPointsSpent: cost, Exploits: a.GetExploits(),
		Test: res, Success: res.GetSuccess(), Distance: p.GetDistance(),
	}
	if !res.GetSuccess() {
		return one(&lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: ev}}), nil
	}
	sys.pursuitSucceeds(st, f, a, p.GetDistance(), w, total, ev, env)
	if ev.GetSuccess() && needTarget {
		if t.cs.GetActionPoints() >= sys.DefenceCost && t.sh.GetDodge() != nil {
			ev.DodgePossible = true
		} else {
			sys.pursuitEffect(p, pursuer, t, ev)
		}
	}
	return one(&lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: ev}}), nil
}

// pursuitActor is the pursuit f takes part in and whether f pursues, refusing an action with
// no pursuit or by one not in it (LOS-100), by one down or disarmed (LOS-072, LOS-074), or with
// more Exploits than may be declared (LOS-010).
func (sys System) pursuitActor(st *encounterv1.EncounterState, f fighter, a *lossv1.PursuitAction) (*lossv1.Pursuit, bool, error) {
	p := lossState(st).GetPursuit()
	if p == nil {
		return nil, false, engine.Refused("LOS-100", "there is no pursuit going on")
	}
	pursuer := slices.Contains(p.GetPursuerIds(), f.id())
	if !pursuer && !slices.Contains(p.GetPursuedIds(), f.id()) {
		return nil, false, engine.Refused("LOS-100", "%s takes no part in the pursuit", f.name())
	}
	if err := sys.hindered(st, f, false, false, false); err != nil {
		return nil, false, err
	}
	if a.GetExploits() < 0 || a.GetExploits() > sys.MaxExploits {
		return nil, false, engine.Invalid("LOS-010", "%s declares %d Exploits; from 0 to %d may be declared", f.name(), a.GetExploits(), sys.MaxExploits)
	}
	return p, pursuer, nil
}

// pursuitTarget is the opponent a Charge, Clothesline, Tackle or shot at the legs is aimed at:
// one of the other side, still in the fight (LOS-100).
func pursuitTarget(st *encounterv1.EncounterState, p *lossv1.Pursuit, pursuer bool, id string) (fighter, error) {
	t, err := fighterOf(st, id)
	if err != nil {
		return fighter{}, err
	}
	other := p.GetPursuedIds()
	if !pursuer {
		other = p.GetPursuerIds()
	}
	if !slices.Contains(other, t.id()) || t.cs.GetOut() {
		return fighter{}, engine.Refused("LOS-100", "%s is not an opponent in this pursuit", t.name())
	}
	return t, nil
}

// pursuitRoll is the Test of a pursuit action: its rule, the score it Tests, its base
// Difficulty and its PA cost before a shot's.
type pursuitRoll struct {
	rule       string
	score      *lossv1.Score
	base, cost int32
}

// pursuitTest is the Test a pursuit action makes, refused where its rule says who takes it at
// which distance: a Charge (LOS-102), a Clothesline (LOS-103), a change of distance (LOS-104),
// a Tackle (LOS-105), a shot at the legs (LOS-106), Zigzags (LOS-107); and by one whose sheet
// has no score for it.
func (sys System) pursuitTest(f fighter, a *lossv1.PursuitAction, pursuer bool, dist int32) (pursuitRoll, error) {
	pt := pursuitRoll{score: f.sh.GetPursuit(), base: sys.KeepPaceDifficulty, cost: sys.PursuitActionCost}
	switch a.GetKind() {
	case lossv1.PursuitKind_PURSUIT_KIND_CHARGE:
		pt.rule, pt.cost, pt.base = "LOS-102", sys.ChargeCost, sys.ChargeDifficulty
		if !pursuer || dist != 2 {
			return pt, engine.Refused(pt.rule, "a Charge is made by a pursuer at distance 2; the distance is %d", dist)
		}
		if a.GetExploits() > 0 && sys.ChargeTakesNoExploits {
			return pt, engine.Refused(pt.rule, "a Charge takes no Exploits: it is dodged at a flat %d, whatever the charger declares", sys.ChargeDodgeDifficulty)
		}
	case lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE:
		pt.rule, pt.score, pt.base = "LOS-103", f.sh.GetAthletics(), sys.AthleticsDiff
		if pursuer || dist != 2 {
			return pt, engine.Refused(pt.rule, "a Clothesline is made by the pursued turning back at distance 2; the distance is %d", dist)
		}
	case lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE:
		pt.rule, pt.base = "LOS-104", DistanceDifficulty(dist)
	case lossv1.PursuitKind_PURSUIT_KIND_TACKLE:
		pt.rule, pt.score, pt.base = "LOS-105", f.sh.GetAthletics(), sys.AthleticsDiff
		if !pursuer || dist != 1 {
			return pt, engine.Refused(pt.rule, "a Tackle is made by a pursuer at contact (1); the distance is %d", dist)
		}
	case lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS:
		pt.rule = "LOS-106"
		if dist > sys.LegsShotMaxRange {
			return pt, engine.Refused(pt.rule, "shooting the legs needs a distance of %d or less; it is %d", sys.LegsShotMaxRange, dist)
		}
	case lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS:
		pt.rule = "LOS-107"
		if pursuer {
			return pt, engine.Refused(pt.rule, "Zigzags are for the pursued")
		}
	default:
		return pt, engine.Invalid("LOS-100", "choose a pursuit action: charge, clothesline, change distance, tackle, shoot the legs or zigzags")
	}
	if pt.score == nil {
		return pt, engine.Refused(pt.rule, "%s's sheet has no score for this pursuit action", f.name())
	}
	return pt, nil
}

// pursuitPrice is a pursuit action's weapon, if it shoots, its cost and its whole cost with
// the shot at the legs' (LOS-106), each lowered by a wait (LOS-040), refused beyond the PA
// left (LOS-035).
func (sys System) pursuitPrice(f fighter, a *lossv1.PursuitAction, pt pursuitRoll) (*lossv1.Weapon, int32, int32, error) {
	var w *lossv1.Weapon
	total := pt.cost
	if a.GetKind() == lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS {
		var err error
		if w, err = weaponOf(f, a.GetWeapon()); err != nil {
			return nil, 0, 0, err
		}
		if !isRanged(w) {
			return nil, 0, 0, engine.Refused(pt.rule, "%s is not a ranged weapon", w.GetName())
		}
		total += sys.attackCost(f, w)
	}
	cost := sys.cost(f, pt.cost)
	total = sys.cost(f, total)
	if err := needPA(f, total, "this pursuit action"); err != nil {
		return nil, 0, 0, err
	}
	return w, cost, total, nil
}

// pursuitModifiers adds to a pursuit action's Test what it spends (LOS-004), the actor's own
// state (LOS-022), a defensive Exploit's bonus on the action's first Test only (LOS-016), the
// pursued's Zigzags against a pursuer (LOS-107), a mount's or vehicle's speed (LOS-108).
func (sys System) pursuitModifiers(st *encounterv1.EncounterState, f fighter, a *lossv1.PursuitAction, p *lossv1.Pursuit, pursuer bool, score *lossv1.Score, m *mods) error {
	if err := sys.spendBonus(st, f, a.GetSpend(), m); err != nil {
		return err
	}
	sys.ownModifiers(st, f, nil, m, false)
	defenceExploitBonus(f, m) // on the action's first Test only (LOS-016)
	if pursuer && p.GetZigzag() > 0 {
		m.difficulty("the pursued zigzags", "LOS-107", p.GetZigzag())
	}
	if score == f.sh.GetPursuit() && f.sh.GetMountSpeed() != 0 {
		m.test("mount or vehicle speed", "LOS-108", f.sh.GetMountSpeed())
	}
	return nil
}

// pursuitSucceeds is what a successful pursuit Test does on its own: a change of distance by
// 1, or 2 with 2 Exploits, that may lose sight of the pursued (LOS-100, LOS-104); Zigzags'
// malus (LOS-107); for a shot at the legs, the shot itself, whose success is the action's
// (LOS-106).
func (sys System) pursuitSucceeds(st *encounterv1.EncounterState, f fighter, a *lossv1.PursuitAction, dist int32, w *lossv1.Weapon, total int32, ev *lossv1.PursuitActed, env engine.Env) {
	switch a.GetKind() {
	case lossv1.PursuitKind_PURSUIT_KIND_CHANGE_DISTANCE:
		delta := int32(1)
		if a.GetExploits() >= 2 {
			delta = 2 // LOS-104: at most 2 units per action
		}
		if a.GetCloser() {
			ev.Distance = max(1, dist-delta)
		} else {
			ev.Distance = dist + delta
		}
		if ev.Distance > sys.MaxDistance {
			ev.Ended, ev.Distance, ev.Note = true, 0, "sight is lost: the pursuit ends (LOS-100)"
		}
	case lossv1.PursuitKind_PURSUIT_KIND_ZIGZAGS:
		ev.Zigzag = zigzagMalus(min(a.GetExploits(), 2))
	case lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS:
		ev.ActionPointsSpent = total
		sm := &mods{}
		sys.ownModifiers(st, f, nil, sm, false)
		sm.test("aim", "LOS-084", sys.aimBonus(st, f, w, nil))
		ev.Shot = sys.roll(st, f, w.GetAttack(), sys.LegsShotDifficulty, 0, sm, nil, env.Dice)
		ev.Weapon = w.GetName()
		ev.Success = ev.GetShot().GetSuccess()
	}
}

// pursuitEffect is what a pursuit action that was not dodged does (LOS-102, LOS-103, LOS-105,
// LOS-106).
func (sys System) pursuitEffect(p *lossv1.Pursuit, byPursuer bool, t fighter, ev *lossv1.PursuitActed) {
	dist := p.GetDistance()
	ev.Distance = dist
	switch ev.GetKind() {
	case lossv1.PursuitKind_PURSUIT_KIND_CHARGE:
		ev.TargetDown, ev.Note = true, t.name()+" is unseated or thrown down"
	case lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE:
		ev.TargetDown, ev.Distance = true, dist+1
	case lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS:
		ev.TargetDown = true
		if byPursuer {
			ev.Distance = max(1, dist-1)
		} else {
			ev.Distance = dist + 1
		}
	case lossv1.PursuitKind_PURSUIT_KIND_TACKLE:
		ev.Ended, ev.Distance, ev.Note = true, 0, "the pursuit becomes a standard fight (LOS-105)"
	}
	if ev.Distance > sys.MaxDistance {
		ev.Ended, ev.Distance, ev.Note = true, 0, "sight is lost: the pursuit ends (LOS-100)"
	}
}

// decidePursuitReact answers a Charge, Clothesline, Tackle or shot at the legs: only a dodge
// avoids it, at the attacker's Difficulty.
func (sys System) decidePursuitReact(st *encounterv1.EncounterState, pa *lossv1.PendingAttack, att, d fighter, r *lossv1.React, env engine.Env) ([]*encounterv1.Event, error) {
	p := lossState(st).GetPursuit()
	byPursuer := slices.Contains(p.GetPursuerIds(), att.id())
	res := &lossv1.PursuitActed{CombatantId: att.id(), Kind: pa.GetPursuit(), TargetId: d.id(), Resolves: true, Distance: p.GetDistance()}
	dr := &lossv1.DefenceRolled{DefenderId: d.id(), Reaction: r.GetReaction(), AttackerId: att.id()}
	switch r.GetReaction() {
	case lossv1.Reaction_REACTION_NONE:
		res.Success = true
		sys.pursuitEffect(p, byPursuer, d, res)
	case lossv1.Reaction_REACTION_DODGE:
		if d.cs.GetActionPoints() < sys.DefenceCost {
			return nil, engine.Refused("LOS-032", "%s has no PA left to dodge", d.name())
		}
		if d.sh.GetDodge() == nil {
			return nil, engine.Refused("LOS-018", "%s cannot dodge", d.name())
		}
		m := &mods{}
		if err := sys.spendBonus(st, d, r.GetSpend(), m); err != nil {
			return nil, err
		}
		sys.ownModifiers(st, d, r.GetSituation(), m, true)
		defenceExploitBonus(d, m)
		exploits := r.GetExploits()
		if exploits < 0 || exploits > sys.MaxExploits || len(r.GetEffects()) > 0 {
			return nil, engine.Invalid("LOS-012", "a dodge in a pursuit takes 0 to %d plain Exploits", sys.MaxExploits)
		}
		dr.ActionPointsSpent, dr.Exploits = sys.DefenceCost, exploits
		dr.Test = sys.roll(st, d, d.sh.GetDodge(), pa.GetDifficulty(), exploits, m, r.GetSpend(), env.Dice)
		res.Dodge = dr.GetTest()
		res.Success = !dr.GetTest().GetSuccess()
		if res.Success {
			sys.pursuitEffect(p, byPursuer, d, res)
		}
	default:
		rule := map[lossv1.PursuitKind]string{ // the rule of the action awaiting the dodge
			lossv1.PursuitKind_PURSUIT_KIND_CHARGE: "LOS-102", lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE: "LOS-103",
			lossv1.PursuitKind_PURSUIT_KIND_TACKLE: "LOS-105", lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS: "LOS-106",
		}[pa.GetPursuit()]
		return nil, engine.Refused(rule, "only a dodge avoids %s", pursuitName(pa.GetPursuit()))
	}
	return []*encounterv1.Event{
		defenceRolled(dr),
		lossEvent(&lossv1.Event{Kind: &lossv1.Event_PursuitActed{PursuitActed: res}}),
	}, nil
}

func pursuitName(k lossv1.PursuitKind) string {
	switch k {
	case lossv1.PursuitKind_PURSUIT_KIND_CHARGE:
		return "a Charge"
	case lossv1.PursuitKind_PURSUIT_KIND_CLOTHESLINE:
		return "a Clothesline"
	case lossv1.PursuitKind_PURSUIT_KIND_TACKLE:
		return "a Tackle"
	case lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS:
		return "a shot at the legs"
	}
	return "this action"
}

func inPursuit(st *encounterv1.EncounterState, id string) bool {
	p := lossState(st).GetPursuit()
	return p != nil && (slices.Contains(p.GetPursuerIds(), id) || slices.Contains(p.GetPursuedIds(), id))
}

// pursuitUnits is the pursuit distance between two opponents of a pursuit, 0 if they are not
// (LOS-100).
func pursuitUnits(st *encounterv1.EncounterState, a, b string) int32 {
	p := lossState(st).GetPursuit()
	ar, ad := slices.Contains(p.GetPursuerIds(), a), slices.Contains(p.GetPursuedIds(), a)
	br, bd := slices.Contains(p.GetPursuerIds(), b), slices.Contains(p.GetPursuedIds(), b)
	if (ar && bd) || (ad && br) {
		return p.GetDistance()
	}
	return 0
}

// pursuitDifficulty is the Difficulty of the dodge against a pursuit action: a flat 20 against
// a Charge, whatever the charger's Exploits (LOS-102); the attacker's Difficulty otherwise.
func (sys System) pursuitDifficulty(k lossv1.PursuitKind, exploits int32) int32 {
	switch k {
	case lossv1.PursuitKind_PURSUIT_KIND_CHARGE:
		return sys.ChargeDodgeDifficulty
	case lossv1.PursuitKind_PURSUIT_KIND_SHOOT_LEGS:
		return sys.LegsShotDifficulty
	default:
		return sys.AthleticsDiff + sys.ExploitsDifficulty(exploits)
	}
}
