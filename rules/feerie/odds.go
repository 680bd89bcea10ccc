package feerie

import (
	"fmt"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	oddsv1 "github.com/fray-rpg/fray/gen/fray/odds/v1"
	"github.com/fray-rpg/fray/rules/dice"
	"github.com/fray-rpg/fray/rules/engine"
	"github.com/fray-rpg/fray/rules/odds"
	"google.golang.org/protobuf/proto"
)

// AttackOdds is what the odds of a Contes de Fées attack are computed from: the Attack
// score (without the dice), the tactic's Attack modifier in it, the Defense, Damage and Soak,
// the zero-mean roll, the special strikes, the target's Essence (FEE-001, FEE-020, FEE-021).
type AttackOdds struct {
	Score, Tactic, Defense, Damage, Soak, Essence int32
	Roll                                          odds.Dist
	Strikes                                       []feeriev1.SpecialStrike
	Options                                       *feeriev1.Options
	// System is the version of the rules the encounter pinned: the formulas of a hit are its.
	System System
	// Presets: each named tactic of FEE-034, or why it is beyond the attacker's cap.
	Presets []Preset
	Hidden  bool
	Object  bool
	Target  string
}

// Preset is a named tactic and its Attack modifier, or why it cannot be taken.
type Preset struct {
	Name    string
	Attack  int32
	Refused string
}

// WithOdds: an activity; the odds are those of a melee or ranged attack (FEE-020).
func (System) WithOdds() []string { return []string{"act"} }

// Odds is the odds of an activity (FEE-020), read from the real Decide with a probe's dice; nil
// for any other command (engine.System; rules/odds.Of asks it).
func (sys System) Odds(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*oddsv1.Odds, error) {
	if cmd.GetFeerie().GetAct() == nil {
		return nil, nil
	}
	return odds.Read(sys.ReadAttackOdds(reg, st, cmd, actor))
}

// ReadAttackOdds queues the activity cmd gives on st, as the rules do, then resolves it at
// once with a probe's dice to read its numbers.
func (sys System) ReadAttackOdds(reg *engine.Registry, st *encounterv1.EncounterState, cmd *encounterv1.Command, actor string) (*AttackOdds, error) {
	evs, next, err := odds.Decide(reg, st, cmd, actor, &odds.Probe{})
	if err != nil {
		return nil, err
	}
	q := evs[0].GetFeerie().GetActivityQueued().GetQueued()
	in := q.GetAct().GetIntent()
	if k := in.GetKind(); k != feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK && k != feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK {
		return nil, engine.Invalid("FEE-020", "odds are computed for a melee or ranged attack")
	}
	pr := &odds.Probe{}
	res := sys.ResolveQueued(next, q, pr).GetFeerie().GetActivityResolved()
	plus := odds.Expr(pr.Exprs[0])
	roll := plus
	if len(pr.Exprs) > 1 {
		roll = plus.Add(odds.Expr(pr.Exprs[1]).Neg())
	}
	me := engine.FindCombatant(next, q.GetCombatantId())
	target := engine.FindCombatant(next, in.GetTargetId())
	tactic := next.GetFeerie().GetCombatants()[me.GetId()].GetTactic().GetAttack()
	a := &AttackOdds{
		Score: res.GetAttack().GetScore(), Tactic: tactic, Defense: res.GetDefense(), Damage: res.GetDamage(), Soak: res.GetSoak(),
		Essence: next.GetFeerie().GetCombatants()[target.GetId()].GetEssence(), Roll: roll, Strikes: in.GetStrikes(),
		Options: next.GetOptions().GetFeerie(), System: sys, Hidden: target.GetFeerie() == nil, Target: target.GetName(),
		Object: target.GetFeerie().GetInanimate() || next.GetFeerie().GetCombatants()[target.GetId()].GetInanimate(),
	}
	for _, p := range Presets {
		try := proto.CloneOf(in)
		try.Tactic = &feeriev1.Tactic{Preset: p.Name}
		pre := Preset{Name: p.Name, Attack: p.Att}
		if err := CheckTactic(me.GetFeerie(), try, me.GetName()); err != nil {
			pre.Refused = err.Error()
		}
		a.Presets = append(a.Presets, pre)
	}
	return a, nil
}

// Odds is, for the tactic in force and for each named tactic, the chance to hit, the Essence
// lost and the chance the special strikes take effect.
func (a *AttackOdds) Odds() *oddsv1.Odds {
	o := &oddsv1.Odds{Summary: fmt.Sprintf("an attack on %s: Attack %d against Defense %d", a.Target, a.Score, a.Defense),
		LeftOut: a.Roll.Left,
		Assumptions: []string{
			"the activity is resolved on the state as it is now (FEE-045)",
			"a named tactic changes only the Attack modifier here; its Initiative and Defense modifiers and the penalties of a change of intention (FEE-070) are not counted",
		}}
	if a.Hidden || a.Object {
		why := odds.HiddenTarget
		if a.Object {
			why = "an inanimate target takes a Damage roll, not an attack (FEE-023)"
		}
		o.Summary = "an attack on " + a.Target
		o.Sections = append(o.Sections, &oddsv1.OddsSection{Key: "chosen", Title: "the tactic in force", Unavailable: why})
		return o
	}
	o.Sections = append(o.Sections, a.section("chosen", fmt.Sprintf("the tactic in force (Attack %+d)", a.Tactic), a.Score))
	for _, p := range a.Presets {
		key, title := "tactic:"+p.Name, fmt.Sprintf("%s (Attack %+d)", p.Name, p.Attack)
		if p.Refused != "" {
			o.Sections = append(o.Sections, &oddsv1.OddsSection{Key: key, Title: title, Unavailable: p.Refused})
			continue
		}
		o.Sections = append(o.Sections, a.section(key, title, a.Score-a.Tactic+p.Attack))
	}
	return o
}

func (a *AttackOdds) section(key, title string, score int32) *oddsv1.OddsSection {
	s := &oddsv1.OddsSection{Key: key, Title: title}
	var hit, strike float64
	var lost odds.Builder
	for i, p := range a.Roll.P {
		margin := int32(a.Roll.Min+i) + score - a.Defense
		if !Succeeds(a.Options, margin) {
			lost.Add(0, p)
			continue
		}
		hit += p
		if a.System.StrikesTakeEffect(a.Options, margin, a.Damage, a.Soak, a.Strikes) {
			strike += p
		}
		lost.Add(int(a.System.HitLoss(a.Options, margin, a.Damage, a.Soak, a.Essence, a.Strikes)), p)
	}
	s.Chances = append(s.Chances, odds.Chance("hit", "the attack succeeds", "FEE-020", hit))
	if len(a.Strikes) > 0 {
		s.Chances = append(s.Chances, odds.Chance("strike", "the special strikes take effect", "FEE-149", strike))
	}
	s.Distributions = append(s.Distributions, odds.Distribution("essence", "Essence lost", lost.Dist()))
	return s
}

// What the odds above read of an activity the way the rules resolve it; the formulas they count
// with (HitLoss, StrikesTakeEffect, in resolve.go) are those Decide uses.

// ResolveQueued resolves a queued activity on st with roller, as the countdown does when it
// reaches the activity's rank (FEE-045), and returns its ActivityResolved event.
func (sys System) ResolveQueued(st *encounterv1.EncounterState, q *feeriev1.Queued, roller dice.Roller) *encounterv1.Event {
	return sys.resolve(st, q, roller)
}

// Succeeds reports whether a margin succeeds (FEE-002, option tie_succeeds).
func Succeeds(o *feeriev1.Options, margin int32) bool { return succeeds(o, margin) }
