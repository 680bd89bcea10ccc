package ka

import (
	"slices"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	kav1 "github.com/fray-rpg/fray/gen/fray/ka/v1"
	"github.com/fray-rpg/fray/rules/engine"
	"google.golang.org/protobuf/proto"
)

// rank orders the pass: Animalité first, then a player character before a non-player one
// (KA-014).
func rank(f fighter) int32 {
	r := f.sh.GetSpheres()[Animalite] * 2
	if f.sh.GetPlayerCharacter() {
		r++
	}
	return r
}

// upNext: the fighters whose turn it is in the pass; equal ranks act at the same time.
func upNext(st *encounterv1.EncounterState) []fighter {
	var best []fighter
	var top int32 = -1
	for _, f := range fighters(st) {
		if !f.mayAct() {
			continue
		}
		switch r := rank(f); {
		case r > top:
			top, best = r, []fighter{f}
		case r == top:
			best = append(best, f)
		}
	}
	return best
}

// sameTime: an action of att on t happens at the same time as t's own action in this pass
// (equal rank, t not yet acted): its result applies, and t still takes its action (KA-014).
func sameTime(att, t fighter) bool {
	return rank(att) == rank(t) && t.mayAct()
}

func roundStarted(st *encounterv1.EncounterState, round int32) *encounterv1.Event {
	rs := &kav1.RoundStarted{Round: round, Actions: map[string]int32{}}
	for _, f := range fighters(st) {
		if f.conscious() {
			rs.Actions[f.id()] = LowestSphere(f.sh) // KA-010
		}
	}
	return event(&kav1.Event{Kind: &kav1.Event_RoundStarted{RoundStarted: rs}})
}

// turn checks that it is f's turn in the pass (KA-012, KA-014, KA-015).
func turn(st *encounterv1.EncounterState, f fighter) error {
	switch {
	case !f.conscious() && !f.cs.GetStillActs():
		return engine.Refused("KA-025", "%s is out of the fight", f.name())
	case f.cs.GetPassed():
		return engine.Refused("KA-015", "%s has passed for the rest of the round", f.name())
	case f.cs.GetActionsLeft() <= 0:
		return engine.Refused("KA-012", "%s has used its %d action(s) this round: it can only soak", f.name(), LowestSphere(f.sh))
	case f.cs.GetActedThisPass():
		return engine.Refused("KA-015", "%s has already acted in this pass round the table", f.name())
	}
	next := upNext(st)
	if !slices.ContainsFunc(next, func(x fighter) bool { return x.id() == f.id() }) {
		if next[0].c.GetHidden() { // its Animalité is the GM's secret: the order alone is seen
			return engine.Because(engine.Refused("KA-014", "it is %s's turn first", next[0].name()), engine.ReasonNotYourTurn, nil)
		}
		return engine.Because(engine.Refused("KA-014", "it is %s's turn first (Animalité %d against %s's %d)", next[0].name(), next[0].sh.GetSpheres()[Animalite], f.name(), f.sh.GetSpheres()[Animalite]),
			engine.ReasonNotYourTurn, nil)
	}
	return nil
}

// nextPass starts the next pass, or the next round, when evs, folded into st, leave no one
// able to act (KA-015).
func nextPass(sys System, st *encounterv1.EncounterState, evs []*encounterv1.Event) []*encounterv1.Event {
	next := proto.CloneOf(st)
	for _, ev := range evs {
		_ = sys.Evolve(next, ev)
	}
	if ev := passOver(next); ev != nil {
		return []*encounterv1.Event{ev}
	}
	return nil
}

// passOver is the event that starts the next pass, or the next round, when no one may act any
// more in st (KA-015); nil otherwise.
func passOver(st *encounterv1.EncounterState) *encounterv1.Event {
	s := kaState(st)
	if s.GetPending() != nil || len(upNext(st)) > 0 {
		return nil
	}
	for _, f := range fighters(st) {
		if f.conscious() && !f.cs.GetPassed() && f.cs.GetActionsLeft() > 0 {
			return event(&kav1.Event{Kind: &kav1.Event_PassStarted{PassStarted: &kav1.PassStarted{PassNumber: s.GetPassNumber() + 1}}})
		}
	}
	return roundStarted(st, s.GetRound()+1)
}
