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
