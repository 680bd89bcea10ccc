package feerie

import (
	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

func countdown(st *encounterv1.EncounterState) (int32, error) {
	s := feerieState(st)
	if s.GetStep() != feeriev1.Step_STEP_COUNTDOWN || s.GetRank() < 1 {
		return 0, engine.Refused("FEE-041", "activities take place during the countdown, at ranks from the highest Initiative down to 1")
	}
	return s.GetRank(), nil
}

// rollPenalties is what earlier activities' anticipations weigh on rolls at a rank (FEE-050).
func rollPenalties(cs *feeriev1.CombatantState, rank int32) int32 {
	var n int32
	for _, p := range cs.GetPenalties() {
		if rank <= p.GetFromRank() {
			n += p.GetRolls()
		}
	}
	return n
}

func defensePenalties(cs *feeriev1.CombatantState, rank int32) int32 {
	var n int32
	for _, p := range cs.GetPenalties() {
		if rank <= p.GetFromRank() {
			n += p.GetDefense()
		}
	}
	return n
}

func (sys System) decideAct(st *encounterv1.EncounterState, f fighter, a *feeriev1.Act) ([]*encounterv1.Event, error) {
	rank, err := countdown(st)
	if err != nil {
		return nil, withName(err, f.name())
	}
	if f.cs.GetSurpriseNoActivity() {
		return nil, engine.Refused("FEE-082", "%s is under a surprise that forbids any activity", f.name())
	}
	if f.cs.GetRenounced() {
		return nil, engine.Refused("FEE-075", "%s has renounced its activity this Action", f.name())
	}
	act := proto.CloneOf(a)
	if act.GetIntent() == nil {
		act.Intent = proto.CloneOf(f.cs.GetDeclared())
	}
	if err := CheckNewCap(f.sh, f.cs.GetDeclared(), act.GetIntent(), f.name()); err != nil {
		return nil, err
	}
	if err := sys.checkIntent(st, f, act.GetIntent()); err != nil {
		return nil, err
	}
	if err := checkObjectAndRelentless(st, f, act); err != nil {
		return nil, err
	}
	if e, most := act.GetEssence(), spendable(st, f); e < 0 || e > most {
		return nil, engine.Invalid("FEE-005", "%s may spend from 0 to %d Essence on this roll", f.name(), most)
	}
	if c := act.GetCircumstances(); c.GetRangedDifficulty() != feeriev1.RangedDifficulty_RANGED_DIFFICULTY_UNSPECIFIED && c.GetDistance() != feeriev1.Range_RANGE_UNSPECIFIED &&
		!house(st).GetCombineRangedDifficulty() {
		return nil, engine.Invalid("FEE-172", "%s: give the ranged difficulty either as one estimate or itemised by range, not both", f.name())
	}
	if err := sys.checkSituation(st, f, act); err != nil { // FEE-090…FEE-093, FEE-110…FEE-112, FEE-172
		return nil, err
	}
	change := !sameIntent(house(st), act.GetIntent(), f.cs.GetDeclared())
	n := f.cs.GetActivities()
	q := &feeriev1.Queued{CombatantId: f.id(), Act: act, Rank: rank, Nth: n + 1, ChangeOfIntention: change}
	q.DeclaredChange = f.cs.GetChangeMalus() > 0
	var base int32
	if n == 0 {
		base = f.cs.GetActingRank()
		if change {
			base = sys.newRank(f, act.GetIntent(), rank)
		}
		if !f.cs.GetCanAct() { // even through a change of intention (FEE-071)
			return nil, engine.Refused("FEE-043", "%s rolled an Initiative of %d and cannot act in this Action", f.name(), f.cs.GetInitiative())
		}
	} else {
		if rank >= f.cs.GetLastRank() {
			return nil, engine.Because(engine.Refused("FEE-060", "%s's further activity comes at least one rank after the previous one, at rank %d", f.name(), f.cs.GetLastRank()),
				engine.ReasonNotYourTurn, nil)
		}
		base = sys.furtherRank(f)
		if change {
			base = sys.newRank(f, act.GetIntent(), rank) // FEE-074
		}
	}
	q.Anticipation = max(0, rank-base)
	q.Delay = max(0, base-rank)
	if q.GetAnticipation() > 0 && !anyoneActed(st) {
		return nil, engine.Refused("FEE-051", "%s cannot anticipate: nobody has acted yet in this Action, and the first to act cannot anticipate", f.name())
	}
	q.RollPenalty = q.GetAnticipation() + sys.n.SupplementaryMalus*n + rollPenalties(f.cs, rank) + f.cs.GetChangeMalus()
	if change {
		q.RollPenalty += sys.n.ChangeMalus
	}
	return one(&feeriev1.Event{Kind: &feeriev1.Event_ActivityQueued{ActivityQueued: &feeriev1.ActivityQueued{Queued: q}}}), nil
}

// anyoneActed: some activity has been performed in this Action; until then nobody may
// anticipate, for the first to act cannot (FEE-051).
func anyoneActed(st *encounterv1.EncounterState) bool {
	for _, cs := range feerieState(st).GetCombatants() {
		if cs.GetActivities() > 0 {
			return true
		}
	}
	return false
}

// decideGesture: walking slowly, talking, a simple gesture or the ordinary use of a Power that
// costs no Essence goes alongside the activities; it is no roll and no activity (FEE-047).
func decideGesture(st *encounterv1.EncounterState, f fighter, g *feeriev1.Gesture) ([]*encounterv1.Event, error) {
	rank, err := countdown(st)
	if err != nil {
		return nil, withName(err, f.name())
	}
	if f.cs.GetSurpriseNoActivity() {
		return nil, engine.Refused("FEE-082", "%s is under a surprise that forbids any activity", f.name())
	}
	if g.GetDescription() == "" {
		return nil, engine.Invalid("FEE-047", "describe %s's gesture (walking slowly, talking, a simple gesture…)", f.name())
	}
	return one(&feeriev1.Event{Kind: &feeriev1.Event_Gestured{Gestured: &feeriev1.Gestured{
		CombatantId: f.id(), Description: g.GetDescription(), Rank: rank,
	}}}), nil
}

// decideBecomeObject: a Power gives the character the status of an inanimate object; it then
// takes damage as an object and renounces every activity (FEE-026).
func decideBecomeObject(f fighter, b *feeriev1.BecomeObject) ([]*encounterv1.Event, error) {
	if b.GetEnd() {
		if !f.cs.GetInanimate() {
			return nil, engine.Refused("FEE-026", "%s is not an inanimate object through a Power", f.name())
		}
		return one(&feeriev1.Event{Kind: &feeriev1.Event_BecameObject{BecameObject: &feeriev1.BecameObject{CombatantId: f.id(), Power: f.cs.GetInanimatePower(), End: true}}}), nil
	}
	if a := attribute(f.sh, b.GetPower()); a == nil || a.GetKind() != feeriev1.AttributeKind_ATTRIBUTE_KIND_POWER {
		return nil, engine.Invalid("FEE-026", "%s has no Power %q to become an inanimate object", f.name(), b.GetPower())
	}
	return one(&feeriev1.Event{Kind: &feeriev1.Event_BecameObject{BecameObject: &feeriev1.BecameObject{CombatantId: f.id(), Power: b.GetPower()}}}), nil
}

// checkObjectAndRelentless: a difficulty goes only with a small object (FEE-025); a Relentless
// strike needs a wound, the Essence loss the previous activity inflicted on that target
// (FEE-156, FEE-177).
func checkObjectAndRelentless(st *encounterv1.EncounterState, f fighter, a *feeriev1.Act) error {
	in := a.GetIntent()
	attack := in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_MELEE_ATTACK || in.GetKind() == feeriev1.ActivityKind_ACTIVITY_KIND_RANGED_ATTACK
	if d := a.GetCircumstances().GetSmallObjectDifficulty(); d != 0 {
		t, _ := fighterOf(st, in.GetTargetId())
		if !attack || !t.inanimate() {
			return engine.Invalid("FEE-025", "%s: only an attack on an inanimate object is made against a difficulty", f.name())
		}
		if d < 0 {
			return engine.Invalid("FEE-025", "%s: the difficulty of hitting %s cannot be negative", f.name(), t.name())
		}
	}
	if has(in.GetStrikes(), feeriev1.SpecialStrike_SPECIAL_STRIKE_RELENTLESS) && (f.cs.GetLastLoss() <= 0 || f.cs.GetLastTarget() != in.GetTargetId()) {
		t, _ := fighterOf(st, in.GetTargetId())
		return engine.Refused("FEE-156", "%s's previous activity inflicted no Essence loss on %s: there is no wound to be relentless in", f.name(), t.name())
	}
	return nil
}

// spendable is the most Essence a combatant may spend on a roll (FEE-005): the option's cap,
// and never its last point.
func spendable(st *encounterv1.EncounterState, f fighter) int32 {
	most := f.cs.GetEssence() - 1
	if c := options(st).GetEssenceSpendCap(); c > 0 {
		most = min(most, c)
	}
	return max(most, 0)
}
