package feerie

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/engine"
)

// decideAdvance resolves the activities of the current rank, each completely before the next
// (FEE-044, FEE-045), then moves the countdown down; from rank 0, the next Action begins.
func decideAdvance(sys System, st *encounterv1.EncounterState, a *feeriev1.Advance, env engine.Env) ([]*encounterv1.Event, error) {
	s := feerieState(st)
	if s.GetStep() != feeriev1.Step_STEP_COUNTDOWN {
		return nil, engine.Refused("FEE-040", "the countdown starts once everyone has declared")
	}
	if s.GetRank() == 0 { // after the impersonal events, step 1 of the next Action (FEE-046)
		return one(&feeriev1.Event{Kind: &feeriev1.Event_ActionStarted{ActionStarted: &feeriev1.ActionStarted{Action: s.GetAction() + 1}}}), nil
	}
	to := a.GetToRank()
	if to == 0 { // one rank down
		to = s.GetRank() - 1
	}
	if to < 0 || to >= s.GetRank() {
		return nil, engine.Invalid("FEE-041", "the countdown goes down from rank %d", s.GetRank())
	}
	next := engine.Fork(sys, st)
	var out []*encounterv1.Event
	queue := slices.Clone(s.GetQueue())
	slices.SortStableFunc(queue, func(x, y *feeriev1.Queued) int { return priority(st, x, y) })
	var before map[string]int32 // each one's Essence before a group of simultaneous activities
	for i, q := range queue {
		if i == 0 || priority(st, queue[i-1], q) != 0 {
			before = essences(next)
		}
		f, _ := fighterOf(next, q.GetCombatantId())
		var ev *encounterv1.Event
		if f.cs.GetEssence() <= 0 && before[q.GetCombatantId()] <= 0 { // put out by an earlier activity (FEE-045)
			ev = cannotAct(f, q)
		} else {
			ev = sys.resolve(next, q, env.Dice)
		}
		if err := sys.Evolve(next, ev); err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	out = append(out, event(&feeriev1.Event{Kind: &feeriev1.Event_RankAdvanced{RankAdvanced: &feeriev1.RankAdvanced{FromRank: s.GetRank(), ToRank: to}}}))
	return out, nil
}

// essences is each combatant's Essence in st.
func essences(st *encounterv1.EncounterState) map[string]int32 {
	out := make(map[string]int32, len(feerieState(st).GetCombatants()))
	for id, cs := range feerieState(st).GetCombatants() {
		out[id] = cs.GetEssence()
	}
	return out
}

func decideImpersonal(st *encounterv1.EncounterState, i *feeriev1.Impersonal) ([]*encounterv1.Event, error) {
	s := feerieState(st)
	if s.GetStep() != feeriev1.Step_STEP_COUNTDOWN || s.GetRank() != 0 {
		return nil, engine.Refused("FEE-046", "impersonal events happen at Initiative 0, after every character")
	}
	t, err := fighterOf(st, i.GetTargetId())
	if err != nil {
		return nil, err
	}
	if i.GetEssenceLoss() < 0 {
		return nil, engine.Invalid("FEE-046", "an Essence loss cannot be negative")
	}
	lost := min(i.GetEssenceLoss(), t.cs.GetEssence())
	return one(&feeriev1.Event{Kind: &feeriev1.Event_Impersonal{Impersonal: &feeriev1.ImpersonalHappened{
		Description: i.GetDescription(), TargetId: t.id(), EssenceLost: lost,
	}}}), nil
}

// cannotAct is what becomes of an activity whose performer was put out of the fight by an
// activity resolved before it at the same rank (FEE-024, FEE-045).
func cannotAct(f fighter, q *feeriev1.Queued) *encounterv1.Event {
	return event(&feeriev1.Event{Kind: &feeriev1.Event_ActivityResolved{ActivityResolved: &feeriev1.ActivityResolved{
		CombatantId: f.id(), Rank: q.GetRank(),
		Note: f.name() + " is at 0 Essence before its activity is resolved and cannot act (FEE-024, FEE-045)",
	}}})
}
