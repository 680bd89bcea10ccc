package feerie

import (
	"strings"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

func (sys System) decideDeclare(st *encounterv1.EncounterState, f fighter, d *feeriev1.Declare) ([]*encounterv1.Event, error) {
	if feerieState(st).GetStep() != feeriev1.Step_STEP_DECLARING {
		return nil, engine.Refused("FEE-033", "%s: intentions and tactics are declared at step 1 of the Action; use a change of intention (FEE-070)", f.name())
	}
	if f.cs.GetHasDeclared() {
		return nil, engine.Refused("FEE-033", "%s has already declared for this Action", f.name())
	}
	in := proto.CloneOf(d.GetIntent())
	if err := sys.checkIntent(st, f, in); err != nil {
		return nil, err
	}
	if f.cs.GetSurprisedActions() > 0 && in.GetTactic() != nil && (in.GetTactic().GetInitiative() != 0 || in.GetTactic().GetAttack() != 0 || in.GetTactic().GetDefense() != 0) {
		return nil, engine.Refused("FEE-080", "%s is surprised and may not declare a tactic this Action", f.name())
	}
	return one(&feeriev1.Event{Kind: &feeriev1.Event_Declared{Declared: &feeriev1.Declared{CombatantId: f.id(), Intent: in}}}), nil
}

// checkIntent validates an intent: its kind, target, Attributes and tactic.
func (sys System) checkIntent(st *encounterv1.EncounterState, f fighter, in *feeriev1.Intent) error {
	if in == nil {
		return engine.Invalid("FEE-040", "declare an intention: an attack, another activity, or a passive one")
	}
	if in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_UNSPECIFIED {
		return engine.Invalid("FEE-040", "%s's intention needs a kind of activity", f.name())
	}
	attack := in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK || in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	if attack {
		t, err := fighterOf(st, in.GetTargetId())
		if err != nil {
			return err
		}
		if t.id() == f.id() {
			return engine.Invalid("", "%s cannot attack itself", f.name())
		}
		for _, s := range in.GetStrikes() {
			switch s {
			case feeriev1.SpecialStrike_SPECIAL_STRIKE_KEEP_AT_BAY:
				if t.sh.GetTaille() > f.sh.GetTaille() {
					return engine.Refused("FEE-154", "%s can keep at bay only a target no larger than itself", f.name())
				}
			case feeriev1.SpecialStrike_SPECIAL_STRIKE_ENTER_THE_GUARD:
				if t.sh.GetTaille() < f.sh.GetTaille() {
					return engine.Refused("FEE-159", "%s can enter the guard only of a target no smaller than itself", f.name())
				}
			case feeriev1.SpecialStrike_SPECIAL_STRIKE_UNSPECIFIED:
				return engine.Invalid("FEE-149", "unknown special strike")
			}
		}
	} else if len(in.GetStrikes()) > 0 {
		return engine.Invalid("FEE-149", "special strikes go with an attack")
	}
	if err := checkSweep(st, f, in); err != nil { // FEE-094, FEE-095
		return err
	}
	if in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_OTHER && aspect(f.sh, in.GetAspect()) < 0 {
		return engine.Invalid("", "name the Aspect rolled: vigilance, habilete, puissance, resistance or charme")
	}
	if _, err := sys.ComputeValues(f.sh, in); err != nil {
		return withName(err, f.name())
	}
	return CheckTactic(f.sh, in, f.name())
}

func aspect(sh *feeriev1.Sheet, name string) int32 {
	switch strings.ToLower(name) {
	case "vigilance":
		return sh.GetVigilance()
	case "habilete", "habileté":
		return sh.GetHabilete()
	case "puissance":
		return sh.GetPuissance()
	case "resistance", "résistance":
		return sh.GetResistance()
	case "charme":
		return sh.GetCharme()
	}
	return -1
}

// sameIntent: no technical difference (FEE-070, FEE-182): a change of target alone is not a
// change of intention, nor, when the options say so, is a special strike chosen at the roll;
// another option makes a change of target one.
func sameIntent(o *feeriev1.Options, a, b *feeriev1.Intent) bool {
	x, y := proto.CloneOf(a), proto.CloneOf(b)
	x.Description, y.Description = "", ""
	if !o.GetTargetChangeIsChange() {
		x.TargetId, y.TargetId = "", ""
	}
	if o.GetStrikesAtRoll() {
		x.Strikes, y.Strikes = nil, nil
	}
	if x.GetTactic() != nil {
		x.Tactic.Preset = ""
	}
	if y.GetTactic() != nil {
		y.Tactic.Preset = ""
	}
	for _, i := range []*feeriev1.Intent{x, y} { // walking slowly is free alongside (FEE-047)
		if i.GetPace() == feeriev1.Pace_PACE_WALK {
			i.Pace = feeriev1.Pace_PACE_UNSPECIFIED
		}
	}
	return proto.Equal(x, y)
}

func (sys System) decideChange(st *encounterv1.EncounterState, f fighter, c *feeriev1.Change) ([]*encounterv1.Event, error) {
	rank, err := countdown(st)
	if err != nil {
		return nil, withName(err, f.name())
	}
	if f.cs.GetSurpriseNoActivity() {
		return nil, engine.Refused("FEE-082", "%s is under a surprise that forbids any activity", f.name())
	}
	if !f.cs.GetCanAct() {
		return nil, engine.Refused("FEE-043", "%s rolled an Initiative of %d and cannot act in this Action, whatever its intention", f.name(), f.cs.GetInitiative())
	}
	in := proto.CloneOf(c.GetIntent())
	if err := CheckNewCap(f.sh, f.cs.GetDeclared(), in, f.name()); err != nil {
		return nil, err
	}
	if err := sys.checkIntent(st, f, in); err != nil {
		return nil, err
	}
	if sameIntent(house(st), in, f.cs.GetDeclared()) {
		return nil, engine.Invalid("FEE-070", "this is the intention %s already declared", f.name())
	}
	return one(&feeriev1.Event{Kind: &feeriev1.Event_IntentionChanged{IntentionChanged: &feeriev1.IntentionChanged{
		CombatantId: f.id(), Intent: in, Rank: rank, ActingRank: sys.newRank(f, in, rank),
	}}}), nil
}

// newRank is the acting rank after a change of tactic (FEE-071): for the first activity, the
// rolled Initiative moved by the new tactic's Initiative modifier instead of the old one's; for
// a further activity that is also a change, its rank 8 ranks after the previous activity moved
// the same way from the tactic in force then (FEE-074); never above the rank of the change.
func (sys System) newRank(f fighter, in *feeriev1.Intent, rank int32) int32 {
	r := f.cs.GetInitiative() - f.cs.GetInitiativeTactic() + in.GetTactic().GetInitiative()
	if f.cs.GetActivities() > 0 {
		r = f.cs.GetLastRank() - sys.n.SupplementaryRanks - f.cs.GetLastTacticInitiative() + in.GetTactic().GetInitiative()
	}
	return min(r, rank)
}

// furtherRank is the rank of a further activity with no new change: 8 ranks after the
// previous one (FEE-060), or where a change declared since moved it (FEE-074).
func (sys System) furtherRank(f fighter) int32 {
	if f.cs.GetChangeMalus() > 0 {
		return f.cs.GetActingRank()
	}
	return f.cs.GetLastRank() - sys.n.SupplementaryRanks
}
